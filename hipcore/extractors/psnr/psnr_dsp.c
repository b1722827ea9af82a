/*
 * Integer PSNR: the sums of squared errors (psnr_dsp.h), written for the
 * vectorizer. Each square is exact in 32 bits (at most 65535^2 < 2^32);
 * 8-bit rows sum in int32 (16384 * 255^2 < 2^31), 16-bit ones in 64 bits.
 * Integer sums in any order: every variant equals the C function.
 */
#include "psnr_dsp.h"

VQ_DSP_TEMPLATE uint64_t sse_u8(const uint8_t *ref, ptrdiff_t ref_stride,
                                const uint8_t *dis, ptrdiff_t dis_stride,
                                unsigned w, unsigned h)
{
    uint64_t sse = 0;
    for (unsigned y = 0; y < h; y++) {
        const uint8_t *restrict a = ref + (ptrdiff_t)y * ref_stride;
        const uint8_t *restrict b = dis + (ptrdiff_t)y * dis_stride;
        int32_t row = 0;
        for (unsigned x = 0; x < w; x++) {
            int16_t e = (int16_t)(a[x] - b[x]);
            row += e * e;
        }
        sse += (uint32_t)row;
    }
    return sse;
}

VQ_DSP_TEMPLATE uint64_t sse_u16(const uint8_t *ref, ptrdiff_t ref_stride,
                                 const uint8_t *dis, ptrdiff_t dis_stride,
                                 unsigned w, unsigned h)
{
    uint64_t sse = 0;
    for (unsigned y = 0; y < h; y++) {
        const uint16_t *restrict a =
            (const uint16_t *)(const void *)(ref + (ptrdiff_t)y * ref_stride);
        const uint16_t *restrict b =
            (const uint16_t *)(const void *)(dis + (ptrdiff_t)y * dis_stride);
        uint64_t row = 0;
        for (unsigned x = 0; x < w; x++) {
            /* e * e modulo 2^32 is the square itself */
            uint32_t e = (uint32_t)a[x] - (uint32_t)b[x];
            row += e * e;
        }
        sse += row;
    }
    return sse;
}

#define PSNR_VARIANT(isa, TARGET)                                             \
    TARGET decl_psnr_sse_fn(vq_psnr_sse_u8_##isa)                             \
    {                                                                         \
        return sse_u8(ref, ref_stride, dis, dis_stride, w, h);                \
    }                                                                         \
    TARGET decl_psnr_sse_fn(vq_psnr_sse_u16_##isa)                            \
    {                                                                         \
        return sse_u16(ref, ref_stride, dis, dis_stride, w, h);               \
    }

PSNR_VARIANT(c, )
#if VQ_ARCH_X86_64
PSNR_VARIANT(avx2, VQ_TARGET_AVX2)
PSNR_VARIANT(avx512, VQ_TARGET_AVX512)
#endif

void vq_psnr_dsp_init(VqPsnrDsp *c, unsigned flags)
{
    c->sse_u8 = vq_psnr_sse_u8_c;
    c->sse_u16 = vq_psnr_sse_u16_c;
#if VQ_ARCH_X86_64
    if (flags & VQ_CPU_AVX2) {
        c->sse_u8 = vq_psnr_sse_u8_avx2;
        c->sse_u16 = vq_psnr_sse_u16_avx2;
    }
    if (flags & VQ_CPU_AVX512) {
        c->sse_u8 = vq_psnr_sse_u8_avx512;
        c->sse_u16 = vq_psnr_sse_u16_avx512;
    }
#else
    (void)flags;
#endif
}
