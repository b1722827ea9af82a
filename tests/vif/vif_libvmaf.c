/*
 * Integer VIF against libvmaf's numbers on synthetic frames.
 *
 *   vif_libvmaf            CPU path against vif_expect.h: every key libvmaf
 *                          wrote (debug outputs included), the same double
 *                          bit for bit, and the sizes it refuses.
 *   vif_libvmaf --gpu      the GPU path against the same numbers; exits 77
 *                          only when no GPU is present.
 *   vif_libvmaf --dump DIR writes each case's reference and distorted
 *                          frames as raw 4:4:4 files (chroma flat) and prints
 *                          one line per case for vif_expect.sh, which made
 *                          vif_expect.h with upstream libvmaf's API
 *                          (libvmaf's doubles, %.17g).
 *
 * The cases cover libvmaf's smallest sizes (8 to 15 samples, where its
 * last scale reads left-over rows and columns), odd sizes, every bit depth
 * and the options. Exit status: 0 pass, 1 fail, 77 (--gpu) no GPU present.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/gpu_present.h"
#include "vqhip.h"

enum { PAT_TEXTURE, PAT_NOISE, PAT_EXTREMES, PAT_FLAT };

typedef struct VifCase {
    const char *name;
    unsigned w, h, bpc, frames, pattern;
    const char *options; /* "key=value:..." */
} VifCase;

static const VifCase cases[] = {
    { "min_8x8_8bit", 8, 8, 8, 2, PAT_TEXTURE, "debug=true" },
    { "w15_h9_10bit", 15, 9, 10, 2, PAT_NOISE, "debug=true" },
    { "w9_h15_12bit_egl", 9, 15, 12, 2, PAT_TEXTURE,
      "debug=true:vif_enhn_gain_limit=1.0" },
    { "w12_h40_16bit", 12, 40, 16, 2, PAT_TEXTURE, "debug=true" },
    { "w40_h12_8bit_extremes", 40, 12, 8, 2, PAT_EXTREMES, "debug=true" },
    { "w16_h16_8bit", 16, 16, 8, 2, PAT_NOISE, "" },
    { "odd_33x17_10bit", 33, 17, 10, 3, PAT_TEXTURE, "debug=true" },
    { "odd_37x23_8bit_skip0", 37, 23, 8, 2, PAT_TEXTURE,
      "debug=true:vif_skip_scale0=true" },
    { "w64_h48_12bit_egl", 64, 48, 12, 2, PAT_TEXTURE,
      "vif_enhn_gain_limit=1.5" },
    { "w70_h35_16bit_extremes", 70, 35, 16, 2, PAT_EXTREMES, "debug=true" },
    { "w50_h30_8bit_flat", 50, 30, 8, 2, PAT_FLAT, "debug=true" },
    { "w131_h70_10bit_noise", 131, 70, 10, 2, PAT_NOISE, "" },
};
#define N_CASES (sizeof(cases) / sizeof(cases[0]))

#define MAX_KEYS 16
#define MAX_FRAMES 3
typedef struct VifExpect {
    const char *name;
    const char *keys[MAX_KEYS + 1];
    double value[MAX_FRAMES][MAX_KEYS];
} VifExpect;

#include "vif_expect.h"

static uint32_t hash3(uint32_t x, uint32_t y, uint32_t z)
{
    uint32_t v = x * 0x9e3779b1u ^ y * 0x85ebca77u ^ z * 0xc2b2ae3du;
    v ^= v >> 15;
    v *= 0x2c1b3c6du;
    v ^= v >> 12;
    v *= 0x297a2d39u;
    return v ^ (v >> 15);
}

/* Sample (x, y) of frame k: the reference, or (dis) the distorted one. */
static unsigned sample(const VifCase *c, unsigned x, unsigned y, unsigned k,
                       int dis)
{
    unsigned maxv = (1u << c->bpc) - 1;
    double v;
    switch (c->pattern) {
    case PAT_NOISE:
        return hash3(x, y, 2 * k + (unsigned)dis) % (maxv + 1);
    case PAT_EXTREMES:
        if (!dis)
            return hash3(x, y, k) & 1 ? maxv : 0;
        return hash3(x, y, k + 100) % 3 ? (hash3(x, y, k) & 1 ? maxv : 0)
                                         : hash3(x, y, k + 7) % (maxv + 1);
    case PAT_FLAT:
        return maxv / 2 + (unsigned)dis;
    default:
        v = 0.5 + 0.3 * sin(x * 0.7 + k) * cos(y * 0.45) +
            0.15 * sin((x + 2.0 * y) * 1.3);
        if (dis)
            v = 0.8 * v + 0.1 + ((int)(hash3(x, y, k) % 41) - 20) / 400.0;
        v = v < 0 ? 0 : v > 1 ? 1 : v;
        return (unsigned)(v * maxv + 0.5);
    }
}

typedef struct Pic {
    uint8_t *buf;
    VqPicture pic;
} Pic;

/* A 4:4:4 picture (chroma flat), rows followed by junk. */
static int pic_make(Pic *p, const VifCase *c, unsigned k, int dis)
{
    unsigned bps = c->bpc > 8 ? 2 : 1;
    size_t stride = (size_t)c->w * bps + 7 * bps, plane = stride * c->h;
    p->buf = malloc(3 * plane);
    if (!p->buf)
        return -1;
    for (size_t i = 0; i < 3 * plane; i++)
        p->buf[i] = (uint8_t)hash3((uint32_t)i, 5, 9);
    for (unsigned pl = 0; pl < 3; pl++)
        for (unsigned y = 0; y < c->h; y++)
            for (unsigned x = 0; x < c->w; x++) {
                unsigned v = pl ? 1u << (c->bpc - 1) : sample(c, x, y, k, dis);
                uint8_t *row = p->buf + pl * plane + y * stride;
                if (bps == 1)
                    row[x] = (uint8_t)v;
                else
                    ((uint16_t *)(void *)row)[x] = (uint16_t)v;
            }
    p->pic.fmt = VQ_PIX_FMT_444;
    p->pic.bpc = c->bpc;
    p->pic.w = c->w;
    p->pic.h = c->h;
    for (unsigned pl = 0; pl < 3; pl++) {
        p->pic.data[pl] = p->buf + pl * plane;
        p->pic.stride[pl] = (ptrdiff_t)stride;
    }
    return 0;
}

static int dump(const char *dir)
{
    for (size_t i = 0; i < N_CASES; i++) {
        const VifCase *c = &cases[i];
        for (int dis = 0; dis < 2; dis++) {
            char path[1024];
            snprintf(path, sizeof(path), "%s/%s_%s.yuv", dir, c->name,
                     dis ? "dis" : "ref");
            FILE *f = fopen(path, "wb");
            if (!f)
                return 1;
            unsigned bps = c->bpc > 8 ? 2 : 1;
            for (unsigned k = 0; k < c->frames; k++) {
                Pic p;
                if (pic_make(&p, c, k, dis))
                    return 1;
                for (unsigned pl = 0; pl < 3; pl++)
                    for (unsigned y = 0; y < c->h; y++)
                        fwrite((const uint8_t *)p.pic.data[pl] +
                                   y * p.pic.stride[pl],
                               1, (size_t)c->w * bps, f);
                free(p.buf);
            }
            fclose(f);
        }
        printf("%s %u %u %u %u %s\n", c->name, c->w, c->h, c->bpc,
               c->frames, *c->options ? c->options : "-");
    }
    return 0;
}

static const VifExpect *expect_for(const char *name)
{
    for (size_t i = 0; i < sizeof(vif_expect) / sizeof(vif_expect[0]); i++)
        if (!strcmp(vif_expect[i].name, name))
            return &vif_expect[i];
    return NULL;
}

/* Runs one case on a backend; 0 pass, 1 fail. */
static int run_case(const VifCase *c, VqBackend backend)
{
    const char *bname = backend == VQ_BACKEND_HIP ? "hip" : "cpu";
    const VifExpect *e = expect_for(c->name);
    if (!e) {
        printf("FAIL %s: no expected values\n", c->name);
        return 1;
    }
    VqConfig cfg = vq_default_config();
    cfg.backend = backend;
    cfg.strict = 1;
    VqContext *ctx = NULL;
    if (vq_open(&ctx, &cfg)) {
        printf("FAIL %s (%s): %s\n", c->name, bname, vq_last_error(ctx));
        vq_close(&ctx);
        return 1;
    }
    char spec[256];
    snprintf(spec, sizeof(spec), "name=vif%s%s", *c->options ? ":" : "",
             c->options);
    int fail = vq_use_feature(ctx, spec) != 0;
    for (unsigned k = 0; !fail && k < c->frames; k++) {
        Pic r, d;
        fail = pic_make(&r, c, k, 0) || pic_make(&d, c, k, 1) ||
               vq_submit(ctx, &r.pic, &d.pic);
        free(r.buf);
        free(d.buf);
    }
    fail = fail || vq_flush(ctx);
    VqFrameScores fs;
    unsigned n_frames = 0, n_cmp = 0;
    while (!fail && vq_receive(ctx, &fs) == 0) {
        for (unsigned q = 0; e->keys[q]; q++) {
            const VqScore *s = NULL;
            for (unsigned i = 0; i < fs.n; i++)
                if (!strcmp(fs.scores[i].name, e->keys[q]))
                    s = &fs.scores[i];
            const double want = e->value[fs.index][q];
            if (!s || memcmp(&s->value, &want, sizeof(want))) {
                printf("FAIL %s (%s) frame %u %s: %.17g%s, libvmaf %.17g\n",
                       c->name, bname, fs.index, e->keys[q],
                       s ? s->value : NAN, s ? "" : " (missing)", want);
                fail = 1;
            }
            n_cmp++;
        }
        n_frames++;
    }
    if (!fail && n_frames != c->frames) {
        printf("FAIL %s (%s): %u frames scored: %s\n", c->name, bname,
               n_frames, vq_last_error(ctx));
        fail = 1;
    }
    if (!fail)
        printf("ok   %s (%s): %u values\n", c->name, bname, n_cmp);
    vq_close(&ctx);
    return fail;
}

/* Sizes below libvmaf's minimum are refused with a message. */
static int check_refused(unsigned w, unsigned h)
{
    VqConfig cfg = vq_default_config();
    cfg.backend = VQ_BACKEND_CPU;
    VqContext *ctx = NULL;
    VifCase c = { "refused", w, h, 8, 1, PAT_NOISE, "" };
    Pic r;
    int fail = vq_open(&ctx, &cfg) || vq_use_feature(ctx, "vif") ||
               pic_make(&r, &c, 0, 0);
    if (!fail) {
        int err = vq_submit(ctx, &r.pic, &r.pic);
        fail = err != VQ_EUNSUPPORTED || !strstr(vq_last_error(ctx), "vif");
        if (fail)
            printf("FAIL %ux%u: expected a refusal naming vif, got %d (%s)\n",
                   w, h, err, vq_last_error(ctx));
        free(r.buf);
    }
    vq_close(&ctx);
    return fail;
}

int main(int argc, char **argv)
{
    if (argc == 3 && !strcmp(argv[1], "--dump"))
        return dump(argv[2]);
    int gpu = argc == 2 && !strcmp(argv[1], "--gpu");
    if (argc != 1 && !gpu) {
        fprintf(stderr, "usage: vif_libvmaf [--gpu | --dump DIR]\n");
        return 2;
    }
    if (gpu) {
        int present = vq_test_gpu_present("vif --gpu");
        if (present)
            return present;
    }
    int fail = 0;
    for (size_t i = 0; i < N_CASES; i++)
        fail |= run_case(&cases[i], gpu ? VQ_BACKEND_HIP : VQ_BACKEND_CPU);
    if (gpu) {
        printf("%s\n", fail ? "FAILED" : "all passed");
        return fail;
    }
    fail |= check_refused(7, 8);
    fail |= check_refused(8, 7);
    fail |= check_refused(7, 5);
    printf("%s\n", fail ? "FAILED" : "all passed");
    return fail;
}
