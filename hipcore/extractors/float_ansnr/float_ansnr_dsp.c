/*
 * float_ansnr: the row functions of the CPU path (float_ansnr_dsp.h), the
 * helpers of kernels/float_ansnr/float_ansnr.h per column, compiled once
 * per instruction set for the vectorizer. Each output is one chain of IEEE
 * operations in the helpers' order (no FMA contraction in this build), so
 * every variant equals the C function bit for bit.
 */
#include "../../../kernels/float_ansnr/float_ansnr.h"
#include "float_ansnr_dsp.h"

VQ_DSP_TEMPLATE void conv_u8(float *restrict r, const uint8_t *restrict src,
                             float inv_scale, unsigned w)
{
    for (unsigned x = 0; x < w; x++)
        r[x + 2] = vq_ansnr_sample(src[x], inv_scale);
}

VQ_DSP_TEMPLATE void conv_u16(float *restrict r, const uint16_t *restrict src,
                              float inv_scale, unsigned w)
{
    for (unsigned x = 0; x < w; x++)
        r[x + 2] = vq_ansnr_sample(src[x], inv_scale);
}

VQ_DSP_TEMPLATE void ref3(float *restrict out, const float *const r[3],
                          unsigned w)
{
    const float *restrict r0 = r[0], *restrict r1 = r[1], *restrict r2 = r[2];
    for (unsigned j = 0; j < w; j++)
        out[j] = vq_ansnr_ref3(r0, r1, r2, j);
}

VQ_DSP_TEMPLATE void dis5(float *restrict out, const float *const r[5],
                          unsigned w)
{
    const float *restrict r0 = r[0], *restrict r1 = r[1], *restrict r2 = r[2],
                          *restrict r3 = r[3], *restrict r4 = r[4];
    for (unsigned j = 0; j < w; j++)
        out[j] = vq_ansnr_dis5(r0, r1, r2, r3, r4, j);
}

#define FANSNR_VARIANT(isa, TARGET)                                           \
    TARGET decl_fansnr_conv_u8_fn(vq_float_ansnr_conv_u8_##isa)                    \
    {                                                                         \
        conv_u8(r, src, inv_scale, w);                                        \
    }                                                                         \
    TARGET decl_fansnr_conv_u16_fn(vq_float_ansnr_conv_u16_##isa)                  \
    {                                                                         \
        conv_u16(r, src, inv_scale, w);                                       \
    }                                                                         \
    TARGET decl_fansnr_ref3_fn(vq_float_ansnr_ref3_##isa)                          \
    {                                                                         \
        ref3(out, r, w);                                                      \
    }                                                                         \
    TARGET decl_fansnr_dis5_fn(vq_float_ansnr_dis5_##isa)                          \
    {                                                                         \
        dis5(out, r, w);                                                      \
    }

FANSNR_VARIANT(c, )
#if VQ_ARCH_X86_64
FANSNR_VARIANT(avx2, VQ_TARGET_AVX2)
FANSNR_VARIANT(avx512, VQ_TARGET_AVX512)
#endif

#define FANSNR_SET(c, isa)                                                    \
    do {                                                                      \
        (c)->conv_u8 = vq_float_ansnr_conv_u8_##isa;                               \
        (c)->conv_u16 = vq_float_ansnr_conv_u16_##isa;                             \
        (c)->ref3 = vq_float_ansnr_ref3_##isa;                                     \
        (c)->dis5 = vq_float_ansnr_dis5_##isa;                                     \
    } while (0)

void vq_float_ansnr_dsp_init(VqFloatAnsnrDsp *c, unsigned flags)
{
    FANSNR_SET(c, c);
#if VQ_ARCH_X86_64
    if (flags & VQ_CPU_AVX2)
        FANSNR_SET(c, avx2);
    if (flags & VQ_CPU_AVX512)
        FANSNR_SET(c, avx512);
#else
    (void)flags;
#endif
}
