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
    unsigned n_subsample; /* frames i % n_subsample != 0 are not scored */
    uint64_t *skipped;    /* 1 bit per frame: marked not scored (vq_skip_next) */
    unsigned n_skip_words;
} VqCollector;

/* THE rule of which frames are scored (models, non-temporal extractors,
 * logs, statistics, windows, alerts): frame i is scored unless
 * n_subsample leaves it out (i % n_subsample != 0) or it was marked
 * skipped. Temporal extractors run on every frame all the same, so a
 * scored frame's temporal features always use its true neighbours. */
static inline bool vq_collector_scored(const VqCollector *c, unsigned i)
{
    if (c->n_subsample > 1 && i % c->n_subsample)
        return false;
    return !(i / 64 < c->n_skip_words && (c->skipped[i / 64] >> (i % 64) & 1));
}
/* Marks frame i not scored (1 bit per frame: 125 kB per million frames).
 * Called before frame i is submitted; VQ_ENOMEM. */
int vq_collector_skip(VqCollector *c, unsigned i);

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
/* Pools the scored frames of [0, n_frames) the way libvmaf does;
 * VQ_ENOTFOUND for an unknown name, VQ_EINVAL when a scored frame lacks a
 * value or none is scored. */
int vq_collector_pool(const VqCollector *c, const char *name, VqPool pool,
                      unsigned n_frames, double *out);

/* The values pooling reads (the scored frames of [0, n_frames)), in frame
 * order, into a malloc'ed *out of *n; the errors of
 * vq_collector_pool, or VQ_ENOMEM. */
int vq_collector_values(const VqCollector *c, const char *name,
                        unsigned n_frames, double **out, unsigned *n);

#endif
