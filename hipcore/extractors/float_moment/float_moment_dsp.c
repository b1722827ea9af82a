/*
 * float_moment: the plane sums of the CPU path (float_moment_dsp.h),
 * written for the vectorizer (32-bit row sums where they cannot overflow:
 * 16384 * 65535 < 2^32, and 16384 * 255^2 < 2^32) and compiled once per
 * instruction set. Integer sums: every variant equals the C function.
 */
#include "../../../kernels/float_moment/float_moment.h"
#include "float_moment_dsp.h"

VQ_DSP_TEMPLATE void sums_u8(const uint8_t *p, ptrdiff_t stride, unsigned w,
                             unsigned h, uint64_t *sum, uint64_t *sq)
{
    uint64_t s = 0, q = 0;
    for (unsigned y = 0; y < h; y++) {
        const uint8_t *restrict row = p + (ptrdiff_t)y * stride;
        uint32_t rs = 0, rq = 0;
        for (unsigned x = 0; x < w; x++) {
            const uint32_t v = row[x];
            rs += v;
            rq += v * v;
        }
        s += rs;
        q += rq;
    }
    *sum = s;
    *sq = q;
}

VQ_DSP_TEMPLATE void sums_u16(const uint8_t *p, ptrdiff_t stride, unsigned w,
                              unsigned h, uint64_t *sum, uint64_t *sq)
{
    uint64_t s = 0, q = 0;
    for (unsigned y = 0; y < h; y++) {
        const uint16_t *restrict row =
            (const uint16_t *)(const void *)(p + (ptrdiff_t)y * stride);
        uint32_t rs = 0;
        for (unsigned x = 0; x < w; x++) {
            rs += row[x];
            q += vq_float_moment_sq(row[x]);
        }
        s += rs;
    }
    *sum = s;
    *sq = q;
}

#define FMOMENT_VARIANT(isa, TARGET)                                          \
    TARGET decl_fmoment_sums_fn(vq_float_moment_sums_u8_##isa)                     \
    {                                                                         \
        sums_u8(p, stride, w, h, sum, sq);                                    \
    }                                                                         \
    TARGET decl_fmoment_sums_fn(vq_float_moment_sums_u16_##isa)                    \
    {                                                                         \
        sums_u16(p, stride, w, h, sum, sq);                                   \
    }

FMOMENT_VARIANT(c, )
#if VQ_ARCH_X86_64
FMOMENT_VARIANT(avx2, VQ_TARGET_AVX2)
FMOMENT_VARIANT(avx512, VQ_TARGET_AVX512)
#endif

void vq_float_moment_dsp_init(VqFloatMomentDsp *c, unsigned flags)
{
    c->sums_u8 = vq_float_moment_sums_u8_c;
    c->sums_u16 = vq_float_moment_sums_u16_c;
#if VQ_ARCH_X86_64
    if (flags & VQ_CPU_AVX2) {
        c->sums_u8 = vq_float_moment_sums_u8_avx2;
        c->sums_u16 = vq_float_moment_sums_u16_avx2;
    }
    if (flags & VQ_CPU_AVX512) {
        c->sums_u8 = vq_float_moment_sums_u8_avx512;
        c->sums_u16 = vq_float_moment_sums_u16_avx512;
    }
#else
    (void)flags;
#endif
}
