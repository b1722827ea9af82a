/*
 * float_ansnr, the CPU path's DSP functions and their variants (see
 * hipcore/cpu.h): filled once at extractor init by vq_float_ansnr_dsp_init;
 * every variant gives the C function's bits (tests/checkasm).
 */
#ifndef VQHIP_EXTRACTORS_FLOAT_ANSNR_DSP_H
#define VQHIP_EXTRACTORS_FLOAT_ANSNR_DSP_H

#include <stddef.h>
#include <stdint.h>

#include "base/cpu.h"

/* r[x + 2] = vq_ansnr_sample(src[x], inv_scale) for x < w (the padding
 * columns are the caller's). 8-bit or 16-bit samples. */
#define decl_fansnr_conv_u8_fn(name)                                          \
    void(name)(float *r, const uint8_t *src, float inv_scale, unsigned w)
typedef decl_fansnr_conv_u8_fn(*vq_float_ansnr_conv_u8_fn);
#define decl_fansnr_conv_u16_fn(name)                                         \
    void(name)(float *r, const uint16_t *src, float inv_scale, unsigned w)
typedef decl_fansnr_conv_u16_fn(*vq_float_ansnr_conv_u16_fn);

/* out[j] = vq_ansnr_ref3(r[0], r[1], r[2], j), and out[j] =
 * vq_ansnr_dis5(r[0], .., r[4], j), for j < w (rows padded by two columns
 * each side). */
#define decl_fansnr_ref3_fn(name)                                             \
    void(name)(float *out, const float *const r[3], unsigned w)
typedef decl_fansnr_ref3_fn(*vq_float_ansnr_ref3_fn);
#define decl_fansnr_dis5_fn(name)                                             \
    void(name)(float *out, const float *const r[5], unsigned w)
typedef decl_fansnr_dis5_fn(*vq_float_ansnr_dis5_fn);

typedef struct VqFloatAnsnrDsp {
    vq_float_ansnr_conv_u8_fn conv_u8;
    vq_float_ansnr_conv_u16_fn conv_u16;
    vq_float_ansnr_ref3_fn ref3;
    vq_float_ansnr_dis5_fn dis5;
} VqFloatAnsnrDsp;

void vq_float_ansnr_dsp_init(VqFloatAnsnrDsp *c, unsigned flags);

#define VQ_FANSNR_DECLS(isa)                                                  \
    decl_fansnr_conv_u8_fn(vq_float_ansnr_conv_u8_##isa);                          \
    decl_fansnr_conv_u16_fn(vq_float_ansnr_conv_u16_##isa);                        \
    decl_fansnr_ref3_fn(vq_float_ansnr_ref3_##isa);                                \
    decl_fansnr_dis5_fn(vq_float_ansnr_dis5_##isa)
VQ_FANSNR_DECLS(c);
#if VQ_ARCH_X86_64
VQ_FANSNR_DECLS(avx2);
VQ_FANSNR_DECLS(avx512);
#endif

#endif
