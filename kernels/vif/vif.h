/*
 * Integer VIF (libvmaf's "vif", integer_vif.c): the fixed-point arithmetic
 * that the CPU path and the kernels share, the accumulator record, and the
 * launcher.
 *
 * Per scale s (0..3) the reference and distorted images are filtered with a
 * separable filter (taps VQ_VIF_TAPS_s) into mu1, mu2 and the second moments
 * xx, yy, xy: vertical pass first (rounded by vq_vif_vround), horizontal pass
 * second (rounded by vq_vif_sigma). Each pixel then adds to four 64-bit
 * integer sums (vq_vif_pixel). Scale s + 1 is scale s filtered with the taps
 * of scale s + 1 and decimated by two in both directions. Borders mirror
 * without repeating the edge sample (vq_vif_mirror).
 */
#ifndef VQHIP_KERNELS_VIF_H
#define VQHIP_KERNELS_VIF_H

#include <stdbool.h>

#include "../vq_kernel_api.h"

#ifdef __cplusplus
extern "C" {
#endif

#define VQ_VIF_SCALES 4

/* Filter taps of each scale, from libvmaf integer_vif.h
 * (vif_filter1d_table); every set sums to 65536. */
#define VQ_VIF_TAPS_0 489, 935, 1640, 2640, 3896, 5274, 6547, 7455, 7784, \
                      7455, 6547, 5274, 3896, 2640, 1640, 935, 489
#define VQ_VIF_TAPS_1 1244, 3663, 7925, 12590, 14692, 12590, 7925, 3663, 1244
#define VQ_VIF_TAPS_2 3571, 16004, 26386, 16004, 3571
#define VQ_VIF_TAPS_3 10904, 43728, 10904
/* Half widths: scale s has 2 * VQ_VIF_HALF(s) + 1 taps. */
#define VQ_VIF_HALF(s) ((s) == 0 ? 8 : (s) == 1 ? 4 : (s) == 2 ? 2 : 1)

/* Smallest width and height libvmaf scores: below 8 rows it crashes, below
 * 8 columns its scale 3 is empty (0/0, written null). From 8 to 15 the
 * last scale is one sample high or wide, and libvmaf's mirrored border
 * there holds what its buffers kept from scale 2 (vq_vif_row_one_high,
 * VQ_VIF_EDGE_*), which vqhip reproduces. */
#define VQ_VIF_MIN_SIZE 8

/* sigma_nsq of libvmaf: the noise variance 2 in 16-bit fixed point. */
#define VQ_VIF_SIGMA_NSQ (65536 << 1)

/* log2 table: entry i - VQ_VIF_LOG2_BASE holds round(2048 * log2(i)) for
 * 32768 <= i < 65536 (the only indices the lookups produce). */
#define VQ_VIF_LOG2_BASE 32768u
#define VQ_VIF_LOG2_SIZE 32768u

/* One scale's sums, as libvmaf keeps them (integer_vif.c): log-domain
 * numerator and denominator (units of 1/2048) over pixels with enough
 * reference variance, and sum of sigma2_sq and pixel count over the rest. */
typedef struct VqVifScaleAcc {
    int64_t num_log;
    int64_t den_log;
    int64_t num_non_log;
    int64_t den_non_log;
} VqVifScaleAcc;

typedef struct VqVifAcc {
    VqVifScaleAcc scale[VQ_VIF_SCALES];
} VqVifAcc;

/* Rounding of the vertical pass of the statistic at scale s for bpc-bit
 * input: mu sums are shifted by mu_shift, second-moment sums by sq_shift
 * (round half up). At scale 0 that brings the samples to 16-bit fixed point;
 * later scales are 16-bit already. */
typedef struct VqVifVRound {
    unsigned mu_shift, sq_shift;
    uint32_t mu_add;
    uint64_t sq_add;
} VqVifVRound;

static inline VQ_HOST_DEVICE VqVifVRound vq_vif_vround(unsigned scale,
                                                       unsigned bpc)
{
    VqVifVRound r;
    if (scale == 0) {
        r.mu_shift = bpc;
        r.sq_shift = 2 * (bpc - 8);
    } else {
        r.mu_shift = 16;
        r.sq_shift = 16;
    }
    r.mu_add = 1u << (r.mu_shift - 1);
    r.sq_add = r.sq_shift ? (uint64_t)1 << (r.sq_shift - 1) : 0;
    return r;
}

/* Mirrors index k into [0, n) without repeating the edge (-1 -> 1,
 * n -> n - 2), as often as needed for -2n + 2 < k < 3n - 3 (libvmaf pads
 * by copying rows in an order that amounts to this for n >= 2); n >= 2. */
static inline VQ_HOST_DEVICE int vq_vif_mirror(int k, int n)
{
    if (k < 0)
        k = -k;
    if (k >= n)
        k = 2 * (n - 1) - k;
    if (k < 0)
        k = -k;
    return k;
}

/* Row k (-1, 0 or 1) of scale 3 when it is one row high: libvmaf's mirror
 * copies rows from beyond the picture, which still hold scale 2's row 1;
 * that row is kept as row 1 of scale 3's image. */
static inline VQ_HOST_DEVICE int vq_vif_row_one_high(int k)
{
    return k == 0 ? 0 : 1;
}

/* When scale 3 is one sample wide, libvmaf's horizontal mirror reads its
 * row buffers at column 1, which still hold scale 2's vertical pass of its
 * last row at column 1: the five values VQ_VIF_EDGE_* (mu1, mu2 rounded
 * to 16 bits, xx, yy, xy rounded to 32 bits). */
enum { VQ_VIF_EDGE_MU1, VQ_VIF_EDGE_MU2, VQ_VIF_EDGE_XX, VQ_VIF_EDGE_YY,
       VQ_VIF_EDGE_XY, VQ_VIF_EDGE_N };

static inline VQ_HOST_DEVICE int vq_vif_clz32(uint32_t v)
{
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
    return __clz((int)v);
#else
    return __builtin_clz(v);
#endif
}

static inline VQ_HOST_DEVICE int vq_vif_clz64(uint64_t v)
{
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
    return __clzll((long long)v);
#else
    return __builtin_clzll(v);
#endif
}

/* 2048 * log2(v) from the top 16 bits of v (v >= 2^16). */
static inline VQ_HOST_DEVICE int32_t vq_vif_log2_32(const uint16_t *tab,
                                                    uint32_t v)
{
    int k = 16 - vq_vif_clz32(v);
    return tab[(v >> k) - VQ_VIF_LOG2_BASE] + 2048 * k;
}

static inline VQ_HOST_DEVICE int32_t vq_vif_log2_64(const uint16_t *tab,
                                                    uint64_t v)
{
    int k = 48 - vq_vif_clz64(v);
    return tab[(uint32_t)(v >> k) - VQ_VIF_LOG2_BASE] + 2048 * k;
}

/* A variance or covariance from the horizontal pass: the filtered second
 * moment `filt` (sum of taps x vertical values, rounded to 16-bit fixed
 * point: vq_vif_filt) minus the product of the means (rounded from 32
 * fractional bits), both unsigned 32-bit, the difference read as signed as
 * libvmaf does. */
static inline VQ_HOST_DEVICE int32_t vq_vif_sigma_filt(uint32_t filt,
                                                       uint32_t mu_a,
                                                       uint32_t mu_b)
{
    uint32_t mumu = (uint32_t)(((uint64_t)mu_a * mu_b + 2147483648u) >> 32);
    return (int32_t)(filt - mumu);
}

static inline VQ_HOST_DEVICE uint32_t vq_vif_filt(uint64_t sq_sum)
{
    return (uint32_t)((sq_sum + 32768) >> 16);
}

/* The same from the sum split in halves, sq_sum = hi * 2^16 + lo (each half
 * a sum of taps x 16-bit values, so below 2^32): hi + round(lo / 2^16),
 * which equals vq_vif_filt(sq_sum) modulo 2^32. */
static inline VQ_HOST_DEVICE uint32_t vq_vif_filt_halves(uint32_t hi,
                                                         uint32_t lo)
{
    return hi + ((lo + 32768) >> 16);
}

static inline VQ_HOST_DEVICE int32_t vq_vif_sigma(uint64_t sq_sum,
                                                  uint32_t mu_a, uint32_t mu_b)
{
    return vq_vif_sigma_filt(vq_vif_filt(sq_sum), mu_a, mu_b);
}

/* A pixel whose reference variance sigma1_sq reaches sigma_nsq adds
 * log-domain terms (vq_vif_log_terms); any other pixel adds its clamped
 * distorted variance to num_non_log and 1 to den_non_log. */
static inline VQ_HOST_DEVICE bool vq_vif_is_log(int32_t sigma1_sq)
{
    return sigma1_sq >= VQ_VIF_SIGMA_NSQ;
}

static inline VQ_HOST_DEVICE int32_t vq_vif_non_log_num(int32_t sigma2_sq)
{
    return sigma2_sq < 0 ? 0 : sigma2_sq;
}

/* One log-domain pixel's additions to num_log and den_log. */
typedef struct VqVifLogTerms {
    int32_t num, den;
} VqVifLogTerms;

/* The arguments of a log-domain pixel's three log2 lookups. */
typedef struct VqVifLogArgs {
    uint32_t den_v, numer1;
    uint64_t numer1_tmp;
    bool has_num; /* the numerator terms count (sigma12, sigma2_sq > 0) */
} VqVifLogArgs;

/*
 * The lookups' arguments for a pixel with sigma1_sq >= sigma_nsq: the gain
 * g = sigma12 / sigma1_sq in double, as libvmaf computes it, capped at
 * gain_limit after the residual variance sv_sq is formed. The double
 * arithmetic is written operation by operation in libvmaf's order (no
 * contraction is allowed in any build), so the CPU and every GPU compute the
 * same integers. Where libvmaf skips it (has_num false) it is computed all
 * the same, without branches, and stays in range: g * sigma12 >= 0, so
 * sv <= sigma2_sq < 2^31; |g| < 2^31 / 2^17 (and gain_limit <= 100), so
 * g * g * sigma1_sq < 2^60; and numer1 <= numer1_tmp, both at least 2^17:
 * every lookup is inside the table (vq_vif_log_terms reads all three).
 */
static inline VQ_HOST_DEVICE VqVifLogArgs vq_vif_log_args(int32_t sigma1_sq,
                                                          int32_t sigma2_sq,
                                                          int32_t sigma12,
                                                          double gain_limit)
{
    VqVifLogArgs a;
    a.den_v = (uint32_t)VQ_VIF_SIGMA_NSQ + (uint32_t)sigma1_sq;
    a.has_num = sigma12 > 0 && sigma2_sq > 0;
    const double eps = 65536 * 1.0e-10;
    double g = sigma12 / (sigma1_sq + eps);
    double sv = sigma2_sq - g * sigma12;
    /* sv <= sigma2_sq < 2^31; truncation toward zero, negatives to 0 */
    uint32_t sv_sq = sv > 0.0 ? (uint32_t)(int32_t)sv : 0;
    if (g > gain_limit)
        g = gain_limit;
    a.numer1 = sv_sq + (uint32_t)VQ_VIF_SIGMA_NSQ;
    a.numer1_tmp = (uint64_t)((int64_t)(g * g * sigma1_sq) + a.numer1);
    return a;
}

/* The log-domain terms of a pixel with vq_vif_is_log(sigma1_sq). The three
 * lookups are made unconditionally, so a GPU can issue the loads of several
 * pixels before it waits on the first. */
static inline VQ_HOST_DEVICE VqVifLogTerms vq_vif_log_terms(
    const uint16_t *tab, int32_t sigma1_sq, int32_t sigma2_sq, int32_t sigma12,
    double gain_limit)
{
    VqVifLogArgs a = vq_vif_log_args(sigma1_sq, sigma2_sq, sigma12,
                                     gain_limit);
    VqVifLogTerms t;
    t.den = vq_vif_log2_32(tab, a.den_v) - 2048 * 17;
    int32_t num = vq_vif_log2_64(tab, a.numer1_tmp) -
                  vq_vif_log2_64(tab, a.numer1);
    t.num = a.has_num ? num : 0;
    return t;
}

/* One pixel's contribution to its scale's sums, without branches: a pixel
 * that is not log-domain computes the log terms of sigma1_sq = sigma_nsq
 * (in range) and drops them. Every sum is updated on every call (with 0
 * where it does not apply): updates to one field or another would make GPU
 * compilers address the record through memory. */
static inline VQ_HOST_DEVICE void vq_vif_pixel(const uint16_t *tab,
                                               int32_t sigma1_sq,
                                               int32_t sigma2_sq,
                                               int32_t sigma12,
                                               double gain_limit,
                                               VqVifScaleAcc *acc)
{
    bool lg = vq_vif_is_log(sigma1_sq);
    VqVifLogTerms t = vq_vif_log_terms(
        tab, lg ? sigma1_sq : VQ_VIF_SIGMA_NSQ, sigma2_sq, sigma12, gain_limit);
    acc->num_log += lg ? t.num : 0;
    acc->den_log += lg ? t.den : 0;
    acc->num_non_log += lg ? 0 : vq_vif_non_log_num(sigma2_sq);
    acc->den_non_log += !lg;
}

/* Runs scale `scale` of one frame on the device: the statistic's sums are
 * added to acc (unless do_stat is false: vif_skip_scale0), and for scales
 * 0..2 the next scale's images are written to next_ref / next_dis
 * (w / 2 x h / 2 uint16 samples, row pitch next_pitch bytes; scale 3's
 * images have one more row, for vq_vif_row_one_high). Scale 0 reads
 * bpc-bit planes, later scales the uint16 images of the previous call.
 * edge holds VQ_VIF_EDGE_N values: scale 2 writes them, scale 3 reads them
 * (when scale 3 is one sample wide). */
int vq_vif_scale_launch(VqStream stream, unsigned scale, const VqDevPlane *ref,
                        const VqDevPlane *dis, unsigned bpc, bool do_stat,
                        const uint16_t *log2_tab, double gain_limit,
                        uint16_t *next_ref, uint16_t *next_dis,
                        size_t next_pitch, uint32_t *edge, VqVifScaleAcc *acc);

/*
 * A ladder's split of a scale (docs/LADDER.md): the reference's part once
 * per frame, the rest per rendition, the same sums as vq_vif_scale_launch.
 * vq_vif_prod_words: the 32-bit words of scale `scale`'s product for a
 * w x h image. The reference's launch writes the product and, below scale
 * 3, the reference's next-scale image (as vq_vif_scale_launch); the
 * rendition's launch reads the product, adds its sums to acc and writes
 * the distorted picture's next-scale image. Only for images whose scale 3
 * is 2 x 2 samples or more (no edge values).
 */
size_t vq_vif_prod_words(unsigned scale, unsigned bpc, unsigned w,
                         unsigned h);
int vq_vif_ref_scale_launch(VqStream stream, unsigned scale,
                            const VqDevPlane *ref, unsigned bpc, bool do_stat,
                            uint32_t *prod, uint16_t *next_ref,
                            size_t next_pitch);
int vq_vif_dis_scale_launch(VqStream stream, unsigned scale,
                            const VqDevPlane *ref, const VqDevPlane *dis,
                            unsigned bpc, bool do_stat, const uint32_t *prod,
                            const uint16_t *log2_tab, double gain_limit,
                            uint16_t *next_dis, size_t next_pitch,
                            VqVifScaleAcc *acc);

#ifdef __cplusplus
}
#endif

#endif
