/*
 * Extractor instances: one VqFex per selected extractor and option set,
 * made from a spec ("name=psnr:enable_chroma=true") and the registry's
 * descriptor, and the list a run keeps them in.
 */
#ifndef VQHIP_CORE_FEX_H
#define VQHIP_CORE_FEX_H

#include <stdbool.h>
#include <stdint.h>

#include "base/error.h"
#include "collector.h"
#include "extractor.h"
#include "options.h"

#define VQ_MAX_FEX 64

/* A run's extractors, in the order they were selected. */
typedef struct VqFexList {
    VqFex *fex[VQ_MAX_FEX];
    unsigned n;
} VqFexList;

/* An instance from a parsed spec, its outputs written to coll and its
 * errors to err; *out is NULL on error (unknown name, bad option). */
int vq_fex_create(const VqSpec *spec, VqCollector *coll, VqErrBuf *err,
                  VqFex **out);
void vq_fex_free(VqFex *fex);
/* Whether a and b (same descriptor) have the same option values. */
bool vq_fex_same_options(const VqFex *a, const VqFex *b);

/* Whether fex computes frame index: temporal extractors on every frame
 * (a scored frame's temporal features use its true neighbours), the others
 * on scored frames only (vq_collector_scored). */
static inline bool vq_fex_runs_on(const VqFex *fex, const VqCollector *coll,
                                  unsigned index)
{
    return (fex->desc->flags & VQ_FEX_TEMPORAL) ||
           vq_collector_scored(coll, index);
}

/*
 * The log's order of the outputs (collector ranks): libvmaf's log lists
 * outputs in the order they were first written to its collector. Without a
 * thread pool (its tool's and filter's default) that is: the extractors'
 * outputs written with a frame's own extraction, by extractor in the order
 * they were selected (a model's extractors first when the model is
 * selected first), each in the order it writes them; then the outputs
 * written later (temporal ones such as integer motion2, and those written
 * at the end); then the models' outputs (stage 2: each model's main
 * output; stage 3: the others). Ranks encode that order, so the log does
 * not depend on which backend or worker finished first.
 */
#define VQ_RANK_STAGE(s) ((uint64_t)(s) << 40)
#define VQ_RANK_OWNER(i) ((uint64_t)(i) << 20)

#endif
