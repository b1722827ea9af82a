/*
 * Statistics of a list of values: the pools of a window or of a whole run
 * (mean, min, max, harmonic mean, percentiles, share below a threshold),
 * named as in the filter's stats= and pool= options.
 */
#ifndef VQHIP_CORE_STAT_H
#define VQHIP_CORE_STAT_H

#include <stdbool.h>

typedef enum VqStatKind {
    VQ_STAT_MEAN,
    VQ_STAT_MIN,
    VQ_STAT_MAX,
    VQ_STAT_HMEAN,    /* n / sum(1 / (x + 1)) - 1, as libvmaf */
    VQ_STAT_PERC,     /* numpy.percentile(x, param), method "linear" */
    VQ_STAT_BELOW,    /* share of values x < param */
} VqStatKind;

#define VQ_STAT_NAME_SIZE 32

typedef struct VqStat {
    VqStatKind kind;
    double param;
    char name[VQ_STAT_NAME_SIZE]; /* "mean", "perc5", "median", "below60" */
} VqStat;

/* One name: mean, min, max, harmonic_mean, median (perc50), percP
 * (0 <= P <= 100, decimal), belowT (decimal). 0 or VQ_EINVAL. */
int vq_stat_parse(const char *name, VqStat *out);
/* A '|'-separated list of names, then thresholds ('|'-separated numbers,
 * each giving belowT; may be NULL); duplicates are dropped. *out is
 * malloc'ed (free it), *n its length. 0, VQ_EINVAL (err gets the bad
 * name, if not NULL) or VQ_ENOMEM. */
int vq_stat_parse_list(const char *list, const char *thresholds,
                       VqStat **out, unsigned *n, char *err, unsigned err_size);
/* Whether any of the stats needs the values sorted. */
bool vq_stat_needs_sort(const VqStat *s, unsigned n_stats);
/* out[k] = stat k of v[0..n) (in frame order: sums run in that order);
 * sorted: the same values sorted ascending (NaNs last), or NULL when no
 * stat needs it. n > 0. */
void vq_stat_compute(const VqStat *s, unsigned n_stats, const double *v,
                     const double *sorted, unsigned n, double *out);
/* Sorts v[0..n) ascending, NaNs last. */
void vq_stat_sort(double *v, unsigned n);

#endif
