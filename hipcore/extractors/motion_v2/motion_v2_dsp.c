/*
 * motion_v2: the row passes of the CPU path (motion_v2_dsp.h) on the shared
 * helpers of kernels/motion_v2/motion_v2.h, written for the vectorizer
 * (restrict rows, 32-bit operands). Integer arithmetic throughout: every
 * variant equals the C function.
 */
#include "../../../kernels/motion_v2/motion_v2.h"
#include "motion_v2_dsp.h"

/* v[j] from five rows of type T; bpc is a constant in each instance. */
#define MV2_VERT_ROWS(T, BPC)                                                 \
    do {                                                                      \
        const T *restrict p0 = p[0], *restrict p1 = p[1], *restrict p2 = p[2], \
                          *restrict p3 = p[3], *restrict p4 = p[4];           \
        const T *restrict c0 = c[0], *restrict c1 = c[1], *restrict c2 = c[2], \
                          *restrict c3 = c[3], *restrict c4 = c[4];           \
        for (size_t j = 0; j < w; j++)                                        \
            v[j] = vq_motion_v2_vert((int32_t)p0[j] - (int32_t)c0[j],         \
                                     (int32_t)p1[j] - (int32_t)c1[j],         \
                                     (int32_t)p2[j] - (int32_t)c2[j],         \
                                     (int32_t)p3[j] - (int32_t)c3[j],         \
                                     (int32_t)p4[j] - (int32_t)c4[j], BPC);   \
    } while (0)

VQ_DSP_TEMPLATE void vert_u8(int32_t *restrict v, const uint8_t *const p[5],
                             const uint8_t *const c[5], size_t w)
{
    MV2_VERT_ROWS(uint8_t, 8);
}

VQ_DSP_TEMPLATE void vert_u16(int32_t *restrict v, const uint16_t *const p[5],
                              const uint16_t *const c[5], size_t w,
                              unsigned bpc)
{
    switch (bpc) {
    case 10: MV2_VERT_ROWS(uint16_t, 10); break;
    case 12: MV2_VERT_ROWS(uint16_t, 12); break;
    case 16: MV2_VERT_ROWS(uint16_t, 16); break;
    default: MV2_VERT_ROWS(uint16_t, (int)bpc); break;
    }
}

VQ_DSP_TEMPLATE uint32_t hor_sad(const int32_t *restrict v, size_t w)
{
    uint32_t sum = 0;
    for (size_t j = 0; j < w; j++)
        sum += vq_motion_v2_hor_abs(v[j], v[j + 1], v[j + 2], v[j + 3],
                                    v[j + 4]);
    return sum;
}

#define MOTION_V2_VARIANT(isa, TARGET)                                        \
    TARGET decl_motion_v2_vert_u8_fn(vq_motion_v2_vert_u8_##isa)              \
    {                                                                         \
        vert_u8(v, p, c, w);                                                  \
    }                                                                         \
    TARGET decl_motion_v2_vert_u16_fn(vq_motion_v2_vert_u16_##isa)            \
    {                                                                         \
        vert_u16(v, p, c, w, bpc);                                            \
    }                                                                         \
    TARGET decl_motion_v2_hor_sad_fn(vq_motion_v2_hor_sad_##isa)              \
    {                                                                         \
        return hor_sad(v, w);                                                 \
    }

MOTION_V2_VARIANT(c, )
#if VQ_ARCH_X86_64
MOTION_V2_VARIANT(avx2, VQ_TARGET_AVX2)
MOTION_V2_VARIANT(avx512, VQ_TARGET_AVX512)
#endif

void vq_motion_v2_dsp_init(VqMotionV2Dsp *c, unsigned flags)
{
    c->vert_u8 = vq_motion_v2_vert_u8_c;
    c->vert_u16 = vq_motion_v2_vert_u16_c;
    c->hor_sad = vq_motion_v2_hor_sad_c;
#if VQ_ARCH_X86_64
    if (flags & VQ_CPU_AVX2) {
        c->vert_u8 = vq_motion_v2_vert_u8_avx2;
        c->vert_u16 = vq_motion_v2_vert_u16_avx2;
        c->hor_sad = vq_motion_v2_hor_sad_avx2;
    }
    if (flags & VQ_CPU_AVX512) {
        c->vert_u8 = vq_motion_v2_vert_u8_avx512;
        c->vert_u16 = vq_motion_v2_vert_u16_avx512;
        c->hor_sad = vq_motion_v2_hor_sad_avx512;
    }
#else
    (void)flags;
#endif
}
