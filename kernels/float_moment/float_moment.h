/*
 * float_moment as libvmaf computes it (float_moment.c, moment.c): luma
 * samples scaled to the 8-bit range in float (x / 2^(bpc - 8), exact), their
 * mean and the mean of their float squares, each summed in double.
 *
 * Every scaled sample is x / scale exactly, and every float square is
 * fl24(x^2) / scale^2 (x^2 rounded to 24 significant bits: exact below
 * 4096, i.e. up to 12 bits). The double sums libvmaf accumulates are
 * therefore these integer sums divided by scale (scale^2) whenever the
 * partial sums fit in 53 bits: always for the first moment, and for the
 * second up to 12 bits; 16-bit frames whose sum of squares passes 2^53
 * (4K frames of mostly bright samples) are summed exactly here where
 * libvmaf's double sum may round (a relative 1e-16 per addition). Integer
 * sums make the GPU result equal the CPU's bit for bit.
 */
#ifndef VQHIP_KERNELS_FLOAT_MOMENT_H
#define VQHIP_KERNELS_FLOAT_MOMENT_H

#include "../vq_kernel_api.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The accumulator record; index 0 is the reference, 1 the distorted. */
typedef struct VqFloatMomentAcc {
    uint64_t sum[2]; /* sum of x over the luma plane */
    uint64_t sq[2];  /* sum of vq_float_moment_sq(x) */
} VqFloatMomentAcc;

/* fl24(x^2): the float square of the scaled sample, times scale^2 (a power
 * of two, so the rounding is the same). x < 2^16, so x^2 < 2^32. */
static inline VQ_HOST_DEVICE uint64_t vq_float_moment_sq(unsigned x)
{
    return (uint64_t)(float)(uint32_t)(x * x);
}

/* Adds both luma planes' sums to *acc (device memory, cleared before). */
int vq_float_moment_launch(VqStream stream, const VqDevPlane *ref,
                           const VqDevPlane *dis, unsigned bpc,
                           VqFloatMomentAcc *acc);

#ifdef __cplusplus
}
#endif

#endif
