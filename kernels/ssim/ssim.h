/*
 * ssim: integer SSIM, built for strict reproducibility. libvmaf registers
 * no such extractor, so this definition is vqhip's own; the CPU path is its
 * reference and the GPU returns the CPU's integer sum.
 *
 * Input: the luma samples x (reference) and y (distorted) as integers,
 * 0 .. L = 2^bpc - 1, not rescaled.
 * Window: separable 9-tap Gaussian, sigma 1.5, in integers:
 *   g = { 2, 9, 28, 55, 68, 55, 28, 9, 2 }, sum 256 (256 * G(k) / sum G
 *   rounded; the centre tap takes the remainder), 2-D weight g_i g_j,
 *   total W = 65536.
 * Borders: half-sample symmetric reflection, repeated for planes smaller
 *   than the window (index k of n samples: m = k mod 2n, m < n ? m : 2n-1-m),
 *   so every pixel has a full window and any size from 1x1 up is scored.
 * Moments, per pixel, exact in 64-bit integers:
 *   Sx = sum g_i g_j x, Sy likewise (< 2^32), Sxx = sum g_i g_j x^2, Syy,
 *   Sxy (< 2^48); px = Sx^2, py = Sy^2, pxy = Sx Sy (< 2^64),
 *   vx = W Sxx - px, vy = W Syy - py (>= 0, < 2^62: W^2 times a variance),
 *   cxy = W Sxy - pxy (|cxy| <= sqrt(vx vy) < 2^62, signed).
 * Constants: c1 = round((0.01 L W)^2), c2 = round((0.03 L W)^2), computed
 *   exactly in integers (round half up).
 * Per pixel, in IEEE double (correctly rounded +, *, /, conversions; no
 *   FMA), in this order:
 *   a = 2 * (double)pxy + (double)c1,   b = 2 * (double)cxy + (double)c2,
 *   d1 = ((double)px + (double)py) + (double)c1,
 *   d2 = ((double)vx + (double)vy) + (double)c2,
 *   q = floor(2^30 * (a * b) / (d1 * d2) + 1/2) as a 64-bit integer.
 * Frame: ssim = (sum of q) / 2^30 / (w h); the sum is an exact integer, so
 *   its order (threads, blocks) cannot change it.
 */
#ifndef VQHIP_KERNELS_SSIM_H
#define VQHIP_KERNELS_SSIM_H

#include "../vq_kernel_api.h"

#if !defined(__CUDACC__) && !defined(__HIP__)
#include <math.h>
#endif

#ifdef __cplusplus
extern "C" {
#endif

#define VQ_SSIM_TAPS 9
#define VQ_SSIM_HALF 4
#define VQ_SSIM_TAP_LIST 2, 9, 28, 55, 68, 55, 28, 9, 2
#define VQ_SSIM_W 65536u       /* the 2-D window's total weight */
#define VQ_SSIM_Q 1073741824.0 /* 2^30: fixed point of a pixel's value */

/* The accumulator record: the frame's sum of q. */
typedef struct VqSsimAcc {
    int64_t sum;
} VqSsimAcc;

/* c1 and c2 for a bit depth, as the doubles the pixel formula adds. */
typedef struct VqSsimConsts {
    double c1, c2;
} VqSsimConsts;

/* round(k (L W)^2 / 10^4) in integers: (L W)^2 < 2^64, split so that no
 * intermediate overflows. */
static inline uint64_t vq_ssim_const(unsigned bpc, unsigned k)
{
    uint64_t lw = (uint64_t)((1u << bpc) - 1) * VQ_SSIM_W;
    uint64_t sq = lw * lw, q = sq / 10000, r = sq % 10000;
    return k * q + (k * r + 5000) / 10000;
}

static inline VqSsimConsts vq_ssim_consts(unsigned bpc)
{
    VqSsimConsts c;
    c.c1 = (double)vq_ssim_const(bpc, 1);
    c.c2 = (double)vq_ssim_const(bpc, 9);
    return c;
}

/* The symmetric reflection of the definition, for any n >= 1. */
static inline VQ_HOST_DEVICE int vq_ssim_mirror(int k, int n)
{
    int p = 2 * n, m = k % p;
    if (m < 0)
        m += p;
    return m < n ? m : p - 1 - m;
}

/* One pixel's q from its window sums (definition above). The doubles of
 * px, py and pxy are formed as products of the exact doubles of Sx and Sy:
 * a double product is the exact product rounded once, the same value as
 * converting the exact 64-bit square. vx, vy < 2^62 convert as signed. */
static inline VQ_HOST_DEVICE int64_t vq_ssim_pixel(uint32_t sx, uint32_t sy,
                                                   uint64_t sxx, uint64_t syy,
                                                   uint64_t sxy,
                                                   VqSsimConsts k)
{
    uint64_t px = (uint64_t)sx * sx, py = (uint64_t)sy * sy;
    uint64_t pxy = (uint64_t)sx * sy;
    int64_t vx = (int64_t)(VQ_SSIM_W * sxx - px);
    int64_t vy = (int64_t)(VQ_SSIM_W * syy - py);
    uint64_t wxy = VQ_SSIM_W * sxy;
    int64_t cxy = wxy >= pxy ? (int64_t)(wxy - pxy) : -(int64_t)(pxy - wxy);
    double fx = (double)sx, fy = (double)sy;
    double a = 2.0 * (fx * fy) + k.c1;
    double b = 2.0 * (double)cxy + k.c2;
    double d1 = fx * fx + fy * fy + k.c1;
    double d2 = (double)vx + (double)vy + k.c2;
    return (int64_t)floor(VQ_SSIM_Q * ((a * b) / (d1 * d2)) + 0.5);
}

/* The frame's sum of q over the luma plane, added to *sum (cleared by the
 * caller). */
int vq_ssim_launch(VqStream stream, const VqDevPlane *ref,
                   const VqDevPlane *dis, unsigned bpc, VqSsimConsts k,
                   int64_t *sum);

#ifdef __cplusplus
}
#endif

#endif
