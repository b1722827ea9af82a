/*
 * powf as glibc computes it (since 2.27, ARM's optimized-routines
 * algorithm), for the CPU paths and the kernels alike: libvmaf's float_adm
 * calls glibc's powf, and the GPU's libm would round differently.
 *
 * log2(x) from a 16-entry table of 1/c and log2(c) and a degree-5
 * polynomial of z/c - 1, then exp2(y log2(x)) from a 32-entry table of
 * 2^(i/32) and a degree-3 polynomial, all in double, rounded to float once.
 * The tables and coefficients are glibc's (sysdeps/ieee754/flt-32:
 * e_powf_log2_data.c, e_exp2f_data.c). Written without fused multiply-add
 * (the builds forbid contraction), which is glibc's generic build; its
 * x86-64 FMA build differs from it only where a result lies within about
 * 1e-16 of a rounding boundary (checked on random inputs: tests/float/float_unit.c).
 */
#ifndef VQHIP_KERNELS_VQ_POWF_H
#define VQHIP_KERNELS_VQ_POWF_H

#include <math.h>
#include <string.h>

#include "vq_kernel_api.h"

static inline VQ_HOST_DEVICE uint32_t vq_powf_bits(float x)
{
    uint32_t u;
    memcpy(&u, &x, sizeof(u));
    return u;
}

static inline VQ_HOST_DEVICE float vq_powf_float(uint32_t u)
{
    float x;
    memcpy(&x, &u, sizeof(x));
    return x;
}

/* 0 or +-inf or NaN, from the bits. */
static inline VQ_HOST_DEVICE int vq_powf_zeroinfnan(uint32_t i)
{
    return 2 * i - 1 >= 2u * 0x7f800000 - 1;
}

/* 0: y is not an integer, 1: an odd integer, 2: an even integer (y finite,
 * non-zero). */
static inline VQ_HOST_DEVICE int vq_powf_yint(uint32_t iy)
{
    int e = iy >> 23 & 0xff;
    if (e < 0x7f)
        return 0;
    if (e > 0x7f + 23)
        return 2;
    if (iy & ((1u << (0x7f + 23 - e)) - 1))
        return 0;
    return iy & (1u << (0x7f + 23 - e)) ? 1 : 2;
}

/* log2 of the float with bits ix (normal, or a subnormal rebased to a
 * negative exponent). */
static inline VQ_HOST_DEVICE double vq_powf_log2(uint32_t ix)
{
    static const double tab[16][2] = {
        { 0x1.661ec79f8f3bep+0, -0x1.efec65b963019p-2 },
        { 0x1.571ed4aaf883dp+0, -0x1.b0b6832d4fca4p-2 },
        { 0x1.49539f0f010bp+0, -0x1.7418b0a1fb77bp-2 },
        { 0x1.3c995b0b80385p+0, -0x1.39de91a6dcf7bp-2 },
        { 0x1.30d190c8864a5p+0, -0x1.01d9bf3f2b631p-2 },
        { 0x1.25e227b0b8eap+0, -0x1.97c1d1b3b7afp-3 },
        { 0x1.1bb4a4a1a343fp+0, -0x1.2f9e393af3c9fp-3 },
        { 0x1.12358f08ae5bap+0, -0x1.960cbbf788d5cp-4 },
        { 0x1.0953f419900a7p+0, -0x1.a6f9db6475fcep-5 },
        { 0x1p+0, 0x0p+0 },
        { 0x1.e608cfd9a47acp-1, 0x1.338ca9f24f53dp-4 },
        { 0x1.ca4b31f026aap-1, 0x1.476a9543891bap-3 },
        { 0x1.b2036576afce6p-1, 0x1.e840b4ac4e4d2p-3 },
        { 0x1.9c2d163a1aa2dp-1, 0x1.40645f0c6651cp-2 },
        { 0x1.886e6037841edp-1, 0x1.88e9c2c1b9ff8p-2 },
        { 0x1.767dcf5534862p-1, 0x1.ce0a44eb17bccp-2 },
    };
    const double a0 = 0x1.27616c9496e0bp-2, a1 = -0x1.71969a075c67ap-2,
                 a2 = 0x1.ec70a6ca7baddp-2, a3 = -0x1.7154748bef6c8p-1,
                 a4 = 0x1.71547652ab82bp0;
    /* x = 2^k z, z in [0x3f330000, 2 * 0x3f330000) as bits, exact; the
     * subinterval of z picks c, near its centre */
    uint32_t tmp = ix - 0x3f330000u;
    int i = (int)((tmp >> 19) % 16);
    uint32_t top = tmp & 0xff800000u;
    int k = (int32_t)top >> 23;
    double z = (double)vq_powf_float(ix - top);
    double r = z * tab[i][0] - 1;
    double y0 = tab[i][1] + (double)k;
    double r2 = r * r;
    double y = a0 * r + a1;
    double p = a2 * r + a3;
    double r4 = r2 * r2;
    double q = a4 * r + y0;
    q = p * r2 + q;
    return y * r4 + q;
}

/* 2^x (|x| < 150), negated when sign_bias is set. */
static inline VQ_HOST_DEVICE double vq_powf_exp2(double x, uint64_t sign_bias)
{
    static const uint64_t tab[32] = {
        0x3ff0000000000000, 0x3fefd9b0d3158574, 0x3fefb5586cf9890f,
        0x3fef9301d0125b51, 0x3fef72b83c7d517b, 0x3fef54873168b9aa,
        0x3fef387a6e756238, 0x3fef1e9df51fdee1, 0x3fef06fe0a31b715,
        0x3feef1a7373aa9cb, 0x3feedea64c123422, 0x3feece086061892d,
        0x3feebfdad5362a27, 0x3feeb42b569d4f82, 0x3feeab07dd485429,
        0x3feea47eb03a5585, 0x3feea09e667f3bcd, 0x3fee9f75e8ec5f74,
        0x3feea11473eb0187, 0x3feea589994cce13, 0x3feeace5422aa0db,
        0x3feeb737b0cdc5e5, 0x3feec49182a3f090, 0x3feed503b23e255d,
        0x3feee89f995ad3ad, 0x3feeff76f2fb5e47, 0x3fef199bdd85529c,
        0x3fef3720dcef9069, 0x3fef5818dcfba487, 0x3fef7c97337b9b5f,
        0x3fefa4afa2a490da, 0x3fefd0765b6e4540,
    };
    const double c0 = 0x1.c6af84b912394p-5, c1 = 0x1.ebfce50fac4f3p-3,
                 c2 = 0x1.62e42ff0c52d6p-1;
    const double shift = 0x1.8p+52 / 32;
    /* x = k/32 + r, |r| <= 1/64: the sum's rounding gives k */
    double kd = x + shift;
    uint64_t ki;
    memcpy(&ki, &kd, sizeof(ki));
    kd -= shift;
    double r = x - kd;
    uint64_t t = tab[ki % 32] + ((ki + sign_bias) << (52 - 5));
    double s;
    memcpy(&s, &t, sizeof(s));
    double z = c0 * r + c1;
    double r2 = r * r;
    double y = c2 * r + 1;
    y = z * r2 + y;
    return y * s;
}

static inline VQ_HOST_DEVICE float vq_powf(float x, float y)
{
    uint64_t sign_bias = 0;
    uint32_t ix = vq_powf_bits(x), iy = vq_powf_bits(y);
    if (ix - 0x00800000u >= 0x7f800000u - 0x00800000u ||
        vq_powf_zeroinfnan(iy)) {
        if (vq_powf_zeroinfnan(iy)) {
            if (2 * iy == 0 || ix == 0x3f800000u)
                return 1.0f;
            if (2 * ix > 2u * 0x7f800000 || 2 * iy > 2u * 0x7f800000)
                return x + y;
            if (2 * ix == 2u * 0x3f800000)
                return 1.0f;
            if ((2 * ix < 2u * 0x3f800000) == !(iy & 0x80000000u))
                return 0.0f;
            return y * y;
        }
        if (vq_powf_zeroinfnan(ix)) {
            float x2 = x * x;
            if (ix & 0x80000000u && vq_powf_yint(iy) == 1)
                x2 = -x2;
            return iy & 0x80000000u ? 1 / x2 : x2;
        }
        if (ix & 0x80000000u) {
            int yint = vq_powf_yint(iy);
            if (yint == 0)
                return NAN;
            if (yint == 1)
                sign_bias = 1u << (5 + 11);
            ix &= 0x7fffffffu;
        }
        if (ix < 0x00800000u) {
            /* subnormal: scaled to normal, exponent rebased below 0 */
            ix = vq_powf_bits(vq_powf_float(ix) * 0x1p23f) & 0x7fffffffu;
            ix -= 23u << 23;
        }
    }
    double ylogx = y * vq_powf_log2(ix);
    uint64_t u;
    memcpy(&u, &ylogx, sizeof(u));
    if ((u >> 47 & 0xffff) >= 0x405f800000000000ull >> 47) {
        /* |y log2 x| >= 126: glibc's overflow and underflow results */
        float sgn = sign_bias ? -1.0f : 1.0f;
        if (ylogx > 0x1.fffffffd1d571p+6)
            return sgn * INFINITY;
        if (ylogx <= -150.0)
            return sgn * 0.0f;
        if (ylogx < -149.0)
            return sgn * 0x1p-149f;
    }
    return (float)vq_powf_exp2(ylogx, sign_bias);
}

#endif
