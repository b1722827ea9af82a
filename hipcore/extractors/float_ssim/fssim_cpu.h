/*
 * The CPU path of libvmaf's float SSIM ("iqa" code), shared by float_ssim
 * and float_ms_ssim: one scale's map (fssim_cpu.c) and float_ssim's box
 * decimation. Definitions in kernels/float_ssim/float_ssim.h.
 *
 * The row functions come in a C version and, on x86-64, an AVX2 build of
 * the same source, chosen once when an extractor starts (vq_fssim_dsp_init);
 * both do the same IEEE operations per element in the same order, so the
 * results are bit-identical (tests/ssim/fssim_unit.c checks it).
 */
#ifndef VQHIP_EXTRACTORS_FSSIM_CPU_H
#define VQHIP_EXTRACTORS_FSSIM_CPU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "../../../kernels/float_ssim/float_ssim.h"

#if defined(__GNUC__) && defined(__x86_64__)
#define VQ_FSSIM_X86 1
#define VQ_FSSIM_INLINE static inline __attribute__((always_inline))
#else
#define VQ_FSSIM_X86 0
#define VQ_FSSIM_INLINE static inline
#endif

/* The row filters: each output a double sum, in tap order, of float
 * products. Blocks of VQ_FSSIM_BLOCK outputs keep their sums in registers
 * (GCC/Clang vector types: element-wise IEEE operations, per output the
 * same as the scalar loop). */
#if defined(__GNUC__)
#define VQ_FSSIM_BLOCK 8
typedef float VqFssimVecF __attribute__((vector_size(VQ_FSSIM_BLOCK * 4)));
typedef double VqFssimVecD __attribute__((vector_size(VQ_FSSIM_BLOCK * 8)));

/* a += (double)(p[0..7] * k), element-wise; no vector crosses a call */
#define VQ_FSSIM_ACC(a, p, k)                                                 \
    do {                                                                      \
        VqFssimVecF v_;                                                       \
        memcpy(&v_, (p), sizeof(v_));                                         \
        (a) += __builtin_convertvector(v_ * (k), VqFssimVecD);                \
    } while (0)
#define VQ_FSSIM_STORE(p, a)                                                  \
    do {                                                                      \
        VqFssimVecF v_ = __builtin_convertvector((a), VqFssimVecF);           \
        memcpy((p), &v_, sizeof(v_));                                         \
    } while (0)
#else
#define VQ_FSSIM_BLOCK 0 /* scalar loops only */
#endif

/* A source image: an integer plane (bpc 8..16; libvmaf's picture_copy
 * divides samples by 2^(bpc-8) in float) or float samples (bpc 0). */
typedef struct VqFssimSrc {
    const uint8_t *data;
    ptrdiff_t stride; /* bytes */
    unsigned w, h;
    unsigned bpc;
} VqFssimSrc;

typedef struct VqFssimDsp {
    /* dst[x] = 11-tap Gaussian of src[x .. x + 10], x < n */
    void (*hconv)(const float *src, unsigned n, float *dst);
    /* dst[x] = 11-tap Gaussian of rows[0][x] .. rows[10][x], x < n */
    void (*vconv)(const float *const *rows, unsigned n, float *dst);
    /* vq_fssim_pixel of v[0..4][x] (mu_r, mu_d, rr, dd, rd), x < n */
    void (*pixels)(const float *const *v, unsigned n, VqFssimConsts k,
                   double *l, double *c, double *s);
    const char *name;
} VqFssimDsp;

/* Variants a test can ask for. */
enum { VQ_FSSIM_DSP_C = 0, VQ_FSSIM_DSP_AVX2 = 1, VQ_FSSIM_DSP_BEST = 99 };

/* Fills dsp with the best variant this CPU runs, at most `level`; returns
 * the level it chose. */
int vq_fssim_dsp_init(VqFssimDsp *dsp, int level);

/* Sample row y of src as float, w values. */
void vq_fssim_load_row(const VqFssimSrc *src, unsigned y, float *dst);

/* The map of one scale: rows[y] for y < h - 10 (w, h >= 11). */
size_t vq_fssim_map_scratch(unsigned w);
void vq_fssim_cpu_map(const VqFssimDsp *dsp, const VqFssimSrc *ref,
                      const VqFssimSrc *dis, VqFssimConsts k, void *scratch,
                      VqFssimRow *rows);

/* float_ssim's decimation by `factor` into an ow x oh float image. */
size_t vq_fssim_box_scratch(unsigned w, unsigned ow);
void vq_fssim_cpu_box(const VqFssimSrc *src, unsigned factor, float *dst,
                      unsigned ow, unsigned oh, void *scratch);

/* The sums of an extractor's record (map rows in order), as libvmaf forms
 * the means: (float)(sum / (double)(w * h)). */
void vq_fssim_means(const VqFssimRow *rows, unsigned mw, unsigned mh,
                    float *ssim, float *l, float *c, float *s);

#endif
