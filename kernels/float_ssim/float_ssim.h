/*
 * float_ssim and float_ms_ssim (libvmaf's float_ssim.c / float_ms_ssim.c on
 * its iqa code): what the CPU path and the kernels share.
 *
 * SSIM of one scale ("map"), as libvmaf's _iqa_ssim computes it, on two
 * w x h float images (samples divided by 2^(bpc-8), so 8-bit range):
 *  - 11-tap Gaussian (sigma 1.5), separable, "valid" only: the map is
 *    (w - 10) x (h - 10), output (x, y) covers input x..x+10, y..y+10;
 *  - each pass: a double sum, in tap order, of float products sample * tap,
 *    rounded to float; first horizontally over every input row, then
 *    vertically; on the images and on the float products r*r, d*d, r*d;
 *  - per pixel: vq_float_ssim_pixel (libvmaf's float/double mix, same order).
 * Sums over the map: per row, per segment of VQ_FSSIM_SEG pixels a double
 * sum in x order, the row's sum is the sum of its segments in order; the
 * record holds the rows' sums, combined in row order by the one finalize.
 * libvmaf keeps one running double sum instead and rounds the mean to
 * float: the two orders differ by far less than a float's rounding step.
 *
 * No FMA contraction anywhere (-ffp-contract=off, nvcc --fmad=false).
 */
#ifndef VQHIP_KERNELS_FLOAT_SSIM_H
#define VQHIP_KERNELS_FLOAT_SSIM_H

#include "../vq_kernel_api.h"

#if !defined(__CUDACC__) && !defined(__HIP__)
#include <math.h>
#endif

#ifdef __cplusplus
extern "C" {
#endif

#define VQ_FSSIM_WIN 11
#define VQ_FSSIM_HALF 5
#define VQ_FSSIM_SEG 32 /* pixels per partial sum; also the GPU tile width */
#define VQ_FSSIM_COMPS 4

/* libvmaf iqa/ssim_tools.h, g_gaussian_window_h (= _v). */
#define VQ_FSSIM_GAUSS_TAPS                                                   \
    0.001028f, 0.007599f, 0.036001f, 0.109361f, 0.213006f, 0.266012f,         \
        0.213006f, 0.109361f, 0.036001f, 0.007599f, 0.001028f

/* One record entry: the sums over one map row. */
typedef struct VqFloatSsimRow {
    double ssim, l, c, s;
} VqFloatSsimRow;

/* C1, C2, C3 as _iqa_ssim forms them in float from K1 = 0.01, K2 = 0.03,
 * L = 255. */
typedef struct VqFloatSsimConsts {
    float c1, c2, c3;
} VqFloatSsimConsts;

static inline VqFloatSsimConsts vq_float_ssim_consts(void)
{
    const float k1 = 0.01f, k2 = 0.03f;
    const int l = 255;
    VqFloatSsimConsts c;
    c.c1 = (k1 * l) * (k1 * l);
    c.c2 = (k2 * l) * (k2 * l);
    c.c3 = c.c2 / 2.0f;
    return c;
}

/* libvmaf's KBND_SYMMETRIC: one reflection that repeats the edge sample
 * (-1 -> 0, n -> n - 1). The decimations' reach keeps it inside the plane
 * for every size the extractors accept. */
static inline VQ_HOST_DEVICE int vq_float_ssim_mirror(int k, int n)
{
    return k < 0 ? -1 - k : k >= n ? 2 * n - 1 - k : k;
}

#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
/* The correctly rounded square root of a float, whatever the accuracy of the
 * device library's square roots: a first value from the double square root
 * (float denormals are normal there), then one step to a neighbour when the
 * midpoint towards it is still on p's side. Midpoints have 25 significant
 * bits, so their squares are exact in double, and no float p equals one
 * (an odd 25-bit number squared needs more than 24 bits). */
static inline __device__ float vq_float_ssim_sqrtf_rn(float p)
{
    if (p == 0.0f || p != p || p == __int_as_float(0x7f800000))
        return p; /* +-0, NaN and +inf are their own roots */
    if (p < 0.0f)
        return sqrtf(p); /* NaN, as on the host */
    double pd = p;
    float r = (float)sqrt(pd);
    float up = nextafterf(r, __int_as_float(0x7f800000));
    double mu = ((double)r + (double)up) * 0.5;
    if (mu * mu < pd)
        return up;
    float dn = nextafterf(r, 0.0f);
    double md = ((double)r + (double)dn) * 0.5;
    return md * md > pd ? dn : r;
}
/* float division through double: rounding the correctly rounded double
 * quotient to float gives the correctly rounded float quotient (53 >=
 * 2 * 24 + 2), independent of the device's float division. */
#define VQ_FSSIM_SQRTF(p) vq_float_ssim_sqrtf_rn(p)
#define VQ_FSSIM_FDIV(a, b) ((float)((double)(a) / (double)(b)))
#else
/* The host's sqrtf and float division are IEEE operations (SSE), the same
 * correctly rounded values as above. */
#define VQ_FSSIM_SQRTF(p) sqrtf(p)
#define VQ_FSSIM_FDIV(a, b) ((a) / (b))
#endif

/* One pixel of the map from its five filtered values (float), as libvmaf's
 * default-argument _iqa_ssim: sigmas in float, clamped at 0; l and c in
 * double over float denominators; s in float; *ssim = l * c * s. The
 * products and sums are written in libvmaf's order and type. */
static inline VQ_HOST_DEVICE void vq_float_ssim_pixel(float mu_r, float mu_d,
                                                 float rr, float dd, float rd,
                                                 VqFloatSsimConsts k, double *l,
                                                 double *c, double *s)
{
    float mr2 = mu_r * mu_r, md2 = mu_d * mu_d;
    float sr = rr - mr2, sd = dd - md2;
    sr = 0.0f > sr ? 0.0f : sr; /* libvmaf: MAX(0.0, x), x kept if NaN */
    sd = 0.0f > sd ? 0.0f : sd;
    float sb = rd - mu_r * mu_d;
    float srsd = VQ_FSSIM_SQRTF(sr * sd);
    float den_l = mr2 + md2 + k.c1;
    float den_c = sr + sd + k.c2;
    *l = (2.0 * mu_r * mu_d + k.c1) / den_l;
    *c = (2.0 * srsd + k.c2) / den_c;
    float sbc = sb < 0.0f && srsd <= 0.0f ? 0.0f : sb;
    *s = VQ_FSSIM_FDIV(sbc + k.c3, srsd + k.c3);
}

/* ---- launchers (kernels/float_ssim/float_ssim.hip) ----
 * A source is an integer plane (src_bpc 8..16: samples / 2^(bpc-8)) or a
 * float image (src_bpc 0: VqDevPlane over floats, pitch in bytes). */

/* float_ssim's scale: the box low-pass of libvmaf's compute_ssim (factor x
 * factor taps of (float)(1/factor^2), mirrored), kept at multiples of
 * factor; outputs ow x oh float images. */
int vq_float_ssim_box_launch(VqStream stream, const VqDevPlane *ref,
                        const VqDevPlane *dis, unsigned src_bpc,
                        unsigned factor, float *out_ref, float *out_dis,
                        size_t out_pitch, unsigned ow, unsigned oh);

/* The map of one scale: per row of the map and segment of VQ_FSSIM_SEG
 * pixels, the sums (ssim, l, c, s) into part[(row * nseg + seg) * 4 + k],
 * nseg = ceil((w - 10) / VQ_FSSIM_SEG). */
int vq_float_ssim_map_launch(VqStream stream, const VqDevPlane *ref,
                        const VqDevPlane *dis, unsigned src_bpc,
                        VqFloatSsimConsts k, double *part);

/* Each row's segments summed in order into rows[row]. */
int vq_float_ssim_rows_launch(VqStream stream, const double *part, unsigned nseg,
                         unsigned n_rows, VqFloatSsimRow *rows);

#ifdef __cplusplus
}
#endif

#endif
