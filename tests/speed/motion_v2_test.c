/*
 * motion_v2 against integer motion: motion_v2_sad_score must equal motion's
 * VMAF_integer_feature_motion_sad_score bit for bit on every input (the two
 * compute the same SAD by different code), motion2_v2_score and
 * motion3_v2_score must equal integer_motion2 and integer_motion3. Both run
 * in one context on the same frames; motion_v2 also on the GPU when one
 * opens (against motion on the CPU). On the synthetic frames motion_v2's
 * CPU variants (C, AVX2, AVX-512 DSP tables, as far as the CPU has them)
 * each run.
 *
 *   motion_v2_test                       synthetic frames: sizes from the
 *                                        minimum to 1080p, 8 to 16 bits,
 *                                        noise, extremes, texture, option
 *                                        sets
 *   motion_v2_test GOLDEN_DIR CLIPS_DIR  every golden clip pair
 *
 * Exit status: 0 pass, 1 fail, 77 no golden clips.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu.h"
#include "speed_run.h"
#include "yuv_input.h"

static unsigned n_fail, n_pass;

static const char *const option_sets[] = {
    "",
    ":motion_five_frame_window=true:motion_moving_average=true",
    (":motion_blend_factor=0.5:motion_blend_offset=3:motion_fps_weight=1.5"
     ":motion_max_val=30"),
    ":motion_force_zero=true",
};
#define N_OPTS (sizeof(option_sets) / sizeof(option_sets[0]))

/* Output k of r whose name starts with prefix. */
static int find_prefix(const RunResult *r, const char *prefix)
{
    for (unsigned k = 0; k < r->n_out; k++)
        if (!strncmp(r->name[k], prefix, strlen(prefix)))
            return (int)k;
    return -1;
}

/* Compares motion's outputs in a (first run) with motion_v2's in b. */
static void compare(const char *what, const RunResult *a, const RunResult *b)
{
    static const char *const pairs[3][2] = {
        { "VMAF_integer_feature_motion_sad_score", "motion_v2_sad_score" },
        { "integer_motion2", "motion2_v2_score" },
        { "integer_motion3", "motion3_v2_score" },
    };
    unsigned bad = 0;
    for (int p = 0; p < 3; p++) {
        const int ka = find_prefix(a, pairs[p][0]), kb = find_prefix(b, pairs[p][1]);
        if (ka < 0 || kb < 0 || strcmp(a->name[ka] + strlen(pairs[p][0]),
                                       b->name[kb] + strlen(pairs[p][1]))) {
            printf("FAIL %s: outputs %s / %s missing or named differently\n",
                   what, pairs[p][0], pairs[p][1]);
            bad++;
            continue;
        }
        for (unsigned t = 0; t < a->n_frames; t++)
            if (!a->have[ka][t] || !b->have[kb][t] ||
                memcmp(&a->value[ka][t], &b->value[kb][t], sizeof(double))) {
                if (bad++ < 3)
                    printf("FAIL %s frame %u: %s %.17g, %s %.17g\n", what, t,
                           a->name[ka], a->value[ka][t], b->name[kb],
                           b->value[kb][t]);
            }
    }
    if (a->n_frames != b->n_frames) {
        printf("FAIL %s: %u frames vs %u\n", what, a->n_frames, b->n_frames);
        bad++;
    }
    bad ? n_fail++ : n_pass++;
}

/* CPU variants this machine can run (vq_cpu_set_mask): C, +AVX2, +AVX-512. */
static unsigned variants[3], n_variants;
static char variant_names[64] = "c";

static void find_variants(void)
{
    const unsigned have = vq_cpu_flags_detected();
    variants[n_variants++] = 0;
    if (have & VQ_CPU_AVX2) {
        variants[n_variants++] = VQ_CPU_AVX2;
        snprintf(variant_names, sizeof(variant_names), "c, avx2");
    }
    if ((have & VQ_CPU_AVX2) && (have & VQ_CPU_AVX512)) {
        variants[n_variants++] = VQ_CPU_AVX2 | VQ_CPU_AVX512;
        snprintf(variant_names, sizeof(variant_names), "c, avx2, avx512");
    }
}

static void synthetic(int gpu)
{
    static const unsigned sizes[][2] = { { 3, 3 }, { 7, 5 }, { 33, 17 },
                                         { 64, 36 }, { 257, 131 },
                                         { 1920, 1080 } };
    static const unsigned depths[] = { 8, 10, 12, 16 };
    static const int patterns[] = { PAT_NOISE, PAT_EXTREMES, PAT_TEXTURE };
    for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++)
        for (size_t d = 0; d < 4; d++)
            for (size_t p = 0; p < 3; p++)
                for (size_t o = 0; o < N_OPTS; o++) {
                    const int big = sizes[s][0] > 1000;
                    if (big && (p != 2 || o > 1 || d % 2))
                        continue;
                    char m1[256], m2[256], what[256];
                    snprintf(m1, sizeof(m1), "name=motion%s", option_sets[o]);
                    snprintf(m2, sizeof(m2), "name=motion_v2%s", option_sets[o]);
                    const char *both[] = { m1, m2, NULL };
                    const char *v2[] = { m2, NULL };
                    const RunInput in = { VQ_PIX_FMT_GRAY, depths[d],
                                          sizes[s][0], sizes[s][1],
                                          big ? 4u : 7u, patterns[p] };
                    snprintf(what, sizeof(what), "%ux%u %u-bit pattern %d [%s]",
                             in.w, in.h, in.bpc, in.pattern, option_sets[o]);
                    RunResult *a = malloc(sizeof(*a)), *b = malloc(sizeof(*b));
                    for (unsigned v = 0; v < n_variants && a && b; v++) {
                        vq_cpu_set_mask(variants[v]);
                        if (run_features(a, VQ_BACKEND_CPU, both, NULL, &in)) {
                            printf("FAIL %s: %s\n", what, a->err);
                            n_fail++;
                        } else {
                            compare(what, a, a);
                        }
                    }
                    vq_cpu_set_mask(VQ_CPU_ALL);
                    if (!a || !b) {
                        printf("FAIL %s: out of memory\n", what);
                        n_fail++;
                    } else if (gpu) {
                        if (run_features(b, VQ_BACKEND_HIP, v2, NULL, &in))
                            printf("FAIL %s [hip]: %s\n", what, b->err), n_fail++;
                        else
                            compare(what, a, b);
                    }
                    free(a);
                    free(b);
                }
}

/* ---- golden clips ------------------------------------------------------ */

static int golden(const char *gdir, const char *cdir, int gpu)
{
    char path[1024], line[2048];
    snprintf(path, sizeof(path), "%s/manifest.tsv", gdir);
    FILE *m = fopen(path, "r");
    if (!m) {
        printf("no golden manifest at %s: skipped\n", path);
        return 77;
    }
    if (!fgets(line, sizeof(line), m)) {
        fclose(m);
        return 1;
    }
    while (fgets(line, sizeof(line), m)) {
        char name[128], pixfmt[32], vfmt[8], ref[256], dis[256], sha[2][80];
        unsigned w, h, bpc, frames;
        if (sscanf(line, "%127s %u %u %31s %u %7s %u %255s %79s %255s %79s",
                   name, &w, &h, pixfmt, &bpc, vfmt, &frames, ref, sha[0], dis,
                   sha[1]) != 11)
            continue;
        VqPixFmt fmt;
        if (yuv_parse_pix_fmt(vfmt, &fmt))
            continue;
        for (int backend = 0; backend < 1 + gpu; backend++) {
            VqConfig cfg = vq_default_config();
            cfg.backend = backend ? VQ_BACKEND_HIP : VQ_BACKEND_CPU;
            cfg.strict = backend;
            cfg.log_level = VQ_LOG_LEVEL_ERROR;
            VqContext *ctx = NULL;
            RunResult *r = calloc(1, sizeof(*r));
            YuvInput ir, id;
            char err[256], pr[1300], pd[1300];
            snprintf(pr, sizeof(pr), "%s/%s", cdir, ref);
            snprintf(pd, sizeof(pd), "%s/%s", cdir, dis);
            int e = r ? vq_open(&ctx, &cfg) : VQ_ENOMEM;
            if (!e)
                e = vq_use_feature(ctx, "motion");
            if (!e)
                e = vq_use_feature(ctx, "motion_v2");
            if (!e && (yuv_open(&ir, pr, fmt, bpc, w, h, err, sizeof(err)) ||
                       yuv_open(&id, pd, fmt, bpc, w, h, err, sizeof(err)))) {
                printf("FAIL %s: %s\n", name, err);
                n_fail++;
                vq_close(&ctx);
                free(r);
                continue;
            }
            VqPicture a, b;
            VqFrameScores fs;
            for (unsigned t = 0; !e && t < frames && t < RUN_MAX_FRAMES; t++) {
                if (yuv_read(&ir, &a, err, sizeof(err)) != 1 ||
                    yuv_read(&id, &b, err, sizeof(err)) != 1)
                    break;
                e = vq_submit(ctx, &a, &b);
            }
            if (!e)
                e = vq_flush(ctx);
            while (!e && vq_receive(ctx, &fs) == 0)
                run_record(r, ctx, &fs);
            if (e) {
                printf("FAIL %s: %s\n", name, vq_last_error(ctx));
                n_fail++;
            } else {
                char what[200];
                snprintf(what, sizeof(what), "%s [%s]", name,
                         backend ? "hip" : "cpu");
                compare(what, r, r);
            }
            yuv_close(&ir);
            yuv_close(&id);
            vq_close(&ctx);
            free(r);
        }
    }
    fclose(m);
    return 0;
}

int main(int argc, char **argv)
{
    int gpu;
    int st = vq_test_backend(&argc, argv, "motion_v2_test", &gpu);
    if (st)
        return st;
    find_variants();
    if (argc == 3) {
        int r = golden(argv[1], argv[2], gpu);
        if (r == 77)
            return 77;
    } else {
        synthetic(gpu);
    }
    printf("motion_v2_test: %u passed, %u failed; CPU variants run: %s%s\n",
           n_pass, n_fail, argc == 3 ? "the best of this CPU" : variant_names,
           gpu ? "; and the GPU" : "");
    return n_fail ? 1 : 0;
}
