/*
 * CAMBI's DSP functions (cambi_dsp.h), written for the vectorizer: integer
 * operations, and in terms one int->float conversion and one float
 * multiply per element (vq_cambi_term) and a compare-select, which every
 * instruction set rounds alike. Every variant equals the C function.
 */
#include "cambi_dsp.h"
#include "../../../kernels/cambi/cambi.h"

VQ_DSP_TEMPLATE void terms(float *restrict c, const uint16_t *restrict h0,
                           const uint16_t *restrict h1,
                           const uint16_t *restrict h2, unsigned n,
                           int weight, const float *restrict recip)
{
    for (unsigned k = 0; k < n; k++) {
        unsigned p0 = h0[k], p1 = h1[k], p2 = h2[k];
        unsigned pm = p1 > p2 ? p1 : p2;
        float t = vq_cambi_term(weight, p0, pm, recip[p0 + pm]);
        c[k] = t > c[k] ? t : c[k];
    }
}

VQ_DSP_TEMPLATE void hmode(uint16_t *restrict b, const uint16_t *restrict r,
                           unsigned w)
{
    b[0] = r[0];
    for (unsigned x = 1; x + 1 < w; x++)
        b[x] = vq_cambi_mode3(r[x - 1], r[x], r[x + 1]);
    b[w - 1] = r[w - 1];
}

VQ_DSP_TEMPLATE void vmode(uint16_t *restrict o, const uint16_t *restrict b0,
                           const uint16_t *restrict b1,
                           const uint16_t *restrict b2, unsigned w)
{
    for (unsigned x = 0; x < w; x++)
        o[x] = vq_cambi_mode3(b0[x], b1[x], b2[x]);
}

/* 7 sums of at most 7 fit a byte */
VQ_DSP_TEMPLATE void mask_row(uint8_t *restrict m, const uint8_t *restrict v,
                              unsigned w, unsigned index)
{
    for (size_t x = 0; x < w; x++) {
        uint8_t sum = (uint8_t)(v[x] + v[x + 1] + v[x + 2] + v[x + 3] +
                                v[x + 4] + v[x + 5] + v[x + 6]);
        m[x] = sum > index;
    }
}

VQ_DSP_TEMPLATE void add_run(uint16_t *row, int a, int b, int pad, int w,
                             int sign)
{
    int lo = a - pad > 0 ? a - pad : 0;
    int hi = b + pad < w - 1 ? b + pad : w - 1;
    for (int x = lo; x <= hi; x++) {
        int l = x - pad > a ? x - pad : a;
        int r = x + pad < b ? x + pad : b;
        row[x] = (uint16_t)(row[x] + sign * (r - l + 1));
    }
}

#define CAMBI_TERMS(isa, TARGET)                                              \
    TARGET decl_cambi_terms_fn(vq_cambi_terms_##isa)                          \
    {                                                                         \
        terms(c, h0, h1, h2, n, weight, recip);                               \
    }
#define CAMBI_VARIANT(isa, TARGET)                                            \
    TARGET decl_cambi_hmode_fn(vq_cambi_hmode_##isa)                          \
    {                                                                         \
        hmode(b, r, w);                                                       \
    }                                                                         \
    TARGET decl_cambi_vmode_fn(vq_cambi_vmode_##isa)                          \
    {                                                                         \
        vmode(o, b0, b1, b2, w);                                              \
    }                                                                         \
    TARGET decl_cambi_mask_row_fn(vq_cambi_mask_row_##isa)                    \
    {                                                                         \
        mask_row(m, v, w, index);                                             \
    }                                                                         \
    TARGET decl_cambi_add_run_fn(vq_cambi_add_run_##isa)                      \
    {                                                                         \
        add_run(row, a, b, pad, w, sign);                                     \
    }

/* terms: AVX-512's wider gathers measured slower than AVX2's here, so
 * AVX2 serves both */
CAMBI_TERMS(c, )
CAMBI_VARIANT(c, )
#if VQ_ARCH_X86_64
CAMBI_TERMS(avx2, VQ_TARGET_AVX2)
CAMBI_VARIANT(avx2, VQ_TARGET_AVX2)
CAMBI_VARIANT(avx512, VQ_TARGET_AVX512)
#endif

#define CAMBI_SET(c, isa)                                                     \
    do {                                                                      \
        (c)->hmode = vq_cambi_hmode_##isa;                                    \
        (c)->vmode = vq_cambi_vmode_##isa;                                    \
        (c)->mask_row = vq_cambi_mask_row_##isa;                              \
        (c)->add_run = vq_cambi_add_run_##isa;                                \
    } while (0)

void vq_cambi_dsp_init(VqCambiDsp *c, unsigned flags)
{
    c->terms = vq_cambi_terms_c;
    CAMBI_SET(c, c);
#if VQ_ARCH_X86_64
    if (flags & VQ_CPU_AVX2) {
        c->terms = vq_cambi_terms_avx2;
        CAMBI_SET(c, avx2);
    }
    if (flags & VQ_CPU_AVX512)
        CAMBI_SET(c, avx512);
#else
    (void)flags;
#endif
}
