/*
 * SpEED: the row functions of the CPU path (speed_dsp.h), written for the
 * vectorizer and compiled once per instruction set. Every element is one
 * chain of IEEE operations in the order of the scalar code (the build has
 * no FMA contraction), so each variant equals the C function bit for bit.
 */
#include "speed_dsp.h"

#define N_WIN 25 /* VQ_SPEED_N: a 5x5 window */
#define B_WIN 5

VQ_DSP_TEMPLATE void vsum_u8(float *restrict row, const uint8_t *restrict c,
                             const uint8_t *restrict p, float f, size_t w)
{
    if (!p) {
        for (size_t x = 0; x < w; x++)
            row[x] += f * ((float)c[x] + -128.0f);
        return;
    }
    for (size_t x = 0; x < w; x++)
        row[x] += f * (((float)p[x] + -128.0f) - ((float)c[x] + -128.0f));
}

VQ_DSP_TEMPLATE void vsum_u16(float *restrict row, const uint16_t *restrict c,
                              const uint16_t *restrict p, float f, float sc,
                              size_t w)
{
    if (!p) {
        for (size_t x = 0; x < w; x++)
            row[x] += f * ((float)c[x] / sc + -128.0f);
        return;
    }
    for (size_t x = 0; x < w; x++)
        row[x] += f * (((float)p[x] / sc + -128.0f) -
                       ((float)c[x] / sc + -128.0f));
}

/* Row a of the triangle in blocks of 8 entries: the blocks that hold an
 * entry b <= a (entries up to 31, d[25..31] = 0). A block is one AVX-512
 * vector, two AVX2 or four SSE2 ones. */
VQ_DSP_TEMPLATE void cov_row(double *restrict acc, const float *restrict x,
                             ptrdiff_t stride, const float *restrict means,
                             size_t n)
{
    double d[VQ_SPEED_COV_STRIDE];
    for (int k = N_WIN; k < VQ_SPEED_COV_STRIDE; k++)
        d[k] = 0;
    for (size_t j = 0; j < n; j++) {
        const float *at = x + j;
        for (int r = 0; r < B_WIN; r++)
            for (int q = 0; q < B_WIN; q++)
                d[r * B_WIN + q] = (double)at[r * stride + q] -
                                   (double)means[r * B_WIN + q];
        for (int a = 0; a < N_WIN; a++) {
            double *restrict out = acc + a * VQ_SPEED_COV_STRIDE;
            const double da = d[a];
            for (int blk = 0; blk <= a / 8; blk++)
                for (int t = 0; t < 8; t++)
                    out[8 * blk + t] += da * d[8 * blk + t];
        }
    }
}

#define SPEED_VARIANT(isa, TARGET)                                            \
    TARGET decl_speed_vsum_u8_fn(vq_speed_vsum_u8_##isa)                      \
    {                                                                         \
        vsum_u8(row, c, p, f, w);                                             \
    }                                                                         \
    TARGET decl_speed_vsum_u16_fn(vq_speed_vsum_u16_##isa)                    \
    {                                                                         \
        vsum_u16(row, c, p, f, sc, w);                                        \
    }                                                                         \
    TARGET decl_speed_cov_row_fn(vq_speed_cov_row_##isa)                      \
    {                                                                         \
        cov_row(acc, x, stride, means, n);                                    \
    }

SPEED_VARIANT(c, )
#if VQ_ARCH_X86_64
SPEED_VARIANT(avx2, VQ_TARGET_AVX2)
SPEED_VARIANT(avx512, VQ_TARGET_AVX512)
#endif

void vq_speed_dsp_init(VqSpeedDsp *c, unsigned flags)
{
    c->vsum_u8 = vq_speed_vsum_u8_c;
    c->vsum_u16 = vq_speed_vsum_u16_c;
    c->cov_row = vq_speed_cov_row_c;
#if VQ_ARCH_X86_64
    if (flags & VQ_CPU_AVX2) {
        c->vsum_u8 = vq_speed_vsum_u8_avx2;
        c->vsum_u16 = vq_speed_vsum_u16_avx2;
        c->cov_row = vq_speed_cov_row_avx2;
    }
    if (flags & VQ_CPU_AVX512) {
        c->vsum_u8 = vq_speed_vsum_u8_avx512;
        c->vsum_u16 = vq_speed_vsum_u16_avx512;
        c->cov_row = vq_speed_cov_row_avx512;
    }
#else
    (void)flags;
#endif
}
