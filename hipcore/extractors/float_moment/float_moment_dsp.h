/*
 * float_moment, the CPU path's DSP functions and their variants (see
 * hipcore/cpu.h): filled once at extractor init by vq_float_moment_dsp_init;
 * every variant gives the C function's sums (tests/checkasm).
 */
#ifndef VQHIP_EXTRACTORS_FLOAT_MOMENT_DSP_H
#define VQHIP_EXTRACTORS_FLOAT_MOMENT_DSP_H

#include <stddef.h>
#include <stdint.h>

#include "base/cpu.h"

/* Over a w x h block (w <= 16384; stride in bytes): *sum = the sum of the
 * samples, *sq = the sum of vq_float_moment_sq of each. 8-bit samples for
 * sums_u8 (their squares are exact), 16-bit ones of any depth for
 * sums_u16. Integer sums, so any order gives the same result. */
#define decl_fmoment_sums_fn(name)                                            \
    void(name)(const uint8_t *p, ptrdiff_t stride, unsigned w, unsigned h,    \
               uint64_t *sum, uint64_t *sq)
typedef decl_fmoment_sums_fn(*vq_float_moment_sums_fn);

typedef struct VqFloatMomentDsp {
    vq_float_moment_sums_fn sums_u8;
    vq_float_moment_sums_fn sums_u16;
} VqFloatMomentDsp;

void vq_float_moment_dsp_init(VqFloatMomentDsp *c, unsigned flags);

decl_fmoment_sums_fn(vq_float_moment_sums_u8_c);
decl_fmoment_sums_fn(vq_float_moment_sums_u16_c);
#if VQ_ARCH_X86_64
decl_fmoment_sums_fn(vq_float_moment_sums_u8_avx2);
decl_fmoment_sums_fn(vq_float_moment_sums_u16_avx2);
decl_fmoment_sums_fn(vq_float_moment_sums_u8_avx512);
decl_fmoment_sums_fn(vq_float_moment_sums_u16_avx512);
#endif

#endif
