/*
 * The elementary functions ciede needs (exp, log, pow, sin, cos, atan2 in
 * double), written once for the CPU and the GPU: glibc and the GPU's math
 * libraries may differ in the last bit, these compile to the same IEEE
 * operations on both sides (no contraction, correctly rounded + - * / and
 * sqrt). Accuracy: within a few units in the last place of a double over
 * the ranges ciede uses (tests/ciede/ciede_math_test.c measures it against
 * glibc), so after ciede's roundings to float the values are glibc's in
 * all but rare cases.
 *
 * Constants: Taylor coefficients and splits of ln 2, pi/2 and atan(k/4),
 * computed with 200-bit arithmetic (mpmath) and written as hex literals.
 * Domains: exp for |x| < 700, log and pow for positive normal x, sin and
 * cos for |x| < 2^6 pi, atan2 for finite arguments.
 */
#ifndef VQHIP_KERNELS_CIEDE_MATH_H
#define VQHIP_KERNELS_CIEDE_MATH_H

#include <string.h>

#include "../vq_kernel_api.h"

#ifdef __cplusplus
extern "C" {
#endif

static inline VQ_HOST_DEVICE uint64_t vq_ciede_bits(double d)
{
    uint64_t u;
    memcpy(&u, &d, sizeof(u));
    return u;
}

static inline VQ_HOST_DEVICE double vq_ciede_double(uint64_t u)
{
    double d;
    memcpy(&d, &u, sizeof(d));
    return d;
}

/* Rounds x (|x| < 2^51) to the nearest integer, ties to even, with one
 * addition: returns the integer as a double; *bits gets the low bits of
 * the sum, 2^51 + that integer (no float-to-integer conversion, so that a
 * CPU's loops over these functions vectorize). */
static inline VQ_HOST_DEVICE double vq_ciede_rint(double x, uint64_t *bits)
{
    double t = x + 0x1.8p52;
    *bits = vq_ciede_bits(t) & 0xfffffffffffffull;
    return t - 0x1.8p52;
}

/* c ? a : b through bit masks: a select a compiler vectorizes (it does not
 * turn a conditional floating-point expression into one). */
static inline VQ_HOST_DEVICE double vq_ciede_sel(int c, double a, double b)
{
    uint64_t m = 0 - (uint64_t)(c != 0);
    return vq_ciede_double((vq_ciede_bits(a) & m) | (vq_ciede_bits(b) & ~m));
}

static inline VQ_HOST_DEVICE float vq_ciede_self(int c, float a, float b)
{
    uint32_t ua, ub, m = 0 - (uint32_t)(c != 0);
    memcpy(&ua, &a, sizeof(ua));
    memcpy(&ub, &b, sizeof(ub));
    ua = (ua & m) | (ub & ~m);
    memcpy(&a, &ua, sizeof(a));
    return a;
}

/* The functions below have no branches (both sides are computed and one
 * selected), for the same reason. */

/* 2^(j/64) and, for c = 1 + (j + 1/2) / 64: 1/c, log c (hi + lo), c. */
#define VQ_CD_EXP2_TAB { \
    0x1.0000000000000p+0, 0x1.02c9a3e778061p+0, 0x1.059b0d3158574p+0, 0x1.0874518759bc8p+0, \
    0x1.0b5586cf9890fp+0, 0x1.0e3ec32d3d1a2p+0, 0x1.11301d0125b51p+0, 0x1.1429aaea92de0p+0, \
    0x1.172b83c7d517bp+0, 0x1.1a35beb6fcb75p+0, 0x1.1d4873168b9aap+0, 0x1.2063b88628cd6p+0, \
    0x1.2387a6e756238p+0, 0x1.26b4565e27cddp+0, 0x1.29e9df51fdee1p+0, 0x1.2d285a6e4030bp+0, \
    0x1.306fe0a31b715p+0, 0x1.33c08b26416ffp+0, 0x1.371a7373aa9cbp+0, 0x1.3a7db34e59ff7p+0, \
    0x1.3dea64c123422p+0, 0x1.4160a21f72e2ap+0, 0x1.44e086061892dp+0, 0x1.486a2b5c13cd0p+0, \
    0x1.4bfdad5362a27p+0, 0x1.4f9b2769d2ca7p+0, 0x1.5342b569d4f82p+0, 0x1.56f4736b527dap+0, \
    0x1.5ab07dd485429p+0, 0x1.5e76f15ad2148p+0, 0x1.6247eb03a5585p+0, 0x1.6623882552225p+0, \
    0x1.6a09e667f3bcdp+0, 0x1.6dfb23c651a2fp+0, 0x1.71f75e8ec5f74p+0, 0x1.75feb564267c9p+0, \
    0x1.7a11473eb0187p+0, 0x1.7e2f336cf4e62p+0, 0x1.82589994cce13p+0, 0x1.868d99b4492edp+0, \
    0x1.8ace5422aa0dbp+0, 0x1.8f1ae99157736p+0, 0x1.93737b0cdc5e5p+0, 0x1.97d829fde4e50p+0, \
    0x1.9c49182a3f090p+0, 0x1.a0c667b5de565p+0, 0x1.a5503b23e255dp+0, 0x1.a9e6b5579fdbfp+0, \
    0x1.ae89f995ad3adp+0, 0x1.b33a2b84f15fbp+0, 0x1.b7f76f2fb5e47p+0, 0x1.bcc1e904bc1d2p+0, \
    0x1.c199bdd85529cp+0, 0x1.c67f12e57d14bp+0, 0x1.cb720dcef9069p+0, 0x1.d072d4a07897cp+0, \
    0x1.d5818dcfba487p+0, 0x1.da9e603db3285p+0, 0x1.dfc97337b9b5fp+0, 0x1.e502ee78b3ff6p+0, \
    0x1.ea4afa2a490dap+0, 0x1.efa1bee615a27p+0, 0x1.f50765b6e4540p+0, 0x1.fa7c1819e90d8p+0 }
#define VQ_CD_LOG_TAB { \
    { 0x1.fc07f01fc07f0p-1, 0x1.fe02a6b106789p-8, -0x1.e44b7e3711ebfp-67, 0x1.0200000000000p+0 }, \
    { 0x1.f44659e4a4271p-1, 0x1.7b91b07d5b11bp-6, -0x1.5b602ace3a510p-60, 0x1.0600000000000p+0 }, \
    { 0x1.ecc07b301ecc0p-1, 0x1.39e87b9febd60p-5, -0x1.5bfa937f551bbp-59, 0x1.0a00000000000p+0 }, \
    { 0x1.e573ac901e574p-1, 0x1.b42dd711971bfp-5, -0x1.eb9759c130499p-60, 0x1.0e00000000000p+0 }, \
    { 0x1.de5d6e3f8868ap-1, 0x1.16536eea37ae1p-4, -0x1.79da3e8c22cdap-60, 0x1.1200000000000p+0 }, \
    { 0x1.d77b654b82c34p-1, 0x1.51b073f06183fp-4, 0x1.a49e39a1a8be4p-58, 0x1.1600000000000p+0 }, \
    { 0x1.d0cb58f6ec074p-1, 0x1.8c345d6319b21p-4, -0x1.4a697ab3424a9p-61, 0x1.1a00000000000p+0 }, \
    { 0x1.ca4b3055ee191p-1, 0x1.c5e548f5bc743p-4, 0x1.5d617ef8161b1p-60, 0x1.1e00000000000p+0 }, \
    { 0x1.c3f8f01c3f8f0p-1, 0x1.fec9131dbeabbp-4, -0x1.5746b9981b36cp-58, 0x1.2200000000000p+0 }, \
    { 0x1.bdd2b899406f7p-1, 0x1.1b72ad52f67a0p-3, 0x1.483023472cd74p-58, 0x1.2600000000000p+0 }, \
    { 0x1.b7d6c3dda338bp-1, 0x1.371fc201e8f74p-3, 0x1.de6cb62af18a0p-58, 0x1.2a00000000000p+0 }, \
    { 0x1.b2036406c80d9p-1, 0x1.526e5e3a1b438p-3, -0x1.746ff8a470d3ap-57, 0x1.2e00000000000p+0 }, \
    { 0x1.ac5701ac5701bp-1, 0x1.6d60fe719d21dp-3, -0x1.caae268ecd179p-57, 0x1.3200000000000p+0 }, \
    { 0x1.a6d01a6d01a6dp-1, 0x1.87fa06520c911p-3, -0x1.bf7fdbfa08d9ap-57, 0x1.3600000000000p+0 }, \
    { 0x1.a16d3f97a4b02p-1, 0x1.a23bc1fe2b563p-3, 0x1.93711b07a998cp-59, 0x1.3a00000000000p+0 }, \
    { 0x1.9c2d14ee4a102p-1, 0x1.bc286742d8cd6p-3, 0x1.4fce744870f55p-58, 0x1.3e00000000000p+0 }, \
    { 0x1.970e4f80cb872p-1, 0x1.d5c216b4fbb91p-3, 0x1.6e443597e4d40p-57, 0x1.4200000000000p+0 }, \
    { 0x1.920fb49d0e229p-1, 0x1.ef0adcbdc5936p-3, 0x1.48637950dc20dp-57, 0x1.4600000000000p+0 }, \
    { 0x1.8d3018d3018d3p-1, 0x1.0402594b4d041p-2, -0x1.28ec217a5022dp-57, 0x1.4a00000000000p+0 }, \
    { 0x1.886e5f0abb04ap-1, 0x1.1058bf9ae4ad5p-2, 0x1.89fa0ab4cb31dp-58, 0x1.4e00000000000p+0 }, \
    { 0x1.83c977ab2beddp-1, 0x1.1c898c16999fbp-2, -0x1.0e5c62aff1c44p-60, 0x1.5200000000000p+0 }, \
    { 0x1.7f405fd017f40p-1, 0x1.2895a13de86a3p-2, 0x1.7ad24c13f040ep-56, 0x1.5600000000000p+0 }, \
    { 0x1.7ad2208e0ecc3p-1, 0x1.347dd9a987d55p-2, -0x1.4dd4c580919f8p-57, 0x1.5a00000000000p+0 }, \
    { 0x1.767dce434a9b1p-1, 0x1.404308686a7e4p-2, -0x1.0bcfb6082ce6dp-56, 0x1.5e00000000000p+0 }, \
    { 0x1.724287f46debcp-1, 0x1.4be5f957778a1p-2, -0x1.259b35b04813dp-57, 0x1.6200000000000p+0 }, \
    { 0x1.6e1f76b4337c7p-1, 0x1.5767717455a6cp-2, 0x1.526adb283660cp-56, 0x1.6600000000000p+0 }, \
    { 0x1.6a13cd1537290p-1, 0x1.62c82f2b9c795p-2, 0x1.7b7af915300e5p-57, 0x1.6a00000000000p+0 }, \
    { 0x1.661ec6a5122f9p-1, 0x1.6e08eaa2ba1e4p-2, -0x1.cfb1b39ca3a0fp-56, 0x1.6e00000000000p+0 }, \
    { 0x1.623fa77016240p-1, 0x1.792a55fdd47a2p-2, 0x1.f057691fe9ed7p-56, 0x1.7200000000000p+0 }, \
    { 0x1.5e75bb8d015e7p-1, 0x1.842d1da1e8b17p-2, 0x1.24ec519784676p-56, 0x1.7600000000000p+0 }, \
    { 0x1.5ac056b015ac0p-1, 0x1.8f11e873662c7p-2, 0x1.f85da755a61a3p-56, 0x1.7a00000000000p+0 }, \
    { 0x1.571ed3c506b3ap-1, 0x1.99d958117e08bp-2, -0x1.a2b6889dc3e72p-57, 0x1.7e00000000000p+0 }, \
    { 0x1.5390948f40febp-1, 0x1.a484090e5bb0ap-2, 0x1.5fe535b875a75p-57, 0x1.8200000000000p+0 }, \
    { 0x1.5015015015015p-1, 0x1.af1293247786bp-2, 0x1.133844a15dc28p-58, 0x1.8600000000000p+0 }, \
    { 0x1.4cab88725af6ep-1, 0x1.b9858969310fbp-2, 0x1.663ec53e23bc4p-56, 0x1.8a00000000000p+0 }, \
    { 0x1.49539e3b2d067p-1, 0x1.c3dd7a7cdad4dp-2, 0x1.cecf052dea69bp-56, 0x1.8e00000000000p+0 }, \
    { 0x1.460cbc7f5cf9ap-1, 0x1.ce1af0b85f3ebp-2, 0x1.edf4af2ab4267p-56, 0x1.9200000000000p+0 }, \
    { 0x1.42d6625d51f87p-1, 0x1.d83e7258a2f3ep-2, 0x1.41456e8bb2511p-56, 0x1.9600000000000p+0 }, \
    { 0x1.3fb013fb013fbp-1, 0x1.e24881a7c6c26p-2, 0x1.cbd8f45954a46p-58, 0x1.9a00000000000p+0 }, \
    { 0x1.3c995a47babe7p-1, 0x1.ec399d2468cc0p-2, 0x1.75cee53f35397p-58, 0x1.9e00000000000p+0 }, \
    { 0x1.3991c2c187f63p-1, 0x1.f6123fa7028acp-2, 0x1.8515b0f2db341p-56, 0x1.a200000000000p+0 }, \
    { 0x1.3698df3de0748p-1, 0x1.ffd2e0857f498p-2, 0x1.565f40d9321afp-56, 0x1.a600000000000p+0 }, \
    { 0x1.33ae45b57bcb2p-1, 0x1.04bdf9da926d2p-1, 0x1.97f304022c9dfp-55, 0x1.aa00000000000p+0 }, \
    { 0x1.30d190130d190p-1, 0x1.0986f4f573521p-1, -0x1.1b8095ac02f01p-55, 0x1.ae00000000000p+0 }, \
    { 0x1.2e025c04b8097p-1, 0x1.0e44985d1cc8cp-1, -0x1.22a3442d2d384p-58, 0x1.b200000000000p+0 }, \
    { 0x1.2b404ad012b40p-1, 0x1.12f719593efbcp-1, 0x1.4c048c671f435p-55, 0x1.b600000000000p+0 }, \
    { 0x1.288b01288b013p-1, 0x1.179eabbd899a1p-1, -0x1.00e7c6417e0b4p-55, 0x1.ba00000000000p+0 }, \
    { 0x1.25e22708092f1p-1, 0x1.1c3b81f713c25p-1, -0x1.0dac1c4c810e9p-55, 0x1.be00000000000p+0 }, \
    { 0x1.23456789abcdfp-1, 0x1.20cdcd192ab6ep-1, -0x1.b2bf0bc229014p-55, 0x1.c200000000000p+0 }, \
    { 0x1.20b470c67c0d9p-1, 0x1.2555bce98f7cbp-1, 0x1.e021d6d6881e7p-56, 0x1.c600000000000p+0 }, \
    { 0x1.1e2ef3b3fb874p-1, 0x1.29d37fec2b08bp-1, -0x1.bd1949a2d1982p-56, 0x1.ca00000000000p+0 }, \
    { 0x1.1bb4a4046ed29p-1, 0x1.2e47436e40268p-1, 0x1.0150861a4886bp-55, 0x1.ce00000000000p+0 }, \
    { 0x1.19453808ca29cp-1, 0x1.32b1339121d71p-1, 0x1.902ab5b3d916bp-56, 0x1.d200000000000p+0 }, \
    { 0x1.16e0689427379p-1, 0x1.37117b54747b6p-1, -0x1.d117edbdd9103p-56, 0x1.d600000000000p+0 }, \
    { 0x1.1485f0e0acd3bp-1, 0x1.3b68449fffc23p-1, -0x1.41c484f9e9b26p-55, 0x1.da00000000000p+0 }, \
    { 0x1.12358e75d3033p-1, 0x1.3fb5b84d16f42p-1, 0x1.6d3a754172aefp-55, 0x1.de00000000000p+0 }, \
    { 0x1.0fef010fef011p-1, 0x1.43f9fe2f9ce67p-1, 0x1.e9c9ee6d83b86p-55, 0x1.e200000000000p+0 }, \
    { 0x1.0db20a88f4696p-1, 0x1.48353d1ea88dfp-1, 0x1.cf57a2ecc07f4p-55, 0x1.e600000000000p+0 }, \
    { 0x1.0b7e6ec259dc8p-1, 0x1.4c679afccee3ap-1, -0x1.3a5c4c8b39e41p-55, 0x1.ea00000000000p+0 }, \
    { 0x1.0953f39010954p-1, 0x1.50913cc01686bp-1, 0x1.2f2ce96c2d5b1p-55, 0x1.ee00000000000p+0 }, \
    { 0x1.073260a47f7c6p-1, 0x1.54b2467999498p-1, -0x1.5baaf5d2f09f4p-55, 0x1.f200000000000p+0 }, \
    { 0x1.05197f7d73404p-1, 0x1.58cadb5cd7989p-1, 0x1.849792ec98458p-56, 0x1.f600000000000p+0 }, \
    { 0x1.03091b51f5e1ap-1, 0x1.5cdb1dc6c1765p-1, -0x1.cc2470e8a3df4p-55, 0x1.fa00000000000p+0 }, \
    { 0x1.0101010101010p-1, 0x1.60e32f44788d9p-1, -0x1.ac1bb52fa589bp-56, 0x1.fe00000000000p+0 } }
static const double vq_ciede_exp2_host[64] = VQ_CD_EXP2_TAB;
static const double vq_ciede_log_host[64][4] = VQ_CD_LOG_TAB;
#if defined(__CUDACC__) || defined(__HIP__)
/* The same numbers in device memory for the kernels. */
static __device__ const double vq_ciede_exp2_dev[64] = VQ_CD_EXP2_TAB;
static __device__ const double vq_ciede_log_dev[64][4] = VQ_CD_LOG_TAB;
#endif
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
#define VQ_CD_EXP2 vq_ciede_exp2_dev
#define VQ_CD_LOG vq_ciede_log_dev
#else
#define VQ_CD_EXP2 vq_ciede_exp2_host
#define VQ_CD_LOG vq_ciede_log_host
#endif

/* e^x = 2^(k/64) e^r, r = x - k ln2/64 (ln2/64 = hi (32 bits: k * hi is
 * exact) + lo), |r| <= ln2/128: Taylor series to r^6. */
static inline VQ_HOST_DEVICE double vq_ciede_exp(double x)
{
    uint64_t kb;
    double k = vq_ciede_rint(x * 0x1.71547652b82fep+6, &kb);
    double r = (x - k * 0x1.62e42fee00000p-7) - k * 0x1.a39ef35793c76p-39;
    double p = 0x1.6c16c16c16c17p-10;
    p = p * r + 0x1.1111111111111p-7;
    p = p * r + 0x1.5555555555555p-5;
    p = p * r + 0x1.5555555555555p-3;
    p = p * r + 0x1.0000000000000p-1;
    p = p * r * r + r;
    /* k = 64 e + j; kb = 2^51 + k, so kb >> 6 = 2^45 + e */
    double t = VQ_CD_EXP2[kb & 63];
    double scale = vq_ciede_double(((kb >> 6) - (1ull << 45) + 1023) << 52);
    return (t + t * p) * scale;
}

/* log x = e ln2 + log c + log(1 + r), x = 2^e m, m in [1, 2), c the
 * centre of m's 1/64 interval (m - c is exact), r = (m - c) / c,
 * |r| <= 1/128: Taylor series to r^8. */
static inline VQ_HOST_DEVICE double vq_ciede_log(double x)
{
    uint64_t b = vq_ciede_bits(x), j = (b >> 46) & 63;
    /* the biased exponent as a double, without a conversion */
    double e = vq_ciede_double(0x4330000000000000ull | (b >> 52)) -
               (0x1p52 + 1023.0);
    double m = vq_ciede_double((b & 0xfffffffffffffull) | 0x3ff0000000000000ull);
    double r = (m - VQ_CD_LOG[j][3]) * VQ_CD_LOG[j][0];
    double p = -0x1.0000000000000p-3;
    p = p * r + 0x1.2492492492492p-3;
    p = p * r + -0x1.5555555555555p-3;
    p = p * r + 0x1.999999999999ap-3;
    p = p * r + -0x1.0000000000000p-2;
    p = p * r + 0x1.5555555555555p-2;
    p = p * r + -0x1.0000000000000p-1;
    p = p * r * r + r;
    return (e * 0x1.62e42fee00000p-1 + VQ_CD_LOG[j][1]) +
           ((e * 0x1.a39ef35793c76p-33 + VQ_CD_LOG[j][2]) + p);
}

/* x^y for x > 0. */
static inline VQ_HOST_DEVICE double vq_ciede_pow(double x, double y)
{
    return vq_ciede_exp(y * vq_ciede_log(x));
}

/* sin and cos of r, |r| <= pi/4 (Taylor series to r^21 and r^20). */
static inline VQ_HOST_DEVICE double vq_ciede_sin_k(double r)
{
    double z = r * r, p = 0x1.71b8ef6dcf572p-66;
    p = p * z + -0x1.2f49b46814157p-57;
    p = p * z + 0x1.952c77030ad4ap-49;
    p = p * z + -0x1.ae7f3e733b81fp-41;
    p = p * z + 0x1.6124613a86d09p-33;
    p = p * z + -0x1.ae64567f544e4p-26;
    p = p * z + 0x1.71de3a556c734p-19;
    p = p * z + -0x1.a01a01a01a01ap-13;
    p = p * z + 0x1.1111111111111p-7;
    p = p * z + -0x1.5555555555555p-3;
    return r + r * (z * p);
}

static inline VQ_HOST_DEVICE double vq_ciede_cos_k(double r)
{
    double z = r * r, p = 0x1.e542ba4020225p-62;
    p = p * z + -0x1.6827863b97d97p-53;
    p = p * z + 0x1.ae7f3e733b81fp-45;
    p = p * z + -0x1.93974a8c07c9dp-37;
    p = p * z + 0x1.1eed8eff8d898p-29;
    p = p * z + -0x1.27e4fb7789f5cp-22;
    p = p * z + 0x1.a01a01a01a01ap-16;
    p = p * z + -0x1.6c16c16c16c17p-10;
    p = p * z + 0x1.5555555555555p-5;
    return 1.0 - (0.5 * z - z * (z * p));
}

/* x = k pi/2 + r, |r| <= pi/4; pi/2 in three parts (33, 33, 53 bits) so
 * that k * part is exact for |k| < 2^7. Returns k mod 4. */
static inline VQ_HOST_DEVICE uint64_t vq_ciede_reduce(double x, double *r)
{
    uint64_t kb;
    double k = vq_ciede_rint(x * 0x1.45f306dc9c883p-1, &kb);
    *r = ((x - k * 0x1.921fb54400000p+0) - k * 0x1.0b4611a600000p-34) -
         k * 0x1.3198a2e037073p-69;
    return kb & 3; /* 2^51 is a multiple of 4 */
}

static inline VQ_HOST_DEVICE double vq_ciede_sin(double x)
{
    double r;
    uint64_t q = vq_ciede_reduce(x, &r);
    double s = vq_ciede_sin_k(r), c = vq_ciede_cos_k(r);
    double v = q & 1 ? c : s;
    return q & 2 ? -v : v;
}

static inline VQ_HOST_DEVICE double vq_ciede_cos(double x)
{
    double r;
    uint64_t q = vq_ciede_reduce(x, &r);
    double s = vq_ciede_sin_k(r), c = vq_ciede_cos_k(r);
    double v = q & 1 ? s : c;
    return (q + 1) & 2 ? -v : v;
}

/* atan(k/4), k = 0..4, hi + lo. */
#define VQ_CD_ATAN_TAB { \
    { 0.0, 0.0 }, \
    { 0x1.f5b75f92c80ddp-3, 0x1.8ab6e3cf7afbdp-57 }, \
    { 0x1.dac670561bb4fp-2, 0x1.a2b7f222f65e2p-56 }, \
    { 0x1.4978fa3269ee1p-1, 0x1.2419a87f2a458p-56 }, \
    { 0x1.921fb54442d18p-1, 0x1.1a62633145c07p-55 } }
static const double vq_ciede_atan_host[5][2] = VQ_CD_ATAN_TAB;
#if defined(__CUDACC__) || defined(__HIP__)
static __device__ const double vq_ciede_atan_dev[5][2] = VQ_CD_ATAN_TAB;
#endif
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
#define VQ_CD_ATAN vq_ciede_atan_dev
#else
#define VQ_CD_ATAN vq_ciede_atan_host
#endif

/* atan(t) for t in [0, 1]: atan(c) + atan((t - c) / (1 + t c)) with c the
 * nearest multiple of 1/4 (t - c is exact), then a Taylor series on
 * |u| <= 1/8. */
static inline VQ_HOST_DEVICE double vq_ciede_atan01(double t)
{
    uint64_t i;
    double c = vq_ciede_rint(t * 4.0, &i) * 0.25;
    double u = (t - c) / (1.0 + t * c), z = u * u;
    double p = 0x1.8618618618618p-5; /* 1/21 */
    p = p * z + -0x1.af286bca1af28p-5;
    p = p * z + 0x1.e1e1e1e1e1e1ep-5;
    p = p * z + -0x1.1111111111111p-4;
    p = p * z + 0x1.3b13b13b13b14p-4;
    p = p * z + -0x1.745d1745d1746p-4;
    p = p * z + 0x1.c71c71c71c71cp-4;
    p = p * z + -0x1.2492492492492p-3;
    p = p * z + 0x1.999999999999ap-3;
    p = p * z + -0x1.5555555555555p-2;
    i &= 7; /* i was 2^51 + k, k in 0..4 */
    return VQ_CD_ATAN[i][0] + (VQ_CD_ATAN[i][1] + (u + u * (z * p)));
}

/* atan2 with C's conventions for signed zeros. */
static inline VQ_HOST_DEVICE double vq_ciede_atan2(double y, double x)
{
    uint64_t neg_y = vq_ciede_bits(y) >> 63, neg_x = vq_ciede_bits(x) >> 63;
    double ax = neg_x ? -x : x, ay = neg_y ? -y : y;
    int zero = ax == 0 && ay == 0, swap = ay > ax;
    double num = swap ? ax : ay, den = swap ? ay : ax;
    double a = vq_ciede_atan01(zero ? 0.0 : num / (zero ? 1.0 : den));
    a = swap ? 0x1.921fb54442d18p+0 - a + 0x1.1a62633145c07p-54 : a; /* pi/2 - a */
    a = neg_x ? 0x1.921fb54442d18p+1 - a + 0x1.1a62633145c07p-53 : a; /* pi - a */
    return neg_y ? -a : a;
}

/* c^7 for a float c: c^2 is exact, then three roundings (within 2 ulp). */
static inline VQ_HOST_DEVICE double vq_ciede_pow7(float c)
{
    double x = c, x2 = x * x;
    return (x2 * x2) * x2 * x;
}

/* sin and cos of x with one reduction. */
static inline VQ_HOST_DEVICE void vq_ciede_sincos(double x, double *s, double *c)
{
    double r;
    uint64_t q = vq_ciede_reduce(x, &r);
    double sr = vq_ciede_sin_k(r), cr = vq_ciede_cos_k(r);
    double sv = q & 1 ? cr : sr, cv = q & 1 ? sr : cr;
    *s = q & 2 ? -sv : sv;
    *c = (q + 1) & 2 ? -cv : cv;
}

#ifdef __cplusplus
}
#endif

#endif
