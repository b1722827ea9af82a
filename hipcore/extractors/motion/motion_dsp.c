/*
 * Integer motion: the C row passes of the CPU path (motion_dsp.h), on the
 * shared helpers of kernels/motion/motion.h, written for the vectorizer
 * (restrict rows, 16-bit operands), and the table's init. The x86
 * variants are hand-written (motion_simd_tmpl.h). Integer arithmetic
 * throughout: every variant equals the C function.
 */
#include "../../../kernels/motion/motion.h"
#include "motion_dsp.h"

VQ_DSP_TEMPLATE void vblur_u8(int16_t *restrict hi, int16_t *restrict lo,
                              const uint8_t *const p[5],
                              const uint8_t *const c[5], size_t w)
{
    const uint8_t *restrict p0 = p[0], *restrict p1 = p[1], *restrict p2 = p[2],
                            *restrict p3 = p[3], *restrict p4 = p[4];
    const uint8_t *restrict c0 = c[0], *restrict c1 = c[1], *restrict c2 = c[2],
                            *restrict c3 = c[3], *restrict c4 = c[4];
    for (size_t j = 0; j < w; j++) {
        int32_t v = vq_motion_vblur32((int16_t)(p0[j] - c0[j]),
                                      (int16_t)(p1[j] - c1[j]),
                                      (int16_t)(p2[j] - c2[j]),
                                      (int16_t)(p3[j] - c3[j]),
                                      (int16_t)(p4[j] - c4[j]), 8);
        hi[j] = vq_motion_hi(v);
        lo[j] = vq_motion_lo(v);
    }
}

VQ_DSP_TEMPLATE void vblur_u16(int16_t *restrict hi, int16_t *restrict lo,
                               const uint16_t *const p[5],
                               const uint16_t *const c[5], size_t w,
                               unsigned bpc)
{
    const uint16_t *restrict p0 = p[0], *restrict p1 = p[1],
                             *restrict p2 = p[2], *restrict p3 = p[3],
                             *restrict p4 = p[4];
    const uint16_t *restrict c0 = c[0], *restrict c1 = c[1],
                             *restrict c2 = c[2], *restrict c3 = c[3],
                             *restrict c4 = c[4];
    if (bpc <= 12) {
        for (size_t j = 0; j < w; j++) {
            int32_t v = vq_motion_vblur32((int16_t)(p0[j] - c0[j]),
                                          (int16_t)(p1[j] - c1[j]),
                                          (int16_t)(p2[j] - c2[j]),
                                          (int16_t)(p3[j] - c3[j]),
                                          (int16_t)(p4[j] - c4[j]), (int)bpc);
            hi[j] = vq_motion_hi(v);
            lo[j] = vq_motion_lo(v);
        }
        return;
    }
    for (size_t j = 0; j < w; j++) {
        int32_t v = vq_motion_vblur16(p0[j] - c0[j], p1[j] - c1[j],
                                      p2[j] - c2[j], p3[j] - c3[j],
                                      p4[j] - c4[j]);
        hi[j] = vq_motion_hi(v);
        lo[j] = vq_motion_lo(v);
    }
}

VQ_DSP_TEMPLATE uint32_t hblur_sad(const int16_t *restrict hi,
                                   const int16_t *restrict lo, size_t w)
{
    uint32_t sum = 0;
    for (size_t j = 0; j < w; j++)
        sum += vq_motion_hblur_abs(hi[j], hi[j + 1], hi[j + 2], hi[j + 3],
                                   hi[j + 4], lo[j], lo[j + 1], lo[j + 2],
                                   lo[j + 3], lo[j + 4]);
    return sum;
}

#define MOTION_VARIANT(isa, TARGET)                                           \
    TARGET decl_motion_vblur_u8_fn(vq_motion_vblur_u8_##isa)                  \
    {                                                                         \
        vblur_u8(hi, lo, p, c, w);                                            \
    }                                                                         \
    TARGET decl_motion_vblur_u16_fn(vq_motion_vblur_u16_##isa)                \
    {                                                                         \
        vblur_u16(hi, lo, p, c, w, bpc);                                      \
    }                                                                         \
    TARGET decl_motion_hblur_sad_fn(vq_motion_hblur_sad_##isa)                \
    {                                                                         \
        return hblur_sad(hi, lo, w);                                          \
    }

MOTION_VARIANT(c, )

void vq_motion_dsp_init(VqMotionDsp *c, unsigned flags)
{
    c->vblur_u8 = vq_motion_vblur_u8_c;
    c->vblur_u16 = vq_motion_vblur_u16_c;
    c->hblur_sad = vq_motion_hblur_sad_c;
#if VQ_ARCH_X86_64
    if (flags & VQ_CPU_AVX2) {
        c->vblur_u8 = vq_motion_vblur_u8_avx2;
        c->vblur_u16 = vq_motion_vblur_u16_avx2;
        c->hblur_sad = vq_motion_hblur_sad_avx2;
    }
    if (flags & VQ_CPU_AVX512) {
        c->vblur_u8 = vq_motion_vblur_u8_avx512;
        c->vblur_u16 = vq_motion_vblur_u16_avx512;
        c->hblur_sad = vq_motion_hblur_sad_avx512;
    }
#else
    (void)flags;
#endif
}
