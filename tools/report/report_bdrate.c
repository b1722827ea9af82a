#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report_bdrate.h"

static int sign(double v)
{
    return (v > 0) - (v < 0);
}

/* The end slope: a one-sided three-point estimate, kept shape-preserving. */
static double end_slope(double h0, double h1, double m0, double m1)
{
    double d = ((2 * h0 + h1) * m0 - h0 * m1) / (h0 + h1);
    if (sign(d) != sign(m0))
        return 0;
    if (sign(m0) != sign(m1) && fabs(d) > 3 * fabs(m0))
        return 3 * m0;
    return d;
}

void report_pchip_slopes(const double *x, const double *y, size_t n, double *d)
{
    if (n == 2) {
        d[0] = d[1] = (y[1] - y[0]) / (x[1] - x[0]);
        return;
    }
    for (size_t k = 1; k + 1 < n; k++) {
        double h0 = x[k] - x[k - 1], h1 = x[k + 1] - x[k];
        double m0 = (y[k] - y[k - 1]) / h0, m1 = (y[k + 1] - y[k]) / h1;
        if (sign(m0) * sign(m1) <= 0) {
            d[k] = 0;
        } else {
            /* weighted harmonic mean of the secants */
            double w1 = 2 * h1 + h0, w2 = h1 + 2 * h0;
            d[k] = (w1 + w2) / (w1 / m0 + w2 / m1);
        }
    }
    double h0 = x[1] - x[0], h1 = x[2] - x[1];
    d[0] = end_slope(h0, h1, (y[1] - y[0]) / h0, (y[2] - y[1]) / h1);
    h0 = x[n - 1] - x[n - 2];
    h1 = x[n - 2] - x[n - 3];
    d[n - 1] = end_slope(h0, h1, (y[n - 1] - y[n - 2]) / h0,
                         (y[n - 2] - y[n - 3]) / h1);
}

/* The Hermite cubic of piece k at t in [x_k, x_k+1]. */
static double hermite(const double *x, const double *y, const double *d,
                      size_t k, double t)
{
    double h = x[k + 1] - x[k], s = (t - x[k]) / h;
    double s2 = s * s, s3 = s2 * s;
    return (2 * s3 - 3 * s2 + 1) * y[k] + (s3 - 2 * s2 + s) * h * d[k] +
           (-2 * s3 + 3 * s2) * y[k + 1] + (s3 - s2) * h * d[k + 1];
}

static double integrate(const double *x, const double *y, const double *d,
                        size_t n, double lo, double hi)
{
    double sum = 0;
    for (size_t k = 0; k + 1 < n; k++) {
        double a = fmax(lo, x[k]), b = fmin(hi, x[k + 1]);
        if (b <= a)
            continue;
        double m = 0.5 * (a + b);
        sum += (b - a) / 6 * (hermite(x, y, d, k, a) +
                              4 * hermite(x, y, d, k, m) +
                              hermite(x, y, d, k, b));
    }
    return sum;
}

static int cmp_quality(const void *pa, const void *pb)
{
    const ReportRQPoint *a = pa, *b = pb;
    return (a->quality > b->quality) - (a->quality < b->quality);
}

/* Sorted by quality into x (quality) and y (log10 rate). */
static int prepare(const ReportRQPoint *p, size_t n, const char *which,
                   double *x, double *y, char *err, size_t errlen)
{
    if (n < 2) {
        snprintf(err, errlen, "ladder %s has %zu point%s with a bitrate; "
                 "BD-rate needs at least 2", which, n, n == 1 ? "" : "s");
        return -1;
    }
    ReportRQPoint *s = malloc(n * sizeof(*s));
    if (!s) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    memcpy(s, p, n * sizeof(*s));
    qsort(s, n, sizeof(*s), cmp_quality);
    int rc = 0;
    for (size_t i = 0; i < n && !rc; i++) {
        if (!(s[i].rate > 0) || !isfinite(s[i].rate) || !isfinite(s[i].quality)) {
            snprintf(err, errlen, "ladder %s: a point has no valid rate or "
                     "quality", which);
            rc = -1;
        } else if (i && s[i].quality == s[i - 1].quality) {
            snprintf(err, errlen, "ladder %s: two points have the same "
                     "quality %g (log-rate over quality is not a function)",
                     which, s[i].quality);
            rc = -1;
        }
        x[i] = s[i].quality;
        y[i] = log10(s[i].rate);
    }
    free(s);
    return rc;
}

int report_bd_rate(const ReportRQPoint *a, size_t na, const ReportRQPoint *b,
                   size_t nb, double *percent, double *lo, double *hi,
                   char *err, size_t errlen)
{
    size_t n = na + nb;
    double *buf = malloc((n ? n : 1) * 3 * sizeof(*buf));
    if (!buf) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    double *xa = buf, *ya = xa + na, *da = ya + na;
    double *xb = buf + 3 * na, *yb = xb + nb, *db = yb + nb;
    int rc = -1;
    if (prepare(a, na, "A", xa, ya, err, errlen) ||
        prepare(b, nb, "B", xb, yb, err, errlen))
        goto out;
    *lo = fmax(xa[0], xb[0]);
    *hi = fmin(xa[na - 1], xb[nb - 1]);
    if (!(*hi > *lo)) {
        snprintf(err, errlen, "the ladders' quality ranges [%g, %g] and "
                 "[%g, %g] do not overlap", xa[0], xa[na - 1], xb[0],
                 xb[nb - 1]);
        goto out;
    }
    report_pchip_slopes(xa, ya, na, da);
    report_pchip_slopes(xb, yb, nb, db);
    double diff = (integrate(xb, yb, db, nb, *lo, *hi) -
                   integrate(xa, ya, da, na, *lo, *hi)) / (*hi - *lo);
    *percent = (pow(10, diff) - 1) * 100;
    rc = 0;
out:
    free(buf);
    return rc;
}
