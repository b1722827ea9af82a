/*
 * A ladder's GPU sharing (ladder.c): when every running rendition scores
 * on the GPU, the reference of each frame is copied and uploaded once, on
 * a device handle and stream of the ladder's own, into a ring
 * (gpu/ref_stage.h) that every rendition's slots read, and the records of
 * the extractors that depend on the reference alone (the motions) are
 * computed there once; what a rendition did not take is given back after
 * the frame's submits.
 */
#ifndef VQHIP_API_LADDER_GPU_H
#define VQHIP_API_LADDER_GPU_H

#include <stdbool.h>

#include "context.h"
#include "gpu/ref_stage.h"

typedef struct VqLadderGpu {
    VqGpu *gpu;          /* the ladder's own handle on the renditions' GPU */
    VqRefStage *stage;   /* NULL: nothing shared on the GPU */
    bool off;            /* stopped after a device error */
    double t_stage;      /* seconds staging (VQHIP_STATS) */
    VqErrBuf err;
} VqLadderGpu;

/* After the runs started: stages the references when at least two
 * renditions run and every running one (ended[i] false) has its GPU
 * extractors on one device with the same staging. Failing to set it up
 * is not an error: the renditions then upload the reference each. */
void vq_ladder_gpu_attach(VqLadderGpu *lg, VqContext *const *ctx,
                          const bool *ended, unsigned n);
/* Before a frame's submits: stages `ref` and hands it to each running
 * rendition's GPU run. A device error stops the sharing (the renditions
 * go on with their own uploads). */
void vq_ladder_gpu_stage(VqLadderGpu *lg, VqContext *const *ctx,
                         const bool *ended, unsigned n, const VqPicture *ref);
/* After them: the counts of renditions that did not take the picture. */
void vq_ladder_gpu_unused(VqLadderGpu *lg, VqContext *const *ctx,
                          unsigned n);
/* Before the renditions' contexts close: the stage's extractor instances
 * (configured as theirs) go first. */
void vq_ladder_gpu_stop(VqLadderGpu *lg);
/* After every rendition's context closed. */
void vq_ladder_gpu_close(VqLadderGpu *lg);

#endif
