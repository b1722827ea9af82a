/*
 * SSIMULACRA 2 (libjxl's tools/ssimulacra2.cc): the arithmetic that the CPU
 * path and the kernels share, the accumulator record and the launchers.
 *
 * Per frame and scale: both inputs in linear sRGB -> XYB (made positive);
 * five planes per channel (img1^2, img2^2, img1*img2, img1, img2) blurred
 * with libjxl's recursive Gaussian (sigma 1.5, zero outside the image); per
 * pixel the 1-SSIM' term and the edge terms, summed in a fixed order:
 *   column segment: rows 64j..64j+63 of one column, y ascending;
 *   segment sum:    column segments of chunks of 64 columns, x ascending,
 *                   then the chunks, ascending (stored in the record);
 *   plane sum:      the segment sums, ascending (in finalize).
 * Every value is formed by the VQ_HOST_DEVICE helpers below, in the same
 * order on both sides, without FMA contraction: the GPU's record equals
 * the CPU's bit for bit. Where libjxl evaluates with fused multiply-adds
 * (its SIMD code on FMA machines: XYB, the sRGB curve, the blur), the
 * helpers call fmaf() explicitly in libjxl's order: fmaf is correctly
 * rounded on every CPU (hardware or libm) and GPU, so the values stay
 * identical across backends and follow libjxl's rounding. The blur's
 * rounding decides the score on flat content (E[x^2] - E[x]^2 cancels).
 */
#ifndef VQHIP_KERNELS_SSIMULACRA2_H
#define VQHIP_KERNELS_SSIMULACRA2_H

#include <math.h>
#include <string.h>

#include "../vq_kernel_api.h"

#ifdef __cplusplus
extern "C" {
#endif

#define VQ_S2_SCALES 6
#define VQ_S2_MIN_SIZE 8   /* libjxl's tool refuses smaller images */
#define VQ_S2_RADIUS 5     /* libjxl: round(3.2795 * sigma + 0.2546), sigma 1.5 */
#define VQ_S2_SEG 64       /* rows per column segment */
#define VQ_S2_CHUNK 64     /* columns per chunk of a segment sum */
#define VQ_S2_SUMS 6       /* 1-SSIM', ^4, artifact, ^4, detail lost, ^4 */
#define VQ_S2_BLURS 5      /* img1^2, img2^2, img1*img2, img1, img2 */
#define VQ_S2_MAX_CHUNKS 256 /* 16384 columns */

/* libjxl's recursive Gaussian (Charalampidis 2016), three terms k = 1, 3, 5:
 * y_k[n] = n2_k * (in[n-N-1] + in[n+N-1]) - d1_k * y_k[n-1] - y_k[n-2],
 * out[n] = y_1 + y_3 + y_5, started at n = -N+1 with zero state. Along rows
 * libjxl computes four outputs at a time from the two previous ones (the
 * recursion expanded: mul_in, mul_prev, mul_prev2 per output j = 0..3). */
typedef struct VqSsimulacra2Blur {
    float n2[3], d1[3];
    float mul_in[3][4], mul_prev[3][4], mul_prev2[3][4];
} VqSsimulacra2Blur;

/* YUV -> R'G'B' of one input. Chroma sample i sits at luma position
 * 2i + phase/2 (phase 0: co-sited, 1: centred, 2: on the next row). */
typedef struct VqSsimulacra2Color {
    float y_off, y_scale, c_off, c_scale;
    float m[3][2];      /* R'G'B' = Y + m[.][0] * Cb + m[.][1] * Cr */
    int gray;           /* no chroma planes: R' = G' = B' = Y */
    int ss_x, ss_y;     /* chroma subsampling shifts */
    int phase_x, phase_y;
} VqSsimulacra2Color;

/* Scale-independent parameters of a frame. */
typedef struct VqSsimulacra2Params {
    VqSsimulacra2Color color[2]; /* reference, distorted */
    VqSsimulacra2Blur blur;
    float neg_bias_cbrt; /* -cbrt(opsin bias), as libjxl's premul_absorb */
} VqSsimulacra2Params;

/* The planes a launch reads or writes, each where it lies: plane i at
 * p[i], row y at p[i] + y * pitch (one pitch for all; rows start 16-byte
 * aligned). XYB and linear planes: i = m * 3 + c (m 0 reference, 1
 * distorted); horizontal-pass and blurred planes: i = c * 5 + k. */
typedef struct VqSsimulacra2Planes {
    float *p[3 * VQ_S2_BLURS];
    size_t pitch; /* floats, a multiple of 4 */
} VqSsimulacra2Planes;

/* Blurred planes k (bits of a launch's mask): the reference's value and
 * square (3, 0) depend on it alone. */
#define VQ_S2_K_ALL 0x1fu
#define VQ_S2_K_REF 0x09u
#define VQ_S2_K_DIS 0x16u

/* ---- colour: YUV samples -> linear sRGB ---------------------------------- */

static inline VQ_HOST_DEVICE unsigned vq_ssimulacra2_sample(const void *data,
                                                   size_t stride, int hbd,
                                                   int x, int y)
{
    const unsigned char *row = (const unsigned char *)data + (size_t)y * stride;
    return hbd ? ((const unsigned short *)(const void *)row)[x] : row[x];
}

static inline VQ_HOST_DEVICE int vq_ssimulacra2_clampi(int v, int hi)
{
    return v < 0 ? 0 : v > hi ? hi : v;
}

/* Bilinear chroma at luma position x along one axis: source index and the
 * weight of the next sample, in quarters (0..3). Sample i sits at luma
 * 2i + phase/2, so x maps to (2x - phase) / 4 in samples. */
static inline VQ_HOST_DEVICE void vq_ssimulacra2_chroma_pos(int x, int ss, int phase,
                                                   int *i0, int *f4)
{
    if (!ss) {
        *i0 = x;
        *f4 = 0;
        return;
    }
    int u4 = 2 * x - phase;
    int i = u4 >= 0 ? u4 / 4 : -((3 - u4) / 4);
    *i0 = i;
    *f4 = u4 - 4 * i;
}

/* Interpolated chroma sample (exact: integers times quarters stay far below
 * 2^24 after both passes, so the order of the passes does not matter). */
static inline VQ_HOST_DEVICE float vq_ssimulacra2_chroma(const void *data, size_t stride,
                                                int hbd, int cw, int ch, int x0,
                                                int fx, int y0, int fy)
{
    int xa = vq_ssimulacra2_clampi(x0, cw - 1), xb = vq_ssimulacra2_clampi(x0 + 1, cw - 1);
    int ya = vq_ssimulacra2_clampi(y0, ch - 1), yb = vq_ssimulacra2_clampi(y0 + 1, ch - 1);
    float wx1 = (float)fx * 0.25f, wx0 = (float)(4 - fx) * 0.25f;
    float wy1 = (float)fy * 0.25f, wy0 = (float)(4 - fy) * 0.25f;
    float top = wx0 * (float)vq_ssimulacra2_sample(data, stride, hbd, xa, ya) +
                wx1 * (float)vq_ssimulacra2_sample(data, stride, hbd, xb, ya);
    float bot = wx0 * (float)vq_ssimulacra2_sample(data, stride, hbd, xa, yb) +
                wx1 * (float)vq_ssimulacra2_sample(data, stride, hbd, xb, yb);
    return wy0 * top + wy1 * bot;
}

static inline VQ_HOST_DEVICE float vq_ssimulacra2_clamp01(float v)
{
    return v < 0.0f ? 0.0f : v > 1.0f ? 1.0f : v;
}

/* sRGB -> linear as libjxl's TF_SRGB::DisplayFromEncoded: a rational
 * polynomial above 0.04045 (coefficients from libjxl's
 * lib/jxl/cms/transfer_functions-inl.h), Horner's scheme in fused
 * multiply-adds, one division.
 * Both branches are evaluated and one is selected (vectorizes on the CPU). */
static inline VQ_HOST_DEVICE float vq_ssimulacra2_srgb_to_linear(float x)
{
    float lin = x * (1.0f / 12.92f);
    float p = 8.210152774e-01f, q = 6.521209011e-03f;
    p = fmaf(p, x, 7.961564959e-01f);
    q = fmaf(q, x, -5.512498495e-02f);
    p = fmaf(p, x, 1.624820318e-01f);
    q = fmaf(q, x, 4.987528350e-01f);
    p = fmaf(p, x, 1.043637593e-02f);
    q = fmaf(q, x, 1.076976492e+00f);
    p = fmaf(p, x, 2.200248328e-04f);
    q = fmaf(q, x, 2.631846970e-01f);
    return x > 0.04045f ? p / q : lin;
}

/* Samples (Y and interpolated Cb, Cr as sample values) -> linear sRGB. */
static inline VQ_HOST_DEVICE void vq_ssimulacra2_yuv_linear(const VqSsimulacra2Color *c,
                                                   float ys, float cbs,
                                                   float crs, float rgb[3])
{
    float yn = (ys - c->y_off) * c->y_scale;
    float cb = c->gray ? 0.0f : (cbs - c->c_off) * c->c_scale;
    float cr = c->gray ? 0.0f : (crs - c->c_off) * c->c_scale;
    for (int i = 0; i < 3; i++) {
        float v = (yn + c->m[i][0] * cb) + c->m[i][1] * cr;
        rgb[i] = vq_ssimulacra2_srgb_to_linear(vq_ssimulacra2_clamp01(v));
    }
}

/* Linear sRGB of pixel (x, y) of a YUV picture (stored plane sizes). */
static inline VQ_HOST_DEVICE void vq_ssimulacra2_pixel_linear(
    const VqSsimulacra2Color *c, const void *py, size_t sy, const void *pu, size_t su,
    const void *pv, size_t sv, int hbd, int cw, int ch, int x, int y,
    float rgb[3])
{
    float cb = 0.0f, cr = 0.0f;
    if (!c->gray) {
        int x0, fx, y0, fy;
        vq_ssimulacra2_chroma_pos(x, c->ss_x, c->phase_x, &x0, &fx);
        vq_ssimulacra2_chroma_pos(y, c->ss_y, c->phase_y, &y0, &fy);
        cb = vq_ssimulacra2_chroma(pu, su, hbd, cw, ch, x0, fx, y0, fy);
        cr = vq_ssimulacra2_chroma(pv, sv, hbd, cw, ch, x0, fx, y0, fy);
    }
    vq_ssimulacra2_yuv_linear(c, (float)vq_ssimulacra2_sample(py, sy, hbd, x, y), cb, cr, rgb);
}

/* ---- XYB ------------------------------------------------------------------ */

/* cbrt(x) + add for x >= 0, as libjxl's CubeRootAndAdd computes it: an
 * exponent guess of x^(-1/3) (its constants 0x54800000, 0x002AAAAA), three
 * Newton steps and a last one in fused multiply-adds, then x * r^2 + add.
 * Integer and float operations only, identical on every platform. */
static inline VQ_HOST_DEVICE float vq_ssimulacra2_cbrt_add(float x, float add)
{
    int m1;
    memcpy(&m1, &x, sizeof(m1));
    int m2 = m1 == 0 ? 0 : 0x54800000 - (m1 >> 23) * 0x002AAAAA;
    float r;
    memcpy(&r, &m2, sizeof(r));
    float x3 = (1.0f / 3.0f) * x;
    for (int k = 0; k < 3; k++) {
        float r2 = r * r;
        r = fmaf(-x3, r2 * r2, (4.0f / 3.0f) * r);
    }
    float r2 = r * r;
    r = fmaf(1.0f / 3.0f, fmaf(-x, r2 * r2, r), r);
    r2 = r * r;
    return fmaf(r2, x, add);
}

/* libjxl's opsin absorbance (lib/jxl/cms/opsin_params.h) and bias. */
#define VQ_S2_M00 0.30f
#define VQ_S2_M02 0.078f
#define VQ_S2_M01 (1.0f - VQ_S2_M02 - VQ_S2_M00)
#define VQ_S2_M10 0.23f
#define VQ_S2_M12 0.078f
#define VQ_S2_M11 (1.0f - VQ_S2_M12 - VQ_S2_M10)
#define VQ_S2_M20 0.24342268924547819f
#define VQ_S2_M21 0.20476744424496821f
#define VQ_S2_M22 (1.0f - VQ_S2_M20 - VQ_S2_M21)
#define VQ_S2_BIAS 0.0037930732552754493f

static inline VQ_HOST_DEVICE float vq_ssimulacra2_mix(float m0, float m1, float m2,
                                             float r, float g, float b,
                                             float neg_bias_cbrt)
{
    float v = fmaf(m0, r, fmaf(m1, g, fmaf(m2, b, VQ_S2_BIAS)));
    v = v > 0.0f ? v : 0.0f;
    return vq_ssimulacra2_cbrt_add(v, neg_bias_cbrt);
}

/* Linear sRGB -> XYB, then ssimulacra2's MakePositiveXYB. */
static inline VQ_HOST_DEVICE void vq_ssimulacra2_xyb(const float rgb[3],
                                            float neg_bias_cbrt, float xyb[3])
{
    float r = rgb[0], g = rgb[1], b = rgb[2];
    float m0 = vq_ssimulacra2_mix(VQ_S2_M00, VQ_S2_M01, VQ_S2_M02, r, g, b, neg_bias_cbrt);
    float m1 = vq_ssimulacra2_mix(VQ_S2_M10, VQ_S2_M11, VQ_S2_M12, r, g, b, neg_bias_cbrt);
    float m2 = vq_ssimulacra2_mix(VQ_S2_M20, VQ_S2_M21, VQ_S2_M22, r, g, b, neg_bias_cbrt);
    float x = 0.5f * (m0 - m1), y = 0.5f * (m0 + m1);
    xyb[2] = (m2 - y) + 0.55f;
    xyb[0] = x * 14.0f + 0.42f;
    xyb[1] = y + 0.01f;
}

/* libjxl's 2x2 box downsampling: clamped sources summed row by row. */
static inline VQ_HOST_DEVICE float vq_ssimulacra2_down(float a00, float a10, float a01,
                                              float a11)
{
    return (((0.0f + a00) + a10) + a01 + a11) * 0.25f;
}

/* ---- blur ----------------------------------------------------------------- */

/* Input of blurred plane k from the two XYB values of a pixel. */
static inline VQ_HOST_DEVICE float vq_ssimulacra2_blur_input(int k, float a, float b)
{
    switch (k) {
    case 0: return a * a;
    case 1: return b * b;
    case 2: return a * b;
    case 3: return a;
    default: return b;
    }
}

/* One step of the vertical recursion (libjxl's evaluation: two fused
 * multiply-adds); p/pp: y_k[n-1], y_k[n-2]. */
static inline VQ_HOST_DEVICE float vq_ssimulacra2_blur_v_step(const VqSsimulacra2Blur *bl,
                                                     float s, float p[3],
                                                     float pp[3])
{
    float y[3];
    for (int k = 0; k < 3; k++) {
        y[k] = fmaf(bl->n2[k], s, fmaf(-bl->d1[k], p[k], -pp[k]));
        pp[k] = p[k];
        p[k] = y[k];
    }
    return y[0] + (y[1] + y[2]);
}

/* One step of the horizontal recursion, as libjxl's row ends compute it. */
static inline VQ_HOST_DEVICE float vq_ssimulacra2_blur_h_step(const VqSsimulacra2Blur *bl,
                                                     float s, float p[3],
                                                     float pp[3])
{
    float y[3];
    for (int k = 0; k < 3; k++) {
        y[k] = fmaf(bl->mul_prev[k][0], p[k],
                    fmaf(bl->mul_prev2[k][0], pp[k], s * bl->mul_in[k][0]));
        pp[k] = p[k];
        p[k] = y[k];
    }
    return y[0] + (y[1] + y[2]);
}

/* Output j (0..3) of term k of a group of four along a row, from the
 * group's four input sums and the two outputs before the group, as
 * libjxl's unrolled row loop computes it. */
static inline VQ_HOST_DEVICE float vq_ssimulacra2_blur_h4_term(const VqSsimulacra2Blur *bl,
                                                      int k, int j,
                                                      float s0, float s1,
                                                      float s2, float s3,
                                                      float p, float pp)
{
    const float *m = bl->mul_in[k];
    float a = s0 * m[j];
    if (j >= 1)
        a = fmaf(m[j - 1], s1, a);
    if (j >= 2)
        a = fmaf(m[j - 2], s2, a);
    if (j >= 3)
        a = fmaf(m[j - 3], s3, a);
    a = fmaf(bl->mul_prev2[k][j], pp, a);
    return fmaf(bl->mul_prev[k][j], p, a);
}

/* Four horizontal outputs (a group) and the recursion's new state. */
static inline VQ_HOST_DEVICE void vq_ssimulacra2_blur_h4(const VqSsimulacra2Blur *bl,
                                                const float s[4], float p[3],
                                                float pp[3], float out[4])
{
    float y[3][4];
    for (int k = 0; k < 3; k++) {
        for (int j = 0; j < 4; j++)
            y[k][j] = vq_ssimulacra2_blur_h4_term(bl, k, j, s[0], s[1], s[2], s[3],
                                         p[k], pp[k]);
        pp[k] = y[k][2];
        p[k] = y[k][3];
    }
    for (int j = 0; j < 4; j++)
        out[j] = y[0][j] + (y[1][j] + y[2][j]);
}

/* Which form libjxl uses for output n of a row of w: single steps up to
 * n = 7 and for the last outputs, groups of four from n = 8 while n + 7 < w
 * (its loop bounds with four lanes). */
static inline VQ_HOST_DEVICE int vq_ssimulacra2_blur_h4_at(int n, int w)
{
    return n >= 8 && n < w - 7;
}

/* ---- per-pixel terms -------------------------------------------------------- */

#define VQ_S2_C2 0.0009f

/* libjxl's SSIMMap and EdgeDiffMap terms of one pixel, with their types:
 * t = { d, d^4, artifact, artifact^4, detail lost, detail lost^4 }. */
static inline VQ_HOST_DEVICE void vq_ssimulacra2_terms(float mu1, float mu2, float s11,
                                              float s22, float s12, float i1,
                                              float i2, double t[6])
{
    float mu11 = mu1 * mu1, mu22 = mu2 * mu2, mu12 = mu1 * mu2;
    float num_m = (float)(1.0 - (double)((mu1 - mu2) * (mu1 - mu2)));
    float num_s = 2.0f * (s12 - mu12) + VQ_S2_C2;
    float denom_s = (s11 - mu11) + (s22 - mu22) + VQ_S2_C2;
    double d = 1.0 - (double)(num_m * num_s / denom_s);
    d = d < 0.0 ? 0.0 : d;
    double d2 = d * d;
    t[0] = d;
    t[1] = d2 * d2;
    float e2 = i2 - mu2, e1 = i1 - mu1;
    e2 = e2 < 0.0f ? -e2 : e2;
    e1 = e1 < 0.0f ? -e1 : e1;
    double ed = (1.0 + (double)e2) / (1.0 + (double)e1) - 1.0;
    double art = ed < 0.0 ? 0.0 : ed;
    double det = -ed < 0.0 ? 0.0 : -ed;
    double a2 = art * art, l2 = det * det;
    t[2] = art;
    t[3] = a2 * a2;
    t[4] = det;
    t[5] = l2 * l2;
}

/* ---- record ------------------------------------------------------------------- */

/* Sizes of a frame's scales and the record layout. A scale is computed
 * while the previous one is at least 8x8 (libjxl's loop). */
typedef struct VqSsimulacra2Dims {
    unsigned n_scales;
    unsigned w[VQ_S2_SCALES], h[VQ_S2_SCALES];
    unsigned nseg[VQ_S2_SCALES];
    size_t off[VQ_S2_SCALES]; /* doubles: [c][sum][segment] at off[s] */
    size_t n_doubles;
} VqSsimulacra2Dims;

static inline VQ_HOST_DEVICE size_t vq_ssimulacra2_rec_index(const VqSsimulacra2Dims *d,
                                                    unsigned s, unsigned c,
                                                    unsigned q, unsigned j)
{
    return d->off[s] + ((size_t)c * VQ_S2_SUMS + q) * d->nseg[s] + j;
}

/* ---- launchers (0 or the runtime's error code) ------------------------------ */

/* Scale 0: YUV of the inputs in `inputs` (bit m) -> their XYB planes, and,
 * when next is set, their next scale's linear planes. */
int vq_ssimulacra2_prepare_yuv_launch(VqStream stream, const VqDevFrame *ref,
                             const VqDevFrame *dis, unsigned w, unsigned h,
                             const VqSsimulacra2Params *par, unsigned inputs,
                             const VqSsimulacra2Planes *xyb,
                             const VqSsimulacra2Planes *next);
/* Scale >= 1: linear planes -> XYB (+ the next scale's linear planes). */
int vq_ssimulacra2_prepare_lin_launch(VqStream stream,
                             const VqSsimulacra2Planes *lin, unsigned w,
                             unsigned h, const VqSsimulacra2Params *par,
                             unsigned inputs, const VqSsimulacra2Planes *xyb,
                             const VqSsimulacra2Planes *next);
/* Horizontal pass: tmp planes c * 5 + k, k in kmask (VQ_S2_K_*), from
 * XYB planes c and 3 + c. */
int vq_ssimulacra2_blur_h_launch(VqStream stream, const VqSsimulacra2Planes *xyb,
                        const VqSsimulacra2Planes *tmp, unsigned w,
                        unsigned h, const VqSsimulacra2Blur *bl,
                        unsigned kmask);
/* Vertical pass: blurred planes c * 5 + k, k in kmask, from tmp's. */
int vq_ssimulacra2_blur_v_launch(VqStream stream, const VqSsimulacra2Planes *tmp,
                        const VqSsimulacra2Planes *blur, unsigned w,
                        unsigned h, const VqSsimulacra2Blur *bl,
                        unsigned kmask);
/* Terms and fixed-order sums of one scale into rec (record layout above);
 * colsum: VQ_S2_SUMS * 3 * nseg * w doubles of scratch. */
int vq_ssimulacra2_sums_launch(VqStream stream, const VqSsimulacra2Planes *xyb,
                      const VqSsimulacra2Planes *blur, unsigned w,
                      unsigned h, unsigned nseg, double *colsum, double *rec);

#ifdef __cplusplus
}
#endif

#endif
