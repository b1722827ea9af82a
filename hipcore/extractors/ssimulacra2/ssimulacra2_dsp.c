/*
 * ssimulacra2's CPU path for x86 CPUs with AVX2 and FMA: the same source,
 * compiled for them, so the same operations on every value (fmaf becomes
 * one instruction, the row loops run eight floats wide). Chosen at init
 * when the CPU has both (vq_ssimulacra2_cpu_choose).
 *
 * Only the included source is compiled for AVX2+FMA (with the shared
 * helpers it includes first, so that they inline); the selection below
 * runs on any x86 CPU. The condition is VQ_S2_HAVE_AVX2's.
 */
#if defined(__x86_64__) && defined(__GNUC__)
#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx2,fma"))), \
                             apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("avx2,fma")
#endif
#define S2_CPU_VARIANT
#define S2_CPU_FRAME vq_ssimulacra2_cpu_frame_avx2
#define S2_CPU_PART vq_ssimulacra2_cpu_part_avx2
#include "ssimulacra2_cpu.c"
#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif
#endif

#include "base/cpu.h"
#include "ssimulacra2_priv.h"

static int always(void)
{
    return 1;
}

#if VQ_S2_HAVE_AVX2
/* The project's AVX2 flag (VQHIP_CPU_MASK restricts it), and FMA. */
static int has_avx2_fma(void)
{
    __builtin_cpu_init();
    return (vq_cpu_flags() & VQ_CPU_AVX2) && __builtin_cpu_supports("fma");
}
#endif

const VqSsimulacra2CpuVariant vq_ssimulacra2_cpu_variants[] = {
    { "c", vq_ssimulacra2_cpu_frame_c, always, vq_ssimulacra2_cpu_part_c },
#if VQ_S2_HAVE_AVX2
    { "avx2+fma", vq_ssimulacra2_cpu_frame_avx2, has_avx2_fma,
      vq_ssimulacra2_cpu_part_avx2 },
#endif
    { NULL, NULL, NULL, NULL },
};

static const VqSsimulacra2CpuVariant *best_variant(void)
{
    const VqSsimulacra2CpuVariant *best = &vq_ssimulacra2_cpu_variants[0];
    for (const VqSsimulacra2CpuVariant *v = vq_ssimulacra2_cpu_variants; v->name; v++)
        if (v->supported())
            best = v;
    return best;
}

VqSsimulacra2CpuFrame vq_ssimulacra2_cpu_choose(const char **name)
{
    const VqSsimulacra2CpuVariant *best = best_variant();
    if (name)
        *name = best->name;
    return best->frame;
}

VqSsimulacra2CpuPart vq_ssimulacra2_cpu_choose_part(void)
{
    return best_variant()->part;
}
