/*
 * Statistics of one output over a log's frames: the pooled table's numbers,
 * the histogram and the worst frames. Non-finite values (null in JSON) are
 * counted and left out.
 */
#ifndef VQHIP_REPORT_STATS_H
#define VQHIP_REPORT_STATS_H

#include <stddef.h>

#define REPORT_N_PCT 5
extern const double report_pct_levels[REPORT_N_PCT]; /* 1, 5, 10, 20, 50 */

typedef struct ReportStats {
    size_t n;           /* finite values */
    size_t n_nonfinite; /* left out */
    double mean, harmonic_mean, min, max;
    double pct[REPORT_N_PCT];
} ReportStats;

/* Returns 0, or -1 when out of memory. With no finite value every field but
 * the counts is NAN. */
int report_stats_compute(const double *v, size_t n, ReportStats *st);

/* numpy.percentile(sorted, p) with its default (linear) method, done the way
 * numpy does it so that the results agree to the last bit. */
double report_percentile_sorted(const double *sorted, size_t n, double p);

/* The indices of the k worst finite values (lowest, or highest when
 * high_is_worse), worst first; ties keep frame order. Returns how many. */
size_t report_worst(const double *v, size_t n, size_t k, int high_is_worse,
                    size_t *out);

/* Counts of the finite values in n_bins equal bins over [lo, hi] (the last
 * bin closed). */
void report_histogram(const double *v, size_t n, double lo, double hi,
                      size_t n_bins, size_t *counts);

#endif
