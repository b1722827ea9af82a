/*
 * float_ms_ssim (libvmaf's float_ms_ssim.c / ms_ssim.c): five scales, each
 * the float SSIM map of kernels/float_ssim/float_ssim.h (whose map kernels
 * this extractor uses too); scale s + 1 is scale s low-passed with a 9x9
 * filter and kept at even positions.
 *
 * Decimation, as libvmaf's _iqa_decimate with the 2-D kernel g_lpf: output
 * (x, y) of a w x h image is the double sum, kernel row by row, of the
 * float products in(mirror(2x + u), mirror(2y + v)) * K[v][u], u, v in
 * -4..4, rounded to float; the output is ceil(w/2) x ceil(h/2). The 2-D
 * table is not the outer product of its 1-D rows (its values are rounded),
 * so it is applied as 81 taps.
 */
#ifndef VQHIP_KERNELS_FLOAT_MS_SSIM_H
#define VQHIP_KERNELS_FLOAT_MS_SSIM_H

#include "../float_ssim/float_ssim.h"

#ifdef __cplusplus
extern "C" {
#endif

#define VQ_FMS_SCALES 5
#define VQ_FMS_LPF 9
/* width and height libvmaf requires: five scales of at least 11x11 */
#define VQ_FMS_MIN_SIZE 176

/* libvmaf ms_ssim.c, g_lpf (9/7 biorthogonal wavelet low-pass), row by row. */
#define VQ_FMS_LPF_TAPS                                                       \
    0.000714f, -0.000450f, -0.002090f, 0.007132f, 0.016114f, 0.007132f,       \
    -0.002090f, -0.000450f, 0.000714f,                                        \
    -0.000450f, 0.000283f, 0.001316f, -0.004490f, -0.010146f, -0.004490f,     \
    0.001316f, 0.000283f, -0.000450f,                                         \
    -0.002090f, 0.001316f, 0.006115f, -0.020867f, -0.047149f, -0.020867f,     \
    0.006115f, 0.001316f, -0.002090f,                                         \
    0.007132f, -0.004490f, -0.020867f, 0.071207f, 0.160885f, 0.071207f,       \
    -0.020867f, -0.004490f, 0.007132f,                                        \
    0.016114f, -0.010146f, -0.047149f, 0.160885f, 0.363505f, 0.160885f,       \
    -0.047149f, -0.010146f, 0.016114f,                                        \
    0.007132f, -0.004490f, -0.020867f, 0.071207f, 0.160885f, 0.071207f,       \
    -0.020867f, -0.004490f, 0.007132f,                                        \
    -0.002090f, 0.001316f, 0.006115f, -0.020867f, -0.047149f, -0.020867f,     \
    0.006115f, 0.001316f, -0.002090f,                                         \
    -0.000450f, 0.000283f, 0.001316f, -0.004490f, -0.010146f, -0.004490f,     \
    0.001316f, 0.000283f, -0.000450f,                                         \
    0.000714f, -0.000450f, -0.002090f, 0.007132f, 0.016114f, 0.007132f,       \
    -0.002090f, -0.000450f, 0.000714f

/* libvmaf ms_ssim.c: the exponents of l, c and s per scale (Wang's). */
#define VQ_FMS_ALPHAS 0.0000f, 0.0000f, 0.0000f, 0.0000f, 0.1333f
#define VQ_FMS_BETAS 0.0448f, 0.2856f, 0.3001f, 0.2363f, 0.1333f
#define VQ_FMS_GAMMAS 0.0448f, 0.2856f, 0.3001f, 0.2363f, 0.1333f

/* One decimation of both images (src_bpc as vq_float_ssim_map_launch) into
 * ow x oh float images. */
int vq_float_ms_ssim_lpf_launch(VqStream stream, const VqDevPlane *ref,
                      const VqDevPlane *dis, unsigned src_bpc, float *out_ref,
                      float *out_dis, size_t out_pitch, unsigned ow,
                      unsigned oh);

#ifdef __cplusplus
}
#endif

#endif
