#include <stdlib.h>
#include <string.h>

#include "collector.h"

void vq_collector_free(VqCollector *c)
{
    for (unsigned i = 0; i < c->n; i++) {
        free(c->series[i].name);
        free(c->series[i].value);
        free(c->series[i].written);
    }
    free(c->series);
    free(c->order);
    for (unsigned i = 0; i < c->n_aggregate; i++)
        free((char *)c->aggregate[i].name);
    free(c->aggregate);
    free(c->skipped);
    memset(c, 0, sizeof(*c));
}

int vq_collector_skip(VqCollector *c, unsigned i)
{
    if (i / 64 >= c->n_skip_words) {
        unsigned n = c->n_skip_words ? c->n_skip_words : 16;
        while (n <= i / 64) /* at most 2^26 words: any unsigned i fits */
            n *= 2;
        uint64_t *w = realloc(c->skipped, (size_t)n * sizeof(*w));
        if (!w)
            return VQ_ENOMEM;
        memset(w + c->n_skip_words, 0,
               (size_t)(n - c->n_skip_words) * sizeof(*w));
        c->skipped = w;
        c->n_skip_words = n;
    }
    c->skipped[i / 64] |= UINT64_C(1) << (i % 64);
    return 0;
}

int vq_collector_find(const VqCollector *c, const char *name)
{
    for (unsigned i = 0; i < c->n; i++)
        if (!strcmp(c->series[i].name, name))
            return (int)i;
    return VQ_ENOTFOUND;
}

int vq_collector_series_ranked(VqCollector *c, const char *name,
                               const char *backend, uint64_t rank)
{
    int id = vq_collector_find(c, name);
    if (id >= 0)
        return id;
    if (c->n == c->cap) {
        unsigned cap = c->cap ? 2 * c->cap : 32;
        VqSeries *s = realloc(c->series, cap * sizeof(*s));
        if (!s)
            return VQ_ENOMEM;
        c->series = s;
        unsigned *o = realloc(c->order, cap * sizeof(*o));
        if (!o)
            return VQ_ENOMEM;
        c->order = o;
        c->cap = cap;
    }
    VqSeries *s = &c->series[c->n];
    memset(s, 0, sizeof(*s));
    s->name = strdup(name);
    if (!s->name)
        return VQ_ENOMEM;
    s->backend = backend;
    s->rank = rank;
    /* after every series of the same or a lower rank */
    unsigned pos = c->n;
    while (pos > 0 && c->series[c->order[pos - 1]].rank > rank)
        pos--;
    memmove(&c->order[pos + 1], &c->order[pos],
            (c->n - pos) * sizeof(c->order[0]));
    c->order[pos] = c->n;
    return (int)c->n++;
}

int vq_collector_series(VqCollector *c, const char *name, const char *backend)
{
    return vq_collector_series_ranked(c, name, backend, VQ_RANK_LAST);
}

int vq_collector_nth(const VqCollector *c, unsigned i)
{
    return i < c->n ? (int)c->order[i] : VQ_EINVAL;
}

static int grow(VqSeries *s, unsigned index)
{
    if (index < s->cap)
        return 0;
    unsigned cap = s->cap ? s->cap : 64;
    while (cap <= index)
        cap *= 2;
    double *v = realloc(s->value, cap * sizeof(*v));
    if (!v)
        return VQ_ENOMEM;
    s->value = v;
    uint8_t *w = realloc(s->written, cap);
    if (!w)
        return VQ_ENOMEM;
    memset(w + s->cap, 0, cap - s->cap);
    s->written = w;
    s->cap = cap;
    return 0;
}

int vq_collector_set(VqCollector *c, int id, unsigned index, double value)
{
    if (id < 0 || (unsigned)id >= c->n)
        return VQ_EINVAL;
    VqSeries *s = &c->series[id];
    int err = grow(s, index);
    if (err)
        return err;
    s->value[index] = value;
    s->written[index] = 1;
    return 0;
}

int vq_collector_get(const VqCollector *c, int id, unsigned index, double *value)
{
    if (id < 0 || (unsigned)id >= c->n)
        return 0;
    const VqSeries *s = &c->series[id];
    if (index >= s->cap || !s->written[index])
        return 0;
    *value = s->value[index];
    return 1;
}

int vq_collector_set_aggregate(VqCollector *c, const char *name, double value)
{
    for (unsigned i = 0; i < c->n_aggregate; i++) {
        if (!strcmp(c->aggregate[i].name, name)) {
            c->aggregate[i].value = value;
            return 0;
        }
    }
    VqScore *a = realloc(c->aggregate, (c->n_aggregate + 1) * sizeof(*a));
    if (!a)
        return VQ_ENOMEM;
    c->aggregate = a;
    a[c->n_aggregate].name = strdup(name);
    if (!a[c->n_aggregate].name)
        return VQ_ENOMEM;
    a[c->n_aggregate].value = value;
    c->n_aggregate++;
    return 0;
}

int vq_collector_pool(const VqCollector *c, const char *name, VqPool pool,
                      unsigned n_frames, double *out)
{
    int id = vq_collector_find(c, name);
    if (id < 0)
        return VQ_ENOTFOUND;
    unsigned cnt = 0;
    double min = 0., max = 0., sum = 0., i_sum = 0.;
    /* Same order and formulas as libvmaf's vmaf_feature_score_pooled(). */
    for (unsigned i = 0; i < n_frames; i++) {
        double s;
        if (!vq_collector_scored(c, i))
            continue;
        if (!vq_collector_get(c, id, i, &s))
            return VQ_EINVAL;
        sum += s;
        i_sum += 1. / (s + 1.);
        if (!cnt || s < min)
            min = s;
        if (!cnt || s > max)
            max = s;
        cnt++;
    }
    if (!cnt)
        return VQ_EINVAL;
    switch (pool) {
    case VQ_POOL_MEAN: *out = sum / cnt; return 0;
    case VQ_POOL_MIN: *out = min; return 0;
    case VQ_POOL_MAX: *out = max; return 0;
    case VQ_POOL_HARMONIC_MEAN: *out = cnt / i_sum - 1.0; return 0;
    }
    return VQ_EINVAL;
}

int vq_collector_values(const VqCollector *c, const char *name,
                        unsigned n_frames, double **out, unsigned *n)
{
    int id = vq_collector_find(c, name);
    if (id < 0)
        return VQ_ENOTFOUND;
    unsigned cnt = 0;
    for (unsigned i = 0; i < n_frames; i++)
        cnt += vq_collector_scored(c, i);
    if (!cnt)
        return VQ_EINVAL;
    double *v = malloc(cnt * sizeof(*v));
    if (!v)
        return VQ_ENOMEM;
    for (unsigned i = 0, k = 0; i < n_frames; i++) {
        if (vq_collector_scored(c, i) && !vq_collector_get(c, id, i, &v[k++])) {
            free(v);
            return VQ_EINVAL;
        }
    }
    *out = v;
    *n = cnt;
    return 0;
}
