/*
 * CAMBI (libvmaf's banding detector, cambi.c): the accumulator record, the
 * per-sample arithmetic shared by the CPU path and the kernels, and the
 * launchers.
 *
 * Everything up to the c-values is integer work on 10-bit samples. The
 * c-values are floats made by one int->float conversion and one float
 * multiply (vq_cambi_term), identical on both sides. Pooling keeps the
 * k largest c-values of a scale; every nonzero c-value is a multiple of
 * 2^-24 below 2^16 (see vq_cambi_fixed), so their sum is an exact 64-bit
 * integer in units of 2^-24, whatever the order of summation. That sum is
 * the record; the shared finalize turns it into libvmaf's doubles.
 */
#ifndef VQHIP_KERNELS_CAMBI_H
#define VQHIP_KERNELS_CAMBI_H

#include <string.h>

#include "../vq_kernel_api.h"

#ifdef __cplusplus
extern "C" {
#endif

#define VQ_CAMBI_SCALES 5
#define VQ_CAMBI_MAX_DIFFS 32  /* 1 << max_log_contrast, max_log_contrast <= 5 */
#define VQ_CAMBI_MASK_RADIUS 3 /* the spatial mask counts a 7x7 window */
#define VQ_CAMBI_MAX_PAD 32    /* window <= 65 (libvmaf's reciprocal table) */
#define VQ_CAMBI_NONE 0xFFFFu  /* "no histogram event" in event rows */

/* The record. topk_sum[i][s]: image i (0 distorted, 1 reference with
 * full_ref), scale s: the sum of the scale's k largest c-values, in units
 * of 2^-24. n_bad[i]: luma samples above the largest value of the bit depth
 * (libvmaf refuses such frames). With heatmaps_path the distorted image's
 * heatmaps follow the record (uint16, scale after scale). */
typedef struct VqCambiAcc {
    uint64_t topk_sum[2][VQ_CAMBI_SCALES];
    uint64_t n_bad[2];
} VqCambiAcc;

/* What the c-value of a sample depends on besides its window's counts:
 * libvmaf's num_diffs, vlt_luma, tvi_for_diff (+num_diffs, as libvmaf
 * stores them), contrast weights, and the band of sample values that can
 * matter to any c-value, [base, base + band). */
typedef struct VqCambiLuts {
    int nd;
    int vlt;
    int base, band;
    int tvi[VQ_CAMBI_MAX_DIFFS];
    int weight[VQ_CAMBI_MAX_DIFFS];
} VqCambiLuts;

/* libvmaf's mode3: the value two of a, b, c share, else the smallest
 * (written without branches, on 16-bit samples, so that loops of it
 * vectorize). */
static inline VQ_HOST_DEVICE uint16_t vq_cambi_mode3(uint16_t a, uint16_t b,
                                                     uint16_t c)
{
    uint16_t m = a < b ? a : b;
    m = m < c ? m : c;
    uint16_t r = b == c ? b : m;
    return a == b || a == c ? a : r;
}

/* An input luma sample as the 10-bit value libvmaf works on. */
static inline VQ_HOST_DEVICE unsigned vq_cambi_to10(unsigned v, unsigned bpc)
{
    if (bpc <= 10)
        return v << (10 - bpc);
    return (v + (1u << (bpc - 11))) >> (bpc - 10);
}

/* Whether value v (10-bit) can be counted in or queried from a histogram. */
static inline VQ_HOST_DEVICE int vq_cambi_in_band(const VqCambiLuts *L,
                                                  unsigned v)
{
    return (unsigned)((int)v - L->base) < (unsigned)L->band;
}

/* Whether contrast step d + 1 takes part in the c-value of value v. */
static inline VQ_HOST_DEVICE int vq_cambi_active(const VqCambiLuts *L,
                                                 unsigned v, int d)
{
    int value = (int)v + L->nd;
    return value <= L->tvi[d] && value + d + 1 > L->vlt;
}

/* One contrast step's term: weight * p0 * pm / (p0 + pm) as libvmaf
 * computes it, an int product (< 2^31) converted to float, times the
 * float reciprocal of p0 + pm from libvmaf's table. */
static inline VQ_HOST_DEVICE float vq_cambi_term(int weight, unsigned p0,
                                                 unsigned pm, float recip)
{
    return (float)(weight * (int)(p0 * pm)) * recip;
}

/* The bits of a nonnegative float: ordered like the floats themselves. */
static inline VQ_HOST_DEVICE uint32_t vq_cambi_key(float c)
{
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
    return __float_as_uint(c);
#else
    uint32_t k;
    memcpy(&k, &c, sizeof(k));
    return k;
#endif
}

/* A c-value as an integer in units of 2^-24. Nonzero c-values are at least
 * 0.5 (weight >= 1, p0, pm >= 1: p0 * pm / (p0 + pm) >= 1/2), so their
 * exponent is >= -1 and the shift below is never negative. */
static inline VQ_HOST_DEVICE uint64_t vq_cambi_fixed(uint32_t key)
{
    if (!key)
        return 0;
    uint64_t m = (key & 0x7FFFFFu) | 0x800000u;
    int e = (int)(key >> 23) - 127;
    return m << (e + 1);
}

/* Exact top-k selection: three radix levels over the key of each nonzero
 * c-value. Level 1 bins key >> 19 (offset so that 0.5 is bin 0; c-values
 * stay below 2^16, bin < 512), level 2 bins bits 18..9 of keys in the
 * chosen level-1 bin, level 3 bits 8..0 of keys in the chosen level-2 bin. */
#define VQ_CAMBI_L1_BIAS 0x7E0u
static inline VQ_HOST_DEVICE unsigned vq_cambi_bins(unsigned level)
{
    return level == 2 ? 1024u : 512u;
}

/* Bin of key at this level, or -1 when the key is not under prefix (the
 * bins chosen at the levels before). */
static inline VQ_HOST_DEVICE int vq_cambi_bin(unsigned level, uint32_t key,
                                              uint32_t prefix)
{
    if (level == 1)
        return (int)((key >> 19) - VQ_CAMBI_L1_BIAS);
    if (level == 2)
        return (key >> 19) == prefix ? (int)((key >> 9) & 0x3FFu) : -1;
    return (key >> 9) == prefix ? (int)(key & 0x1FFu) : -1;
}

/* The prefix below bin b of this level. */
static inline VQ_HOST_DEVICE uint32_t vq_cambi_prefix(unsigned level,
                                                      uint32_t prefix,
                                                      unsigned b)
{
    if (level == 1)
        return b + VQ_CAMBI_L1_BIAS;
    return level == 2 ? (prefix << 10) | b : (prefix << 9) | b;
}

/* A heatmap sample as libvmaf writes it: (uint16_t)(scale * c), where x86
 * converts through a 32-bit integer (values just above 65535 wrap). */
static inline VQ_HOST_DEVICE uint16_t vq_cambi_heat(double scale, float c)
{
    return (uint16_t)(int32_t)(scale * (double)c);
}

/* ---- launchers ---------------------------------------------------------- */

/* One scale of one image for the c-value kernel. img: the scale's 10-bit
 * image (pitch in samples); mask: the full-size spatial mask, sample (x, y)
 * of this scale at (x << mask_shift, y << mask_shift); cvals: w * h floats,
 * packed. Blocks cover seg_rows rows of 64 columns each. */
typedef struct VqCambiScaleJob {
    const uint16_t *img;
    const uint8_t *mask;
    float *cvals;
    unsigned img_pitch, mask_pitch, mask_shift;
    unsigned w, h, pad;
    unsigned seg_rows, blocks_x, first_block;
} VqCambiScaleJob;

#define VQ_CAMBI_MAX_JOBS (2 * VQ_CAMBI_SCALES)
typedef struct VqCambiJobs {
    unsigned n, n_blocks;
    VqCambiScaleJob job[VQ_CAMBI_MAX_JOBS];
} VqCambiJobs;

/* Pooling of one scale's c-values: n values, keep k. */
typedef struct VqCambiPoolJob {
    const float *cvals;
    uint64_t n, k;
    unsigned slot; /* image * VQ_CAMBI_SCALES + scale in the record */
} VqCambiPoolJob;

typedef struct VqCambiPoolJobs {
    unsigned n;
    VqCambiPoolJob job[VQ_CAMBI_MAX_JOBS];
} VqCambiPoolJobs;

/* Device workspace of one pooling job (cleared before each frame). */
typedef struct VqCambiPoolWork {
    uint64_t need;   /* values still to take below prefix */
    uint64_t sum;    /* exact sum of the values taken so far */
    uint32_t prefix; /* bins chosen so far */
    uint32_t done;
    uint32_t cnt1[512], cnt2[1024], cnt3[512];
    uint64_t sum1[512], sum2[1024];
} VqCambiPoolWork;

/* Counts samples above 2^bpc - 1 into *n_bad (10- and 12-bit input). */
int vq_cambi_check_launch(VqStream s, const VqDevPlane *luma, unsigned bpc,
                          uint64_t *n_bad);
/* Preprocessing: the luma resampled to w x h through xmap/ymap (NULL: same
 * size), as 10-bit samples, then libvmaf's anti-dithering 2x2 mean when
 * anti_dither is set. */
int vq_cambi_pre_launch(VqStream s, const VqDevPlane *luma, unsigned bpc,
                        const int *xmap, const int *ymap, unsigned w,
                        unsigned h, int anti_dither, uint16_t *out,
                        unsigned out_pitch);
/* The spatial mask: 1 where more than mask_index samples of the 7x7
 * window have a zero derivative. */
int vq_cambi_mask_launch(VqStream s, const uint16_t *img, unsigned pitch,
                         unsigned w, unsigned h, unsigned mask_index,
                         uint8_t *mask, unsigned mask_pitch);
/* One scale's image: the 3x3 mode filter of `in`, decimated by 2 first
 * when decimate is set (in is then the previous scale). */
int vq_cambi_scale_launch(VqStream s, const uint16_t *in, unsigned in_pitch,
                          int decimate, uint16_t *out, unsigned out_pitch,
                          unsigned w, unsigned h);
int vq_cambi_cvalues_launch(VqStream s, const VqCambiJobs *jobs,
                            const VqCambiLuts *luts, const float *recip);
/* Pooling level 1..3 (histogram, then selection); the selection writes
 * acc->topk_sum of each job when it is complete. */
int vq_cambi_pool_launch(VqStream s, const VqCambiPoolJobs *jobs,
                         unsigned level, VqCambiPoolWork *work,
                         VqCambiAcc *acc);
/* Heatmap samples of n c-values. */
int vq_cambi_heatmap_launch(VqStream s, const float *cvals, uint64_t n,
                            double scale, uint16_t *out);

#ifdef __cplusplus
}
#endif

#endif
