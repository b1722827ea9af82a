/*
 * Integer ADM (libvmaf's "adm", integer_adm.c): the per-sample fixed-point
 * arithmetic, shared by the CPU path and the kernels so that both compute
 * the same integers. Every shift, rounding constant and integer width below
 * is libvmaf's C path (integer_adm.c at v3.2.0-13); the taps and the
 * 1/15, 1/30 and 2^30/d constants are carried over from it.
 *
 * Scale 0 works on 16-bit bands (int16_t values), scales 1..3 on 32-bit
 * bands. Where libvmaf's arithmetic overflows its types (int32 products of
 * extreme 16-bit inputs, narrowing casts), the helpers wrap the same way,
 * through unsigned arithmetic, so the result never depends on undefined
 * behaviour.
 */
#ifndef VQHIP_KERNELS_ADM_FIXED_H
#define VQHIP_KERNELS_ADM_FIXED_H

#include "../vq_kernel_api.h"

#ifdef __cplusplus
extern "C" {
#endif

/* db2 analysis taps (libvmaf integer_adm.h: dwt2_db2_coeffs_lo/hi). */
#define VQ_ADM_LO0 15826
#define VQ_ADM_LO1 27411
#define VQ_ADM_LO2 7345
#define VQ_ADM_LO3 (-4240)
#define VQ_ADM_LO_SUM 46342
#define VQ_ADM_HI0 (-4240)
#define VQ_ADM_HI1 (-7345)
#define VQ_ADM_HI2 27411
#define VQ_ADM_HI3 (-15826)

/* 2^30, the numerator of libvmaf's reciprocal table (div_lookup). */
#define VQ_ADM_DIV_Q 1073741824

/* The smallest frame libvmaf's C path handles without reading outside its
 * buffers: the scale-3 DWT needs an input of at least 5 samples per side
 * (ceil(33 / 8) = 5; its index tables break below that). */
#define VQ_ADM_MIN_SIZE 33

enum { VQ_ADM_H = 0, VQ_ADM_V = 1, VQ_ADM_D = 2 };

/* Accumulator quantities per scale: contrast-masked restored detail (num),
 * contrast-masked additive impairment (aim), CSF-weighted reference (den),
 * each for the h, v, d bands. */
enum { VQ_ADM_Q_NUM = 0, VQ_ADM_Q_AIM = 3, VQ_ADM_Q_DEN = 6, VQ_ADM_NQ = 9 };

/* The record both backends fill: libvmaf's integer accumulators after the
 * per-row rounding shift (num/aim signed, den unsigned). */
typedef struct VqAdmAcc {
    int64_t num[4][3];
    int64_t aim[4][3];
    uint64_t den[4][3];
} VqAdmAcc;

/*
 * What one scale needs, derived on the host from the options and the size.
 * Scale s reads an in_w x in_h plane (the frame at s = 0, the previous
 * scale's approximation band otherwise) and works on its w x h bands.
 */
typedef struct VqAdmScale {
    int scale;
    int in_w, in_h;
    int w, h;
    /* Region scored by the contrast masking and the denominator. */
    int left, top, right, bottom;
    /* Fixed-point CSF weights: uint16 range at scale 0, uint32 above. */
    uint32_t rfactor[3];
    /* Contrast masking: per-sample cube shift (per band at scale 0) and
     * the per-row rounding shift. */
    int cm_cub_shift[3];
    int64_t cm_cub_add[3];
    int cm_row_shift;
    int64_t cm_row_add;
    /* Denominator: per-sample shifts (scales 1..3) and per-row shift. */
    int den_sq_shift;
    uint64_t den_sq_add;
    int den_cub_shift;
    uint64_t den_cub_add;
    int den_row_shift;
    uint64_t den_row_add;
} VqAdmScale;

typedef struct VqAdmParams {
    VqAdmScale sc[4];
    int bpc;
    int skip_scale0; /* scale 0: approximation band only */
    int skip_aim;
    double egl;      /* adm_enhn_gain_limit */
    int32_t egl_int; /* egl when it is an integer, else 0 */
    float cos1_sq;   /* cos(1 degree)^2 as libvmaf rounds it (float) */
} VqAdmParams;

/* ---- small integer helpers ------------------------------------------- */

/* Index mirroring of the DWT index tables and of the masking neighbours:
 * -1 -> 1, n -> n - 1, n + 1 -> n - 2. */
static inline VQ_HOST_DEVICE int vq_adm_mirror(int x, int n)
{
    return x < 0 ? -x : (x >= n ? 2 * n - x - 1 : x);
}

/* abs() as libvmaf's build computes it (INT32_MIN stays INT32_MIN). */
static inline VQ_HOST_DEVICE int32_t vq_adm_abs32(int32_t x)
{
    uint32_t m = (uint32_t)(x >> 31); /* all ones when negative */
    return (int32_t)(((uint32_t)x ^ m) - m);
}

/* Leading zeros of a nonzero 32-bit value. */
static inline VQ_HOST_DEVICE int vq_adm_clz32(uint32_t v)
{
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
    return __clz((int)v);
#else
    return __builtin_clz(v);
#endif
}

/* libvmaf's div_lookup[32768 + d] for 1 <= d <= 32768: 2^30 / d (0 for
 * d = 0, an entry libvmaf never uses). */
static inline VQ_HOST_DEVICE int32_t vq_adm_recip(int32_t d)
{
    return d ? (int32_t)(VQ_ADM_DIV_Q / d) : 0;
}

/* ---- DWT ---------------------------------------------------------------- */

/* Scale 0, vertical pass over four samples of bpc bits: low and high
 * outputs (int16 in libvmaf). The low sum is re-centred by the taps' sum
 * times half the range; libvmaf does this in int32, wrapping at 16 bits. */
static inline VQ_HOST_DEVICE int16_t vq_adm_dwt0_vlo(uint32_t u0, uint32_t u1,
                                                     uint32_t u2, uint32_t u3,
                                                     int bpc)
{
    uint32_t half = 1u << (bpc - 1);
    uint32_t acc = (uint32_t)VQ_ADM_LO0 * u0 + (uint32_t)VQ_ADM_LO1 * u1 +
                   (uint32_t)VQ_ADM_LO2 * u2 + (uint32_t)VQ_ADM_LO3 * u3 -
                   (uint32_t)VQ_ADM_LO_SUM * half;
    return (int16_t)((int32_t)(acc + half) >> bpc);
}

static inline VQ_HOST_DEVICE int16_t vq_adm_dwt0_vhi(uint32_t u0, uint32_t u1,
                                                     uint32_t u2, uint32_t u3,
                                                     int bpc)
{
    uint32_t half = 1u << (bpc - 1);
    uint32_t acc = (uint32_t)VQ_ADM_HI0 * u0 + (uint32_t)VQ_ADM_HI1 * u1 +
                   (uint32_t)VQ_ADM_HI2 * u2 + (uint32_t)VQ_ADM_HI3 * u3;
    return (int16_t)((int32_t)(acc + half) >> bpc);
}

/* Scale 0, horizontal pass over four int16 vertical outputs. */
static inline VQ_HOST_DEVICE int16_t vq_adm_dwt0_hlo(int32_t s0, int32_t s1,
                                                     int32_t s2, int32_t s3)
{
    int32_t acc = VQ_ADM_LO0 * s0 + VQ_ADM_LO1 * s1 + VQ_ADM_LO2 * s2 +
                  VQ_ADM_LO3 * s3;
    return (int16_t)((acc + 32768) >> 16);
}

static inline VQ_HOST_DEVICE int16_t vq_adm_dwt0_hhi(int32_t s0, int32_t s1,
                                                     int32_t s2, int32_t s3)
{
    int32_t acc = VQ_ADM_HI0 * s0 + VQ_ADM_HI1 * s1 + VQ_ADM_HI2 * s2 +
                  VQ_ADM_HI3 * s3;
    return (int16_t)((acc + 32768) >> 16);
}

/* Scales 1..3 (int64 sums): rounding shift of the vertical pass (0 at
 * scale 1, 16 above) and of the horizontal pass (15, 16, 15). */
static inline VQ_HOST_DEVICE int vq_adm_dwt_vshift(int scale)
{
    return scale == 1 ? 0 : 16;
}

static inline VQ_HOST_DEVICE int vq_adm_dwt_hshift(int scale)
{
    return scale == 2 ? 16 : 15;
}

static inline VQ_HOST_DEVICE int32_t vq_adm_dwt_lo(int32_t s0, int32_t s1,
                                                   int32_t s2, int32_t s3,
                                                   int shift)
{
    int64_t acc = (int64_t)VQ_ADM_LO0 * s0 + (int64_t)VQ_ADM_LO1 * s1 +
                  (int64_t)VQ_ADM_LO2 * s2 + (int64_t)VQ_ADM_LO3 * s3;
    int64_t add = shift ? (int64_t)1 << (shift - 1) : 0;
    return (int32_t)((acc + add) >> shift);
}

static inline VQ_HOST_DEVICE int32_t vq_adm_dwt_hi(int32_t s0, int32_t s1,
                                                   int32_t s2, int32_t s3,
                                                   int shift)
{
    int64_t acc = (int64_t)VQ_ADM_HI0 * s0 + (int64_t)VQ_ADM_HI1 * s1 +
                  (int64_t)VQ_ADM_HI2 * s2 + (int64_t)VQ_ADM_HI3 * s3;
    int64_t add = shift ? (int64_t)1 << (shift - 1) : 0;
    return (int32_t)((acc + add) >> shift);
}

/* ---- decoupling (restored r and additive a) --------------------------- */

/* Whether the (h, v) detail vectors of reference and distorted are within
 * one degree, in libvmaf's arithmetic: the dot product and squared norms are
 * rounded to float, the test is done in double. */
static inline VQ_HOST_DEVICE int vq_adm_angle_cmp(float dp_f, float om_f,
                                                  float tm_f, float cos1_sq)
{
    double dp = (double)dp_f / 4096.0;
    double om = (double)om_f / 4096.0;
    double tm = (double)tm_f / 4096.0;
    return (dp >= 0.0) & (dp * dp >= (double)cos1_sq * om * tm);
}

static inline VQ_HOST_DEVICE int vq_adm_angle_flag(int64_t oh, int64_t ov,
                                                   int64_t th, int64_t tv,
                                                   float cos1_sq)
{
    /* products of 32-bit values fit; their sums wrap modulo 2^64 (as the
     * SIMD lanes do) instead of overflowing, which no image reaches */
    return vq_adm_angle_cmp(
        (float)(int64_t)((uint64_t)(oh * th) + (uint64_t)(ov * tv)),
        (float)(int64_t)((uint64_t)(oh * oh) + (uint64_t)(ov * ov)),
        (float)(int64_t)((uint64_t)(th * th) + (uint64_t)(tv * tv)), cos1_sq);
}

/* Scale 0: with 16-bit coefficients the sums are below 2^31 and exact in
 * double, so rounding them once to float equals libvmaf's int64 path. */
static inline VQ_HOST_DEVICE int vq_adm_angle_flag16(int32_t oh, int32_t ov,
                                                     int32_t th, int32_t tv,
                                                     float cos1_sq)
{
    double a = oh, b = ov, c = th, d = tv;
    return vq_adm_angle_cmp((float)(a * c + b * d), (float)(a * a + b * b),
                            (float)(c * c + d * d), cos1_sq);
}

/* The enhancement-gain limit applied to a restored coefficient whose
 * restoring factor k is positive: libvmaf's MIN(rst * egl, t) (o > 0) or
 * MAX(rst * egl, t) (o < 0) in double, then truncated. With an integral
 * egl (egl_int > 0; 100 and 1 in practice) the double product is exact,
 * so the integer one gives the same result. */
static inline VQ_HOST_DEVICE int64_t vq_adm_egl_limit(int64_t rst, int64_t t,
                                                      int64_t o, double egl,
                                                      int32_t egl_int)
{
    if (egl_int) {
        int64_t g = rst * egl_int;
        if (o > 0)
            return g < t ? g : t;
        return g > t ? g : t;
    }
    double g = (double)rst * egl;
    double td = (double)t;
    if (o > 0)
        return (int64_t)(g < td ? g : td);
    return (int64_t)(g > td ? g : td);
}

/* Scale 0: restoring factor k (Q15) of one band from the reference and
 * distorted coefficients and recip = 2^30 / |o| with the sign of o. */
static inline VQ_HOST_DEVICE int32_t vq_adm_k0(int32_t o, int32_t t,
                                               int32_t recip)
{
    if (o == 0)
        return 32768;
    int32_t k = (int32_t)(((int64_t)recip * t + 16384) >> 15);
    return k < 0 ? 0 : (k > 32768 ? 32768 : k);
}

/* Scale 0: restored coefficient r of one band; the additive one is
 * (int16_t)(t - r). */
static inline VQ_HOST_DEVICE int16_t vq_adm_restore0(int32_t o, int32_t t,
                                                     int32_t k, int angle,
                                                     double egl, int32_t egl_int)
{
    int16_t rst = (int16_t)((k * o + 16384) >> 15);
    if (angle && k > 0 && o != 0)
        rst = (int16_t)vq_adm_egl_limit(rst, t, o, egl, egl_int);
    return rst;
}

/* Scales 1..3: |o| reduced to at most 15 significant bits for the
 * reciprocal (libvmaf's get_best15_from32); *shift gets the reduction. */
static inline VQ_HOST_DEVICE uint32_t vq_adm_best15(uint32_t abs_o, int *shift)
{
    if (abs_o < 32768) {
        *shift = 0;
        return abs_o;
    }
    int k = 17 - vq_adm_clz32(abs_o);
    *shift = k;
    return (uint16_t)((abs_o + (1u << (k - 1))) >> k);
}

/* Scales 1..3: restoring factor from recip = 2^30 / best15(|o|). */
static inline VQ_HOST_DEVICE int64_t vq_adm_k123(int32_t o, int32_t t,
                                                 int32_t recip, int shift)
{
    if (o == 0)
        return 32768;
    int64_t sign = o < 0 ? -1 : 1;
    int64_t round = (int64_t)(int32_t)(1u << (14 + shift));
    int64_t k = (((int64_t)recip * t) * sign + round) >> (15 + shift);
    return k < 0 ? 0 : (k > 32768 ? 32768 : k);
}

static inline VQ_HOST_DEVICE int32_t vq_adm_restore123(int32_t o, int32_t t,
                                                       int64_t k, int angle,
                                                       double egl,
                                                       int32_t egl_int)
{
    int32_t rst = (int32_t)((k * o + 16384) >> 15);
    if (angle && k > 0 && o != 0)
        rst = (int32_t)vq_adm_egl_limit(rst, t, o, egl, egl_int);
    return rst;
}

/* ---- contrast sensitivity (CSF) and its masking filter input ---------- */

/* Scale 0: CSF-weighted coefficient (Q shifts 15, 15, 17 with libvmaf's
 * rounding constants 16384, 16384, 65535). */
static inline VQ_HOST_DEVICE int16_t vq_adm_csf0(int32_t x, uint32_t rfactor,
                                                 int band)
{
    uint32_t prod = rfactor * (uint32_t)x;
    uint32_t add = band == VQ_ADM_D ? 65535u : 16384u;
    int shift = band == VQ_ADM_D ? 17 : 15;
    return (int16_t)((int32_t)(prod + add) >> shift);
}

/* Scale 0: |csf| / 30, the masking filter's input. */
static inline VQ_HOST_DEVICE int16_t vq_adm_flt0(int32_t c)
{
    return (int16_t)((4369 * vq_adm_abs32(c) + 2048) >> 12);
}

/* Scale 0: the centre tap of the masking filter, |csf| / 15. */
static inline VQ_HOST_DEVICE int16_t vq_adm_ctr0(int32_t c)
{
    return (int16_t)((8738 * vq_adm_abs32(c) + 2048) >> 12);
}

/* Scales 1..3 (Q28 weights). */
static inline VQ_HOST_DEVICE int32_t vq_adm_csf123(int32_t x, uint32_t rfactor)
{
    return (int32_t)(((int64_t)rfactor * x + (1 << 27)) >> 28);
}

/* Scales 1..3: |csf| / 30 and |csf| / 15. libvmaf's rounding constant
 * here is (int32_t)(1u << 31), i.e. -2^31: the quotient is rounded down
 * after subtracting one half. */
static inline VQ_HOST_DEVICE int32_t vq_adm_flt123(int32_t c)
{
    return (int32_t)(((int64_t)143165577 * vq_adm_abs32(c) - 2147483648LL) >> 32);
}

static inline VQ_HOST_DEVICE int32_t vq_adm_ctr123(int32_t c)
{
    return (int32_t)(((int64_t)286331153 * vq_adm_abs32(c) - 2147483648LL) >> 32);
}

/* ---- contrast masking terms -------------------------------------------- */

/* (x_sq * x + add) >> shift for 0 <= x < 2^31 and any int32 x_sq, through
 * 32 x 32 -> 64-bit unsigned products (what SSE2 and GPUs multiply
 * natively); equal to libvmaf's int64 expression. */
static inline VQ_HOST_DEVICE int64_t vq_adm_cube_round(int32_t x_sq, int32_t x,
                                                      int64_t add, int shift)
{
    uint64_t p = (uint64_t)(uint32_t)x_sq * (uint32_t)x;
    if (x_sq < 0)
        p -= (uint64_t)(uint32_t)x << 32;
    /* the add wraps modulo 2^64, as in 64-bit lanes (no image gets near) */
    return (int64_t)(p + (uint64_t)add) >> shift;
}

/* Scale 0: one band's masked cube. raw is the restored (or additive)
 * coefficient, thr the 3x3 masking sum over the three bands. */
static inline VQ_HOST_DEVICE int64_t vq_adm_cm0(int32_t raw, uint32_t rfactor,
                                                int32_t thr, int band,
                                                int cub_shift, int64_t cub_add)
{
    int32_t xr = (int32_t)((uint32_t)raw * rfactor);
    int sub = band == VQ_ADM_D ? 12 : 10;
    int sq_shift = band == VQ_ADM_D ? 30 : 29;
    int32_t x = (int32_t)((uint32_t)vq_adm_abs32(xr) - ((uint32_t)thr << sub));
    if (x < 0)
        x = 0;
    uint64_t sq = (uint64_t)(uint32_t)x * (uint32_t)x + ((uint64_t)1 << (sq_shift - 1));
    int32_t x_sq = (int32_t)(uint32_t)(sq >> sq_shift);
    return vq_adm_cube_round(x_sq, x, cub_add, cub_shift);
}

static inline VQ_HOST_DEVICE int64_t vq_adm_cm123(int32_t raw, uint32_t rfactor,
                                                  int32_t thr, int cub_shift,
                                                  int64_t cub_add)
{
    int32_t xr = vq_adm_csf123(raw, rfactor);
    int32_t x = (int32_t)((uint32_t)vq_adm_abs32(xr) - (uint32_t)thr);
    if (x < 0)
        x = 0;
    uint64_t sq = (uint64_t)(uint32_t)x * (uint32_t)x + 536870912u;
    int32_t x_sq = (int32_t)(uint32_t)(sq >> 30);
    return vq_adm_cube_round(x_sq, x, cub_add, cub_shift);
}

/* ---- denominator terms ------------------------------------------------- */

static inline VQ_HOST_DEVICE uint64_t vq_adm_den0(int32_t o)
{
    uint32_t a = (uint16_t)vq_adm_abs32(o);
    return (uint64_t)(a * a) * a; /* a * a <= 2^30 */
}

static inline VQ_HOST_DEVICE uint64_t vq_adm_den123(int32_t o, int sq_shift,
                                                    uint64_t sq_add,
                                                    int cub_shift,
                                                    uint64_t cub_add)
{
    uint64_t a = (uint32_t)vq_adm_abs32(o);
    return ((((a * a + sq_add) >> sq_shift) * a) + cub_add) >> cub_shift;
}

/* ---- per-row rounding -------------------------------------------------- */

/* libvmaf sums each row of a scale in 64 bits, then adds the row's sum
 * shifted with rounding to the scale's accumulator. */
static inline VQ_HOST_DEVICE int64_t vq_adm_row_signed(uint64_t row_sum,
                                                       int shift, int64_t add)
{
    return ((int64_t)row_sum + add) >> shift;
}

static inline VQ_HOST_DEVICE uint64_t vq_adm_row_unsigned(uint64_t row_sum,
                                                          int shift,
                                                          uint64_t add)
{
    return (row_sum + add) >> shift;
}

#ifdef __cplusplus
}
#endif

#endif
