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
 * --streams N: N such sources at once, each with its own context and
 * thread, all starting at one instant (live streams sharing one device);
 * the figures are over every stream's frames, with the lowest coverage of
 * any stream.
 *
 *   vqhip_latency --size 1920x1080 --fps 25 --seconds 10 [--backend cpu]
 *                 [--streams N]
 *
 * Frames done are received by polling vq_receive at least every
 * millisecond between arrivals, so a latency includes up to 1 ms of it.
 */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tool_clock.h"
#include "synth_pairs.h"
#include "vqhip.h"

#define K 8          /* distinct frame pairs, cycled */
#define MAX_SPECS 8
#define MAX_STREAMS 256

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
            "[--no-live] [--streams N]\n");
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

/* What every stream shares: the source's pace and the pictures (read
 * only; each stream submits them retained). */
typedef struct Source {
    double fps, t0;
    unsigned live;
    VqPicture ref[K], dis[K];
} Source;

/* One live stream: its context, its frames' times and its result. */
typedef struct Stream {
    const Source *src;
    VqContext *ctx;
    Bench b;
    double *submit_at;
    unsigned char *skipped;
    unsigned late;
    double max_late, max_block, wall;
    int err;
} Stream;

static void *stream_run(void *opaque)
{
    Stream *s = opaque;
    const Source *src = s->src;
    VqContext *ctx = s->ctx;
    /* Between arrivals, the frames done are received every millisecond:
     * their lines are written as they are delivered. */
    VqFrameScores fs;
    int err = 0, r = 0;
    for (unsigned i = 0; !err && i < s->b.n; i++) {
        double at = src->t0 + i / src->fps;
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
        if (!err && src->live && i && !vq_run_info(ctx, &info) && info.depth &&
            info.submitted - info.received >= info.depth) {
            err = vq_skip_next(ctx);
            s->skipped[i] = 1;
        }
        if (err)
            break;
        s->submit_at[i] = tool_now();
        if (s->submit_at[i] - at > 1e-3)
            s->late++;
        if (s->submit_at[i] - at > s->max_late)
            s->max_late = s->submit_at[i] - at;
        err = vq_submit_retained(ctx, &src->ref[i % K], &src->dis[i % K],
                                 no_release, NULL);
        if (tool_now() - s->submit_at[i] > s->max_block)
            s->max_block = tool_now() - s->submit_at[i];
    }
    s->wall = tool_now() - src->t0;
    if (!err)
        err = vq_flush(ctx);
    while (!err && (r = vq_receive_wait(ctx, &fs)) == 0)
        ;
    if (!err && r != VQ_EOF)
        err = r;
    s->err = err;
    return NULL;
}

static int stream_open(Stream *s, const Source *src, unsigned n,
                       const VqConfig *cfg, const char **models,
                       unsigned n_models, const char **features,
                       unsigned n_features)
{
    s->src = src;
    s->b.n = n;
    s->submit_at = malloc(n * sizeof(double));
    s->skipped = calloc(n, 1);
    s->b.line_at = malloc(n * sizeof(double));
    if (!s->submit_at || !s->skipped || !s->b.line_at)
        return VQ_ENOMEM;
    for (unsigned i = 0; i < n; i++)
        s->b.line_at[i] = NAN;
    int err = vq_open(&s->ctx, cfg);
    for (unsigned i = 0; !err && i < n_models; i++)
        err = vq_use_model(s->ctx, models[i]);
    for (unsigned i = 0; !err && i < n_features; i++)
        err = vq_use_feature(s->ctx, features[i]);
    if (!err)
        err = vq_set_stats_sink(s->ctx, sink, &s->b, VQ_STATS_FRAMES);
    if (!err)
        err = vq_configure(s->ctx, &src->ref[0]);
    return err;
}

static void stream_free(Stream *s)
{
    vq_close(&s->ctx);
    free(s->submit_at);
    free(s->skipped);
    free(s->b.line_at);
}

int main(int argc, char **argv)
{
    unsigned w = 1920, h = 1080, n_streams = 1;
    double seconds = 10, frames = 0, d;
    const char *models[MAX_SPECS], *features[MAX_SPECS];
    unsigned n_models = 0, n_features = 0;
    Source src = { .fps = 25, .live = 1 };
    VqConfig cfg = vq_default_config();
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        int bad = 0;
        if (!strcmp(a, "--no-live")) { src.live = 0; continue; }
        if (!strcmp(a, "--strict")) { cfg.strict = 1; continue; }
        if (!v)
            return usage();
        i++;
        if (!strcmp(a, "--size")) {
            bad = sscanf(v, "%ux%u", &w, &h) != 2 || w < 16 || h < 16 ||
                  w > 16384 || h > 16384;
        } else if (!strcmp(a, "--fps")) bad = num(a, v, 0.01, 1000, &src.fps);
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
        } else if (!strcmp(a, "--streams")) {
            bad = num(a, v, 1, MAX_STREAMS, &d);
            n_streams = (unsigned)d;
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
    unsigned n = frames ? (unsigned)frames : (unsigned)ceil(seconds * src.fps);
    unsigned char *buf = malloc(synth_pairs_size(w, h, K));
    Stream *st = calloc(n_streams, sizeof(*st));
    pthread_t *th = calloc(n_streams, sizeof(*th));
    if (!buf || !st || !th) {
        fprintf(stderr, "vqhip_latency: out of memory\n");
        return 1;
    }
    /* K pairs: a moving pattern and a noisy copy */
    synth_pairs(buf, w, h, K, src.ref, src.dis);

    int err = 0;
    unsigned bad_stream = 0;
    for (unsigned k = 0; !err && k < n_streams; k++)
        if ((err = stream_open(&st[k], &src, n, &cfg, models, n_models,
                               features, n_features)))
            bad_stream = k;
    /* every stream's first frame arrives at one instant, once all are open */
    src.t0 = tool_now() + 0.05 + 0.002 * n_streams;
    unsigned started = 0;
    for (; !err && started < n_streams; started++)
        if (pthread_create(&th[started], NULL, stream_run, &st[started])) {
            fprintf(stderr, "vqhip_latency: no thread for stream %u\n",
                    started + 1);
            err = VQ_ENOMEM;
            bad_stream = started;
            break;
        }
    for (unsigned k = 0; k < started; k++) {
        pthread_join(th[k], NULL);
        if (!err && st[k].err) {
            err = st[k].err;
            bad_stream = k;
        }
    }
    if (err) {
        fprintf(stderr, "vqhip_latency: stream %u: %s (%s)\n", bad_stream + 1,
                st[bad_stream].ctx ? vq_last_error(st[bad_stream].ctx) : "",
                vq_strerror(err));
        for (unsigned k = 0; k < n_streams; k++)
            stream_free(&st[k]);
        return 1;
    }

    VqRunInfo info;
    unsigned scored = 0, received = 0, lines_bad = 0, missing = 0, late = 0;
    double min_cov = 100, max_late = 0, max_block = 0, wall = 0;
    for (unsigned k = 0; k < n_streams; k++) {
        vq_run_info(st[k].ctx, &info);
        scored += info.scored;
        received += info.received;
        double cov = info.received ? 100.0 * info.scored / info.received : 0;
        if (cov < min_cov)
            min_cov = cov;
        late += st[k].late;
        lines_bad += st[k].b.bad_lines;
        if (st[k].max_late > max_late)
            max_late = st[k].max_late;
        if (st[k].max_block > max_block)
            max_block = st[k].max_block;
        if (st[k].wall > wall)
            wall = st[k].wall;
    }
    printf("latency: %ux%u at %g fps, %u frames%s, backend %s%s%s, depth %u, "
           "live %s\n", w, h, src.fps, n, n_streams > 1 ? " per stream" : "",
           vq_backend_name(st[0].ctx), *vq_device_name(st[0].ctx) ? " on " : "",
           vq_device_name(st[0].ctx), info.depth, src.live ? "on" : "off");
    if (n_streams > 1)
        printf("  %u streams at once: scored %u of %u (coverage %.1f%%, lowest "
               "stream %.1f%%)\n", n_streams, scored, received,
               received ? 100.0 * scored / received : 0.0, min_cov);
    else
        printf("  scored %u of %u (coverage %.1f%%)\n", scored, received,
               received ? 100.0 * scored / received : 0.0);
    /* from the frame's time in the paced source; the submission is at
     * that time unless the previous one was still blocked */
    size_t total = (size_t)n * n_streams;
    double *all = malloc(total * sizeof(double)), *sc = malloc(total * sizeof(double));
    unsigned n_all = 0, n_sc = 0;
    for (unsigned k = 0; all && sc && k < n_streams; k++)
        for (unsigned i = 0; i < n; i++) {
            if (isnan(st[k].b.line_at[i])) {
                missing++;
                continue;
            }
            double l = st[k].b.line_at[i] - (src.t0 + i / src.fps);
            all[n_all++] = l;
            if (!st[k].skipped[i])
                sc[n_sc++] = l;
        }
    printf("  arrival -> NDJSON frame line (a frame's scores wait for %u "
           "later frame(s): at least %.1f ms at this rate):\n", info.lag,
           1e3 * info.lag / src.fps);
    report("all frames", all, n_all);
    report("scored frames", sc, n_sc);
    printf("  input: %.2f s for %.2f s of frames (%.1f fps%s); submissions late "
           "(> 1 ms after their time): %u, at most %.1f ms; longest "
           "vq_submit %.1f ms\n", wall, n / src.fps, n / wall,
           n_streams > 1 ? " per stream" : "", late, 1e3 * max_late,
           1e3 * max_block);
    if (missing || lines_bad)
        printf("  FAIL: %u frames without a line, %u unexpected lines\n",
               missing, lines_bad);
    free(all);
    free(sc);
    for (unsigned k = 0; k < n_streams; k++)
        stream_free(&st[k]);
    free(st);
    free(th);
    free(buf);
    return missing || lines_bad ? 1 : 0;
}
