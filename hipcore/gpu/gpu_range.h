/*
 * Pictures in device memory checked for samples above their bit depth, as
 * host pictures are at submit (core/picture.h: vq_frame_check_range), with
 * the same refusal and message: a kernel finds the first bad sample of each
 * plane in row order, the host waits for its answer (the submit decides on
 * it). Only 10- and 12-bit planar pictures are scanned.
 */
#ifndef VQHIP_GPU_RANGE_H
#define VQHIP_GPU_RANGE_H

#include "core/picture.h"
#include "gpu.h"

/* The buffers of the check, made at its first use. */
typedef struct VqGpuRange {
    void *dev;           /* 6 words: (picture, plane) */
    unsigned long long *host;
    VqEvent produced;
} VqGpuRange;

/* Refuses (VQ_EINVAL, message as vq_frame_check_range) a pair of device
 * pictures with a sample above the depth's largest value in a plane of
 * `planes` (VQ_PLANE_* bits), the reference's first; waits for the
 * producer stream's work first (producer NULL: none). VQ_EDEVICE on a
 * device error. On the fake device, pictures are in host memory. */
int vq_gpu_check_range(VqGpu *gpu, VqGpuRange *r, VqStream producer,
                       const VqFrame *ref, const VqFrame *dis,
                       const VqFormat *fmt, unsigned planes, VqErrBuf *e);
void vq_gpu_range_free(VqGpu *gpu, VqGpuRange *r);

#endif
