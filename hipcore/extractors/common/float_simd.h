/*
 * Vector helpers for the CPU paths of the float extractors (float_vif,
 * float_adm, float_motion), on GCC/clang vector extensions.
 *
 * Every vector operation here is an element-wise IEEE operation (add,
 * subtract, multiply, divide, compare, select, conversion with rounding to
 * nearest), so a vector of results equals the scalar results bit for bit;
 * the build forbids contraction into FMA. The DSP functions written with
 * them (float_vif_dsp.c, float_adm_dsp.c) are compiled for each instruction
 * set as hipcore/cpu.h describes.
 */
#ifndef VQHIP_EXTRACTORS_FLOAT_SIMD_H
#define VQHIP_EXTRACTORS_FLOAT_SIMD_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

typedef float vq_vf8 __attribute__((vector_size(32)));
typedef int32_t vq_vi8 __attribute__((vector_size(32)));
typedef uint32_t vq_vu8 __attribute__((vector_size(32)));
typedef float vq_vf4 __attribute__((vector_size(16)));
typedef int32_t vq_vi4 __attribute__((vector_size(16)));
typedef uint32_t vq_vu4 __attribute__((vector_size(16)));
typedef double vq_vd4 __attribute__((vector_size(32)));

/* Unaligned loads and stores, and blends by a comparison mask (all ones
 * where the condition holds), written as macros so that no function takes
 * or returns a vector by value (whose ABI depends on the target). */
#define VQ_VLOAD(v, p) memcpy(&(v), (p), sizeof(v))
#define VQ_VSTORE(p, v) memcpy((p), &(v), sizeof(v))
#define VQ_VSEL(T, mask, a, b)                                                 \
    ((T)(((mask) & (__typeof__(mask))(a)) | (~(mask) & (__typeof__(mask))(b))))

#endif
