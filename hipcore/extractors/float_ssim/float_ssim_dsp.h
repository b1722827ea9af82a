/*
 * float_ssim (and float_ms_ssim's maps), the CPU path's DSP functions and
 * their variants (see hipcore/cpu.h). vq_float_ssim_dsp_init fills a table once,
 * at extractor init: the C functions first, then those of each instruction
 * set the flags allow. Every variant is bit-identical to the C function
 * (tests/checkasm): the same IEEE operations per output, in the same order.
 */
#ifndef VQHIP_EXTRACTORS_FLOAT_SSIM_DSP_H
#define VQHIP_EXTRACTORS_FLOAT_SSIM_DSP_H

#include <string.h>

#include "../../../kernels/float_ssim/float_ssim.h"
#include "base/cpu.h"

/* dst[x] for x < n: the 11-tap Gaussian of src[x .. x + 10] (src holds
 * n + 10 values), each output a double sum from 0, in tap order, of the
 * float products src * tap, rounded to float. */
#define decl_fssim_hconv_fn(name)                                             \
    void(name)(const float *src, unsigned n, float *dst)
typedef decl_fssim_hconv_fn(*vq_float_ssim_hconv_fn);

/* dst[x] for x < n: the same filter down the column x of rows[0..10]. */
#define decl_fssim_vconv_fn(name)                                             \
    void(name)(const float *const *rows, unsigned n, float *dst)
typedef decl_fssim_vconv_fn(*vq_float_ssim_vconv_fn);

/* l, c, s[x] for x < n: vq_float_ssim_pixel of v[0..4][x] (mu_r, mu_d, the
 * filtered r*r, d*d, r*d), any floats. */
#define decl_fssim_pixels_fn(name)                                            \
    void(name)(const float *const *v, unsigned n, VqFloatSsimConsts k, double *l, \
               double *c, double *s)
typedef decl_fssim_pixels_fn(*vq_float_ssim_pixels_fn);

typedef struct VqFloatSsimDsp {
    vq_float_ssim_hconv_fn hconv;
    vq_float_ssim_vconv_fn vconv;
    vq_float_ssim_pixels_fn pixels;
} VqFloatSsimDsp;

void vq_float_ssim_dsp_init(VqFloatSsimDsp *c, unsigned flags);

decl_fssim_hconv_fn(vq_float_ssim_hconv_c);
decl_fssim_vconv_fn(vq_float_ssim_vconv_c);
decl_fssim_pixels_fn(vq_float_ssim_pixels_c);
#if VQ_ARCH_X86_64
decl_fssim_hconv_fn(vq_float_ssim_hconv_avx2);
decl_fssim_vconv_fn(vq_float_ssim_vconv_avx2);
decl_fssim_pixels_fn(vq_float_ssim_pixels_avx2);
decl_fssim_hconv_fn(vq_float_ssim_hconv_avx512);
decl_fssim_vconv_fn(vq_float_ssim_vconv_avx512);
decl_fssim_pixels_fn(vq_float_ssim_pixels_avx512);
#endif

/* For the row filters here and in float_ms_ssim_dsp.c: blocks of
 * VQ_FSSIM_BLOCK outputs keep their sums in registers (GCC/Clang vector
 * types: element-wise IEEE operations, per output the same as the scalar
 * loop; 0 where there are none). */
#if defined(__GNUC__) || defined(__clang__)
#define VQ_FSSIM_BLOCK 8
typedef float VqFloatSsimVecF __attribute__((vector_size(VQ_FSSIM_BLOCK * 4)));
typedef double VqFloatSsimVecD __attribute__((vector_size(VQ_FSSIM_BLOCK * 8)));

/* a += (double)(p[0..7] * k), element-wise; no vector crosses a call */
#define VQ_FSSIM_ACC(a, p, k)                                                 \
    do {                                                                      \
        VqFloatSsimVecF v_;                                                       \
        memcpy(&v_, (p), sizeof(v_));                                         \
        (a) += __builtin_convertvector(v_ * (k), VqFloatSsimVecD);                \
    } while (0)
#define VQ_FSSIM_STORE(p, a)                                                  \
    do {                                                                      \
        VqFloatSsimVecF v_ = __builtin_convertvector((a), VqFloatSsimVecF);           \
        memcpy((p), &v_, sizeof(v_));                                         \
    } while (0)
#else
#define VQ_FSSIM_BLOCK 0
#endif

#endif
