/*
 * vqhip_ladder_bench: the time of one ladder pass (vq_ladder_*) against N
 * separate pair runs of the same renditions, same threads, same process,
 * for N = 1, 3, 6 and two models, or the models and features given
 * (docs/LADDER.md). Frames are generated:
 * a moving pattern as the reference, each rendition the reference with
 * noise of its own strength. Each figure is the best of two runs (ladder,
 * pairs, pairs, ladder) after a warm-up run: the wall-clock time, and the
 * CPU time of the process (all its threads), which a machine busy with
 * other work disturbs far less.
 *
 *   vqhip_ladder_bench [--frames N] [--size WxH] [--threads N]
 *                      [--backend cpu|auto] [--model VERSION]...
 *                      [--feature SPEC]... [--renditions N]
 *                      [--only ladder|pairs]
 *
 * --renditions times that N alone; --only runs one side (for a profiler:
 * its ratio columns are then meaningless and left out).
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tool_clock.h"
#include "vqhip.h"

#define N_PATTERNS 8 /* distinct frames, cycled */

/* CPU seconds of the whole process, every thread. */
static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}
#define MAX_N 6

typedef struct Clip {
    unsigned w, h;
    uint8_t *ref[N_PATTERNS], *dis[MAX_N][N_PATTERNS];
} Clip;

static uint32_t rnd(uint32_t *s)
{
    *s = *s * 1664525u + 1013904223u;
    return *s >> 8;
}

static int make_clip(Clip *c, unsigned w, unsigned h)
{
    size_t luma = (size_t)w * h, size = luma + 2 * (size_t)((w + 1) / 2) * ((h + 1) / 2);
    c->w = w;
    c->h = h;
    uint32_t seed = 35;
    for (unsigned t = 0; t < N_PATTERNS; t++) {
        uint8_t *r = c->ref[t] = malloc(size);
        if (!r)
            return -1;
        for (unsigned y = 0; y < h; y++)
            for (unsigned x = 0; x < w; x++)
                r[(size_t)y * w + x] = (uint8_t)((((x + 3 * t) ^ (y * 2)) & 127) +
                                                 (x + y + 5 * t) % 96);
        memset(r + luma, 128, size - luma);
        for (unsigned i = 0; i < MAX_N; i++) {
            uint8_t *d = c->dis[i][t] = malloc(size);
            if (!d)
                return -1;
            memcpy(d, r, size);
            int amp = 2 + 4 * (int)i;
            for (size_t k = 0; k < luma; k++) {
                int v = d[k] + (int)(rnd(&seed) % (2 * amp + 1)) - amp;
                d[k] = (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v);
            }
        }
    }
    return 0;
}

static VqPicture picture(const Clip *c, const uint8_t *data)
{
    VqPicture p = { .fmt = VQ_PIX_FMT_420, .bpc = 8, .w = c->w, .h = c->h };
    size_t luma = (size_t)c->w * c->h, cw = (c->w + 1) / 2, ch = (c->h + 1) / 2;
    p.data[0] = data;
    p.data[1] = data + luma;
    p.data[2] = data + luma + cw * ch;
    p.stride[0] = c->w;
    p.stride[1] = p.stride[2] = (ptrdiff_t)cw;
    return p;
}

/* The sum of every score of the frames received (the same frames scored
 * both ways must give the same sums). */
static int drain(VqContext *ctx, double *sum)
{
    VqFrameScores fs;
    int r;
    while ((r = vq_receive(ctx, &fs)) == 0)
        for (unsigned k = 0; k < fs.n; k++)
            *sum += fs.scores[k].value;
    return r == VQ_EAGAIN || r == VQ_EOF ? 0 : r;
}

/* What a run scores: "feature:SPEC" a feature, anything else a model's
 * version. */
static int select_item(VqContext *ctx, const char *item)
{
    if (!strncmp(item, "feature:", 8))
        return vq_use_feature(ctx, item + 8);
    char spec[256];
    snprintf(spec, sizeof(spec), "version=%s", item);
    return vq_use_model(ctx, spec);
}

/* One pair run of rendition i; the sum of its VMAF scores in *sum. */
static int pair_run(const Clip *c, const VqConfig *cfg, const char *model,
                    unsigned i, unsigned frames, double *sum)
{
    VqContext *ctx;
    int r = vq_open(&ctx, cfg);
    if (!r)
        r = select_item(ctx, model);
    for (unsigned n = 0; !r && n < frames; n++) {
        VqPicture rp = picture(c, c->ref[n % N_PATTERNS]);
        VqPicture dp = picture(c, c->dis[i][n % N_PATTERNS]);
        r = vq_submit(ctx, &rp, &dp);
        if (!r)
            r = drain(ctx, sum);
    }
    if (!r)
        r = vq_flush(ctx);
    if (!r)
        r = drain(ctx, sum);
    if (r)
        fprintf(stderr, "pair run: %s\n", vq_last_error(ctx));
    vq_close(&ctx);
    return r;
}

/* What the last ladder run shared (vq_ladder_share_info). */
static VqLadderShare last_share;

/* The ladder of renditions 0..n_rend-1; rendition i's VMAF sum in sum[i]. */
static int ladder_run(const Clip *c, const VqConfig *cfg, const char *model,
                      unsigned n_rend, unsigned frames, double *sum)
{
    VqLadder *l;
    int r = vq_ladder_open(&l, cfg, n_rend);
    for (unsigned i = 0; !r && i < n_rend; i++)
        r = select_item(vq_ladder_context(l, i), model);
    for (unsigned n = 0; !r && n < frames; n++) {
        VqPicture rp = picture(c, c->ref[n % N_PATTERNS]), dp[MAX_N];
        const VqPicture *dis[MAX_N];
        for (unsigned i = 0; i < n_rend; i++) {
            dp[i] = picture(c, c->dis[i][n % N_PATTERNS]);
            dis[i] = &dp[i];
        }
        r = vq_ladder_submit(l, &rp, dis);
        for (unsigned i = 0; !r && i < n_rend; i++)
            r = drain(vq_ladder_context(l, i), &sum[i]);
    }
    if (!r)
        r = vq_ladder_flush(l);
    for (unsigned i = 0; !r && i < n_rend; i++)
        r = drain(vq_ladder_context(l, i), &sum[i]);
    if (r)
        fprintf(stderr, "ladder: %s\n", vq_ladder_last_error(l));
    else
        vq_ladder_share_info(l, &last_share);
    vq_ladder_close(&l);
    return r;
}

int main(int argc, char **argv)
{
    unsigned frames = 300, w = 1920, h = 1080;
    const char *models[8];
    char features[8][128];
    unsigned n_models = 0, only_n = 0, only_side = 0; /* 1 ladder, 2 pairs */
    VqConfig cfg = vq_default_config();
    cfg.backend = VQ_BACKEND_CPU;
    cfg.log_level = VQ_LOG_LEVEL_ERROR;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!v) {
            fprintf(stderr, "usage: vqhip_ladder_bench [--frames N] [--size WxH] "
                    "[--threads N] [--backend cpu|auto] [--model VERSION]... "
                    "[--feature SPEC]... [--renditions N] "
                    "[--only ladder|pairs]\n");
            return 2;
        }
        i++;
        if (!strcmp(a, "--frames"))
            frames = (unsigned)strtoul(v, NULL, 10);
        else if (!strcmp(a, "--size") && sscanf(v, "%ux%u", &w, &h) == 2)
            ;
        else if (!strcmp(a, "--threads"))
            cfg.n_threads = (unsigned)strtoul(v, NULL, 10);
        else if (!strcmp(a, "--backend"))
            cfg.backend = strcmp(v, "auto") ? VQ_BACKEND_CPU : VQ_BACKEND_AUTO;
        else if (!strcmp(a, "--renditions") && atoi(v) >= 1 && atoi(v) <= MAX_N)
            only_n = (unsigned)atoi(v);
        else if (!strcmp(a, "--only") && (!strcmp(v, "ladder") || !strcmp(v, "pairs")))
            only_side = !strcmp(v, "ladder") ? 1 : 2;
        else if (!strcmp(a, "--model") && n_models < 8)
            models[n_models++] = v;
        else if (!strcmp(a, "--feature") && n_models < 8) {
            snprintf(features[n_models], sizeof(features[0]), "feature:%s", v);
            models[n_models] = features[n_models];
            n_models++;
        }
        else {
            fprintf(stderr, "vqhip_ladder_bench: bad option %s\n", a);
            return 2;
        }
    }
    if (!n_models) {
        models[n_models++] = "vmaf_v0.6.1";
        models[n_models++] = "vmaf_v1.0.16_3d0h";
    }
    if (!frames || !w || !h) {
        fprintf(stderr, "vqhip_ladder_bench: frames and size must be > 0\n");
        return 2;
    }
    Clip clip;
    memset(&clip, 0, sizeof(clip));
    if (make_clip(&clip, w, h)) {
        fprintf(stderr, "vqhip_ladder_bench: out of memory\n");
        return 1;
    }
    printf("%ux%u 4:2:0 8-bit, %u frames, threads %u (0: one per core), "
           "backend %s\n", w, h, frames, cfg.n_threads,
           cfg.backend == VQ_BACKEND_CPU ? "cpu" : "auto");
    printf("%-18s %2s %8s %8s %7s %9s %9s %7s  %s\n", "model", "N",
           "ladder s", "pairs s", "ratio", "ladder cpu", "pairs cpu",
           "ratio", "shared (extractors: computed/used, GPU reference "
           "staged/read)");
    static const unsigned ns[] = { 1, 3, 6 };
    double warm = 0;
    int status = pair_run(&clip, &cfg, models[0], 0, frames < 20 ? frames : 20,
                          &warm) != 0; /* pages, threads, caches */
    for (unsigned m = 0; m < n_models && !status; m++) {
        for (unsigned k = 0; k < sizeof(ns) / sizeof(ns[0]) && !status; k++) {
            unsigned n = ns[k];
            if (only_n && n != only_n) {
                if (k + 1 == sizeof(ns) / sizeof(ns[0]) && only_n != 1 &&
                    only_n != 3 && only_n != 6)
                    n = only_n; /* an N outside 1, 3, 6: once, last */
                else
                    continue;
            }
            double s_ladder[MAX_N] = { 0 }, s_pairs[MAX_N] = { 0 };
            /* ladder, pairs, pairs, ladder: the best of two each, so that
             * neither side is the first after a warm-up or a load change */
            double tl = 1e300, tp = 1e300, cl = 1e300, cp = 1e300;
            for (unsigned rep = 0; rep < 4 && !status; rep++) {
                bool ladder = rep == 0 || rep == 3;
                if ((only_side == 1 && !ladder) || (only_side == 2 && ladder))
                    continue;
                double t0 = tool_now(), c0 = cpu_now();
                memset(ladder ? s_ladder : s_pairs, 0, sizeof(s_ladder));
                if (ladder)
                    status = ladder_run(&clip, &cfg, models[m], n, frames,
                                        s_ladder) != 0;
                for (unsigned i = 0; !ladder && i < n && !status; i++)
                    status = pair_run(&clip, &cfg, models[m], i, frames,
                                      &s_pairs[i]) != 0;
                double t = tool_now() - t0, c = cpu_now() - c0;
                if (ladder && t < tl)
                    tl = t;
                if (!ladder && t < tp)
                    tp = t;
                if (ladder && c < cl)
                    cl = c;
                if (!ladder && c < cp)
                    cp = c;
            }
            if (status)
                break;
            /* the same frames scored both ways: the same sums, bit for bit */
            for (unsigned i = 0; i < n && !only_side; i++)
                if (s_ladder[i] != s_pairs[i]) {
                    fprintf(stderr, "vqhip_ladder_bench: rendition %u: the "
                            "ladder's score sum %.17g, the pair run's %.17g\n",
                            i + 1, s_ladder[i], s_pairs[i]);
                    status = 1;
                }
            if (only_side) { /* one side ran: its times alone */
                bool l1 = only_side == 1;
                char t[16], c[16];
                snprintf(t, sizeof(t), "%.2f", l1 ? tl : tp);
                snprintf(c, sizeof(c), "%.2f", l1 ? cl : cp);
                printf("%-18s %2u %8s %8s %7s %9s %9s %7s\n", models[m], n,
                       l1 ? t : "-", l1 ? "-" : t, "-", l1 ? c : "-",
                       l1 ? "-" : c, "-");
                fflush(stdout);
                continue;
            }
            printf("%-18s %2u %8.2f %8.2f %7.3f %9.2f %9.2f %7.3f  %u: "
                   "%llu/%llu, GPU reference %llu/%llu\n", models[m], n, tl,
                   tp, tl / tp, cl, cp, cl / cp, last_share.extractors,
                   (unsigned long long)last_share.computed,
                   (unsigned long long)last_share.used,
                   (unsigned long long)last_share.gpu_staged,
                   (unsigned long long)last_share.gpu_staged_used);
            fflush(stdout);
        }
    }
    printf("s: wall-clock seconds; cpu: CPU seconds of all threads; ratio: "
           "the ladder's / the pair runs'\n");
    for (unsigned t = 0; t < N_PATTERNS; t++) {
        free(clip.ref[t]);
        for (unsigned i = 0; i < MAX_N; i++)
            free(clip.dis[i][t]);
    }
    return status;
}
