/*
 * Arithmetic that libvmaf's float extractors (float_vif, float_adm,
 * float_motion) share, written once for the CPU paths and the kernels:
 * how a sample becomes a float, the mirrored border of the separable float
 * filters, and one filter tap sum.
 *
 * Exactness: every sum adds its terms in libvmaf's order, starting from
 * 0.0f, each term a float product rounded before the add (the build forbids
 * contraction into FMA on every compiler), so the CPU and any GPU produce
 * the same bits.
 */
#ifndef VQHIP_KERNELS_FLOAT_CONV_H
#define VQHIP_KERNELS_FLOAT_CONV_H

#include "vq_kernel_api.h"

/* libvmaf's picture_copy(): 8-bit samples become v - 128, deeper ones are
 * first divided by 2^(bpc - 8). Dividing by a power of two and multiplying
 * by its reciprocal are both exact, so the multiply gives libvmaf's value. */
static inline VQ_HOST_DEVICE float vq_fpix_scale(unsigned bpc)
{
    return bpc == 10 ? 0.25f : bpc == 12 ? 0.0625f
         : bpc == 16 ? 0.00390625f : 1.0f;
}

static inline VQ_HOST_DEVICE float vq_fpix(unsigned v, float scale)
{
    return (float)v * scale + -128.0f;
}

/* The mirror of libvmaf's float convolutions (convolution_internal.h,
 * vif_tools.c): i < 0 reads -i, i >= n reads 2n - i - 2. One reflection:
 * valid for -n < i < 2n - 1, which the extractors' minimum sizes keep. */
static inline VQ_HOST_DEVICE int vq_fconv_mirror(int i, int n)
{
    return i < 0 ? -i : i >= n ? 2 * n - i - 2 : i;
}

/* sum_k f[k] * v[k * step], k = 0 .. n - 1, in libvmaf's order. */
static inline VQ_HOST_DEVICE float vq_fconv_dot(const float *f, int n,
                                                const float *v, int step)
{
    float acc = 0.0f;
    for (int k = 0; k < n; k++)
        acc += f[k] * v[k * step];
    return acc;
}

#endif
