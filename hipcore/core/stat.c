#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stat.h"
#include "vqhip.h"

static int parse_number(const char *s, double *out)
{
    char *end;
    if (!*s || isspace((unsigned char)*s))
        return VQ_EINVAL;
    double v = strtod(s, &end);
    if (*end || !isfinite(v))
        return VQ_EINVAL;
    *out = v;
    return 0;
}

int vq_stat_parse(const char *name, VqStat *out)
{
    memset(out, 0, sizeof(*out));
    size_t len = strlen(name);
    if (len >= VQ_STAT_NAME_SIZE)
        return VQ_EINVAL;
    memcpy(out->name, name, len + 1);
    if (!strcmp(name, "mean"))
        out->kind = VQ_STAT_MEAN;
    else if (!strcmp(name, "min"))
        out->kind = VQ_STAT_MIN;
    else if (!strcmp(name, "max"))
        out->kind = VQ_STAT_MAX;
    else if (!strcmp(name, "harmonic_mean"))
        out->kind = VQ_STAT_HMEAN;
    else if (!strcmp(name, "median")) {
        out->kind = VQ_STAT_PERC;
        out->param = 50;
    } else if (!strncmp(name, "perc", 4)) {
        out->kind = VQ_STAT_PERC;
        if (parse_number(name + 4, &out->param) || out->param < 0 ||
            out->param > 100)
            return VQ_EINVAL;
    } else if (!strncmp(name, "below", 5)) {
        out->kind = VQ_STAT_BELOW;
        if (parse_number(name + 5, &out->param))
            return VQ_EINVAL;
    } else {
        return VQ_EINVAL;
    }
    return 0;
}

static int add_stat(VqStat **out, unsigned *n, const VqStat *s)
{
    for (unsigned i = 0; i < *n; i++)
        if (!strcmp((*out)[i].name, s->name))
            return 0;
    VqStat *a = realloc(*out, (*n + 1) * sizeof(*a));
    if (!a)
        return VQ_ENOMEM;
    a[(*n)++] = *s;
    *out = a;
    return 0;
}

/* Calls one item of a '|'-separated list at a time (prefix + item). */
static int parse_items(const char *list, const char *prefix, VqStat **out,
                       unsigned *n, char *err, unsigned err_size)
{
    const char *p = list;
    while (p && *p) {
        const char *bar = strchr(p, '|');
        size_t len = bar ? (size_t)(bar - p) : strlen(p);
        char name[VQ_STAT_NAME_SIZE + 8];
        VqStat s;
        int r = VQ_EINVAL;
        if (len && len + strlen(prefix) < VQ_STAT_NAME_SIZE) {
            snprintf(name, sizeof(name), "%s%.*s", prefix, (int)len, p);
            r = vq_stat_parse(name, &s);
        }
        if (r) {
            if (err)
                snprintf(err, err_size, "%s%.*s", prefix, (int)len, p);
            return VQ_EINVAL;
        }
        if ((r = add_stat(out, n, &s)))
            return r;
        p = bar ? bar + 1 : NULL;
    }
    return 0;
}

int vq_stat_parse_list(const char *list, const char *thresholds,
                       VqStat **out, unsigned *n, char *err, unsigned err_size)
{
    *out = NULL;
    *n = 0;
    int r = parse_items(list, "", out, n, err, err_size);
    if (!r)
        r = parse_items(thresholds, "below", out, n, err, err_size);
    if (r) {
        free(*out);
        *out = NULL;
        *n = 0;
    }
    return r;
}

bool vq_stat_needs_sort(const VqStat *s, unsigned n_stats)
{
    for (unsigned k = 0; k < n_stats; k++)
        if (s[k].kind == VQ_STAT_PERC)
            return true;
    return false;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    if (isnan(x) || isnan(y))
        return isnan(x) - isnan(y);
    return (x > y) - (x < y);
}

void vq_stat_sort(double *v, unsigned n)
{
    if (n)
        qsort(v, n, sizeof(*v), cmp_double);
}

/* numpy.percentile(x, p) with its default method "linear" (numpy 1.22+),
 * step for step so that the result is the same double: q = p / 100, the
 * virtual index (n - 1) * q, and numpy's _lerp between the neighbours
 * (a + (b - a) * g below g = 0.5, b - (b - a) * (1 - g) from it); any NaN
 * gives NaN. */
static double percentile(const double *sorted, unsigned n, double p)
{
    if (isnan(sorted[n - 1]))
        return NAN;
    double q = p / 100.0;
    double vi = (double)(n - 1) * q;
    if (vi >= (double)(n - 1))
        return sorted[n - 1];
    double lo = floor(vi);
    double g = vi - lo;
    double a = sorted[(unsigned)lo], b = sorted[(unsigned)lo + 1];
    double d = b - a;
    return g >= 0.5 ? b - d * (1.0 - g) : a + d * g;
}

void vq_stat_compute(const VqStat *s, unsigned n_stats, const double *v,
                     const double *sorted, unsigned n, double *out)
{
    /* In frame order, the formulas of libvmaf's pooling (as
     * vq_collector_pool): the same sums, so the same doubles. */
    double min = 0., max = 0., sum = 0., i_sum = 0.;
    for (unsigned i = 0; i < n; i++) {
        double x = v[i];
        sum += x;
        i_sum += 1. / (x + 1.);
        if (!i || x < min)
            min = x;
        if (!i || x > max)
            max = x;
    }
    for (unsigned k = 0; k < n_stats; k++) {
        switch (s[k].kind) {
        case VQ_STAT_MEAN: out[k] = sum / n; break;
        case VQ_STAT_MIN: out[k] = min; break;
        case VQ_STAT_MAX: out[k] = max; break;
        case VQ_STAT_HMEAN: out[k] = n / i_sum - 1.0; break;
        case VQ_STAT_PERC: out[k] = percentile(sorted, n, s[k].param); break;
        case VQ_STAT_BELOW: {
            unsigned below = 0;
            for (unsigned i = 0; i < n; i++)
                below += v[i] < s[k].param;
            out[k] = (double)below / n;
            break;
        }
        }
    }
}
