/* Live monitoring: alerts (vq_add_alert, run/alerts.h) and the stats
 * stream (vq_set_stats_sink, ndjson.c), driven by each frame delivered and
 * each window closed (vq_live_delivered, vq_live_end). */
#include <math.h>
#include <string.h>

#include "base/c_locale.h"
#include "base/log.h"
#include "context.h"

/* Window rule r's statistic among the windows'; -1 when they lack it. */
static int window_stat(const VqWindows *w, const VqAlertRule *r)
{
    for (unsigned k = 0; k < w->n_stats; k++)
        if (!strcmp(w->stats[k].name, r->stat.name))
            return (int)k;
    return -1;
}

/* Rule r's source: a collector id (frame rule), or an output and statistic
 * of the windows (window rule), once the first frame was delivered (every
 * output has a series then; some extractors make theirs only with their
 * first values). 0, or VQ_ENOTFOUND with a message. */
static int resolve(VqContext *ctx, VqAlertRule *r)
{
    const VqWindows *w = &ctx->win;
    int id = vq_collector_find(&ctx->sel.coll, r->output);
    if (id < 0)
        return vq_fail(&ctx->err, VQ_ENOTFOUND, "alert '%s': no output named "
                       "'%s'", r->text, r->output);
    if (!r->window) {
        r->src = id;
        return 0;
    }
    unsigned k = (unsigned)window_stat(w, r);
    for (unsigned o = 0; o < w->n_out; o++)
        if (!strcmp(vq_windows_output(w, &ctx->sel.coll, o), r->output)) {
            r->src = (int)(o * w->n_stats + k);
            return 0;
        }
    return vq_fail(&ctx->err, VQ_ENOTFOUND, "alert '%s': the windows have no "
                   "output '%s'", r->text, r->output);
}

int vq_add_alert(VqContext *ctx, const char *rules)
{
    if (!ctx || !rules)
        return VQ_EINVAL;
    if (ctx->run.n_submitted || ctx->run.held.n)
        return vq_fail(&ctx->err, VQ_ESTATE, "alerts are added before the "
                       "first pair");
    unsigned n0 = ctx->alerts.n;
    CLocale loc;
    c_locale_enter(&loc);
    int err = vq_alerts_parse(&ctx->alerts, rules, &ctx->err);
    c_locale_leave(&loc);
    for (unsigned i = n0; !err && i < ctx->alerts.n; i++) {
        VqAlertRule *r = &ctx->alerts.rules[i];
        if (r->window && !ctx->win.on)
            err = vq_fail(&ctx->err, VQ_EINVAL, "alert '%s': a window "
                          "statistic needs windows (set them first)", r->text);
        else if (r->window && window_stat(&ctx->win, r) < 0)
            err = vq_fail(&ctx->err, VQ_EINVAL, "alert '%s': the windows have "
                          "no statistic '%s' (add it to theirs)", r->text,
                          r->stat.name);
    }
    if (err)
        ctx->alerts.n = n0;
    return err;
}

int vq_receive_alert(VqContext *ctx, VqAlertEvent *out)
{
    if (!ctx || !out)
        return VQ_EINVAL;
    const VqAlertEv *ev = vq_alerts_next(&ctx->alerts);
    if (!ev)
        return VQ_EAGAIN;
    const VqAlertRule *r = &ctx->alerts.rules[ev->rule];
    *out = (VqAlertEvent){ r->name, r->text, ev->raised, ev->frame,
                           ev->window, ev->pts, ev->value };
    return 0;
}

unsigned vq_alert_count(const VqContext *ctx)
{
    return ctx ? ctx->alerts.n : 0;
}

int vq_alert_state(const VqContext *ctx, unsigned i, VqAlertState *out)
{
    if (!ctx || !out || i >= ctx->alerts.n)
        return VQ_EINVAL;
    const VqAlertRule *r = &ctx->alerts.rules[i];
    *out = (VqAlertState){ r->name, r->text, r->active, r->n_raised };
    return 0;
}

int vq_set_stats_sink(VqContext *ctx, VqWriteFn write, void *opaque,
                      unsigned flags)
{
    if (!ctx || !write || (flags & ~VQ_STATS_FRAMES))
        return VQ_EINVAL;
    if (ctx->run.n_submitted || ctx->run.held.n)
        return vq_fail(&ctx->err, VQ_ESTATE, "the stats stream is set before "
                       "the first pair");
    ctx->sink = (VqStatsSink){ write, opaque, flags, 0, false };
    return 0;
}

/* An event was queued: the stream gets it now. */
static int fed(VqContext *ctx, int r)
{
    if (r < 0)
        return vq_fail(&ctx->err, r, "alerts: out of memory");
    if (r > 0 && ctx->sink.write)
        vq_ndjson_alert(ctx, &ctx->alerts.ev[ctx->alerts.n_ev - 1]);
    return 0;
}

/* Windows closed since the last call: their lines, then their rules. */
static int windows_closed(VqContext *ctx)
{
    VqWindows *w = &ctx->win;
    for (; ctx->win_live < w->n_done; ctx->win_live++) {
        const VqWindowResult *res = &w->done[ctx->win_live];
        if (ctx->sink.write)
            vq_ndjson_window(ctx, ctx->win_live);
        for (unsigned i = 0; i < ctx->alerts.n; i++) {
            VqAlertRule *r = &ctx->alerts.rules[i];
            if (!r->window)
                continue;
            if (r->src < 0 && resolve(ctx, r))
                return VQ_ENOTFOUND;
            double v = w->done_values[res->values + (size_t)r->src];
            int err = fed(ctx, vq_alerts_feed(&ctx->alerts, i, v,
                                              res->last_frame,
                                              (int)ctx->win_live, res->end));
            if (err)
                return err;
        }
    }
    return 0;
}

static void summary(VqContext *ctx, bool complete)
{
    if (ctx->sink.write && !ctx->sink.summary_done)
        vq_ndjson_summary(ctx, complete);
    ctx->sink.summary_done = true;
}

int vq_live_delivered(VqContext *ctx, unsigned index, bool end)
{
    int err = vq_windows_frame(&ctx->win, &ctx->sel.coll, index);
    if (err)
        return vq_fail(&ctx->err, err, "windows: out of memory");
    double t = ctx->win.on ? ctx->win.frame_t : NAN;
    if (ctx->sink.write && (ctx->sink.flags & VQ_STATS_FRAMES))
        vq_ndjson_frame(ctx, index, t);
    bool scored = vq_collector_scored(&ctx->sel.coll, index);
    for (unsigned i = 0; i < ctx->alerts.n && scored; i++) {
        VqAlertRule *r = &ctx->alerts.rules[i];
        double v;
        if (r->window)
            continue;
        if (r->src < 0 && (err = resolve(ctx, r)))
            return err;
        if (vq_collector_get(&ctx->sel.coll, r->src, index, &v) &&
            (err = fed(ctx, vq_alerts_feed(&ctx->alerts, i, v, index, -1, t))))
            return err;
    }
    if ((err = windows_closed(ctx)))
        return err;
    if (end)
        err = vq_live_end(ctx);
    vq_prom_frame(ctx, index, end);
    return err;
}

int vq_live_end(VqContext *ctx)
{
    if (vq_windows_finish(&ctx->win))
        return vq_fail(&ctx->err, VQ_ENOMEM, "out of memory");
    int err = windows_closed(ctx);
    if (!err)
        summary(ctx, true);
    return err;
}

void vq_live_close(VqContext *ctx)
{
    if (ctx->run.n_delivered)
        summary(ctx, false);
    if (ctx->sink.n_lost)
        vq_log(&ctx->run.log, VQ_LOG_LEVEL_WARNING, "stats stream: %u lines "
               "were not written", ctx->sink.n_lost);
    vq_alerts_free(&ctx->alerts);
}
