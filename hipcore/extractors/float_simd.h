/*
 * Vector helpers for the CPU paths of the float extractors (float_vif,
 * float_adm, float_motion), on GCC/clang vector extensions.
 *
 * Every vector operation here is an element-wise IEEE operation (add,
 * subtract, multiply, divide, compare, select, conversion with rounding to
 * nearest), so a vector of results equals the scalar results bit for bit;
 * the build forbids contraction into FMA. The row functions that use them
 * are compiled twice, for the x86-64 baseline and for AVX2, and picked once
 * (per extractor, at init) through a function table.
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

/* x86-64: the AVX2 variants and the run-time check; elsewhere only the
 * baseline variants are built. */
#if defined(__GNUC__) && defined(__x86_64__)
#define VQ_FSIMD_AVX2 1
#define VQ_FSIMD_TARGET_AVX2 __attribute__((target("avx2")))
static inline bool vq_fsimd_have_avx2(void)
{
    return __builtin_cpu_supports("avx2");
}
#else
#define VQ_FSIMD_AVX2 0
static inline bool vq_fsimd_have_avx2(void)
{
    return false;
}
#endif

/* Tests set this to run the baseline variants on a CPU that has AVX2;
 * it is read when an extractor picks its variants (at init). */
extern bool vq_fsimd_baseline_only;

#endif
