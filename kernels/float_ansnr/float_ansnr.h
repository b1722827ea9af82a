/*
 * float_ansnr as libvmaf computes it (float_ansnr.c, ansnr.c,
 * ansnr_tools.c): luma as float, x / 2^(bpc - 8) - 128 (exact); the
 * reference filtered with a 3x3 and the distorted with a 5x5 kernel, both
 * mirrored at the edges (index -k reads k, index n - 1 + k reads n - k);
 * per row, the float sums of rf^2 (signal) and (rf - df)^2 (noise) taken
 * left to right; then the rows' sums added in float, top to bottom.
 *
 * The record holds each row's two float sums. Both backends compute them
 * with the helpers below, in the same order, and the one finalize adds the
 * rows in order, so the GPU equals the CPU bit for bit. Each filter output
 * is the float sum over kernel rows of the float sum over kernel columns of
 * coefficient * sample, in libvmaf's order (the 3x3 kernel's products and
 * sums are exact; the 5x5 kernel's are not, hence the fixed order).
 */
#ifndef VQHIP_KERNELS_FLOAT_ANSNR_H
#define VQHIP_KERNELS_FLOAT_ANSNR_H

#include "../vq_kernel_api.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One luma row's sums; the record is an array of h of them. */
typedef struct VqAnsnrRow {
    float sig, noise;
} VqAnsnrRow;

/* libvmaf's mirror: -k -> k, n - 1 + k -> n - k (needs n >= 3 for the
 * 5-tap kernel). */
static inline VQ_HOST_DEVICE int vq_ansnr_mirror(int i, int n)
{
    return i < 0 ? -i : i >= n ? 2 * n - i - 1 : i;
}

/* Sample value as libvmaf's picture_copy makes it (offset -128). */
static inline VQ_HOST_DEVICE float vq_ansnr_sample(unsigned x, float inv_scale)
{
    return (float)x * inv_scale + -128.0f;
}

/* Reference filter at column j; r0..r2 are rows i-1..i+1 of a padded copy
 * whose element j + k is column j + k - 2 (mirrored). Coefficients:
 * libvmaf's ansnr_filter2d_ref_s, {1,2,1; 2,4,2; 1,2,1} / 16. */
static inline VQ_HOST_DEVICE float vq_ansnr_ref3(const float *r0,
                                                 const float *r1,
                                                 const float *r2, unsigned j)
{
    const float c[3][3] = { { 1.0f / 16, 2.0f / 16, 1.0f / 16 },
                            { 2.0f / 16, 4.0f / 16, 2.0f / 16 },
                            { 1.0f / 16, 2.0f / 16, 1.0f / 16 } };
    const float *r[3] = { r0 + j + 1, r1 + j + 1, r2 + j + 1 };
    float acc = 0.0f;
    for (int fi = 0; fi < 3; fi++) {
        float inner = 0.0f;
        for (int fj = 0; fj < 3; fj++)
            inner += c[fi][fj] * r[fi][fj];
        acc += inner;
    }
    return acc;
}

/* Distorted filter at column j; r0..r4 are rows i-2..i+2, padded as above.
 * Coefficients: libvmaf's ansnr_filter2d_dis_s, k / 571 rounded to float
 * from double. */
static inline VQ_HOST_DEVICE float vq_ansnr_dis5(const float *r0,
                                                 const float *r1,
                                                 const float *r2,
                                                 const float *r3,
                                                 const float *r4, unsigned j)
{
    const float c[5][5] = {
        { (float)(2.0 / 571.0), (float)(7.0 / 571.0), (float)(12.0 / 571.0),
          (float)(7.0 / 571.0), (float)(2.0 / 571.0) },
        { (float)(7.0 / 571.0), (float)(31.0 / 571.0), (float)(52.0 / 571.0),
          (float)(31.0 / 571.0), (float)(7.0 / 571.0) },
        { (float)(12.0 / 571.0), (float)(52.0 / 571.0), (float)(127.0 / 571.0),
          (float)(52.0 / 571.0), (float)(12.0 / 571.0) },
        { (float)(7.0 / 571.0), (float)(31.0 / 571.0), (float)(52.0 / 571.0),
          (float)(31.0 / 571.0), (float)(7.0 / 571.0) },
        { (float)(2.0 / 571.0), (float)(7.0 / 571.0), (float)(12.0 / 571.0),
          (float)(7.0 / 571.0), (float)(2.0 / 571.0) },
    };
    const float *r[5] = { r0 + j, r1 + j, r2 + j, r3 + j, r4 + j };
    float acc = 0.0f;
    for (int fi = 0; fi < 5; fi++) {
        float inner = 0.0f;
        for (int fj = 0; fj < 5; fj++)
            inner += c[fi][fj] * r[fi][fj];
        acc += inner;
    }
    return acc;
}

/* Fills the record (h rows) from the two luma planes. */
int vq_float_ansnr_launch(VqStream stream, const VqDevPlane *ref,
                          const VqDevPlane *dis, unsigned bpc,
                          VqAnsnrRow *rows);

#ifdef __cplusplus
}
#endif

#endif
