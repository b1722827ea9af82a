/* Windows and statistics by name: vq_use_windows, vq_receive_window,
 * vq_pooled_stat, vq_log_pools (run/windows.h,
 * core/stat.h). */
#include <stdlib.h>

#include "context.h"

int vq_use_windows(VqContext *ctx, const VqWindowConfig *wc)
{
    if (!ctx || !wc)
        return VQ_EINVAL;
    if (ctx->run.n_submitted || ctx->run.held.n)
        return vq_fail(&ctx->err, VQ_ESTATE, "windows are set before the "
                       "first pair");
    return vq_windows_setup(&ctx->win, wc->frames, wc->seconds,
                            wc->time_base_num, wc->time_base_den,
                            wc->stats, wc->thresholds, &ctx->err);
}

int vq_receive_window(VqContext *ctx, VqWindow *out)
{
    if (!ctx || !out)
        return VQ_EINVAL;
    VqWindows *w = &ctx->win;
    if (w->n_taken == w->n_done)
        return VQ_EAGAIN;
    unsigned n = w->n_out * w->n_stats;
    if (ctx->win_stats_cap < n) {
        VqWindowStat *s = realloc(ctx->win_stats, n * sizeof(*s));
        if (!s)
            return vq_fail(&ctx->err, VQ_ENOMEM, "out of memory");
        ctx->win_stats = s;
        ctx->win_stats_cap = n;
    }
    const VqWindowResult *r = &w->done[w->n_taken];
    for (unsigned o = 0; o < w->n_out; o++) {
        for (unsigned k = 0; k < w->n_stats; k++) {
            VqWindowStat *s = &ctx->win_stats[o * w->n_stats + k];
            s->output = vq_windows_output(w, &ctx->sel.coll, o);
            s->stat = w->stats[k].name;
            s->value = w->done_values[r->values + o * w->n_stats + k];
        }
    }
    *out = (VqWindow){ w->n_taken, r->first_frame, r->last_frame,
                       r->n_frames, r->n_scored, r->start, r->end,
                       r->partial, n, ctx->win_stats };
    w->n_taken++;
    return 0;
}

void vq_windows_api_free(VqContext *ctx)
{
    vq_windows_free(&ctx->win);
    free(ctx->win_stats);
    free(ctx->log_pools);
}

int vq_pooled_stat(VqContext *ctx, const char *name, const char *stat,
                   double *out)
{
    if (!ctx || !name || !stat || !out)
        return VQ_EINVAL;
    VqStat s;
    if (vq_stat_parse(stat, &s))
        return vq_fail(&ctx->err, VQ_EINVAL, "unknown statistic '%s'", stat);
    double *v;
    unsigned n;
    int err = vq_collector_values(&ctx->sel.coll, name, ctx->run.n_delivered,
                                  &v, &n);
    if (err == VQ_ENOTFOUND)
        return vq_fail(&ctx->err, err, "no output named '%s'", name);
    if (err == VQ_ENOMEM)
        return vq_fail(&ctx->err, err, "out of memory");
    if (err)
        return vq_fail(&ctx->err, err, "'%s' has no value for some frame "
                       "(or no frame was received)", name);
    double *sorted = NULL;
    if (vq_stat_needs_sort(&s, 1)) {
        sorted = malloc(n * sizeof(*sorted));
        if (!sorted) {
            free(v);
            return vq_fail(&ctx->err, VQ_ENOMEM, "out of memory");
        }
        for (unsigned i = 0; i < n; i++)
            sorted[i] = v[i];
        vq_stat_sort(sorted, n);
    }
    vq_stat_compute(&s, 1, v, sorted, n, out);
    free(sorted);
    free(v);
    return 0;
}

int vq_log_pools(VqContext *ctx, const char *list)
{
    if (!ctx || !list)
        return VQ_EINVAL;
    VqStat *s;
    unsigned n;
    char bad[64] = "";
    int err = vq_stat_parse_list(list, NULL, &s, &n, bad, sizeof(bad));
    if (err == VQ_EINVAL)
        return vq_fail(&ctx->err, err, "unknown statistic '%s'", bad);
    if (err)
        return vq_fail(&ctx->err, err, "out of memory");
    free(ctx->log_pools);
    ctx->log_pools = s;
    ctx->n_log_pools = n;
    return 0;
}
