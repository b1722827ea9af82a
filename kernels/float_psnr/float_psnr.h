/*
 * float_psnr as libvmaf computes it: samples scaled to 8-bit range in float
 * (x / 4, / 16, / 256 for 10, 12, 16 bits), the squared difference rounded to
 * float, summed in double. Every such square is k^2 / scale^2 with k the
 * integer difference, rounded to 24 significant bits (exact below 16 bits),
 * so the sum is kept exactly as an integer: sum of fl24(k^2). The double
 * libvmaf accumulates is that integer divided by scale^2 whenever its
 * partial sums stay below 2^53 units (always, short of 16-bit frames with
 * more than 2^21 maximal errors).
 */
#ifndef VQHIP_KERNELS_FLOAT_PSNR_H
#define VQHIP_KERNELS_FLOAT_PSNR_H

#include "../vq_kernel_api.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The accumulator record: the luma sum of vq_float_psnr_term. */
typedef struct VqFloatPsnrAcc {
    uint64_t sum;
} VqFloatPsnrAcc;

/* fl24(k^2) for k = r - d: the float square of the scaled difference, times
 * scale^2 (exact, a power of two). */
static inline VQ_HOST_DEVICE uint64_t vq_float_psnr_term(unsigned r, unsigned d)
{
    int64_t k = (int64_t)r - (int64_t)d;
    return (uint64_t)(float)(uint64_t)(k * k);
}

int vq_float_psnr_launch(VqStream stream, const VqDevPlane *ref,
                         const VqDevPlane *dis, unsigned bpc, uint64_t *sum);

#ifdef __cplusplus
}
#endif

#endif
