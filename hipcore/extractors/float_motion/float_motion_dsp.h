/*
 * float_motion, the CPU path's DSP functions and their variants (see
 * hipcore/cpu.h): filled once at extractor init by vq_float_motion_dsp_init;
 * every variant gives the C function's bits (tests/checkasm).
 */
#ifndef VQHIP_EXTRACTORS_FLOAT_MOTION_DSP_H
#define VQHIP_EXTRACTORS_FLOAT_MOTION_DSP_H

#include <stddef.h>

#include "../../../kernels/float_motion/float_motion.h"
#include "base/cpu.h"

/* libvmaf's convolution of a w x h plane (w, h >= VQ_FMOTION_MIN_SIDE)
 * with the taps t, mirrored at the edges, into dst: per row the vertical
 * pass into vrow (w + t->n - 1 floats: the row with its mirrored values
 * on each side), then the horizontal pass. */
#define decl_fmotion_blur_fn(name)                                            \
    void(name)(const float *src, unsigned w, unsigned h,                      \
               const VqFloatMotionTaps *t, float *vrow, float *dst)
typedef decl_fmotion_blur_fn(*vq_float_motion_blur_fn);

/* rows[y] = the sum of vq_float_motion_term(a, b) over row y of two w x h
 * planes, left to right, for y < h. */
#define decl_fmotion_sad_rows_fn(name)                                        \
    void(name)(const float *a, const float *b, unsigned w, unsigned h,        \
               float *rows)
typedef decl_fmotion_sad_rows_fn(*vq_float_motion_sad_rows_fn);

typedef struct VqFloatMotionDsp {
    vq_float_motion_blur_fn blur;
    vq_float_motion_sad_rows_fn sad_rows;
} VqFloatMotionDsp;

void vq_float_motion_dsp_init(VqFloatMotionDsp *c, unsigned flags);

decl_fmotion_blur_fn(vq_float_motion_blur_c);
decl_fmotion_sad_rows_fn(vq_float_motion_sad_rows_c);
#if VQ_ARCH_X86_64
decl_fmotion_blur_fn(vq_float_motion_blur_avx2);
decl_fmotion_blur_fn(vq_float_motion_blur_avx512);
#endif

#endif
