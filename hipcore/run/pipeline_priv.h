/* Between the pipeline's files (pipeline*.c), not for the API. */
#ifndef VQHIP_RUN_PIPELINE_PRIV_H
#define VQHIP_RUN_PIPELINE_PRIV_H

#include "pipeline.h"

/* pipeline_setup.c: the run's format and extractors from the first
 * picture (or vq_configure's geometry, dis NULL), then, once the GPU's
 * fate is known, each extractor's backend. */
int vq_pipeline_prepare(VqPipeline *p, const VqPicture *ref,
                        const VqPicture *dis);
int vq_pipeline_start(VqPipeline *p, const VqPicture *ref,
                      const VqPicture *dis);
/* Releases the run's stages (CPU run, pool, staging, GPU sides). */
void vq_pipeline_stop_stages(VqPipeline *p);
/* A device error moved the run to the CPU (or could not). */
int vq_pipeline_fallback(VqPipeline *p);

/* pipeline_open.c: the GPU's open taken (logged; strict: an error) and,
 * while it opens, the pairs that wait for it. */
int vq_pipeline_gpu_opened(VqPipeline *p);
/* With wait, or once the open finished: takes it, starts the run if it
 * was prepared, scores the held pairs. */
int vq_pipeline_settle(VqPipeline *p, bool wait);
/* A host pair while the GPU opens: held, or (budget) scored after it. */
int vq_pipeline_hold(VqPipeline *p, const VqPicture *ref,
                     const VqPicture *dis, VqReleaseFn release, void *opaque,
                     bool *taken);
/* pipeline.c: one pair through the run (device: dev non-NULL). */
typedef struct VqDeviceInput {
    VqStream producer;
} VqDeviceInput;
int vq_pipeline_submit_frame(VqPipeline *p, const VqPicture *ref,
                             const VqPicture *dis, const VqDeviceInput *dev,
                             VqReleaseFn release, void *opaque, bool *taken);

#endif
