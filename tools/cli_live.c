#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tool_clock.h"
#include "cli_live.h"

int cli_live_option(CliLive *lv, const char *name, const char *arg)
{
    if (!strcmp(name, "live")) {
        lv->on = 1;
        return 0;
    }
    char *end;
    errno = 0;
    double fps = strtod(arg, &end);
    if (errno || *end || end == arg || !(fps > 0) || fps > 1e6) {
        fprintf(stderr, "vqhip: --%s: '%s' is not a frame rate (e.g. 25, "
                "59.94)\n", name, arg);
        return -1;
    }
    lv->pace_fps = fps;
    return 0;
}

unsigned cli_live_buffers(const CliLive *lv, VqContext *ctx, unsigned n_buf,
                          unsigned max)
{
    VqRunInfo info;
    if (!lv->on || !ctx || vq_run_info(ctx, &info))
        return n_buf;
    /* depth 0: not chosen yet (the GPU opening); the most it can be */
    unsigned depth = info.depth ? info.depth : 16;
    unsigned want = depth + info.lag + 4;
    if (want < n_buf)
        want = n_buf;
    return want < max ? want : max;
}

void cli_live_pace(CliLive *lv, unsigned n, volatile sig_atomic_t *cancel)
{
    if (!(lv->pace_fps > 0))
        return;
    if (!n) {
        lv->t0 = tool_now();
        return;
    }
    /* absolute times: a late pair is taken at once and later pairs keep
     * the source's rate (a live source's frames wait in its pipe) */
    double at = lv->t0 + n / lv->pace_fps;
    struct timespec ts = { (time_t)floor(at), 0 };
    ts.tv_nsec = (long)((at - floor(at)) * 1e9);
    if (ts.tv_nsec > 999999999)
        ts.tv_nsec = 999999999;
    while (!(cancel && *cancel) &&
           clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
        ;
}

int cli_live_skip(CliLive *lv, VqContext *ctx, unsigned n)
{
    VqRunInfo info;
    /* Until the depth is known (the GPU opening) nothing is skipped, as in
     * the filter; nor when the ring of skipped indices is full (the pair
     * is then scored: slower, never wrong). */
    if (!lv->on || !n || vq_run_info(ctx, &info) || !info.depth ||
        info.submitted - info.received < info.depth ||
        lv->tail - lv->head == CLI_LIVE_RING)
        return 0;
    int err = vq_skip_next(ctx);
    if (err)
        return err;
    lv->ring[lv->tail++ % CLI_LIVE_RING] = n;
    lv->skipped++;
    return 0;
}

int cli_live_was_skipped(CliLive *lv, unsigned index)
{
    if (lv->head == lv->tail || lv->ring[lv->head % CLI_LIVE_RING] != index)
        return 0;
    lv->head++;
    return 1;
}

void cli_live_summary(const CliLive *lv, VqContext *ctx, FILE *out)
{
    VqRunInfo info;
    if (!lv->on || vq_run_info(ctx, &info))
        return;
    fprintf(out, "live: %u of %u frames scored (coverage %.1f%%)%s\n",
            info.scored, info.received,
            info.received ? 100.0 * info.scored / info.received : 0.0,
            lv->skipped ? ": the scoring did not keep up with the input; "
            "the others were not scored" : "");
}
