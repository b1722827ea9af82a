/*
 * float_vif (libvmaf's float_vif.c, vif.c, vif_tools.c): the arithmetic
 * the CPU path and the kernels share, the record layout, the launchers.
 *
 * Scale 0 is the luma as floats (kernels/float_conv.h), optionally resized
 * first (vif_prescale, kernels/float_resize.h). Scale s > 0 is scale s - 1
 * filtered with scale s's Gaussian and kept at even rows and columns. At
 * every scale, ref and dis are filtered into mu1, mu2 and the filtered
 * products xx, yy, xy (vertical pass first, mirrored borders, one tap sum
 * per value as vq_fconv_dot adds them); each pixel then gives num and den
 * terms (vq_float_vif_terms), summed in float per row, left to right. The row
 * sums are the record; the shared finalize adds them top to bottom.
 */
#ifndef VQHIP_KERNELS_FLOAT_VIF_H
#define VQHIP_KERNELS_FLOAT_VIF_H

#include <math.h>
#include <string.h>

#include "../float_conv.h"
#include "../float_resize.h"

#ifdef __cplusplus
extern "C" {
#endif

#define VQ_FVIF_SCALES 4
/* The widest filter: 17 taps times the largest valid vif_kernelscale
 * (360 / 97), rounded up to odd. */
#define VQ_FVIF_MAX_TAPS 65

/*
 * Geometry of a run: scale sizes, filter taps (scale s filters the stats
 * of scale s and makes scale s from scale s - 1), and where each scale's
 * row sums sit in the record (a float array of n_floats): h[s] num sums at
 * off_num[s], h[s] den sums at off_den[s].
 */
typedef struct VqFloatVifDims {
    unsigned w[VQ_FVIF_SCALES], h[VQ_FVIF_SCALES];
    int fw[VQ_FVIF_SCALES];
    float taps[VQ_FVIF_SCALES][VQ_FVIF_MAX_TAPS];
    unsigned off_num[VQ_FVIF_SCALES], off_den[VQ_FVIF_SCALES];
    unsigned n_floats;
} VqFloatVifDims;

/* The constants of the per-pixel statistic (vif_statistic_s). */
typedef struct VqFloatVifConst {
    double sigma_nsq;    /* vif_sigma_nsq */
    float sigma_max_inv; /* powf(sigma_nsq, 2) / 255^2, as float */
    float gain_limit;    /* vif_enhn_gain_limit as float */
    /* sigma_nsq is a power of two: the den argument 1 + s1 / sigma_nsq is
     * only used when s1 >= sigma_nsq; the quotient is then an exact float
     * >= 1, the sum needs at most 25 bits and is exact in double, so its
     * float rounding is the float sum: float arithmetic gives libvmaf's
     * value (2 by default) */
    int den_float;
} VqFloatVifConst;

#define VQ_FVIF_EPS 1.0e-10f

/* libvmaf's log2f_approx (VIF_OPT_FAST_LOG2): exponent plus a degree-8
 * polynomial of the mantissa, Horner's scheme in float. A NaN argument is
 * read as the x86 default NaN (what libvmaf's 0/0 gives there), so every
 * platform returns the same value for it. */
static inline VQ_HOST_DEVICE float vq_float_vif_log2(float x)
{
    /* coefficients from libvmaf vif_tools.c (log2_poly_s), double literals
     * rounded to float */
    const float poly[9] = { (float)-0.012671635276421, (float)0.064841182402670,
                            (float)-0.157048836463065, (float)0.257167726303123,
                            (float)-0.353800560300520, (float)0.480131410397451,
                            (float)-0.721314327952201, (float)1.442694803896991,
                            0.0f };
    if (x == 0)
        return -INFINITY;
    if (x < 0)
        return NAN;
    uint32_t u;
    memcpy(&u, &x, sizeof(u));
    if (x != x)
        u = 0xffc00000u;
    uint32_t exponent = (u & 0x7f800000u) >> 23;
    uint32_t rem_bits = (u & 0x007fffffu) | 0x3f800000u;
    float remain;
    memcpy(&remain, &rem_bits, sizeof(remain));
    float log_base = (float)((int32_t)exponent - 127);
    float t = remain - 1.0f, var = 0.0f;
    for (int i = 0; i < 9; i++)
        var = var * t + poly[i];
    return log_base + var;
}

/* One pixel's num and den terms from its filtered values, libvmaf's
 * 'matching_matlab' statistic with its mix of float and double. */
static inline VQ_HOST_DEVICE void vq_float_vif_terms(const VqFloatVifConst *c,
                                                float mu1, float mu2, float xx,
                                                float yy, float xy,
                                                float *num, float *den)
{
    const float eps = VQ_FVIF_EPS;
    float s1 = xx - mu1 * mu1;
    float s2 = yy - mu2 * mu2;
    float s12 = xy - mu1 * mu2;
    s1 = s1 > 0.0f ? s1 : 0.0f;
    s2 = s2 > 0.0f ? s2 : 0.0f;
    float g = s12 / (s1 + eps);
    float sv = s2 - g * s12;
    if (s1 < eps) {
        g = 0.0f;
        sv = s2;
        s1 = 0.0f;
    }
    if (s2 < eps) {
        g = 0.0f;
        sv = 0.0f;
    }
    if (g < 0.0f) {
        sv = s2;
        g = 0.0f;
    }
    sv = sv > eps ? sv : eps;
    g = g < c->gain_limit ? g : c->gain_limit;
    if (s1 < c->sigma_nsq) {
        *num = 1.0f - s2 * c->sigma_max_inv;
        *den = 1.0f;
        return;
    }
    *num = s12 < 0.0f ? 0.0f
         : vq_float_vif_log2((float)(1.0 + (double)(g * g * s1) /
                                          ((double)sv + c->sigma_nsq)));
    *den = vq_float_vif_log2(c->den_float
                            ? 1.0f + s1 / (float)c->sigma_nsq
                            : (float)(1.0 + (double)s1 / c->sigma_nsq));
}

/* Makes scale s's images (w x h floats, dst_pitch bytes per row) from
 * scale s - 1's (sw x sh). src_ref/src_dis are either bpc-bit planes
 * (scale 1 without prescaling: bpc > 0) or float images (bpc == 0). */
int vq_float_vif_down_launch(VqStream stream, const VqDevPlane *src_ref,
                        const VqDevPlane *src_dis, unsigned bpc,
                        const VqFloatVifDims *dims, unsigned scale, float *dst_ref,
                        float *dst_dis, size_t dst_pitch);

/* Scale s's num and den terms of every pixel into num and den (device
 * memory, h[s] rows of w[s] terms, pitch floats apart). Sources as for
 * vq_float_vif_down_launch. */
int vq_float_vif_terms_launch(VqStream stream, const VqDevPlane *ref,
                         const VqDevPlane *dis, unsigned bpc,
                         const VqFloatVifDims *dims, unsigned scale,
                         const VqFloatVifConst *c, float *num, float *den,
                         size_t pitch);

/* The term images of every scale (device memory). */
typedef struct VqFloatVifTermImages {
    float *num[VQ_FVIF_SCALES], *den[VQ_FVIF_SCALES];
    size_t pitch[VQ_FVIF_SCALES]; /* in floats */
} VqFloatVifTermImages;

/* Row sums of the term images of scales first_scale..3 into the record
 * rows (at off_num[s] and off_den[s]), each row left to right. */
int vq_float_vif_row_sums_launch(VqStream stream, const VqFloatVifDims *dims,
                            unsigned first_scale, const VqFloatVifTermImages *t,
                            float *rows);

/* vif_prescale: a bpc-bit plane as floats into tmp (the plane's size),
 * then resized into dst (dw x dh) with the tables tx (dw entries) and ty
 * (dh entries) of vq_fresize_axis, method a VqFResizeMethod. */
int vq_float_vif_prescale_launch(VqStream stream, const VqDevPlane *src,
                            unsigned bpc, float *tmp, size_t tmp_pitch,
                            int method, const VqFResizeTap *tx,
                            const VqFResizeTap *ty, float *dst,
                            size_t dst_pitch, unsigned dw, unsigned dh);

#ifdef __cplusplus
}
#endif

#endif
