/* Integer PSNR: per-plane sum of squared errors. */
#ifndef VQHIP_KERNELS_PSNR_H
#define VQHIP_KERNELS_PSNR_H

#include "../vq_kernel_api.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The accumulator record: per-plane sum of squared errors (Y, Cb, Cr). */
typedef struct VqPsnrAcc {
    uint64_t sse[3];
} VqPsnrAcc;

/* The per-sample term, shared by the CPU path and the kernel. */
static inline VQ_HOST_DEVICE uint64_t vq_psnr_term(unsigned r, unsigned d)
{
    int64_t e = (int64_t)r - (int64_t)d;
    return (uint64_t)(e * e);
}

/* Adds the plane's sum of squared errors to *sse (device memory). */
int vq_psnr_sse_launch(VqStream stream, const VqDevPlane *ref,
                       const VqDevPlane *dis, unsigned bpc, uint64_t *sse);

#ifdef __cplusplus
}
#endif

#endif
