/*
 * Bjontegaard delta rate between two rate-quality curves, with piecewise
 * cubic Hermite interpolation (PCHIP, Fritsch-Carlson slopes as in
 * scipy.interpolate.PchipInterpolator) of log10(rate) over quality:
 *
 *   r_X(q) = PCHIP through the points (q_i, log10 R_i) of curve X, sorted
 *            by quality q (distinct qualities, at least 2 points)
 *   [lo, hi] = [max(min q_A, min q_B), min(max q_A, max q_B)]
 *   D = ( integral_lo^hi r_B(q) dq - integral_lo^hi r_A(q) dq ) / (hi - lo)
 *   BD-rate(A -> B) = (10^D - 1) * 100 %
 *
 * Negative: B needs less rate than A for the same quality. Each cubic piece
 * is integrated exactly (Simpson's rule is exact for cubics).
 */
#ifndef VQHIP_REPORT_BDRATE_H
#define VQHIP_REPORT_BDRATE_H

#include <stddef.h>

typedef struct ReportRQPoint {
    double rate;    /* kbps, > 0 */
    double quality;
} ReportRQPoint;

/* PCHIP slopes d[0..n-1] at strictly increasing x. */
void report_pchip_slopes(const double *x, const double *y, size_t n, double *d);

/* Returns 0 with the BD-rate in percent and the quality range used, or -1
 * with a message (too few points, equal qualities, a rate <= 0, no overlap). */
int report_bd_rate(const ReportRQPoint *a, size_t na, const ReportRQPoint *b,
                   size_t nb, double *percent, double *lo, double *hi,
                   char *err, size_t errlen);

#endif
