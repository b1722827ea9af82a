#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report_stats.h"

const double report_pct_levels[REPORT_N_PCT] = { 1, 5, 10, 20, 50 };

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double report_percentile_sorted(const double *sorted, size_t n, double p)
{
    if (!n)
        return NAN;
    /* numpy: q = p / 100; virtual index (n - 1) * q; _lerp() takes the
     * upper neighbour's side from gamma 0.5 on. */
    double q = p / 100.0;
    double vi = (double)(n - 1) * q;
    double lo_i = floor(vi);
    size_t lo = (size_t)lo_i, hi = lo + 1 < n ? lo + 1 : n - 1;
    if (lo >= n)
        lo = n - 1;
    double gamma = vi - lo_i;
    double a = sorted[lo], b = sorted[hi], diff = b - a;
    return gamma >= 0.5 ? b - diff * (1 - gamma) : a + diff * gamma;
}

/* numpy's pairwise summation (DOUBLE_pairwise_sum): below 8 values a plain
 * loop, up to 128 eight running sums, above that halves. */
static double pairwise_sum(const double *a, size_t n)
{
    if (n < 8) {
        double res = 0.;
        for (size_t i = 0; i < n; i++)
            res += a[i];
        return res;
    }
    if (n <= 128) {
        double r[8];
        for (int j = 0; j < 8; j++)
            r[j] = a[j];
        size_t i;
        for (i = 8; i < n - n % 8; i += 8)
            for (int j = 0; j < 8; j++)
                r[j] += a[i + j];
        double res = ((r[0] + r[1]) + (r[2] + r[3])) +
                     ((r[4] + r[5]) + (r[6] + r[7]));
        for (; i < n; i++)
            res += a[i];
        return res;
    }
    size_t n2 = n / 2;
    n2 -= n2 % 8;
    return pairwise_sum(a, n2) + pairwise_sum(a + n2, n - n2);
}

/* numpy.mean of a contiguous float64 array: its reduction runs over buffers
 * of 8192 values, each summed pairwise. Summing the same way makes the mean
 * equal numpy's to the last bit (and keeps a long title's mean accurate). */
static double numpy_mean(const double *a, size_t n)
{
    double sum = 0;
    for (size_t at = 0; at < n; at += 8192)
        sum += pairwise_sum(a + at, n - at < 8192 ? n - at : 8192);
    return sum / (double)n;
}

int report_stats_compute(const double *v, size_t n, ReportStats *st)
{
    memset(st, 0, sizeof(*st));
    double *sorted = malloc((n ? n : 1) * 2 * sizeof(*sorted));
    if (!sorted)
        return -1;
    double *inv = sorted + n;
    int harmonic_ok = 1;
    for (size_t i = 0; i < n; i++) {
        double x = v[i];
        if (!isfinite(x)) {
            st->n_nonfinite++;
            continue;
        }
        harmonic_ok &= x > -1.0; /* 1 / (x + 1) has no meaning below */
        inv[st->n] = 1.0 / (x + 1.0);
        sorted[st->n++] = x;
    }
    size_t m = st->n;
    if (!m) {
        st->mean = st->harmonic_mean = st->min = st->max = NAN;
        for (int k = 0; k < REPORT_N_PCT; k++)
            st->pct[k] = NAN;
        free(sorted);
        return 0;
    }
    st->mean = numpy_mean(sorted, m);
    /* libvmaf's harmonic mean, 1 / mean(1 / (x + 1)) - 1, in this order */
    st->harmonic_mean = harmonic_ok ? 1.0 / numpy_mean(inv, m) - 1.0 : NAN;
    qsort(sorted, m, sizeof(*sorted), cmp_double);
    st->min = sorted[0];
    st->max = sorted[m - 1];
    for (int k = 0; k < REPORT_N_PCT; k++)
        st->pct[k] = report_percentile_sorted(sorted, m, report_pct_levels[k]);
    free(sorted);
    return 0;
}

size_t report_worst(const double *v, size_t n, size_t k, int high_is_worse,
                    size_t *out)
{
    /* Insertion into a list of at most k: k is small (tens). */
    size_t got = 0;
    for (size_t i = 0; k && i < n; i++) {
        double x = v[i];
        if (!isfinite(x))
            continue;
        size_t at = got;
        while (at > 0) {
            double y = v[out[at - 1]];
            int worse = high_is_worse ? x > y : x < y;
            if (!worse)
                break;
            at--;
        }
        if (at >= k)
            continue;
        size_t last = got < k ? got : k - 1;
        memmove(out + at + 1, out + at, (last - at) * sizeof(*out));
        out[at] = i;
        if (got < k)
            got++;
    }
    return got;
}

void report_histogram(const double *v, size_t n, double lo, double hi,
                      size_t n_bins, size_t *counts)
{
    memset(counts, 0, n_bins * sizeof(*counts));
    double width = (hi - lo) / (double)n_bins;
    for (size_t i = 0; i < n; i++) {
        if (!isfinite(v[i]) || v[i] < lo || v[i] > hi)
            continue;
        size_t b = width > 0 ? (size_t)((v[i] - lo) / width) : 0;
        counts[b < n_bins ? b : n_bins - 1]++;
    }
}
