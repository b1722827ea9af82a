/*
 * Integer motion, the CPU path's DSP functions and their variants (see
 * hipcore/cpu.h): filled once at extractor init by vq_motion_dsp_init;
 * every variant is bit-identical to the C function (tests/checkasm).
 */
#ifndef VQHIP_EXTRACTORS_MOTION_DSP_H
#define VQHIP_EXTRACTORS_MOTION_DSP_H

#include <stddef.h>
#include <stdint.h>

#include "base/cpu.h"

/* The vertical pass of one row (kernels/motion/motion.h) on the difference
 * p[k] - c[k] of the five rows around it in the previous and the current
 * frame: each result v goes to hi[j] and lo[j] as its 16-bit pieces
 * (vq_motion_hi, vq_motion_lo), j < w. 8-bit samples, or 16-bit ones of
 * bpc bits (9..16). */
#define decl_motion_vblur_u8_fn(name)                                         \
    void(name)(int16_t *hi, int16_t *lo, const uint8_t *const p[5],           \
               const uint8_t *const c[5], size_t w)
typedef decl_motion_vblur_u8_fn(*vq_motion_vblur_u8_fn);

#define decl_motion_vblur_u16_fn(name)                                        \
    void(name)(int16_t *hi, int16_t *lo, const uint16_t *const p[5],          \
               const uint16_t *const c[5], size_t w, unsigned bpc)
typedef decl_motion_vblur_u16_fn(*vq_motion_vblur_u16_fn);

/* The horizontal pass over a row of pieces hi[0 .. w + 4), lo[0 .. w + 4)
 * (the row with its two mirrored taps each side): the sum of the w
 * absolute values (w <= 16384, so it fits 32 bits). The SIMD variants
 * read hi[w + 4] and lo[w + 4] too (and multiply them by 0). */
#define decl_motion_hblur_sad_fn(name)                                        \
    uint32_t(name)(const int16_t *hi, const int16_t *lo, size_t w)
typedef decl_motion_hblur_sad_fn(*vq_motion_hblur_sad_fn);

typedef struct VqMotionDsp {
    vq_motion_vblur_u8_fn vblur_u8;
    vq_motion_vblur_u16_fn vblur_u16;
    vq_motion_hblur_sad_fn hblur_sad;
} VqMotionDsp;

void vq_motion_dsp_init(VqMotionDsp *c, unsigned flags);

decl_motion_vblur_u8_fn(vq_motion_vblur_u8_c);
decl_motion_vblur_u16_fn(vq_motion_vblur_u16_c);
decl_motion_hblur_sad_fn(vq_motion_hblur_sad_c);
#if VQ_ARCH_X86_64
decl_motion_vblur_u8_fn(vq_motion_vblur_u8_avx2);
decl_motion_vblur_u16_fn(vq_motion_vblur_u16_avx2);
decl_motion_hblur_sad_fn(vq_motion_hblur_sad_avx2);
decl_motion_vblur_u8_fn(vq_motion_vblur_u8_avx512);
decl_motion_vblur_u16_fn(vq_motion_vblur_u16_avx512);
decl_motion_hblur_sad_fn(vq_motion_hblur_sad_avx512);
#endif

#endif
