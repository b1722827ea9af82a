/*
 * A ladder's pass on the CPU (ladder.c): for the extractors that have one
 * (VqFexDesc.ladder_run: integer VIF), the ladder computes every running
 * rendition's record of a frame itself, before the frame's submits, on a
 * thread pool of its own, so that the reference's part of each row band
 * is read from the cache by every rendition instead of from memory; the
 * records go to each extractor's cache (core/refcache.h), where each
 * rendition's cpu_run takes its own (vq_fex_ladder_record).
 */
#ifndef VQHIP_API_LADDER_CPU_H
#define VQHIP_API_LADDER_CPU_H

#include <stdbool.h>

#include "context.h"
#include "core/refcache.h"

typedef struct VqLadderCpu {
    VqThreadPool *pool;             /* NULL: one thread */
    unsigned parts;                 /* row bands of a pass */
    const VqFex *fex[VQ_MAX_FEX];   /* the instance a pass runs (the first
                                       running rendition's), NULL: none */
    void *work[VQ_MAX_FEX];
    uint8_t *luma[VQ_LADDER_MAX + 1]; /* planes shifted down (P010 ...) */
    size_t luma_bytes;
} VqLadderCpu;

/* After the runs started, for extractor k, which every running rendition
 * computes on the CPU: sets up its pass and opens its cache (*cache) when
 * its frames can be shared (the caller hands it to the renditions); 0 or
 * VQ_ENOMEM. */
int vq_ladder_cpu_attach(VqLadderCpu *lc, VqContext *const *ctx,
                         const bool *ended, unsigned n, unsigned k,
                         VqRefCache **cache);
/* Before a frame's submits: the passes of the frame (pictures as the
 * caller gave them) into the caches. A pass that cannot run leaves the
 * renditions to compute their frames. */
void vq_ladder_cpu_pass(VqLadderCpu *lc, VqContext *const *ctx,
                        const bool *ended, unsigned n,
                        VqRefCache *const *cache, const VqPicture *ref,
                        const VqPicture *const *dis);
void vq_ladder_cpu_close(VqLadderCpu *lc);

#endif
