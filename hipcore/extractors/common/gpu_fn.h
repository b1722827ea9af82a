/* Helpers shared by extractor files. */
#ifndef VQHIP_EXTRACTORS_GPU_FN_H
#define VQHIP_EXTRACTORS_GPU_FN_H

#include "core/extractor.h"
#include "gpu/gpu.h"

/* A descriptor names its GPU stage functions through VQ_GPU_FN so that a
 * build without a HIP platform compiles them out (and the core then runs the
 * extractor on the CPU). */
#if defined(VQ_HAVE_HIP)
#define VQ_GPU_FN(f) f
#else
#define VQ_GPU_FN(f) NULL
#endif

/* Checks a launcher's return code; names the extractor in the message.
 * Every launch goes through vq_gpu_fail, where fault injection
 * (VQHIP_FAULT=launch@N) can fail it. */
static inline int vq_fex_launch_check(VqFex *fex, struct VqGpu *gpu, int rc)
{
    return vq_gpu_fail(gpu, rc, fex->desc->name);
}

/* Reads sample x of row y of a host plane. */
static inline unsigned vq_sample(const VqPlane *p, unsigned bps, unsigned x,
                                 unsigned y)
{
    const uint8_t *row = p->data + (ptrdiff_t)y * p->stride;
    return bps == 1 ? row[x] : ((const uint16_t *)(const void *)row)[x];
}

#endif
