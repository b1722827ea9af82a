/*
 * Per-frame prediction. The arithmetic follows libvmaf's predict.c step by
 * step (same operations, same order, doubles throughout) so that the score
 * is bit-exact whenever its inputs are:
 *   rescale features -> [chroma correction] -> SVR -> denormalize
 *   -> [transform: polynomial, knots, rectification] -> [clip].
 * Bootstrap statistics are computed on the members' scores before
 * transform and clip, then mapped through the first member's transform and
 * clip, as libvmaf does.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model_priv.h"

static double rescale(const VqSvr *s, double slope, double intercept,
                      double x)
{
    return s->norm == VQ_NORM_LINEAR_RESCALE ? slope * x + intercept : x;
}

static double unscale(const VqSvr *s, double slope, double intercept,
                      double y)
{
    return s->norm == VQ_NORM_LINEAR_RESCALE ? (y - intercept) / slope : y;
}

/* A chroma feature that is exactly 0 (after a rescale round trip, as
 * libvmaf compares it) is replaced by param * (1 - adm3). */
static void correct_chroma(const VqSvr *s, double *x)
{
    const VqModelFeature *fg = &s->feature[s->chroma.guiding];
    const VqModelFeature *fc = &s->feature[s->chroma.guided];
    double guided = unscale(s, fc->slope, fc->intercept, x[s->chroma.guided]);
    if (guided != 0.0)
        return;
    double guiding = unscale(s, fg->slope, fg->intercept,
                             x[s->chroma.guiding]);
    double corrected = (-s->chroma.param * guiding) + s->chroma.param;
    x[s->chroma.guided] = rescale(s, fc->slope, fc->intercept, corrected);
}

/* Score before transform and clip. */
static double predict_raw(const VqSvr *s, const double *inputs, double *x)
{
    for (unsigned i = 0; i < s->n_features; i++) {
        const VqModelFeature *f = &s->feature[i];
        x[i] = rescale(s, f->slope, f->intercept, inputs[f->input]);
    }
    if (s->chroma.enabled)
        correct_chroma(s, x);
    double y = vq_svm_predict(&s->svm, x);
    return unscale(s, s->slope, s->intercept, y);
}

/* Line through two knots; libvmaf special-cases a first knot at x = 0. */
static void segment_line(double x0, double y0, double x1, double y1,
                         double *slope, double *offset)
{
    if (x0 == 0) {
        *offset = y0;
        *slope = (y1 - *offset) / x1;
    } else {
        *slope = (y1 - y0) / (x1 - x0);
        *offset = y0 - (x0 * (*slope));
    }
}

/* Piecewise-linear map; the first and last segments extend outward, and at
 * a shared knot the later segment wins (libvmaf's loop order). */
static double knots_map(const VqSvr *s, double x)
{
    const double *kx = s->transform.knot_x, *ky = s->transform.knot_y;
    const unsigned n_seg = s->transform.n_knots - 1;
    double y = 0.0;
    for (unsigned i = 0; i < n_seg; i++) {
        bool inside = kx[i] <= x && x <= kx[i + 1];
        bool below = i == 0 && x < kx[i];
        bool above = i == n_seg - 1 && x > kx[i + 1];
        if (ky[i] == ky[i + 1]) {
            if (inside || below || above)
                y = ky[i];
        } else {
            double slope, offset;
            segment_line(kx[i], ky[i], kx[i + 1], ky[i + 1], &slope, &offset);
            if (inside || below || above)
                y = slope * x + offset;
        }
    }
    return y;
}

static double transform(const VqSvr *s, double y_in)
{
    if (!s->transform.enabled)
        return y_in;
    const bool *has = s->transform.has_p;
    const double *p = s->transform.p;
    double y = y_in;
    if (has[0] || has[1] || has[2]) {
        y = 0.;
        if (has[0])
            y += p[0];
        if (has[1])
            y += p[1] * y_in;
        if (has[2])
            y += p[2] * y_in * y_in;
    }
    if (s->transform.n_knots)
        y = knots_map(s, y);
    if (s->transform.out_lte_in && y > y_in)
        y = y_in;
    if (s->transform.out_gte_in && y < y_in)
        y = y_in;
    return y;
}

static double clip(const VqSvr *s, double y)
{
    if (!s->clip.enabled)
        return y;
    y = y < s->clip.min ? s->clip.min : y;
    return y > s->clip.max ? s->clip.max : y;
}

static double finish(const VqSvr *s, double raw)
{
    return clip(s, transform(s, raw));
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x > y ? 1 : x < y ? -1 : 0;
}

/* Linear interpolation between order statistics, libvmaf's definition. */
static double percentile(const double *sorted, unsigned n, double perc)
{
    const double p = perc * (n - 1) / 100.;
    const int lo = (int)floor(p), hi = (int)ceil(p);
    return lo == hi ? sorted[lo] :
        sorted[lo] * (hi - p) + sorted[hi] * (p - lo);
}

typedef struct Stats {
    double bagging, stddev, lo, hi;
} Stats;

static Stats bootstrap_stats(const VqModel *m, double *raw, unsigned n)
{
    Stats st;
    double sum = 0.;
    for (unsigned i = 0; i < n; i++)
        sum += raw[i];
    const double mean = sum / n;
    double ssd = 0.;
    for (unsigned i = 0; i < n; i++)
        ssd += pow(raw[i] - mean, 2);
    st.stddev = sqrt(ssd / n);
    qsort(raw, n, sizeof(*raw), cmp_double);
    const VqSvr *first = &m->svr[1];
    const double delta = 0.01;
    st.bagging = finish(first, mean);
    st.lo = finish(first, percentile(raw, n, 2.5));
    st.hi = finish(first, percentile(raw, n, 97.5));
    const double plus = finish(first, mean + delta);
    const double minus = finish(first, mean - delta);
    st.stddev *= (plus - minus) / (2.0 * delta);
    return st;
}

/* Cached collector ids are checked, so a model may be used with another
 * collector (tests do). */
static bool is_series(const VqCollector *c, int id, const char *name)
{
    return id >= 0 && (unsigned)id < c->n && !strcmp(c->series[id].name, name);
}

static int write_out(VqModel *m, VqCollector *c, unsigned k, unsigned index,
                     const char *backend, double v, VqErrBuf *e)
{
    if (!is_series(c, m->out_series[k], m->out_name[k])) {
        int id = vq_collector_series(c, m->out_name[k], backend);
        if (id < 0)
            return vq_fail(e, VQ_ENOMEM, "out of memory");
        m->out_series[k] = id;
    }
    return vq_collector_set(c, m->out_series[k], index, v) ?
        vq_fail(e, VQ_ENOMEM, "out of memory") : 0;
}

int vq_model_predict(VqModel *m, VqCollector *c, unsigned index,
                     const char *backend, VqErrBuf *e)
{
    if (!m || !c)
        return vq_fail(e, VQ_EINVAL, "vq_model_predict: no model");
    double *inputs = m->scratch;
    double *x = inputs + m->n_input;
    double *raw = x + VQ_MODEL_MAX_FEATURES;
    for (unsigned i = 0; i < m->n_input; i++) {
        VqModelInput *in = &m->input[i];
        if (!is_series(c, in->series, in->output))
            in->series = vq_collector_find(c, in->output);
        if (in->series < 0 ||
            !vq_collector_get(c, in->series, index, &inputs[i]))
            return vq_fail(e, VQ_EINVAL, "model %s: no value of %s (%s) for "
                           "frame %u", m->name, in->output, in->libvmaf_name,
                           index);
    }
    int err = write_out(m, c, 0, index, backend,
                        finish(&m->svr[0], predict_raw(&m->svr[0], inputs, x)),
                        e);
    if (err || !m->bootstrap)
        return err;
    const unsigned n = m->n_svr - 1;
    for (unsigned i = 0; i < n; i++) {
        const VqSvr *s = &m->svr[1 + i];
        raw[i] = predict_raw(s, inputs, x);
        err = write_out(m, c, 1 + i, index, backend, finish(s, raw[i]), e);
        if (err)
            return err;
    }
    const Stats st = bootstrap_stats(m, raw, n);
    const double v[4] = { st.bagging, st.stddev, st.lo, st.hi };
    for (unsigned k = 0; k < 4 && !err; k++)
        err = write_out(m, c, 1 + n + k, index, backend, v[k], e);
    return err;
}

int vq_model_setup_outputs(VqModel *m, VqErrBuf *e)
{
    static const char *const stat[4] = {
        "_bagging", "_stddev", "_ci_p95_lo", "_ci_p95_hi"
    };
    const unsigned n_members = m->bootstrap ? m->n_svr - 1 : 0;
    m->n_out = 1 + (m->bootstrap ? n_members + 4 : 0);
    m->out_name = calloc(m->n_out, sizeof(*m->out_name));
    m->out_series = malloc(m->n_out * sizeof(*m->out_series));
    m->scratch = calloc(m->n_input + VQ_MODEL_MAX_FEATURES + n_members + 1,
                        sizeof(double));
    if (!m->out_name || !m->out_series || !m->scratch)
        return vq_fail(e, VQ_ENOMEM, "out of memory");
    const size_t size = strlen(m->name) + 16;
    for (unsigned k = 0; k < m->n_out; k++) {
        m->out_series[k] = -1;
        char *s = m->out_name[k] = malloc(size);
        if (!s)
            return vq_fail(e, VQ_ENOMEM, "out of memory");
        if (!k)
            snprintf(s, size, "%s", m->name);
        else if (k <= n_members)
            snprintf(s, size, "%s_%04u", m->name, k);
        else
            snprintf(s, size, "%s%s", m->name, stat[k - 1 - n_members]);
    }
    return 0;
}
