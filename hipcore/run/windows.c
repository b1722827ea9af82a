#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "windows.h"
#include "base/grow.h"

int vq_windows_setup(VqWindows *w, unsigned frames, double seconds,
                     unsigned tb_num, unsigned tb_den, const char *stats,
                     const char *thresholds, VqErrBuf *err)
{
    if (w->on)
        return vq_fail(err, VQ_ESTATE, "windows are already set");
    if ((frames > 0) == (seconds > 0) || !(seconds >= 0) || isinf(seconds))
        return vq_fail(err, VQ_EINVAL, "a window is either a number of "
                       "frames or a number of seconds above 0");
    if (seconds > 0 && (!tb_num || !tb_den))
        return vq_fail(err, VQ_EINVAL, "windows of seconds need the "
                       "frames' timestamps: set VqWindowConfig.time_base_num/den "
                       "and VqPicture.pts");
    char bad[64] = "";
    int r = vq_stat_parse_list(stats && *stats ? stats : "mean|min|max",
                               thresholds, &w->stats, &w->n_stats, bad,
                               sizeof(bad));
    if (r == VQ_EINVAL)
        return vq_fail(err, r, "unknown statistic '%s' (mean, min, max, "
                       "harmonic_mean, median, percP, belowT; thresholds: "
                       "numbers)", bad);
    if (r)
        return vq_fail(err, r, "out of memory");
    if (!w->n_stats)
        return vq_fail(err, VQ_EINVAL, "no statistic for the windows");
    w->frames = frames;
    w->seconds = seconds;
    w->tb_num = tb_num;
    w->tb_den = tb_den;
    w->on = true;
    return 0;
}

int vq_windows_note_pts(VqWindows *w, unsigned index, int64_t pts)
{
    if (!w->on || !w->tb_num || !w->tb_den)
        return 0;
    if (!w->pts_n)
        w->pts_head = index;
    if (index != w->pts_head + w->pts_n)
        return VQ_EINVAL;
    if (w->pts_n == w->pts_cap) {
        /* frame i's pts is at i % cap */
        unsigned cap = w->pts_cap ? 2 * w->pts_cap : 64;
        int64_t *p = malloc(cap * sizeof(*p));
        if (!p)
            return VQ_ENOMEM;
        for (unsigned k = 0; k < w->pts_n; k++)
            p[(w->pts_head + k) % cap] = w->pts[(w->pts_head + k) % w->pts_cap];
        free(w->pts);
        w->pts = p;
        w->pts_cap = cap;
    }
    w->pts[index % w->pts_cap] = pts;
    w->pts_n++;
    return 0;
}

/* Seconds of frame index's pts (NaN without a time base); *rel: since the
 * first frame's. */
static double frame_time(VqWindows *w, unsigned index, double *rel)
{
    *rel = NAN;
    if (!w->tb_num || !w->tb_den || !w->pts_n || w->pts_head != index)
        return NAN;
    int64_t pts = w->pts[index % w->pts_cap];
    w->pts_head++;
    w->pts_n--;
    if (!w->have_pts0) {
        w->pts0 = pts;
        w->have_pts0 = true;
    }
    *rel = (double)(pts - w->pts0) * w->tb_num / w->tb_den;
    return (double)pts * w->tb_num / w->tb_den;
}

static int push_value(VqWindows *w, unsigned o, double v)
{
    if (w->n_vals[o] == w->cap) {
        unsigned cap = w->cap ? 2 * w->cap : 64;
        double *vals = malloc((size_t)cap * w->n_out * sizeof(*vals));
        double *sorted = malloc((size_t)cap * sizeof(*sorted));
        if (!vals || !sorted) {
            free(vals);
            free(sorted);
            return VQ_ENOMEM;
        }
        for (unsigned k = 0; k < w->n_out && w->vals; k++)
            memcpy(vals + (size_t)k * cap, w->vals + (size_t)k * w->cap,
                   w->n_vals[k] * sizeof(*vals));
        free(w->vals);
        free(w->sorted);
        w->vals = vals;
        w->sorted = sorted;
        w->cap = cap;
    }
    w->vals[(size_t)o * w->cap + w->n_vals[o]++] = v;
    return 0;
}

/* The one place where a window closes: its statistics are computed and
 * kept; vq_receive_window hands them out, the logs write them. */
static int windows_close(VqWindows *w, bool partial)
{
    VqWindowResult *d = vq_grow(w->done, w->n_done, &w->cap_done,
                                sizeof(*d), 16);
    if (!d)
        return VQ_ENOMEM;
    w->done = d;
    size_t need = (size_t)w->n_out * w->n_stats;
    if (w->n_done_values + need > w->cap_done_values) {
        size_t cap = w->cap_done_values ? 2 * w->cap_done_values : 256;
        while (cap < w->n_done_values + need)
            cap *= 2;
        double *v = realloc(w->done_values, cap * sizeof(*v));
        if (!v)
            return VQ_ENOMEM;
        w->done_values = v;
        w->cap_done_values = cap;
    }
    VqWindowResult *r = &w->done[w->n_done];
    *r = (VqWindowResult){ w->first, w->last, w->n_frames, w->n_scored,
                           w->start, w->end, partial, w->n_done_values };
    double *out = w->done_values + w->n_done_values;
    bool sort = vq_stat_needs_sort(w->stats, w->n_stats);
    for (unsigned o = 0; o < w->n_out; o++) {
        double *v = w->vals + (size_t)o * w->cap, *res = out + o * w->n_stats;
        unsigned n = w->n_vals[o];
        if (!n) {
            /* no scored frame (n_subsample above the window's length, or all
             * skipped) */
            for (unsigned k = 0; k < w->n_stats; k++)
                res[k] = NAN;
            continue;
        }
        if (sort) {
            memcpy(w->sorted, v, n * sizeof(*v));
            vq_stat_sort(w->sorted, n);
        }
        vq_stat_compute(w->stats, w->n_stats, v, sort ? w->sorted : NULL,
                        n, res);
        w->n_vals[o] = 0;
    }
    w->n_done_values += need;
    w->n_done++;
    w->open = false;
    return 0;
}

int vq_windows_frame(VqWindows *w, const VqCollector *c, unsigned index)
{
    if (!w->on)
        return 0;
    if (!w->ids) {
        w->n_out = c->n;
        w->ids = malloc((c->n ? c->n : 1) * sizeof(*w->ids));
        w->n_vals = calloc(c->n ? c->n : 1, sizeof(*w->n_vals));
        if (!w->ids || !w->n_vals)
            return VQ_ENOMEM;
        for (unsigned o = 0; o < c->n; o++)
            w->ids[o] = vq_collector_nth(c, o);
    }
    double rel, t = frame_time(w, index, &rel);
    w->frame_t = t;
    int64_t slot;
    if (w->frames)
        slot = index / w->frames;
    else
        slot = isnan(rel) ? w->slot : (int64_t)floor(rel / w->seconds);
    int err;
    /* a timestamp going back stays in the open window */
    if (w->open && slot > w->slot && (err = windows_close(w, false)))
        return err;
    if (!w->open) {
        w->open = true;
        w->slot = slot;
        w->first = index;
        w->n_frames = w->n_scored = 0;
        w->start = t;
    }
    w->last = index;
    w->end = t;
    w->n_frames++;
    if (vq_collector_scored(c, index)) {
        w->n_scored++;
        for (unsigned o = 0; o < w->n_out; o++) {
            double v;
            if (vq_collector_get(c, w->ids[o], index, &v) &&
                (err = push_value(w, o, v)))
                return err;
        }
    }
    if (w->frames && w->n_frames == w->frames)
        return windows_close(w, false);
    return 0;
}

int vq_windows_finish(VqWindows *w)
{
    return w->on && w->open ? windows_close(w, true) : 0;
}

const char *vq_windows_output(const VqWindows *w, const VqCollector *c,
                              unsigned o)
{
    return c->series[w->ids[o]].name;
}

void vq_windows_free(VqWindows *w)
{
    free(w->stats);
    free(w->ids);
    free(w->vals);
    free(w->n_vals);
    free(w->sorted);
    free(w->pts);
    free(w->done);
    free(w->done_values);
    memset(w, 0, sizeof(*w));
}
