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

/* Masking thresholds of the reference and distorted blocks (samples in,
 * DCT coefficients out): sqrt(CSF-weighted AC energy * variance ratio) /
 * 32 each, libvmaf's float operations in its order. The two blocks are
 * processed side by side (independent chains keep a CPU busy). libvmaf's
 * float sums of the samples are exact (integers below 2^24), so they are
 * taken as integer sums. */
static inline VQ_HOST_DEVICE void vq_hvs_masks(int32_t *s, int32_t *d,
                                               const float *mask, float *ms,
                                               float *md)
{
    int32_t sg = 0, dg = 0, sq[4] = { 0, 0, 0, 0 }, dq[4] = { 0, 0, 0, 0 };
    for (int i = 0; i < 8; i++)
        for (int j = 0; j < 8; j++) {
            int sub = ((i & 12) >> 2) + ((j & 12) >> 1);
            sg += s[i * 8 + j];
            dg += d[i * 8 + j];
            sq[sub] += s[i * 8 + j];
            dq[sub] += d[i * 8 + j];
        }
    float s_mean = (float)sg / 64.f, d_mean = (float)dg / 64.f;
    float s_means[4], d_means[4];
    for (int k = 0; k < 4; k++) {
        s_means[k] = (float)sq[k] / 16.f;
        d_means[k] = (float)dq[k] / 16.f;
    }
    float s_gvar = 0, d_gvar = 0, s_vars[4] = { 0, 0, 0, 0 },
          d_vars[4] = { 0, 0, 0, 0 };
    for (int i = 0; i < 8; i++)
        for (int j = 0; j < 8; j++) {
            int sub = ((i & 12) >> 2) + ((j & 12) >> 1);
            float a = s[i * 8 + j] - s_mean, b = d[i * 8 + j] - d_mean;
            float qa = s[i * 8 + j] - s_means[sub];
            float qb = d[i * 8 + j] - d_means[sub];
            s_gvar += a * a;
            d_gvar += b * b;
            s_vars[sub] += qa * qa;
            d_vars[sub] += qb * qb;
        }
    s_gvar *= 1 / 63.f * 64;
    d_gvar *= 1 / 63.f * 64;
    for (int k = 0; k < 4; k++) {
        s_vars[k] *= 1 / 15.f * 16;
        d_vars[k] *= 1 / 15.f * 16;
    }
    if (s_gvar > 0)
        s_gvar = (s_vars[0] + s_vars[1] + s_vars[2] + s_vars[3]) / s_gvar;
    if (d_gvar > 0)
        d_gvar = (d_vars[0] + d_vars[1] + d_vars[2] + d_vars[3]) / d_gvar;
    vq_hvs_fdct8x8(s);
    vq_hvs_fdct8x8(d);
    float s_en = 0, d_en = 0;
    for (int k = 1; k < 64; k++) {
        s_en += (float)vq_hvs_mul(s[k], s[k]) * mask[k];
        d_en += (float)vq_hvs_mul(d[k], d[k]) * mask[k];
    }
    *ms = (float)(sqrt((double)(s_en * s_gvar)) / 32.0);
    *md = (float)(sqrt((double)(d_en * d_gvar)) / 32.0);
}

/* |a - b| as a float, as C's abs() of the int difference. */
static inline VQ_HOST_DEVICE float vq_hvs_abs_err(int32_t a, int32_t b)
{
    uint32_t e = (uint32_t)a - (uint32_t)b, neg = 0u - (e >> 31);
    return (float)(int32_t)((e ^ neg) - neg);
}

/* The 64 terms of the block whose samples are s (reference) and d
 * (distorted), in libvmaf's order. s and d are overwritten. */
static inline VQ_HOST_DEVICE void vq_hvs_block_terms(int32_t *s, int32_t *d,
                                                     const VqHvsTables *t,
                                                     float *terms)
{
    float s_mask, d_mask;
    vq_hvs_masks(s, d, t->mask, &s_mask, &d_mask);
    if (d_mask > s_mask)
        s_mask = d_mask;
    /* The DC term is not masked. The others without branches, so that a CPU
     * vectorizes them: libvmaf's "err < thr ? 0 : err - thr" is err - thr
     * with negative results (exactly those with err < thr) set to +0. */
    float e0 = vq_hvs_abs_err(s[0], d[0]);
    terms[0] = (e0 * t->csf[0]) * (e0 * t->csf[0]);
    for (int k = 1; k < 64; k++) {
        float err = vq_hvs_abs_err(s[k], d[k]);
        float cut = err - s_mask / t->mask[k];
        uint32_t u = vq_hvs_bits(cut);
        cut = vq_hvs_float(u & ~(uint32_t)((int32_t)u >> 31));
        terms[k] = (cut * t->csf[k]) * (cut * t->csf[k]);
    }
}

/* One plane's device buffers (allocated by the host for the frame size). */
typedef struct VqHvsPlaneDev {
    unsigned bx, by;       /* blocks across and down */
    float *terms;          /* bx * by * 64, block-major in libvmaf's order */
    double *chunk_sum;     /* per block: sum of its terms (an estimate) */
    VqHvsStep *chunk_st;   /* per block: VQ_HVS_CAND summaries */
    int *chunk_base;       /* per block: binade of the first candidate */
    VqHvsStep *group_st;   /* per group: VQ_HVS_CAND summaries */
    int *group_base;
    const VqHvsTables *tab; /* device memory */
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
