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
 * The block functions below work on L blocks at once ("lanes", L <= 8):
 * element k of block l is at [k * L + l]. Each block's operations and their
 * order are the same whatever L is; the GPU calls them with L = 1, the CPU
 * with L = 8 so that a compiler vectorizes across the lanes. Selects are
 * written on bit patterns, which a compiler vectorizes (non-negative floats
 * order like their bit patterns).
 */
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
#define VQ_HVS_LANES 1 /* the kernels' block arrays stay small */
#else
#define VQ_HVS_LANES 8
#endif

/*
 * Daala's 8-point forward DCT (od_bin_fdct8) as a sequence of integer
 * lifting steps; the multipliers and shifts are Daala's. Input element
 * x[k * xs * L + l], output y[k * L + l], k = 0..7.
 */
static inline VQ_HOST_DEVICE void vq_hvs_fdct8(int32_t *y, const int32_t *x,
                                               int xs, int L)
{
    for (int l = 0; l < L; l++) {
        int32_t a0 = x[l], a4 = x[xs * L + l], a2 = x[2 * xs * L + l];
        int32_t a6 = x[3 * xs * L + l], a7 = x[4 * xs * L + l];
        int32_t a3 = x[5 * xs * L + l], a5 = x[6 * xs * L + l];
        int32_t a1 = x[7 * xs * L + l];
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
        y[l] = a0; y[L + l] = a1; y[2 * L + l] = a2; y[3 * L + l] = a3;
        y[4 * L + l] = a4; y[5 * L + l] = a5; y[6 * L + l] = a6;
        y[7 * L + l] = a7;
    }
}

/* 8x8 DCT in place: columns into a temporary's rows, then its columns. */
static inline VQ_HOST_DEVICE void vq_hvs_fdct8x8(int32_t *b, int L)
{
    int32_t z[64 * VQ_HVS_LANES];
    for (int i = 0; i < 8; i++)
        vq_hvs_fdct8(z + 8 * i * L, b + i * L, 8, L);
    for (int i = 0; i < 8; i++)
        vq_hvs_fdct8(b + 8 * i * L, z + i * L, 8, L);
}

/* Masking threshold of L blocks (samples in, DCT coefficients out):
 * sqrt(CSF-weighted AC energy * variance ratio) / 32, libvmaf's float
 * operations in its order. libvmaf's float sums of the samples are exact
 * (integers below 2^24), so they are taken as integer sums. */
static inline VQ_HOST_DEVICE void vq_hvs_mask(int32_t *b, const float *mask,
                                              float *out, int L)
{
    int32_t g[VQ_HVS_LANES], q[4][VQ_HVS_LANES];
    for (int l = 0; l < L; l++)
        g[l] = q[0][l] = q[1][l] = q[2][l] = q[3][l] = 0;
    for (int i = 0; i < 8; i++)
        for (int j = 0; j < 8; j++) {
            int sub = ((i & 12) >> 2) + ((j & 12) >> 1);
            for (int l = 0; l < L; l++) {
                g[l] += b[(i * 8 + j) * L + l];
                q[sub][l] += b[(i * 8 + j) * L + l];
            }
        }
    float mean[VQ_HVS_LANES], means[4][VQ_HVS_LANES];
    float gvar[VQ_HVS_LANES], vars[4][VQ_HVS_LANES], en[VQ_HVS_LANES];
    for (int l = 0; l < L; l++) {
        mean[l] = (float)g[l] / 64.f;
        for (int k = 0; k < 4; k++) {
            means[k][l] = (float)q[k][l] / 16.f;
            vars[k][l] = 0;
        }
        gvar[l] = en[l] = 0;
    }
    for (int i = 0; i < 8; i++)
        for (int j = 0; j < 8; j++) {
            int sub = ((i & 12) >> 2) + ((j & 12) >> 1);
            for (int l = 0; l < L; l++) {
                float dg = b[(i * 8 + j) * L + l] - mean[l];
                float dq = b[(i * 8 + j) * L + l] - means[sub][l];
                gvar[l] += dg * dg;
                vars[sub][l] += dq * dq;
            }
        }
    for (int l = 0; l < L; l++) {
        gvar[l] *= 1 / 63.f * 64;
        for (int k = 0; k < 4; k++)
            vars[k][l] *= 1 / 15.f * 16;
        /* if (gvar > 0) gvar = sum of vars / gvar; gvar >= +0 here */
        float ratio = (vars[0][l] + vars[1][l] + vars[2][l] + vars[3][l]) / gvar[l];
        uint32_t keep = 0u - (uint32_t)(vq_hvs_bits(gvar[l]) == 0);
        gvar[l] = vq_hvs_float((vq_hvs_bits(gvar[l]) & keep) |
                               (vq_hvs_bits(ratio) & ~keep));
    }
    vq_hvs_fdct8x8(b, L);
    for (int k = 1; k < 64; k++)
        for (int l = 0; l < L; l++)
            en[l] += (float)vq_hvs_mul(b[k * L + l], b[k * L + l]) * mask[k];
    for (int l = 0; l < L; l++)
        out[l] = (float)(sqrt((double)(en[l] * gvar[l])) / 32.0);
}

/* |a - b| as a float, as C's abs() of the int difference. */
static inline VQ_HOST_DEVICE float vq_hvs_abs_err(int32_t a, int32_t b)
{
    uint32_t e = (uint32_t)a - (uint32_t)b, neg = 0u - (e >> 31);
    return (float)(int32_t)((e ^ neg) - neg);
}

/* The 64 terms of each of L blocks, in libvmaf's order: terms[l * 64 + k].
 * s (reference) and d (distorted) samples, overwritten. */
static inline VQ_HOST_DEVICE void vq_hvs_block_terms(int32_t *s, int32_t *d,
                                                     const VqHvsTables *t,
                                                     float *terms, int L)
{
    float sm[VQ_HVS_LANES], dm[VQ_HVS_LANES];
    vq_hvs_mask(s, t->mask, sm, L);
    vq_hvs_mask(d, t->mask, dm, L);
    for (int l = 0; l < L; l++) { /* the larger threshold; both >= +0 */
        uint32_t a = vq_hvs_bits(sm[l]), b = vq_hvs_bits(dm[l]);
        sm[l] = vq_hvs_float(b > a ? b : a);
    }
    /* The DC term is not masked; libvmaf's "err < thr ? 0 : err - thr" is
     * err - thr with negative results (exactly those with err < thr) set
     * to +0. */
    for (int l = 0; l < L; l++) {
        float e0 = vq_hvs_abs_err(s[l], d[l]);
        terms[l * 64] = (e0 * t->csf[0]) * (e0 * t->csf[0]);
    }
    for (int k = 1; k < 64; k++)
        for (int l = 0; l < L; l++) {
            float err = vq_hvs_abs_err(s[k * L + l], d[k * L + l]);
            float cut = err - sm[l] / t->mask[k];
            uint32_t u = vq_hvs_bits(cut);
            cut = vq_hvs_float(u & ~(uint32_t)((int32_t)u >> 31));
            terms[l * 64 + k] = (cut * t->csf[k]) * (cut * t->csf[k]);
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
