/*
 * psnr_hvs as libvmaf computes it (third_party/xiph/psnr_hvs.c): per plane,
 * 8x8 blocks at a step of 7 samples (rows outer, columns inner); in each
 * block, float means and variances of the samples and of their quadrants,
 * Daala's integer 8x8 DCT of both blocks, a float masking threshold from
 * the CSF-weighted AC energy, and 64 float terms (csf * (|dct error| -
 * threshold))^2. libvmaf adds every term of every block to one float, in
 * that order; kernels/psnr_hvs/psnr_hvs_sum.h reproduces that sum on the
 * GPU. Everything per block is in vq_hvs_block_terms(), which both backends
 * call: same float and double operations, same order, no contraction; the
 * DCT is integer arithmetic with libvmaf's 32-bit wrap-around.
 */
#ifndef VQHIP_KERNELS_PSNR_HVS_H
#define VQHIP_KERNELS_PSNR_HVS_H

#include <math.h>

#include "../vq_kernel_api.h"
#include "psnr_hvs_sum.h"

#ifdef __cplusplus
extern "C" {
#endif

#define VQ_HVS_STEP 7 /* block step; blocks are 8x8 */

/* The accumulator record: per plane, libvmaf's running float sum of all
 * terms ("ret" before its divisions). */
typedef struct VqPsnrHvsAcc {
    float sum[3];
} VqPsnrHvsAcc;

/* One plane's tables: the CSF weights and the masking weights derived from
 * them (mask = (csf * 0.3885746225901003)^2, computed in double and stored
 * as float, as libvmaf does), row-major. */
typedef struct VqHvsTables {
    float csf[64];
    float mask[64];
} VqHvsTables;

/* Blocks along one dimension of n samples: x = 0, 7, ... while x < n - 7. */
static inline VQ_HOST_DEVICE unsigned vq_hvs_blocks(unsigned n)
{
    return n < 8 ? 0 : (n - 8) / VQ_HVS_STEP + 1;
}

/* 32-bit arithmetic as libvmaf's int code wraps on overflow. */
static inline VQ_HOST_DEVICE int32_t vq_hvs_mul(int32_t a, int32_t b)
{
    return (int32_t)((uint32_t)a * (uint32_t)b);
}

/* (a * c + r) >> s, a lifting step of the DCT. */
static inline VQ_HOST_DEVICE int32_t vq_hvs_lift(int32_t a, int32_t c,
                                                 int32_t r, int s)
{
    return (int32_t)((uint32_t)vq_hvs_mul(a, c) + (uint32_t)r) >> s;
}

/* a / 2 rounded toward zero (Daala's unbiased shift by one). */
static inline VQ_HOST_DEVICE int32_t vq_hvs_half(int32_t a)
{
    return (int32_t)((uint32_t)a + ((uint32_t)a >> 31)) >> 1;
}

/*
 * Daala's 8-point forward DCT (od_bin_fdct8) as a sequence of integer
 * lifting steps; the multipliers and shifts are Daala's. Input x[k * xs],
 * output y[0..7].
 */
static inline VQ_HOST_DEVICE void vq_hvs_fdct8(int32_t *y, const int32_t *x,
                                               int xs)
{
    int32_t a0 = x[0], a4 = x[xs], a2 = x[2 * xs], a6 = x[3 * xs];
    int32_t a7 = x[4 * xs], a3 = x[5 * xs], a5 = x[6 * xs], a1 = x[7 * xs];
    /* butterflies */
    a1 = a0 - a1;
    int32_t a1h = vq_hvs_half(a1);
    a0 -= a1h;
    a4 += a5;
    int32_t a4h = vq_hvs_half(a4);
    a5 -= a4h;
    a3 = a2 - a3;
    a2 -= vq_hvs_half(a3);
    a6 += a7;
    int32_t a6h = vq_hvs_half(a6);
    a7 = a6h - a7;
    /* even half: 4-point DCT */
    a0 += a6h;
    a6 = a0 - a6;
    a2 = a4h - a2;
    a4 = a2 - a4;
    a0 -= vq_hvs_lift(a4, 13573, 16384, 15);
    a4 += vq_hvs_lift(a0, 11585, 8192, 14);
    a0 -= vq_hvs_lift(a4, 13573, 16384, 15);
    a6 -= vq_hvs_lift(a2, 21895, 16384, 15);
    a2 += vq_hvs_lift(a6, 15137, 8192, 14);
    a6 -= vq_hvs_lift(a2, 21895, 16384, 15);
    /* odd half: 4-point DST */
    a3 += vq_hvs_lift(a5, 19195, 16384, 15);
    a5 += vq_hvs_lift(a3, 11585, 8192, 14);
    a3 -= vq_hvs_lift(a5, 7489, 4096, 13);
    a7 = vq_hvs_half(a5) - a7;
    a5 -= a7;
    a3 = a1h - a3;
    a1 -= a3;
    a7 += vq_hvs_lift(a1, 3227, 16384, 15);
    a1 -= vq_hvs_lift(a7, 6393, 16384, 15);
    a7 += vq_hvs_lift(a1, 3227, 16384, 15);
    a5 += vq_hvs_lift(a3, 2485, 4096, 13);
    a3 -= vq_hvs_lift(a5, 18205, 16384, 15);
    a5 += vq_hvs_lift(a3, 2485, 4096, 13);
    y[0] = a0; y[1] = a1; y[2] = a2; y[3] = a3;
    y[4] = a4; y[5] = a5; y[6] = a6; y[7] = a7;
}

/* 8x8 DCT in place: columns into a temporary's rows, then its columns. */
static inline VQ_HOST_DEVICE void vq_hvs_fdct8x8(int32_t *b)
{
    int32_t z[64];
    for (int i = 0; i < 8; i++)
        vq_hvs_fdct8(z + 8 * i, b + i, 8);
    for (int i = 0; i < 8; i++)
        vq_hvs_fdct8(b + 8 * i, z + i, 8);
}

/* Masking threshold of one block (samples in, DCT coefficients out):
 * sqrt(CSF-weighted AC energy * variance ratio) / 32. */
static inline VQ_HOST_DEVICE float vq_hvs_mask(int32_t *b, const float *mask)
{
    float gmean = 0, means[4] = { 0, 0, 0, 0 };
    for (int i = 0; i < 8; i++)
        for (int j = 0; j < 8; j++) {
            int sub = ((i & 12) >> 2) + ((j & 12) >> 1);
            gmean += b[i * 8 + j];
            means[sub] += b[i * 8 + j];
        }
    gmean /= 64.f;
    for (int k = 0; k < 4; k++)
        means[k] /= 16.f;
    float gvar = 0, vars[4] = { 0, 0, 0, 0 };
    for (int i = 0; i < 8; i++)
        for (int j = 0; j < 8; j++) {
            int sub = ((i & 12) >> 2) + ((j & 12) >> 1);
            float dg = b[i * 8 + j] - gmean, dq = b[i * 8 + j] - means[sub];
            gvar += dg * dg;
            vars[sub] += dq * dq;
        }
    gvar *= 1 / 63.f * 64;
    for (int k = 0; k < 4; k++)
        vars[k] *= 1 / 15.f * 16;
    if (gvar > 0)
        gvar = (vars[0] + vars[1] + vars[2] + vars[3]) / gvar;
    vq_hvs_fdct8x8(b);
    float energy = 0;
    for (int k = 1; k < 64; k++)
        energy += (float)vq_hvs_mul(b[k], b[k]) * mask[k];
    return (float)(sqrt((double)(energy * gvar)) / 32.0);
}

/* The 64 terms of the block whose samples are s (reference) and d
 * (distorted), in libvmaf's order. s and d are overwritten. */
static inline VQ_HOST_DEVICE void vq_hvs_block_terms(int32_t *s, int32_t *d,
                                                     const VqHvsTables *t,
                                                     float *terms)
{
    float s_mask = vq_hvs_mask(s, t->mask);
    float d_mask = vq_hvs_mask(d, t->mask);
    if (d_mask > s_mask)
        s_mask = d_mask;
    for (int k = 0; k < 64; k++) {
        uint32_t e = (uint32_t)s[k] - (uint32_t)d[k];
        float err = (float)(int32_t)((int32_t)e < 0 ? 0u - e : e);
        if (k) {
            float thr = s_mask / t->mask[k];
            err = err < thr ? 0 : err - thr;
        }
        terms[k] = (err * t->csf[k]) * (err * t->csf[k]);
    }
}

/* One plane's device buffers (allocated by the host for the frame size). */
typedef struct VqHvsPlaneDev {
    unsigned bx, by;       /* blocks across and down */
    float *terms;          /* bx * by * 64, block-major in libvmaf's order */
    double *chunk_sum;     /* per block: sum of its terms (an estimate) */
    double *group_sum;     /* per group: scratch of the estimate pass */
    VqHvsStep *chunk_st;   /* per block: VQ_HVS_CAND summaries */
    int *chunk_base;       /* per block: binade of the first candidate */
    VqHvsStep *group_st;   /* per group: VQ_HVS_CAND summaries */
    int *group_base;
    VqHvsTables tab;
} VqHvsPlaneDev;

typedef struct VqHvsArgs {
    VqDevPlane ref[3], dis[3];
    VqHvsPlaneDev p[3];
} VqHvsArgs;

/* Computes the three planes' sums into sums[0..2] (device memory). */
int vq_psnr_hvs_launch(VqStream stream, const VqHvsArgs *args, unsigned bpc,
                       float *sums);

#ifdef __cplusplus
}
#endif

#endif
