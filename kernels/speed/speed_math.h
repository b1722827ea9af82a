/*
 * Elementary functions of SpEED, one implementation for the CPU path and the
 * kernels, so that both compute the same bits.
 *
 * log2: libvmaf calls glibc's log2 (double). A GPU's libm and glibc may
 * differ in the last bit, so both sides use vq_speed_log2 below (error
 * below one ulp; it equals glibc's log2 on all but rare inputs, and every
 * caller rounds the result to float right after, which hides a last-bit
 * difference except with probability about 2^-29).
 *
 * sqrt: IEEE 754 defines it as correctly rounded, and the CPU (SSE2) and
 * NVIDIA's __dsqrt_rn are. AMD's device libraries of the ROCm releases this
 * project builds with do not promise it, so AMD kernels use
 * vq_speed_sqrt_exact, which computes the correctly rounded root with
 * integer arithmetic (checked against the CPU's sqrt by the unit test).
 */
#ifndef VQHIP_KERNELS_SPEED_MATH_H
#define VQHIP_KERNELS_SPEED_MATH_H

#include <stdint.h>
#include <string.h>
#if !defined(__CUDACC__) && !defined(__HIP__)
#include <math.h>
#endif

#include "../vq_kernel_api.h"

#ifdef __cplusplus
extern "C" {
#endif

static inline VQ_HOST_DEVICE uint64_t vq_speed_bits(double x)
{
    uint64_t u;
    memcpy(&u, &x, sizeof(u));
    return u;
}

static inline VQ_HOST_DEVICE double vq_speed_from_bits(uint64_t u)
{
    double x;
    memcpy(&x, &u, sizeof(x));
    return x;
}

#define VQ_SPEED_MANT_MASK ((UINT64_C(1) << 52) - 1)
/* One quiet NaN, the same bits on every platform (x86 and GPUs make
 * different NaNs from 0/0). */
#define VQ_SPEED_NAN_BITS UINT64_C(0x7ff8000000000000)
#define VQ_SPEED_INF_BITS UINT64_C(0x7ff0000000000000)

/* log2(2 * pi * e) as the compiler folds libvmaf's constant expression
 * log2(2 * M_PI * M_E) (gcc 12, correctly rounded). */
#define VQ_SPEED_LOG2_2PIE 0x1.06073a671183dp+2

/* 1/ln(2) split so that hi has 32 significant bits (1/ln 2 computed to
 * 60 digits). */
#define VQ_SPEED_IVLN2_HI 0x1.7154765200000p+0
#define VQ_SPEED_IVLN2_LO 0x1.705fc2eefa200p-33

/*
 * log2(x) = e + log(1 + f) / ln 2 with x = 2^e (1 + f), 1 + f in
 * [sqrt(1/2), sqrt(2)). With s = f / (2 + f):
 *   log(1 + f) = 2 atanh(s) = f - f^2/2 + s (f^2/2 + R),
 *   R = sum_{k>=1} 2 s^(2k) / (2k + 1)   (10 terms: the 11th is below
 *                                         2^-60 of the result).
 * f is exact and the terms after it are small, so the sum is accurate; its
 * high part is cut to 21 bits so that the product with VQ_SPEED_IVLN2_HI is
 * exact, and e is added last in two pieces.
 */
static inline VQ_HOST_DEVICE double vq_speed_log2(double x)
{
    uint64_t u = vq_speed_bits(x);
    if (x != x)
        return x;
    if (x == 0.0)
        return -vq_speed_from_bits(VQ_SPEED_INF_BITS);
    if (u >> 63)
        return vq_speed_from_bits(VQ_SPEED_NAN_BITS);
    if (u == VQ_SPEED_INF_BITS)
        return x;
    int e = (int)(u >> 52);
    if (e == 0) { /* subnormal: scale into the normal range */
        u = vq_speed_bits(x * 0x1p54);
        e = (int)(u >> 52) - 54;
    }
    e -= 1023;
    const uint64_t mant = u & VQ_SPEED_MANT_MASK;
    double m;
    if (mant >= UINT64_C(0x6a09e667f3bcd)) { /* 1 + mant >= sqrt(2) */
        m = vq_speed_from_bits(mant | (UINT64_C(1022) << 52));
        e += 1;
    } else {
        m = vq_speed_from_bits(mant | (UINT64_C(1023) << 52));
    }
    const double f = m - 1.0;
    const double s = f / (2.0 + f);
    const double z = s * s;
    /* 2/(2k+1) for k = 1..10 */
    double r = 0x1.8618618618618p-4;
    r = r * z + 0x1.af286bca1af28p-4;
    r = r * z + 0x1.e1e1e1e1e1e1ep-4;
    r = r * z + 0x1.1111111111111p-3;
    r = r * z + 0x1.3b13b13b13b14p-3;
    r = r * z + 0x1.745d1745d1746p-3;
    r = r * z + 0x1.c71c71c71c71cp-3;
    r = r * z + 0x1.2492492492492p-2;
    r = r * z + 0x1.999999999999ap-2;
    r = r * z + 0x1.5555555555555p-1;
    r = r * z;
    const double hfsq = 0.5 * f * f;
    double hi = f - hfsq;
    hi = vq_speed_from_bits(vq_speed_bits(hi) & UINT64_C(0xffffffff00000000));
    const double lo = (f - hi) - hfsq + s * (hfsq + r);
    const double vhi = hi * VQ_SPEED_IVLN2_HI;
    double vlo = (lo + hi) * VQ_SPEED_IVLN2_LO + lo * VQ_SPEED_IVLN2_HI;
    const double y = (double)e;
    const double w = y + vhi;
    vlo += (y - w) + vhi;
    return vlo + w;
}

/* hi:lo = a * b (64 x 64 -> 128 bits, portable). */
static inline VQ_HOST_DEVICE void vq_speed_mul64(uint64_t a, uint64_t b,
                                                 uint64_t *hi, uint64_t *lo)
{
    const uint64_t m32 = UINT64_C(0xffffffff);
    const uint64_t a0 = a & m32, a1 = a >> 32, b0 = b & m32, b1 = b >> 32;
    const uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
    const uint64_t mid = (p00 >> 32) + (p01 & m32) + (p10 & m32);
    *lo = (mid << 32) | (p00 & m32);
    *hi = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
}

/* r * r <= nhi:nlo */
static inline VQ_HOST_DEVICE int vq_speed_sq_le(uint64_t r, uint64_t nhi,
                                                uint64_t nlo)
{
    uint64_t h, l;
    vq_speed_mul64(r, r, &h, &l);
    return h < nhi || (h == nhi && l <= nlo);
}

/*
 * Correctly rounded square root from integers: for x = m 2^k (m an integer
 * below 2^54, k even), r = floor(sqrt(m 2^54)) has 54 bits and the root's
 * 53-bit significand is r / 2 rounded to nearest (an exact tie cannot
 * occur). seed_error shifts the starting estimate, for the unit test of the
 * correction loops; callers pass 0.
 */
static inline VQ_HOST_DEVICE double vq_speed_sqrt_exact_seeded(double x,
                                                               int seed_error)
{
    if (!(x > 0.0)) /* +-0 and NaN stay, negative numbers give NaN */
        return x == 0.0 || x != x ? x : vq_speed_from_bits(VQ_SPEED_NAN_BITS);
    uint64_t u = vq_speed_bits(x);
    if (u == VQ_SPEED_INF_BITS)
        return x;
    int e = (int)(u >> 52);
    uint64_t m = u & VQ_SPEED_MANT_MASK;
    if (e == 0) {
        e = 1;
        while (!(m >> 52)) {
            m <<= 1;
            e--;
        }
    } else {
        m |= UINT64_C(1) << 52;
    }
    int k = e - 1075; /* x = m 2^k, m in [2^52, 2^53) */
    if (k & 1) {
        m <<= 1;
        k -= 1;
    }
    const uint64_t nhi = m >> 10, nlo = m << 54;
    /* any estimate within a few units will do: the loops correct it */
    const double root_m = sqrt((double)m);
    uint64_t r = (uint64_t)(root_m * 134217728.0) + (uint64_t)(int64_t)seed_error;
    while (!vq_speed_sq_le(r, nhi, nlo))
        r--;
    while (vq_speed_sq_le(r + 1, nhi, nlo))
        r++;
    uint64_t q = (r >> 1) + (r & 1);
    int ke = k / 2 - 26;
    if (q >> 53) {
        q >>= 1;
        ke += 1;
    }
    return vq_speed_from_bits(((uint64_t)(ke + 52 + 1023) << 52) |
                              (q & VQ_SPEED_MANT_MASK));
}

static inline VQ_HOST_DEVICE double vq_speed_sqrt_exact(double x)
{
    return vq_speed_sqrt_exact_seeded(x, 0);
}

/* The correctly rounded double square root on each side. */
static inline VQ_HOST_DEVICE double vq_speed_sqrt(double x)
{
#if defined(__CUDA_ARCH__)
    return __dsqrt_rn(x);
#elif defined(__HIP_DEVICE_COMPILE__)
    return vq_speed_sqrt_exact(x);
#else
    return sqrt(x);
#endif
}

/* libvmaf's sqrt of a float: computed in double, rounded to float. */
static inline VQ_HOST_DEVICE float vq_speed_sqrtf(float x)
{
    return (float)vq_speed_sqrt((double)x);
}

#ifdef __cplusplus
}
#endif

#endif
