/*
 * motion_v2, the CPU path's DSP functions and their variants (see
 * hipcore/cpu.h): filled once at extractor init by vq_motion_v2_dsp_init;
 * every variant is bit-identical to the C function (tests/checkasm).
 */
#ifndef VQHIP_EXTRACTORS_MOTION_V2_DSP_H
#define VQHIP_EXTRACTORS_MOTION_V2_DSP_H

#include <stddef.h>
#include <stdint.h>

#include "base/cpu.h"

/* The vertical pass of one row (kernels/motion_v2/motion_v2.h) on the
 * difference p[k] - c[k] of the five rows around it in the previous and
 * the current frame: v[j] for j < w. 8-bit samples, or 16-bit ones of bpc
 * bits (9..16). */
#define decl_motion_v2_vert_u8_fn(name)                                       \
    void(name)(int32_t *v, const uint8_t *const p[5],                         \
               const uint8_t *const c[5], size_t w)
typedef decl_motion_v2_vert_u8_fn(*vq_motion_v2_vert_u8_fn);

#define decl_motion_v2_vert_u16_fn(name)                                      \
    void(name)(int32_t *v, const uint16_t *const p[5],                        \
               const uint16_t *const c[5], size_t w, unsigned bpc)
typedef decl_motion_v2_vert_u16_fn(*vq_motion_v2_vert_u16_fn);

/* The horizontal pass over a row of vertical results v[0 .. w + 4) (the
 * row with its two mirrored taps each side, |v| <= 65535): the sum of the
 * w absolute values (w <= 65536, so it fits 32 bits). */
#define decl_motion_v2_hor_sad_fn(name)                                       \
    uint32_t(name)(const int32_t *v, size_t w)
typedef decl_motion_v2_hor_sad_fn(*vq_motion_v2_hor_sad_fn);

typedef struct VqMotionV2Dsp {
    vq_motion_v2_vert_u8_fn vert_u8;
    vq_motion_v2_vert_u16_fn vert_u16;
    vq_motion_v2_hor_sad_fn hor_sad;
} VqMotionV2Dsp;

void vq_motion_v2_dsp_init(VqMotionV2Dsp *c, unsigned flags);

decl_motion_v2_vert_u8_fn(vq_motion_v2_vert_u8_c);
decl_motion_v2_vert_u16_fn(vq_motion_v2_vert_u16_c);
decl_motion_v2_hor_sad_fn(vq_motion_v2_hor_sad_c);
#if VQ_ARCH_X86_64
decl_motion_v2_vert_u8_fn(vq_motion_v2_vert_u8_avx2);
decl_motion_v2_vert_u16_fn(vq_motion_v2_vert_u16_avx2);
decl_motion_v2_hor_sad_fn(vq_motion_v2_hor_sad_avx2);
decl_motion_v2_vert_u8_fn(vq_motion_v2_vert_u8_avx512);
decl_motion_v2_vert_u16_fn(vq_motion_v2_vert_u16_avx512);
decl_motion_v2_hor_sad_fn(vq_motion_v2_hor_sad_avx512);
#endif

#endif
