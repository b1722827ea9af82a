/* vq_skip_next (live mode's unscored frames) on vmaf_v0.6.1, CPU: a run
 * with frames 3, 7 and 8 skipped gives every other frame exactly the
 * values of a full run (every output, motion included, which needs the
 * skipped frames as neighbours), the skipped frames only the temporal
 * (motion) outputs and no model score; pooled values and windows are over
 * the scored frames (recomputed here from the full run's values); marks
 * that fall on no frame leave the run equal to the plain run. With the
 * argument "hip" the same on the GPU backend (strict: no fallback). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/gpu_present.h"
#include "../common/unit_check.h"
#include "vqhip.h"

#define W 176
#define H 144
#define NF 12
#define MAXO 32

static VqBackend backend = VQ_BACKEND_CPU;

typedef struct Run {
    unsigned n[NF];
    char name[NF][MAXO][48];
    double value[NF][MAXO];
    unsigned win_scored[4], win_frames[4], n_win;
    double pooled_mean, perc50;
    unsigned info_scored, info_received;
} Run;

/* Textured 4:2:0 frames moving by k pixels per frame (so motion is not
 * 0); the distorted one has a coarser quantisation and its own noise. */
static void make_pair(unsigned k, uint8_t *ref, uint8_t *dis)
{
    uint32_t s = 12345u + k * 777u;
    for (unsigned y = 0; y < H; y++)
        for (unsigned x = 0; x < W; x++) {
            unsigned xs = x + 3 * k;
            s = s * 1664525u + 1013904223u;
            int v = (int)((xs * 7 + y * 3 + ((xs / 8 + y / 8) & 1) * 60) % 200)
                    + 20;
            ref[y * W + x] = (uint8_t)v;
            int d = (v & ~31) + (int)(s >> 28) - 7;
            dis[y * W + x] = (uint8_t)(d < 0 ? 0 : d > 255 ? 255 : d);
        }
    memset(ref + W * H, 128, W * H / 2);
    memset(dis + W * H, 128, W * H / 2);
}

static VqPicture picture(uint8_t *mem)
{
    return (VqPicture){ .fmt = VQ_PIX_FMT_420, .bpc = 8, .w = W, .h = H,
                        .data = { mem, mem + W * H, mem + W * H * 5 / 4 },
                        .stride = { W, W / 2, W / 2 } };
}

static void take(VqContext *ctx, Run *r, int wait)
{
    VqFrameScores fs;
    while (!(wait ? vq_receive_wait(ctx, &fs) : vq_receive(ctx, &fs))) {
        CHECK(fs.index < NF && fs.n <= MAXO);
        if (fs.index >= NF || fs.n > MAXO)
            continue;
        r->n[fs.index] = fs.n;
        for (unsigned i = 0; i < fs.n; i++) {
            snprintf(r->name[fs.index][i], sizeof(r->name[0][0]), "%s",
                     fs.scores[i].name);
            r->value[fs.index][i] = fs.scores[i].value;
        }
    }
}

/* skip[i]: vq_skip_next before pair i (i == NF: after the last pair). */
static void run(const int *skip, unsigned threads, Run *r)
{
    memset(r, 0, sizeof(*r));
    VqConfig cfg = vq_default_config();
    cfg.backend = backend;
    cfg.strict = backend == VQ_BACKEND_HIP;
    cfg.n_threads = threads;
    VqContext *ctx = NULL;
    int e = vq_open(&ctx, &cfg);
    CHECK_MSG(!e, "vq_open: %s", vq_strerror(e));
    if (e)
        exit(1);
    e = vq_use_model(ctx, "version=vmaf_v0.6.1");
    CHECK_MSG(!e, "%s", vq_last_error(ctx));
    VqWindowConfig wc = { .frames = 4, .stats = "mean|median" };
    CHECK(!vq_use_windows(ctx, &wc));
    static uint8_t ref[W * H * 3 / 2], dis[W * H * 3 / 2];
    for (unsigned k = 0; k <= NF; k++) {
        if (skip[k])
            CHECK(!vq_skip_next(ctx));
        if (k == NF)
            break;
        make_pair(k, ref, dis);
        VqPicture rp = picture(ref), dp = picture(dis);
        e = vq_submit(ctx, &rp, &dp);
        CHECK_MSG(!e, "%s", vq_last_error(ctx));
        take(ctx, r, 0);
    }
    CHECK(!vq_flush(ctx));
    take(ctx, r, 1);
    VqWindow w;
    while (!vq_receive_window(ctx, &w) && r->n_win < 4) {
        r->win_scored[r->n_win] = w.n_scored;
        r->win_frames[r->n_win++] = w.n_frames;
    }
    VqRunInfo info;
    CHECK(!vq_run_info(ctx, &info));
    r->info_scored = info.scored;
    r->info_received = info.received;
    CHECK(!vq_pooled(ctx, "vmaf", VQ_POOL_MEAN, &r->pooled_mean));
    CHECK(!vq_pooled_stat(ctx, "vmaf", "median", &r->perc50));
    vq_close(&ctx);
}

static int find(const Run *r, unsigned f, const char *name, double *v)
{
    for (unsigned i = 0; i < r->n[f]; i++)
        if (!strcmp(r->name[f][i], name)) {
            *v = r->value[f][i];
            return 1;
        }
    return 0;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void skipped_run(unsigned threads)
{
    int none[NF + 1] = { 0 }, some[NF + 1] = { 0 };
    some[3] = some[7] = some[8] = 1;
    Run full, part;
    run(none, threads, &full);
    run(some, threads, &part);
    double sum = 0, vals[NF];
    unsigned n_scored = 0;
    for (unsigned f = 0; f < NF; f++) {
        double v = NAN;
        CHECK_MSG(full.n[f] > 4 && find(&full, f, "vmaf", &v),
                  "full run, frame %u: %u outputs", f, full.n[f]);
        if (some[f]) {
            /* the temporal outputs only, each equal to the full run's */
            CHECK_MSG(!find(&part, f, "vmaf", &v), "skipped frame %u "
                      "has a vmaf score", f);
            CHECK_MSG(part.n[f] < full.n[f], "skipped frame %u: %u outputs",
                      f, part.n[f]);
            for (unsigned i = 0; i < part.n[f]; i++) {
                double want;
                CHECK_MSG(strstr(part.name[f][i], "motion") &&
                          find(&full, f, part.name[f][i], &want) &&
                          want == part.value[f][i], "skipped frame %u: %s",
                          f, part.name[f][i]);
            }
            continue;
        }
        CHECK_MSG(part.n[f] == full.n[f], "frame %u: %u outputs, full run "
                  "%u", f, part.n[f], full.n[f]);
        for (unsigned i = 0; i < full.n[f] && i < part.n[f]; i++)
            CHECK_MSG(!strcmp(part.name[f][i], full.name[f][i]) &&
                      part.value[f][i] == full.value[f][i],
                      "frame %u %s: %.17g, full run %s %.17g", f,
                      part.name[f][i], part.value[f][i], full.name[f][i],
                      full.value[f][i]);
        find(&full, f, "vmaf", &v);
        sum += v;
        vals[n_scored++] = v;
    }
    /* libvmaf's mean: the sum in frame order over the frames scored */
    CHECK_MSG(part.pooled_mean == sum / n_scored, "pooled mean %.17g, "
              "expected %.17g", part.pooled_mean, sum / n_scored);
    CHECK(full.pooled_mean != part.pooled_mean);
    CHECK_MSG(part.info_received == NF && part.info_scored == NF - 3 &&
              full.info_scored == NF, "VqRunInfo: %u of %u scored (full "
              "run %u)", part.info_scored, part.info_received,
              full.info_scored);
    qsort(vals, n_scored, sizeof(vals[0]), cmp_double);
    double median = n_scored % 2 ? vals[n_scored / 2]
                    : (vals[n_scored / 2 - 1] + vals[n_scored / 2]) / 2;
    CHECK_MSG(fabs(part.perc50 - median) <= 1e-12 * fabs(median),
              "median %.17g, expected %.17g", part.perc50, median);
    /* windows of 4 frames: 0-3 (3 skipped), 4-7 (7), 8-11 (8) */
    CHECK(part.n_win == 3 && full.n_win == 3);
    for (unsigned k = 0; k < part.n_win; k++)
        CHECK_MSG(part.win_frames[k] == 4 && part.win_scored[k] == 3 &&
                  full.win_scored[k] == 4, "window %u: %u of %u scored", k,
                  part.win_scored[k], part.win_frames[k]);
}

/* A mark after the last pair falls on no frame: the plain run's values. */
static void mark_past_end(void)
{
    int none[NF + 1] = { 0 }, end[NF + 1] = { 0 };
    end[NF] = 1;
    Run a, b;
    run(none, 1, &a);
    run(end, 1, &b);
    for (unsigned f = 0; f < NF; f++) {
        CHECK(a.n[f] == b.n[f]);
        for (unsigned i = 0; i < a.n[f] && i < b.n[f]; i++)
            CHECK_MSG(!strcmp(a.name[f][i], b.name[f][i]) &&
                      a.value[f][i] == b.value[f][i], "frame %u %s", f,
                      a.name[f][i]);
    }
    CHECK(a.pooled_mean == b.pooled_mean);
    CHECK(vq_skip_next(NULL) == VQ_EINVAL);
}

int main(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "hip")) {
        backend = VQ_BACKEND_HIP;
        /* skip only where no GPU is present (the AMD build in CI) */
        int present = vq_test_gpu_present("skip_gpu");
        if (present)
            return present;
    }
    skipped_run(1);
    skipped_run(3);
    mark_past_end();
    TEST_END();
}
