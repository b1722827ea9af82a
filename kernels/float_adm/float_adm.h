/*
 * float_adm (libvmaf's float_adm.c, adm.c, adm_tools.c): the arithmetic
 * the CPU path and the kernels share, the record layout, the launchers.
 *
 * Per scale (input: the luma as floats at scale 0, then the previous
 * scale's approximation bands), for ref and dis:
 *   dwt:       the 4-tap db2 wavelet, vertical pass first, into bands a
 *              (next scale's input), h, v, d of ceil(w/2) x ceil(h/2);
 *   decouple:  per pixel of the csf region, the restored part r and the
 *              additive part a of dis's h, v, d against ref's
 *              (vq_float_adm_decouple, with x86's approximate reciprocal);
 *   csf:       r and a weighted per band (rfactor), and 1/30 of their
 *              magnitudes (vq_float_adm_csf_f);
 *   terms:     per pixel of the inner region, the contrast-masked cube of
 *              csf r against a's masking threshold (num), of csf a against
 *              r's (aim), and the cube of ref's weighted bands (den), per
 *              band, summed in float per row, left to right.
 * The record holds those row sums; the shared finalize adds them top to
 * bottom and applies libvmaf's powf (kernels/vq_powf.h) and double steps.
 */
#ifndef VQHIP_KERNELS_FLOAT_ADM_H
#define VQHIP_KERNELS_FLOAT_ADM_H

#include <math.h>

#include "../float_conv.h"
#include "../vq_powf.h"

#ifdef __cplusplus
extern "C" {
#endif

#define VQ_FADM_SCALES 4
/* Quantities summed per row: num, aim and den of bands h, v, d. */
enum { VQ_FADM_NUM = 0, VQ_FADM_AIM = 3, VQ_FADM_DEN = 6, VQ_FADM_NQ = 9 };
enum { VQ_FADM_H = 0, VQ_FADM_V, VQ_FADM_D };

/* Smallest frame: every scale's bands at least 2 x 2 (the masking
 * threshold's mirrored neighbours), so scale 3's ceil(n / 16) >= 2. */
#define VQ_FADM_MIN_SIZE 17

/* The approximate reciprocal table: 2048 entries, see vq_float_adm_rcp. */
#define VQ_FADM_RCP_SIZE 2048

/* A rectangle [top, bottom) x [left, right). */
typedef struct VqFloatAdmRect {
    int top, bottom, left, right;
} VqFloatAdmRect;

/*
 * Geometry and constants of a run. Scale s reads in_w x in_h samples and
 * makes bands of w x h; decouple and csf cover `outer` (libvmaf widens the
 * border by one tap), the terms cover `inner`. The record is n_floats
 * floats: scale s's quantity q has inner.bottom - inner.top row sums at
 * off[s] + q * rows[s].
 */
typedef struct VqFloatAdmDims {
    unsigned in_w[VQ_FADM_SCALES], in_h[VQ_FADM_SCALES];
    unsigned w[VQ_FADM_SCALES], h[VQ_FADM_SCALES];
    VqFloatAdmRect outer[VQ_FADM_SCALES], inner[VQ_FADM_SCALES];
    unsigned rows[VQ_FADM_SCALES], off[VQ_FADM_SCALES];
    unsigned n_floats;
    /* per scale: the csf weights of bands h, v, d */
    float rfactor[VQ_FADM_SCALES][3];
    float cos_1deg_sq;
    double gain_limit;  /* adm_enhn_gain_limit */
    float gain_f;       /* the same as float, when gain_exact */
    int gain_exact;     /* gain_limit is a float: restore in float */
    float p_norm;       /* adm_p_norm as float (powf's exponent) */
    int cube;           /* adm_p_norm == 3: terms are x * x * x */
    int bypass_cm;      /* adm_bypass_cm: thresholds are 0 */
} VqFloatAdmDims;

/* db2 filters, libvmaf adm_tools.c (dwt2_db2_coeffs_lo_s/_hi_s): double
 * literals rounded to float. */
#define VQ_FADM_LO 0.482962913144690, 0.836516303737469, 0.224143868041857, \
                   -0.129409522550921
#define VQ_FADM_HI -0.129409522550921, -0.224143868041857, 0.836516303737469, \
                   -0.482962913144690

/* Source index of tap k (0..3) for output i of a dwt over n samples:
 * 2i - 1 + k, reflected at 0 without repeating the edge and at n with
 * repeating it (libvmaf dwt2_src_indices_filt_s). n >= 2. */
static inline VQ_HOST_DEVICE int vq_float_adm_dwt_idx(int i, int k, int n)
{
    int t = 2 * i - 1 + k;
    if (t < 0)
        return -t;
    return t >= n ? 2 * n - t - 1 : t;
}

/* ((((0 + f0 s0) + f1 s1) + f2 s2) + f3 s3), libvmaf's order. */
static inline VQ_HOST_DEVICE float vq_float_adm_dot4(const float *f, float s0,
                                                float s1, float s2, float s3)
{
    float acc = 0.0f;
    acc += f[0] * s0;
    acc += f[1] * s1;
    acc += f[2] * s2;
    acc += f[3] * s3;
    return acc;
}

/*
 * x86's RCPSS as Intel CPUs compute it, which libvmaf's ADM_OPT_RECIP_DIVISION
 * uses for its divisions (the value differs on other CPUs: see README). The
 * result has 12 significant bits and depends on the sign, the exponent and
 * the top 11 mantissa bits (tab: the 12 bits for each of those 2048 values,
 * measured, with all 2^32 inputs checked); zero and subnormal inputs give
 * infinity, results below the normal range are flushed to zero.
 */
static inline VQ_HOST_DEVICE float vq_float_adm_rcp_approx(const uint16_t *tab,
                                                      float x)
{
    uint32_t u;
    memcpy(&u, &x, sizeof(u));
    uint32_t sign = u & 0x80000000u, e = (u >> 23) & 0xff, r;
    if (e == 0)
        r = sign | 0x7f800000u;
    else if (e == 0xff)
        r = (u & 0x007fffffu) ? u | 0x00400000u : sign;
    else if (e >= 253)
        r = sign;
    else
        r = sign | (253 - e) << 23 | (uint32_t)tab[(u >> 12) & 0x7ff] << 11;
    float y;
    memcpy(&y, &r, sizeof(y));
    return y;
}

/* libvmaf's rcp_s: one Newton step on the approximation. */
static inline VQ_HOST_DEVICE float vq_float_adm_rcp(const uint16_t *tab, float x)
{
    float xi = vq_float_adm_rcp_approx(tab, x);
    return xi + xi * (1.0f - x * xi);
}

/* One band's restored value: min/max against the distorted value when the
 * angle test passed, in double as libvmaf's gain limit is. When the gain
 * is a float (100 by default), the double product of two floats is exact
 * and its float rounding is the float product; min and max against the
 * float t then pick the same value, so float arithmetic gives the same
 * result. */
static inline VQ_HOST_DEVICE float vq_float_adm_restore(float rst, float t,
                                                   int angle, double gain,
                                                   float gain_f, int exact)
{
    if (exact) {
        if (angle && rst > 0.0f) {
            float g = rst * gain_f;
            rst = g < t ? g : t;
        }
        if (angle && rst < 0.0f) {
            float g = rst * gain_f;
            rst = g > t ? g : t;
        }
        return rst;
    }
    if (angle && rst > 0.0) {
        double g = rst * gain;
        rst = (float)(g < t ? g : (double)t);
    }
    if (angle && rst < 0.0) {
        double g = rst * gain;
        rst = (float)(g > t ? g : (double)t);
    }
    return rst;
}

/*
 * adm_decouple_s for one pixel: o = ref's h, v, d; t = dis's. Writes the
 * restored part r and the additive part a = t - r of each band.
 */
static inline VQ_HOST_DEVICE void vq_float_adm_decouple(const VqFloatAdmDims *d,
                                                   const uint16_t *rcp_tab,
                                                   const float o[3],
                                                   const float t[3],
                                                   float r[3], float a[3])
{
    const float eps = 1e-30f;
    float rst[3];
    for (int b = 0; b < 3; b++) {
        float k = t[b] * vq_float_adm_rcp(rcp_tab, o[b] + eps);
        k = k < 0.0f ? 0.0f : (k > 1.0f ? 1.0f : k);
        rst[b] = k * o[b];
    }
    float ot_dp = o[0] * t[0] + o[1] * t[1];
    float o_mag_sq = o[0] * o[0] + o[1] * o[1];
    float t_mag_sq = t[0] * t[0] + t[1] * t[1];
    int angle = ot_dp >= 0.0f &&
                ot_dp * ot_dp >= d->cos_1deg_sq * o_mag_sq * t_mag_sq;
    for (int b = 0; b < 3; b++) {
        r[b] = vq_float_adm_restore(rst[b], t[b], angle, d->gain_limit,
                               d->gain_f, d->gain_exact);
        a[b] = t[b] - r[b];
    }
}

/* The csf filter value of a weighted coefficient: libvmaf multiplies by
 * its double constant FLOAT_ONE_BY_30 and stores the float. */
static inline VQ_HOST_DEVICE float vq_float_adm_csf_f(float csf)
{
    return (float)(0.0333333351 * fabsf(csf));
}

/* Neighbour rows/columns of the masking threshold: i - 1 reflects to 1 at
 * the top; i + 1 repeats the last at the bottom (libvmaf ADM_CM_THRESH_S_*). */
static inline VQ_HOST_DEVICE int vq_float_adm_prev(int i)
{
    return i > 0 ? i - 1 : 1;
}

static inline VQ_HOST_DEVICE int vq_float_adm_next(int i, int n)
{
    return i < n - 1 ? i + 1 : n - 1;
}

/* One band's part of the threshold at (i, j): the 3x3 csf filter values
 * around it (rows fu, fm, fd; columns jl, j, jr), with the centre replaced
 * by the coefficient's magnitude times libvmaf's double FLOAT_ONE_BY_15,
 * which is added in double. */
static inline VQ_HOST_DEVICE float vq_float_adm_thr_band(const float *fu,
                                                    const float *fm,
                                                    const float *fd,
                                                    float centre, int jl,
                                                    int j, int jr)
{
    float sum = 0;
    sum += fu[jl];
    sum += fu[j];
    sum += fu[jr];
    sum += fm[jl];
    sum = (float)(sum + 0.0666666701 * fabsf(centre));
    sum += fm[jr];
    sum += fd[jl];
    sum += fd[j];
    sum += fd[jr];
    return sum;
}

/* A contrast-masked term: (|x| - thr)^p, 0 below the threshold. */
static inline VQ_HOST_DEVICE float vq_float_adm_cm_term(const VqFloatAdmDims *d,
                                                   float x, float thr)
{
    x = fabsf(x) - thr;
    x = x < 0.0f ? 0.0f : x;
    return d->cube ? x * x * x : vq_powf(x, d->p_norm);
}

/* A den term: |rfactor * coefficient|^p. */
static inline VQ_HOST_DEVICE float vq_float_adm_den_term(const VqFloatAdmDims *d,
                                                    float rf, float x)
{
    float v = fabsf(rf * x);
    return d->cube ? v * v * v : vq_powf(v, d->p_norm);
}

/* The dwt of one scale: src_ref/src_dis are bpc-bit planes (scale 0,
 * bpc > 0) or float images (bpc == 0); ref's four bands and dis's four
 * go to band[0..3] and band[4..7] (a, h, v, d; w x h floats each, pitch
 * bytes per row). */
int vq_float_adm_dwt_launch(VqStream stream, const VqDevPlane *src_ref,
                       const VqDevPlane *src_dis, unsigned bpc,
                       const VqFloatAdmDims *dims, unsigned scale,
                       float *const band[8], size_t pitch);

/* Decouple and csf over scale s's outer rectangle, then the nine terms of
 * every pixel of the inner one into terms[q] (device memory; the pixel
 * (i, j) at (i - inner.top) * tpitch + j - inner.left). work: 12 w x h
 * float images (csf and csf filter values of a and r), pitch as the
 * bands'. */
int vq_float_adm_terms_launch(VqStream stream, float *const band[8],
                         size_t pitch, const VqFloatAdmDims *dims, unsigned scale,
                         const uint16_t *rcp_tab, float *const work[12],
                         float *const terms[VQ_FADM_NQ], size_t tpitch);

/* The term images of every scale (device memory, pitch in floats). */
typedef struct VqFloatAdmTermImages {
    float *img[VQ_FADM_SCALES][VQ_FADM_NQ];
    size_t pitch[VQ_FADM_SCALES];
} VqFloatAdmTermImages;

/* Row sums of the term images of scales first_scale..3 into the record
 * rows (quantity q of scale s at off[s] + q * rows[s]), each row left to
 * right. */
int vq_float_adm_row_sums_launch(VqStream stream, const VqFloatAdmDims *dims,
                            unsigned first_scale, const VqFloatAdmTermImages *t,
                            float *rows);

#ifdef __cplusplus
}
#endif

#endif
