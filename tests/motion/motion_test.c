/*
 * Integer motion tests.
 *
 *   motion_test            CPU path against libvmaf's doubles on synthetic
 *                          frames (motion_expect.h, bit for bit), and the
 *                          sizes it refuses.
 *   motion_test --gpu      the GPU path against the same numbers, then GPU vs
 *                          CPU bit for bit on sizes from the minimum to 1080p
 *                          at 8/10/12/16 bits with junk in the row padding;
 *                          exits 77 only when no GPU is present.
 *   motion_test --dump DIR writes each case's frames as raw 4:4:4 files
 *                          and prints one line per case for
 *                          motion_expect.sh, which produced motion_expect.h.
 *
 * Exit status: 0 pass, 1 fail, 77 (--gpu) no GPU present.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/gpu_present.h"
#include "motion_frames.h"
#include "vqhip.h"

typedef struct MotionCase {
    const char *name;
    unsigned w, h, bpc, frames, pattern;
    const char *options; /* "key=value:..." (libvmaf's and vqhip's syntax) */
} MotionCase;

static const MotionCase cases[] = {
    { "tiny_7x5_8bit", 7, 5, 8, 6, PATTERN_NOISE, "" },
    { "min_3x3_8bit_fffw", 3, 3, 8, 6, PATTERN_NOISE,
      "motion_five_frame_window=true" },
    { "odd_33x17_10bit_mma_blend", 33, 17, 10, 7, PATTERN_MOVING,
      "motion_moving_average=true:motion_blend_factor=0.3:"
      "motion_blend_offset=2" },
    { "w64_12bit_fps_max_debug", 64, 36, 12, 5, PATTERN_MOVING,
      "motion_fps_weight=0.35:motion_max_val=5.93:debug=true" },
    { "w40_16bit_extremes_fffw_mma", 40, 30, 16, 7, PATTERN_EXTREMES,
      "motion_five_frame_window=true:motion_moving_average=true" },
    { "w70_8bit_extremes", 70, 19, 8, 5, PATTERN_EXTREMES, "" },
    { "w67_10bit_noise", 67, 35, 10, 4, PATTERN_NOISE, "" },
    { "w35_12bit_extremes_fffw", 35, 67, 12, 5, PATTERN_EXTREMES,
      "motion_five_frame_window=true" },
    { "w20_16bit_noise_debug", 20, 12, 16, 4, PATTERN_NOISE, "debug=true" },
    { "single_frame", 16, 9, 8, 1, PATTERN_MOVING, "" },
    { "two_frames", 16, 9, 8, 2, PATTERN_MOVING, "" },
    { "two_frames_fffw", 16, 9, 8, 2, PATTERN_MOVING,
      "motion_five_frame_window=true" },
    { "three_frames_fffw_mma", 16, 9, 8, 3, PATTERN_MOVING,
      "motion_five_frame_window=true:motion_moving_average=true" },
    { "force_zero_blend", 16, 9, 8, 4, PATTERN_MOVING,
      "motion_force_zero=true:motion_blend_factor=0.5" },
    { "w24_8bit_max_fps", 24, 10, 8, 4, PATTERN_MOVING,
      "motion_max_val=3.5:motion_fps_weight=0.25" },
};
#define N_CASES (sizeof(cases) / sizeof(cases[0]))

#define MAX_KEYS 4
#define MAX_FRAMES 8
typedef struct MotionExpect {
    const char *name;
    const char *keys[MAX_KEYS + 1];
    double value[MAX_FRAMES][MAX_KEYS];
} MotionExpect;

#include "motion_expect.h"

/* ---- frames ------------------------------------------------------------ */

typedef struct Frame {
    unsigned char *buf;
    VqPicture pic;
} Frame;

/* A GRAY picture whose rows are followed by `pad` junk bytes. */
static int frame_make(Frame *f, unsigned w, unsigned h, unsigned bpc,
                      unsigned pattern, unsigned k, unsigned pad)
{
    size_t bps = bpc > 8 ? 2 : 1, stride = w * bps + pad;
    f->buf = malloc(stride * h);
    if (!f->buf)
        return -1;
    for (unsigned y = 0; y < h; y++) {
        unsigned char *row = f->buf + y * stride;
        for (unsigned x = 0; x < w; x++) {
            unsigned v = motion_test_sample(pattern, bpc, k, x, y);
            if (bps == 1)
                row[x] = (unsigned char)v;
            else
                ((uint16_t *)(void *)row)[x] = (uint16_t)v;
        }
        for (size_t b = w * bps; b < stride; b++)
            row[b] = (unsigned char)motion_test_hash((unsigned)b, y, k + 99);
    }
    memset(&f->pic, 0, sizeof(f->pic));
    f->pic.fmt = VQ_PIX_FMT_GRAY;
    f->pic.bpc = bpc;
    f->pic.w = w;
    f->pic.h = h;
    f->pic.data[0] = f->buf;
    f->pic.stride[0] = (ptrdiff_t)stride;
    return 0;
}

/* ---- running vqhip ----------------------------------------------------- */

#define MAX_OUT 8
typedef struct Result {
    unsigned n_frames, n_out;
    char name[MAX_OUT][128];
    double value[MAX_OUT][MAX_FRAMES * 4];
    int have[MAX_OUT][MAX_FRAMES * 4];
} Result;

static void record(Result *r, const VqFrameScores *fs)
{
    for (unsigned i = 0; i < fs->n; i++) {
        unsigned k = 0;
        while (k < r->n_out && strcmp(r->name[k], fs->scores[i].name))
            k++;
        if (k == r->n_out) {
            if (r->n_out == MAX_OUT)
                continue;
            snprintf(r->name[r->n_out++], sizeof(r->name[0]), "%s",
                     fs->scores[i].name);
        }
        if (fs->index < MAX_FRAMES * 4) {
            r->value[k][fs->index] = fs->scores[i].value;
            r->have[k][fs->index] = 1;
        }
    }
    if (fs->index + 1 > r->n_frames)
        r->n_frames = fs->index + 1;
}

/* Runs motion with `options` on frames of the given content; rows carry pad
 * junk bytes (even). Returns 0 or a negative vqhip error (printed unless
 * quiet). */
static int run_motion(Result *res, VqBackend backend, const char *options,
                      unsigned w, unsigned h, unsigned bpc, unsigned pattern,
                      unsigned frames, unsigned pad, int quiet)
{
    memset(res, 0, sizeof(*res));
    VqConfig cfg = vq_default_config();
    cfg.backend = backend;
    cfg.strict = backend == VQ_BACKEND_HIP;
    cfg.log_level = VQ_LOG_LEVEL_ERROR;
    VqContext *ctx = NULL;
    int err = vq_open(&ctx, &cfg);
    if (err < 0) {
        fprintf(stderr, "vq_open: %s\n", vq_last_error(ctx));
        vq_close(&ctx);
        return err;
    }
    char spec[256];
    snprintf(spec, sizeof(spec), "motion%s%s", *options ? ":" : "", options);
    err = vq_use_feature(ctx, spec);
    VqFrameScores fs;
    for (unsigned k = 0; err >= 0 && k < frames; k++) {
        Frame r, d;
        if (frame_make(&r, w, h, bpc, pattern, k, pad) ||
            frame_make(&d, w, h, bpc, pattern, k + 1000, pad)) {
            err = VQ_ENOMEM;
            break;
        }
        err = vq_submit(ctx, &r.pic, &d.pic);
        free(r.buf);
        free(d.buf);
        while (err >= 0 && vq_receive(ctx, &fs) == 0)
            record(res, &fs);
    }
    if (err >= 0)
        err = vq_flush(ctx);
    while (err >= 0 && vq_receive(ctx, &fs) == 0)
        record(res, &fs);
    if (err < 0 && !quiet)
        fprintf(stderr, "motion %s: %s\n", spec, vq_last_error(ctx));
    vq_close(&ctx);
    return err < 0 ? err : 0;
}

/* ---- checks ------------------------------------------------------------ */

static const MotionExpect *expect_for(const char *name)
{
    for (size_t i = 0; i < sizeof(motion_expect) / sizeof(motion_expect[0]); i++)
        if (!strcmp(motion_expect[i].name, name))
            return &motion_expect[i];
    return NULL;
}

/* Same output names as libvmaf, every frame, the same double bit for bit. */
static int check_case(const MotionCase *c, const Result *r, const char *backend)
{
    const MotionExpect *e = expect_for(c->name);
    if (!e) {
        printf("FAIL %s: no expected values\n", c->name);
        return 1;
    }
    int bad = 0;
    unsigned n_keys = 0;
    while (n_keys < MAX_KEYS && e->keys[n_keys])
        n_keys++;
    if (r->n_out != n_keys || r->n_frames != c->frames) {
        printf("FAIL %s (%s): %u outputs over %u frames, expected %u over %u\n",
               c->name, backend, r->n_out, r->n_frames, n_keys, c->frames);
        bad = 1;
    }
    for (unsigned k = 0; k < n_keys; k++) {
        unsigned o = 0;
        while (o < r->n_out && strcmp(r->name[o], e->keys[k]))
            o++;
        if (o == r->n_out) {
            printf("FAIL %s (%s): no output %s\n", c->name, backend, e->keys[k]);
            bad = 1;
            continue;
        }
        for (unsigned f = 0; f < c->frames; f++) {
            if (!r->have[o][f] ||
                memcmp(&r->value[o][f], &e->value[f][k], sizeof(double))) {
                printf("FAIL %s (%s): %s frame %u: %.17g%s, libvmaf %.17g\n",
                       c->name, backend, e->keys[k], f, r->value[o][f],
                       r->have[o][f] ? "" : " (missing)", e->value[f][k]);
                bad = 1;
            }
        }
    }
    return bad;
}

static int test_against_libvmaf(VqBackend backend, const char *bname)
{
    int bad = 0;
    for (size_t i = 0; i < N_CASES; i++) {
        const MotionCase *c = &cases[i];
        Result r;
        int err = run_motion(&r, backend, c->options, c->w, c->h, c->bpc,
                             c->pattern, c->frames, 2 + 2 * (unsigned)i, 0);
        bad |= err ? 1 : check_case(c, &r, bname);
    }
    printf("%s: %zu cases against libvmaf: %s\n", bname, N_CASES,
           bad ? "FAIL" : "ok");
    return bad;
}

static int test_too_small(void)
{
    static const unsigned sizes[][2] = { { 2, 5 }, { 5, 2 }, { 1, 1 } };
    int bad = 0;
    for (unsigned i = 0; i < 3; i++) {
        Result r;
        int err = run_motion(&r, VQ_BACKEND_CPU, "", sizes[i][0], sizes[i][1],
                             8, PATTERN_NOISE, 2, 0, 1);
        if (err != VQ_EUNSUPPORTED) {
            printf("FAIL %ux%u: got %d, expected VQ_EUNSUPPORTED\n",
                   sizes[i][0], sizes[i][1], err);
            bad = 1;
        }
    }
    printf("sizes below 3x3 refused: %s\n", bad ? "FAIL" : "ok");
    return bad;
}

/* GPU vs CPU, bit for bit, over sizes, depths, contents and options. */
static int test_gpu_parity(void)
{
    static const unsigned sizes[][2] = {
        { 3, 3 }, { 7, 5 }, { 33, 17 }, { 65, 18 }, { 130, 47 },
        { 1920, 1080 },
    };
    static const unsigned depths[] = { 8, 10, 12, 16 };
    static const char *const opts[] = { "debug=true",
                                        "motion_five_frame_window=true" };
    int bad = 0, n = 0;
    for (unsigned s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++)
        for (unsigned d = 0; d < 4; d++)
            for (unsigned p = 0; p < 3; p++) {
                const char *o = opts[(s + d + p) % 2];
                unsigned frames = sizes[s][0] > 1000 ? 4 : 6;
                unsigned pad = (s * 7 + d * 3 + p) % 9 * 2;
                Result cpu, gpu;
                int err = run_motion(&gpu, VQ_BACKEND_HIP, o, sizes[s][0],
                                     sizes[s][1], depths[d], p, frames, pad, 0);
                if (!err)
                    err = run_motion(&cpu, VQ_BACKEND_CPU, o, sizes[s][0],
                                     sizes[s][1], depths[d], p, frames, pad, 0);
                n++;
                int diff = err != 0 || cpu.n_out != gpu.n_out ||
                           cpu.n_frames != gpu.n_frames;
                for (unsigned k = 0; !diff && k < cpu.n_out; k++)
                    diff = strcmp(cpu.name[k], gpu.name[k]) ||
                           memcmp(cpu.value[k], gpu.value[k],
                                  sizeof(cpu.value[k]));
                if (diff) {
                    printf("FAIL gpu parity %ux%u %u-bit pattern %u %s\n",
                           sizes[s][0], sizes[s][1], depths[d], p, o);
                    bad = 1;
                }
            }
    printf("GPU vs CPU bit for bit: %d runs: %s\n", n, bad ? "FAIL" : "ok");
    return bad;
}

/* ---- dump -------------------------------------------------------------- */

static int dump(const char *dir)
{
    for (size_t i = 0; i < N_CASES; i++) {
        const MotionCase *c = &cases[i];
        char path[1024];
        snprintf(path, sizeof(path), "%s/%s.yuv", dir, c->name);
        FILE *f = fopen(path, "wb");
        if (!f) {
            fprintf(stderr, "cannot write %s\n", path);
            return 1;
        }
        unsigned bps = c->bpc > 8 ? 2 : 1, mid = 1u << (c->bpc - 1);
        for (unsigned k = 0; k < c->frames; k++)
            for (unsigned p = 0; p < 3; p++)
                for (unsigned y = 0; y < c->h; y++)
                    for (unsigned x = 0; x < c->w; x++) {
                        unsigned v = p ? mid
                                   : motion_test_sample(c->pattern, c->bpc,
                                                        k, x, y);
                        unsigned char b[2] = { (unsigned char)v,
                                               (unsigned char)(v >> 8) };
                        fwrite(b, 1, bps, f);
                    }
        fclose(f);
        printf("%s %u %u %u %u %s\n", c->name, c->w, c->h, c->bpc,
               c->frames, *c->options ? c->options : "-");
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 3 && !strcmp(argv[1], "--dump"))
        return dump(argv[2]);
    if (argc == 2 && !strcmp(argv[1], "--gpu")) {
        int present = vq_test_gpu_present("motion --gpu");
        if (present)
            return present;
        int bad = test_against_libvmaf(VQ_BACKEND_HIP, "hip");
        bad |= test_gpu_parity();
        return bad ? 1 : 0;
    }
    if (argc != 1) {
        fprintf(stderr, "usage: motion_test [--gpu | --dump DIR]\n");
        return 2;
    }
    int bad = test_against_libvmaf(VQ_BACKEND_CPU, "cpu");
    bad |= test_too_small();
    return bad ? 1 : 0;
}
