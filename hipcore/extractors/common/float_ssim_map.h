/*
 * The CPU path of libvmaf's float SSIM ("iqa" code), shared by float_ssim
 * and float_ms_ssim: one scale's map (float_ssim_map.c, on the row functions of
 * float_ssim_dsp.h) and float_ssim's box decimation. Definitions in
 * kernels/float_ssim/float_ssim.h.
 */
#ifndef VQHIP_EXTRACTORS_FLOAT_SSIM_MAP_H
#define VQHIP_EXTRACTORS_FLOAT_SSIM_MAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../../../kernels/float_ssim/float_ssim.h"
#include "../float_ssim/float_ssim_dsp.h"

/* A source image: an integer plane (bpc 8..16; libvmaf's picture_copy
 * divides samples by 2^(bpc-8) in float) or float samples (bpc 0). */
typedef struct VqFloatSsimSrc {
    const uint8_t *data;
    ptrdiff_t stride; /* bytes */
    unsigned w, h;
    unsigned bpc;
} VqFloatSsimSrc;

/* Sample row y of src as float, w values. */
void vq_float_ssim_load_row(const VqFloatSsimSrc *src, unsigned y, float *dst);

/* The map of one scale: rows[y] for y < h - 10 (w, h >= 11). */
size_t vq_float_ssim_map_scratch(unsigned w);
void vq_float_ssim_cpu_map(const VqFloatSsimDsp *dsp, const VqFloatSsimSrc *ref,
                      const VqFloatSsimSrc *dis, VqFloatSsimConsts k, void *scratch,
                      VqFloatSsimRow *rows);

/* float_ssim's decimation by `factor` into an ow x oh float image. */
size_t vq_float_ssim_box_scratch(unsigned w, unsigned ow);
void vq_float_ssim_cpu_box(const VqFloatSsimSrc *src, unsigned factor, float *dst,
                      unsigned ow, unsigned oh, void *scratch);

/* The sums of an extractor's record (map rows in order), as libvmaf forms
 * the means: (float)(sum / (double)(w * h)). */
void vq_float_ssim_means(const VqFloatSsimRow *rows, unsigned mw, unsigned mh,
                    float *ssim, float *l, float *c, float *s);

#endif
