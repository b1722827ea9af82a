/* Per-frame values of every output, plus aggregate values and pooling.
 * Series ids are stable (creation order); the log order is by rank, then
 * creation (vq_collector_nth), so that logs list outputs where libvmaf's
 * do whichever backend or thread wrote them first. */
#ifndef VQHIP_COLLECTOR_H
#define VQHIP_COLLECTOR_H

#include <stdbool.h>
#include <stdint.h>

#include "vqhip.h"

typedef struct VqSeries {
    char *name;
    uint64_t rank;        /* log order, lowest first */
    const char *backend;  /* "hip" or "cpu" */
    double *value;
    uint8_t *written;
    unsigned cap;
} VqSeries;

typedef struct VqCollector {
    VqSeries *series;
    unsigned *order;      /* ids by rank, then creation */
    unsigned n, cap;
    VqScore *aggregate;   /* names owned */
    unsigned n_aggregate;
    unsigned n_subsample; /* pooling skips frames i % n_subsample != 0 */
} VqCollector;

void vq_collector_free(VqCollector *c);
/* Id of the series called name, created on first use (with `rank`; an
 * existing series keeps its own); negative on error. */
int vq_collector_series_ranked(VqCollector *c, const char *name,
                               const char *backend, uint64_t rank);
/* The same, ranked after every ranked series. */
#define VQ_RANK_LAST UINT64_MAX
int vq_collector_series(VqCollector *c, const char *name, const char *backend);
/* Id of the i-th series in log order (i < c->n). */
int vq_collector_nth(const VqCollector *c, unsigned i);
int vq_collector_find(const VqCollector *c, const char *name);
int vq_collector_set(VqCollector *c, int id, unsigned index, double value);
/* 1 and *value when written, 0 when not. */
int vq_collector_get(const VqCollector *c, int id, unsigned index, double *value);
int vq_collector_set_aggregate(VqCollector *c, const char *name, double value);
/* Pools frames [0, n_frames) the way libvmaf does; VQ_ENOTFOUND for an
 * unknown name, VQ_EINVAL when a sampled frame lacks a value. */
int vq_collector_pool(const VqCollector *c, const char *name, VqPool pool,
                      unsigned n_frames, double *out);

/* The values pooling reads (frames [0, n_frames) with i % n_subsample
 * == 0), in frame order, into a malloc'ed *out of *n; the errors of
 * vq_collector_pool, or VQ_ENOMEM. */
int vq_collector_values(const VqCollector *c, const char *name,
                        unsigned n_frames, double **out, unsigned *n);

#endif
