/*
 * CPU features for the SIMD variants of the CPU path. The flags are
 * detected once; each extractor's DSP table (hipcore/extractors/<name>/
 * <name>_dsp.h) is filled from them once, at extractor init, and its hot
 * loops call through the table. Every variant is bit-identical to the C
 * code it replaces (tests/checkasm), so results never depend on the CPU.
 *
 * The C code is built for the architecture's baseline (SSE2 on x86-64), so
 * flags 0 means "the C path".
 */
#ifndef VQHIP_CPU_H
#define VQHIP_CPU_H

#include <stddef.h>

enum {
    VQ_CPU_AVX2 = 1u << 0,   /* AVX2 (with OS support for the YMM state) */
    VQ_CPU_AVX512 = 1u << 1, /* AVX-512 F, BW, CD, DQ and VL (x86-64-v4) */
};
#define VQ_CPU_N_FLAGS 2
#define VQ_CPU_ALL ((1u << VQ_CPU_N_FLAGS) - 1)

/* The flags DSP tables are filled from: what the CPU has, restricted by
 * VQHIP_CPU_MASK (read once) and by vq_cpu_set_mask. */
unsigned vq_cpu_flags(void);

/* What the CPU has, unrestricted. */
unsigned vq_cpu_flags_detected(void);

/* Restricts vq_cpu_flags to mask (VQ_CPU_ALL: no restriction) for tables
 * filled from now on; for tests, which call it before opening contexts. */
void vq_cpu_set_mask(unsigned mask);

/* "avx2", "avx512" for one flag; NULL for an unknown one. */
const char *vq_cpu_flag_name(unsigned flag);

/* The flags as words ("avx2 avx512", or "none"), into buf. */
const char *vq_cpu_flags_string(unsigned flags, char *buf, size_t size);

/* The value of VQHIP_CPU_MASK when it could not be read (the C path is
 * used then), else NULL. */
const char *vq_cpu_mask_env_error(void);

/* The template a DSP function's variants are instantiated from (one
 * function per instruction set, each calling the template) is inlined into
 * each of them, and so compiled for its instruction set. */
#if defined(__GNUC__) || defined(__clang__)
#define VQ_DSP_TEMPLATE static inline __attribute__((always_inline))
#else
#define VQ_DSP_TEMPLATE static inline
#endif

/* Function attributes of the variants: the C code of a variant is compiled
 * for its instruction set by marking the function (and inlining what it
 * calls), so the rest of the build stays at the baseline. */
#if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__)
#define VQ_ARCH_X86_64 1
#define VQ_TARGET_AVX2 __attribute__((target("avx2")))
#define VQ_TARGET_AVX512                                                      \
    __attribute__((target("avx2,avx512f,avx512bw,avx512cd,avx512dq,avx512vl")))
#else
#define VQ_ARCH_X86_64 0
#endif

#endif
