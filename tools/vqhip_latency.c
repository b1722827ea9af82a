/*
 * vqhip_latency: how long a live frame waits for its scores. Generated
 * frame pairs arrive paced at --fps (a live source); each is submitted at
 * its time (unscored, vq_skip_next, when --depth frames are already in
 * flight, as the filter's live=1 and the CLI's --live do; --no-live: every
 * frame scored, the submission may then wait), the library writes the
 * NDJSON stats stream with a line per frame (vq_set_stats_sink,
 * VQ_STATS_FRAMES), and for every frame the time from its arrival to its
 * frame line reaching the sink is taken. Prints p50/p95/p99/max of all
 * frames and of the scored ones, and the share scored.
 *
 *   vqhip_latency --size 1920x1080 --fps 25 --seconds 10 [--backend cpu]
 *
 * Frames done are received by polling vq_receive at least every
 * millisecond between arrivals, so a latency includes up to 1 ms of it.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tool_clock.h"
#include "synth_pairs.h"
#include "vqhip.h"

#define K 8          /* distinct frame pairs, cycled */
#define MAX_SPECS 8

static void sleep_until(double t)
{
    struct timespec ts = { (time_t)floor(t), 0 };
    ts.tv_nsec = (long)((t - floor(t)) * 1e9);
    if (ts.tv_nsec > 999999999)
        ts.tv_nsec = 999999999;
    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
        ;
}

typedef struct Bench {
    unsigned n;        /* frames */
    double *line_at;   /* when frame i's line reached the sink; NAN: not yet */
    unsigned lines, bad_lines, next; /* next: the frame line due (in order) */
} Bench;

/* The sink: timestamps frame lines ({"schema":...,"type":"frame","frame":N,...}),
 * which come once per frame, in frame order. */
static int sink(void *opaque, const char *line, size_t len)
{
    Bench *b = opaque;
    double t = tool_now();
    (void)len;
    b->lines++;
    if (!strstr(line, "\"type\":\"frame\""))
        return 0;
    const char *f = strstr(line, "\"frame\":");
    char *end;
    unsigned long i = f ? strtoul(f + 8, &end, 10) : (unsigned long)b->n;
    if (i == b->next && i < b->n) {
        b->line_at[i] = t;
        b->next++;
    } else
        b->bad_lines++; /* out of order, twice, or not a frame of ours */
    return 0;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* numpy.percentile's default (linear between closest ranks) of sorted v */
static double perc(const double *v, unsigned n, double p)
{
    double r = p / 100 * (n - 1);
    unsigned lo = (unsigned)floor(r), hi = lo + 1 < n ? lo + 1 : lo;
    return v[lo] + (v[hi] - v[lo]) * (r - lo);
}

static void report(const char *what, double *lat, unsigned n)
{
    if (!n) {
        printf("  %s: none\n", what);
        return;
    }
    qsort(lat, n, sizeof(*lat), cmp_double);
    printf("  %s (%u): p50 %.1f ms, p95 %.1f ms, p99 %.1f ms, max %.1f ms\n",
           what, n, 1e3 * perc(lat, n, 50), 1e3 * perc(lat, n, 95),
           1e3 * perc(lat, n, 99), 1e3 * lat[n - 1]);
}

static void no_release(void *opaque) { (void)opaque; }

static int usage(void)
{
    fprintf(stderr, "usage: vqhip_latency [--size WxH] [--fps F] [--seconds S | "
            "--frames N] [--backend auto|hip|cpu] [--gpu N] [--strict] "
            "[--depth N] [--threads N] [--model SPEC]... [--feature SPEC]... "
            "[--no-live]\n");
    return 2;
}

static int num(const char *opt, const char *v, double min, double max,
               double *out)
{
    char *end;
    errno = 0;
    double d = v ? strtod(v, &end) : NAN;
    if (!v || errno || *end || end == v || !(d >= min && d <= max)) {
        fprintf(stderr, "vqhip_latency: %s: '%s' is not a number in "
                "[%g, %g]\n", opt, v ? v : "", min, max);
        return -1;
    }
    *out = d;
    return 0;
}

int main(int argc, char **argv)
{
    unsigned w = 1920, h = 1080, live = 1;
    double fps = 25, seconds = 10, frames = 0, d;
    const char *models[MAX_SPECS], *features[MAX_SPECS];
    unsigned n_models = 0, n_features = 0;
    VqConfig cfg = vq_default_config();
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        int bad = 0;
        if (!strcmp(a, "--no-live")) { live = 0; continue; }
        if (!strcmp(a, "--strict")) { cfg.strict = 1; continue; }
        if (!v)
            return usage();
        i++;
        if (!strcmp(a, "--size")) {
            bad = sscanf(v, "%ux%u", &w, &h) != 2 || w < 16 || h < 16 ||
                  w > 16384 || h > 16384;
        } else if (!strcmp(a, "--fps")) bad = num(a, v, 0.01, 1000, &fps);
        else if (!strcmp(a, "--seconds")) bad = num(a, v, 0.1, 86400, &seconds);
        else if (!strcmp(a, "--frames")) bad = num(a, v, 1, 1e8, &frames);
        else if (!strcmp(a, "--backend")) {
            if (!strcmp(v, "cpu")) cfg.backend = VQ_BACKEND_CPU;
            else if (!strcmp(v, "hip")) cfg.backend = VQ_BACKEND_HIP;
            else if (!strcmp(v, "auto")) cfg.backend = VQ_BACKEND_AUTO;
            else bad = 1;
        } else if (!strcmp(a, "--gpu") || !strcmp(a, "--device")) {
            bad = num(a, v, 0, 255, &d);
            cfg.device = (int)d;
        } else if (!strcmp(a, "--depth")) {
            bad = num(a, v, 1, 16, &d);
            cfg.depth = (unsigned)d;
        } else if (!strcmp(a, "--threads")) {
            bad = num(a, v, 0, 1024, &d);
            cfg.n_threads = (unsigned)d;
        } else if (!strcmp(a, "--model") && n_models < MAX_SPECS)
            models[n_models++] = v;
        else if (!strcmp(a, "--feature") && n_features < MAX_SPECS)
            features[n_features++] = v;
        else
            return usage();
        if (bad) {
            fprintf(stderr, "vqhip_latency: bad %s '%s'\n", a, v);
            return 2;
        }
    }
    if (!n_models && !n_features)
        models[n_models++] = "version=vmaf_v0.6.1";
    Bench b = { .n = frames ? (unsigned)frames : (unsigned)ceil(seconds * fps) };
    double *submit_at = malloc(b.n * sizeof(double));
    unsigned char *skipped = calloc(b.n, 1);
    b.line_at = malloc(b.n * sizeof(double));
    unsigned char *buf = malloc(synth_pairs_size(w, h, K));
    if (!submit_at || !skipped || !b.line_at || !buf) {
        fprintf(stderr, "vqhip_latency: out of memory\n");
        return 1;
    }
    for (unsigned i = 0; i < b.n; i++)
        b.line_at[i] = NAN;

    VqContext *ctx = NULL;
    int err = vq_open(&ctx, &cfg);
    for (unsigned i = 0; !err && i < n_models; i++)
        err = vq_use_model(ctx, models[i]);
    for (unsigned i = 0; !err && i < n_features; i++)
        err = vq_use_feature(ctx, features[i]);
    if (!err)
        err = vq_set_stats_sink(ctx, sink, &b, VQ_STATS_FRAMES);
    /* K pairs: a moving pattern and a noisy copy */
    VqPicture ref[K], dis[K];
    synth_pairs(buf, w, h, K, ref, dis);
    if (!err)
        err = vq_configure(ctx, &ref[0]);

    /* Between arrivals, the frames done are received every millisecond:
     * their lines are written as they are delivered. */
    double t0 = tool_now() + 0.05, max_late = 0, max_block = 0;
    unsigned late = 0;
    VqFrameScores fs;
    int r = 0;
    for (unsigned i = 0; !err && i < b.n; i++) {
        double at = t0 + i / fps;
        for (;;) {
            while ((r = vq_receive(ctx, &fs)) == 0)
                ;
            if (r != VQ_EAGAIN) {
                err = r;
                break;
            }
            double t = tool_now();
            if (t >= at)
                break;
            sleep_until(t + 1e-3 < at ? t + 1e-3 : at);
        }
        VqRunInfo info;
        if (!err && live && i && !vq_run_info(ctx, &info) && info.depth &&
            info.submitted - info.received >= info.depth) {
            err = vq_skip_next(ctx);
            skipped[i] = 1;
        }
        if (err)
            break;
        submit_at[i] = tool_now();
        if (submit_at[i] - at > 1e-3)
            late++;
        if (submit_at[i] - at > max_late)
            max_late = submit_at[i] - at;
        err = vq_submit_retained(ctx, &ref[i % K], &dis[i % K], no_release,
                                 NULL);
        if (tool_now() - submit_at[i] > max_block)
            max_block = tool_now() - submit_at[i];
    }
    double wall = tool_now() - t0;
    if (!err)
        err = vq_flush(ctx);
    while (!err && (r = vq_receive_wait(ctx, &fs)) == 0)
        ;
    if (!err && r != VQ_EOF)
        err = r;
    if (err) {
        fprintf(stderr, "vqhip_latency: %s (%s)\n", vq_last_error(ctx),
                vq_strerror(err));
        vq_close(&ctx);
        return 1;
    }
    VqRunInfo info;
    vq_run_info(ctx, &info);
    printf("latency: %ux%u at %g fps, %u frames, backend %s%s%s, depth %u, "
           "live %s\n", w, h, fps, b.n, vq_backend_name(ctx),
           *vq_device_name(ctx) ? " on " : "", vq_device_name(ctx),
           info.depth, live ? "on" : "off");
    printf("  scored %u of %u (coverage %.1f%%)\n", info.scored, info.received,
           info.received ? 100.0 * info.scored / info.received : 0.0);
    /* from the frame's time in the paced source; the submission is at
     * that time unless the previous one was still blocked */
    double *all = malloc(b.n * sizeof(double)), *sc = malloc(b.n * sizeof(double));
    unsigned n_all = 0, n_sc = 0, missing = 0;
    for (unsigned i = 0; all && sc && i < b.n; i++) {
        if (isnan(b.line_at[i])) {
            missing++;
            continue;
        }
        double l = b.line_at[i] - (t0 + i / fps);
        all[n_all++] = l;
        if (!skipped[i])
            sc[n_sc++] = l;
    }
    printf("  arrival -> NDJSON frame line (a frame's scores wait for %u "
           "later frame(s): at least %.1f ms at this rate):\n", info.lag,
           1e3 * info.lag / fps);
    report("all frames", all, n_all);
    report("scored frames", sc, n_sc);
    printf("  input: %.2f s for %.2f s of frames (%.1f fps); submissions late "
           "(> 1 ms after their time): %u, at most %.1f ms; longest "
           "vq_submit %.1f ms\n", wall, b.n / fps, b.n / wall, late,
           1e3 * max_late, 1e3 * max_block);
    if (missing || b.bad_lines)
        printf("  FAIL: %u frames without a line, %u unexpected lines\n",
               missing, b.bad_lines);
    free(all);
    free(sc);
    vq_close(&ctx);
    free(buf);
    free(submit_at);
    free(skipped);
    free(b.line_at);
    return missing || b.bad_lines ? 1 : 0;
}
