/*
 * Picture layouts: semi-planar (NV12/NV16/NV24, P010/P210/P410) pictures
 * must give exactly the scores of the same samples given planar, and
 * pictures in device memory (vq_submit_device) exactly those of the same
 * pictures in host memory.
 *
 * usage: layout_test [--gpu]
 * Without --gpu: the CPU backend (always runs). With --gpu: the GPU backend
 * (strict), host and device pictures; exit 77 only when no GPU is present.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/dev_picture.h"
#include "../common/gpu_present.h"
#include "gpu/gpu.h"
#include "../common/unit_check.h"
#include "vqhip.h"

#define N_FRAMES 3

static const char *const features[] = {
    "name=psnr:enable_chroma=true:enable_mse=true", "float_psnr", "motion",
    NULL
};

typedef struct Pic {
    VqPicture pic;
    uint8_t *mem[3];
} Pic;

static uint64_t rng_state = 0x1234567887654321ULL;
static unsigned rnd(unsigned max)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (unsigned)(rng_state % (max + 1));
}

static VqPixFmt subsampling(VqPixFmt semi)
{
    switch (semi) {
    case VQ_PIX_FMT_NV12: case VQ_PIX_FMT_P010: return VQ_PIX_FMT_420;
    case VQ_PIX_FMT_NV16: case VQ_PIX_FMT_P210: return VQ_PIX_FMT_422;
    default: return VQ_PIX_FMT_444;
    }
}

static void chroma_size(VqPixFmt sub, unsigned w, unsigned h, unsigned *cw,
                        unsigned *ch)
{
    *cw = sub == VQ_PIX_FMT_444 ? w : (w + 1) / 2;
    *ch = sub == VQ_PIX_FMT_420 ? (h + 1) / 2 : h;
}

/* A random planar picture, strides with a few bytes of junk. */
static void make_planar(Pic *p, VqPixFmt sub, unsigned bpc, unsigned w,
                        unsigned h)
{
    unsigned bps = bpc > 8 ? 2 : 1, cw, ch;
    chroma_size(sub, w, h, &cw, &ch);
    memset(p, 0, sizeof(*p));
    p->pic.fmt = sub;
    p->pic.bpc = bpc;
    p->pic.w = w;
    p->pic.h = h;
    for (unsigned c = 0; c < 3; c++) {
        unsigned pw = c ? cw : w, ph = c ? ch : h;
        size_t stride = (size_t)pw * bps + 6;
        p->mem[c] = malloc(stride * ph);
        for (size_t i = 0; i < stride * ph; i++)
            p->mem[c][i] = (uint8_t)rnd(255);
        for (unsigned y = 0; y < ph; y++)
            for (unsigned x = 0; x < pw; x++) {
                unsigned v = rnd((1u << bpc) - 1);
                uint8_t *row = p->mem[c] + y * stride;
                if (bps == 1)
                    row[x] = (uint8_t)v;
                else
                    ((uint16_t *)(void *)row)[x] = (uint16_t)v;
            }
        p->pic.data[c] = p->mem[c];
        p->pic.stride[c] = (ptrdiff_t)stride;
    }
}

/* The same samples in a semi-planar layout (high-bit layouts: shifted up,
 * with junk in the low bits that must be ignored). */
static void make_semi(Pic *s, const Pic *p, VqPixFmt layout)
{
    const VqPicture *src = &p->pic;
    unsigned bps = src->bpc > 8 ? 2 : 1, cw, ch;
    unsigned shift = layout >= VQ_PIX_FMT_P010 ? 16 - src->bpc : 0;
    chroma_size(src->fmt, src->w, src->h, &cw, &ch);
    memset(s, 0, sizeof(*s));
    s->pic = *src;
    s->pic.fmt = layout;
    for (unsigned c = 0; c < 2; c++) {
        unsigned pw = c ? cw : src->w, ph = c ? ch : src->h;
        unsigned per = c ? 2 : 1;
        size_t stride = (size_t)pw * per * bps + 10;
        s->mem[c] = calloc(stride, ph);
        for (unsigned y = 0; y < ph; y++)
            for (unsigned x = 0; x < pw * per; x++) {
                unsigned from = c ? 1 + (x & 1) : 0, sx = x / per;
                const uint8_t *row = src->data[from] +
                                     (ptrdiff_t)y * src->stride[from];
                unsigned v = bps == 1 ? row[sx]
                                      : ((const uint16_t *)(const void *)row)[sx];
                uint8_t *out = s->mem[c] + y * stride;
                if (bps == 1)
                    out[x] = (uint8_t)v;
                else
                    ((uint16_t *)(void *)out)[x] =
                        (uint16_t)((v << shift) | (shift ? rnd((1u << shift) - 1)
                                                         : 0));
            }
        s->pic.data[c] = s->mem[c];
        s->pic.stride[c] = (ptrdiff_t)stride;
    }
    s->pic.data[2] = NULL;
    s->pic.stride[2] = 0;
}

static void pic_free(Pic *p)
{
    for (unsigned c = 0; c < 3; c++)
        free(p->mem[c]);
}

typedef struct Scores {
    unsigned n_frames, n[N_FRAMES];
    char name[N_FRAMES][32][48];
    double v[N_FRAMES][32];
} Scores;

static void take(VqContext *ctx, Scores *sc)
{
    VqFrameScores fs;
    while (!vq_receive(ctx, &fs)) {
        if (fs.index >= N_FRAMES)
            continue;
        sc->n_frames = fs.index + 1;
        sc->n[fs.index] = fs.n < 32 ? fs.n : 32;
        for (unsigned k = 0; k < sc->n[fs.index]; k++) {
            snprintf(sc->name[fs.index][k], 48, "%s", fs.scores[k].name);
            sc->v[fs.index][k] = fs.scores[k].value;
        }
    }
}

static VqGpu *gpu;
static VqErrBuf gpu_err;

/* Scores of N_FRAMES pairs; device: submit device copies. */
static int run(VqBackend backend, Pic *ref, Pic *dis, int device, Scores *sc,
               unsigned threads)
{
    memset(sc, 0, sizeof(*sc));
    VqConfig cfg = vq_default_config();
    cfg.backend = backend;
    cfg.n_threads = threads;
    cfg.strict = backend == VQ_BACKEND_HIP;
    cfg.log_level = VQ_LOG_LEVEL_ERROR;
    VqContext *ctx = NULL;
    int e = vq_open(&ctx, &cfg);
    for (const char *const *f = features; !e && *f; f++)
        e = vq_use_feature(ctx, *f);
    if (!e)
        e = vq_use_model(ctx, "version=vmaf_v0.6.1");
    for (unsigned i = 0; !e && i < N_FRAMES; i++) {
        if (device) {
            /* at the host pictures' strides */
            VqTestDevPic r, d;
            e = vq_test_dev_picture(gpu, &ref[i].pic, 1, 0, &r);
            if (!e)
                e = vq_test_dev_picture(gpu, &dis[i].pic, 1, 0, &d);
            else
                memset(&d, 0, sizeof(d));
            if (!e)
                e = vq_submit_device(ctx, &r.dp, &d.dp);
            vq_test_dev_picture_free(gpu, &r);
            vq_test_dev_picture_free(gpu, &d);
        } else {
            e = vq_submit(ctx, &ref[i].pic, &dis[i].pic);
        }
        if (!e)
            take(ctx, sc);
    }
    if (!e)
        e = vq_flush(ctx);
    if (!e)
        take(ctx, sc);
    if (e)
        printf("  error: %s\n", vq_last_error(ctx));
    vq_close(&ctx);
    return e;
}

static int same(const Scores *a, const Scores *b, const char *what)
{
    if (a->n_frames != N_FRAMES || b->n_frames != N_FRAMES) {
        printf("FAIL %s: %u and %u frames, %d expected\n", what, a->n_frames,
               b->n_frames, N_FRAMES);
        return 0;
    }
    for (unsigned f = 0; f < N_FRAMES; f++) {
        if (a->n[f] != b->n[f] || !a->n[f]) {
            printf("FAIL %s frame %u: %u and %u outputs\n", what, f, a->n[f],
                   b->n[f]);
            return 0;
        }
        for (unsigned k = 0; k < a->n[f]; k++)
            if (strcmp(a->name[f][k], b->name[f][k]) ||
                memcmp(&a->v[f][k], &b->v[f][k], sizeof(double))) {
                printf("FAIL %s frame %u: %s %.17g vs %s %.17g\n", what, f,
                       a->name[f][k], a->v[f][k], b->name[f][k], b->v[f][k]);
                return 0;
            }
    }
    return 1;
}

int main(int argc, char **argv)
{
    int on_gpu = argc > 1 && !strcmp(argv[1], "--gpu");
    VqBackend backend = on_gpu ? VQ_BACKEND_HIP : VQ_BACKEND_CPU;
    if (on_gpu) {
        int present = vq_test_gpu_present("layout_test");
        if (present)
            return present;
        if (vq_gpu_open(&gpu, 0, 0, &gpu_err)) {
            printf("FAIL: a GPU is present but does not open: %s\n",
                   gpu_err.msg);
            return 1;
        }
    }
    static const VqPixFmt layouts[] = { VQ_PIX_FMT_NV12, VQ_PIX_FMT_NV16,
                                        VQ_PIX_FMT_NV24, VQ_PIX_FMT_P010,
                                        VQ_PIX_FMT_P210, VQ_PIX_FMT_P410 };
    static const unsigned sizes[][2] = { { 64, 48 }, { 67, 37 } };
    unsigned checked = 0;
    if (!on_gpu) {
        /* Device pictures need the GPU backend: a clear error, no crash. */
        Pic r, d;
        make_planar(&r, VQ_PIX_FMT_420, 8, 16, 16);
        make_planar(&d, VQ_PIX_FMT_420, 8, 16, 16);
        VqDevicePicture dr = { r.pic, 0, NULL }, dd = { d.pic, 0, NULL };
        VqConfig cfg = vq_default_config();
        cfg.backend = VQ_BACKEND_CPU;
        cfg.log_level = VQ_LOG_LEVEL_ERROR;
        VqContext *ctx = NULL;
        CHECK(!vq_open(&ctx, &cfg) && !vq_use_feature(ctx, "psnr"));
        CHECK(vq_submit_device(ctx, &dr, &dd) == VQ_EUNSUPPORTED);
        CHECK(strstr(vq_last_error(ctx), "GPU backend") != NULL);
        vq_close(&ctx);
        pic_free(&r);
        pic_free(&d);
    }
    for (unsigned l = 0; l < 6; l++)
        for (unsigned z = 0; z < 2; z++)
            for (unsigned bpc = 8; bpc <= 16; bpc += bpc == 8 ? 2 : bpc == 12 ? 4 : 2) {
                VqPixFmt lay = layouts[l];
                if (lay >= VQ_PIX_FMT_P010 && bpc == 8)
                    continue;
                if (lay < VQ_PIX_FMT_P010 && bpc != 8 && bpc != 10)
                    continue;
                Pic rp[N_FRAMES], dp[N_FRAMES], rs[N_FRAMES], ds[N_FRAMES];
                for (unsigned i = 0; i < N_FRAMES; i++) {
                    make_planar(&rp[i], subsampling(lay), bpc, sizes[z][0],
                                sizes[z][1]);
                    make_planar(&dp[i], subsampling(lay), bpc, sizes[z][0],
                                sizes[z][1]);
                    make_semi(&rs[i], &rp[i], lay);
                    make_semi(&ds[i], &dp[i], lay);
                }
                char what[128];
                snprintf(what, sizeof(what), "%s layout %d, %u-bit, %ux%u",
                         on_gpu ? "GPU" : "CPU", (int)lay, bpc, sizes[z][0],
                         sizes[z][1]);
                Scores *a = calloc(1, sizeof(Scores)), *b = calloc(1, sizeof(Scores));
                CHECK(!run(backend, rp, dp, 0, a, 0));
                CHECK(!run(backend, rs, ds, 0, b, 0));
                CHECK(same(a, b, what));
                /* one thread: the inline path converts too */
                CHECK(!run(backend, rs, ds, 0, b, 1));
                CHECK(same(a, b, what));
                if (on_gpu) {
                    char w2[160];
                    snprintf(w2, sizeof(w2), "%s, device planar", what);
                    CHECK(!run(backend, rp, dp, 1, b, 0));
                    CHECK(same(a, b, w2));
                    snprintf(w2, sizeof(w2), "%s, device semi-planar", what);
                    CHECK(!run(backend, rs, ds, 1, b, 0));
                    CHECK(same(a, b, w2));
                }
                checked++;
                free(a);
                free(b);
                for (unsigned i = 0; i < N_FRAMES; i++) {
                    pic_free(&rp[i]);
                    pic_free(&dp[i]);
                    pic_free(&rs[i]);
                    pic_free(&ds[i]);
                }
            }
    printf("layout_test: %u layout configurations compared on the %s\n",
           checked, on_gpu ? "GPU (host and device pictures)" : "CPU");
    if (gpu)
        vq_gpu_close(&gpu);
    TEST_END();
}
