/*
 * CPU flags (hipcore/cpu.h) from outside:
 *   cpu_mask_test env VALUE EXPECT
 *     with VQHIP_CPU_MASK=VALUE, vq_cpu_flags() is what the CPU has
 *     restricted to EXPECT (flag bits), or, EXPECT "bad", the value is
 *     reported as not understood and the C path (no flags) is used;
 *   cpu_mask_test frames
 *     every output of the integer extractors with SIMD variants, through
 *     the public API on frames of odd sizes and several bit depths, is the
 *     same bit for bit with the C tables (vq_cpu_set_mask(0)) as with every
 *     variant the CPU has;
 *   cpu_mask_test threads
 *     the same outputs, on frames large enough to be split into row bands,
 *     with 1 worker thread as with 3 and 8 (more than this machine may
 *     have: parts and frames then interleave in every way).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu.h"
#include "vqhip.h"

static int test_env(const char *value, const char *expect)
{
    if (setenv("VQHIP_CPU_MASK", value, 1))
        return 2;
    unsigned have = vq_cpu_flags_detected(), got = vq_cpu_flags();
    const char *bad = vq_cpu_mask_env_error();
    char a[64], b[64];
    if (!strcmp(expect, "bad")) {
        if (bad && got == 0 && !strcmp(bad, value)) {
            printf("VQHIP_CPU_MASK=%s: not understood, C path: ok\n", value);
            return 0;
        }
        printf("FAIL VQHIP_CPU_MASK=%s: expected an error and no flags, got "
               "%s (error: %s)\n", value,
               vq_cpu_flags_string(got, a, sizeof(a)), bad ? bad : "none");
        return 1;
    }
    unsigned want = have & (unsigned)strtoul(expect, NULL, 0);
    if (bad || got != want) {
        printf("FAIL VQHIP_CPU_MASK=%s: flags %s, expected %s%s\n", value,
               vq_cpu_flags_string(got, a, sizeof(a)),
               vq_cpu_flags_string(want, b, sizeof(b)),
               bad ? " (reported as not understood)" : "");
        return 1;
    }
    printf("VQHIP_CPU_MASK=%s: %s (CPU has %s): ok\n", value,
           vq_cpu_flags_string(got, a, sizeof(a)),
           vq_cpu_flags_string(have, b, sizeof(b)));
    return 0;
}

/* ---- frames ------------------------------------------------------------ */

enum { N_FRAMES = 4, MAX_VALUES = 4096 };

typedef struct Run {
    unsigned n;
    double value[MAX_VALUES];
    char name[MAX_VALUES][48];
} Run;

static uint32_t rng = 12345;
static uint32_t rnd(void)
{
    rng = rng * 1664525u + 1013904223u;
    return rng >> 8;
}

/* A moving texture with noise; the distorted frame is a coarser, noisier
 * copy. Planes of 16-bit samples when bpc > 8. */
static void *make_plane(unsigned w, unsigned h, unsigned bpc, unsigned f,
                        int distorted)
{
    size_t bps = bpc > 8 ? 2 : 1;
    unsigned char *p = malloc((size_t)w * h * bps);
    if (!p)
        return NULL;
    unsigned maxv = (1u << bpc) - 1;
    for (unsigned y = 0; y < h; y++)
        for (unsigned x = 0; x < w; x++) {
            double v = 0.5 + 0.3 * sin((x + 2.0 * f) / 5.0) * cos(y / 7.0) +
                       0.1 * sin((x + y + f) / 2.0);
            int s = (int)(v * maxv) + (int)(rnd() % 9) - 4;
            if (distorted)
                s = (s & ~((int)maxv >> 5)) + (int)(rnd() % 17) - 8;
            s = s < 0 ? 0 : s > (int)maxv ? (int)maxv : s;
            if (bps == 1)
                p[(size_t)y * w + x] = (unsigned char)s;
            else
                ((unsigned short *)(void *)p)[(size_t)y * w + x] =
                    (unsigned short)s;
        }
    return p;
}

static int run_frames(unsigned w, unsigned h, unsigned bpc, unsigned threads,
                      Run *run)
{
    VqConfig cfg = vq_default_config();
    cfg.backend = VQ_BACKEND_CPU;
    cfg.n_threads = threads;
    VqContext *ctx = NULL;
    static const char *const features[] = {
        "psnr", "name=adm:debug=true", "name=motion:debug=true",
        "name=vif:debug=true", "name=float_vif:debug=true",
        "name=float_adm:debug=true", "float_motion",
        "name=float_ssim:enable_lcs=true", "ssim", "ssimulacra2",
    };
    int e = vq_open(&ctx, &cfg);
    for (unsigned i = 0; !e && i < sizeof(features) / sizeof(features[0]);
         i++)
        e = vq_use_feature(ctx, features[i]);
    unsigned cw = (w + 1) / 2, ch = (h + 1) / 2;
    size_t bps = bpc > 8 ? 2 : 1;
    run->n = 0;
    rng = 12345;
    for (unsigned f = 0; !e && f <= N_FRAMES; f++) {
        if (f < N_FRAMES) {
            void *planes[2][3];
            VqPicture pic[2];
            for (int k = 0; k < 2; k++) {
                planes[k][0] = make_plane(w, h, bpc, f, k);
                planes[k][1] = make_plane(cw, ch, bpc, f + 1, k);
                planes[k][2] = make_plane(cw, ch, bpc, f + 2, k);
                pic[k] = (VqPicture){ .fmt = VQ_PIX_FMT_420, .bpc = bpc,
                                      .w = w, .h = h };
                for (int p = 0; p < 3; p++) {
                    pic[k].data[p] = planes[k][p];
                    pic[k].stride[p] = (ptrdiff_t)((p ? cw : w) * bps);
                }
            }
            for (int k = 0; k < 2; k++)
                for (int p = 0; p < 3; p++)
                    if (!planes[k][p])
                        e = VQ_ENOMEM;
            if (!e)
                e = vq_submit(ctx, &pic[0], &pic[1]);
            for (int k = 0; k < 2; k++)
                for (int p = 0; p < 3; p++)
                    free(planes[k][p]);
        } else {
            e = vq_flush(ctx);
        }
        VqFrameScores fs;
        while (!e && !vq_receive(ctx, &fs))
            for (unsigned i = 0; i < fs.n && run->n < MAX_VALUES; i++) {
                run->value[run->n] = fs.scores[i].value;
                snprintf(run->name[run->n], sizeof(run->name[0]), "%u %s",
                         fs.index, fs.scores[i].name);
                run->n++;
            }
    }
    if (e)
        fprintf(stderr, "cpu_mask_test: %ux%u %u-bit: %s\n", w, h, bpc,
                vq_last_error(ctx));
    vq_close(&ctx);
    return e;
}

static Run runs[2];

/* 1 when runs[0] and runs[1] differ (or hold too few values). */
static int compare_runs(unsigned w, unsigned h, unsigned bpc, const char *a,
                        const char *b)
{
    unsigned diff = runs[0].n != runs[1].n;
    for (unsigned i = 0; !diff && i < runs[0].n; i++)
        if (strcmp(runs[0].name[i], runs[1].name[i]) ||
            memcmp(&runs[0].value[i], &runs[1].value[i], sizeof(double))) {
            printf("FAIL %ux%u %u-bit: frame %s: %s %.17g, %s %.17g\n", w, h,
                   bpc, runs[0].name[i], a, runs[0].value[i], b,
                   runs[1].value[i]);
            diff = 1;
        }
    printf("%ux%u %u-bit, %s against %s: %u values %s\n", w, h, bpc, a, b,
           runs[0].n, diff ? "DIFFER" : "identical");
    return diff || runs[0].n < 4 * 30;
}

static int test_frames(void)
{
    static const unsigned sizes[][2] = { { 33, 33 }, { 203, 117 },
                                         { 97, 64 } };
    static const unsigned depths[] = { 8, 10, 12, 16 };
    char names[64];
    unsigned have = vq_cpu_flags();
    printf("C tables against: %s\n",
           have ? vq_cpu_flags_string(have, names, sizeof(names))
                : "C (no SIMD variant on this CPU or VQHIP_CPU_MASK)");
    int fails = 0;
    for (unsigned s = 0; s < 3; s++)
        for (unsigned d = 0; d < 4; d++) {
            unsigned w = sizes[s][0], h = sizes[s][1], bpc = depths[d];
            vq_cpu_set_mask(0);
            int e = run_frames(w, h, bpc, 1, &runs[0]);
            vq_cpu_set_mask(VQ_CPU_ALL);
            if (!e)
                e = run_frames(w, h, bpc, 1, &runs[1]);
            if (e)
                return 1;
            fails += compare_runs(w, h, bpc, "C", "SIMD");
        }
    return fails ? 1 : 0;
}

static int test_threads(void)
{
    static const unsigned sizes[][3] = { { 257, 145, 8 }, { 641, 361, 10 },
                                         { 1280, 720, 8 } };
    static const unsigned threads[] = { 3, 8 };
    int fails = 0;
    for (unsigned s = 0; s < 3; s++) {
        unsigned w = sizes[s][0], h = sizes[s][1], bpc = sizes[s][2];
        if (run_frames(w, h, bpc, 1, &runs[0]))
            return 1;
        for (unsigned t = 0; t < 2; t++) {
            if (run_frames(w, h, bpc, threads[t], &runs[1]))
                return 1;
            char what[32];
            snprintf(what, sizeof(what), "%u threads", threads[t]);
            fails += compare_runs(w, h, bpc, "1 thread", what);
        }
    }
    return fails ? 1 : 0;
}

int main(int argc, char **argv)
{
    if (argc == 4 && !strcmp(argv[1], "env"))
        return test_env(argv[2], argv[3]);
    if (argc == 2 && !strcmp(argv[1], "frames"))
        return test_frames();
    if (argc == 2 && !strcmp(argv[1], "threads"))
        return test_threads();
    fprintf(stderr, "usage: cpu_mask_test env VALUE EXPECT | frames | "
                    "threads\n");
    return 2;
}
