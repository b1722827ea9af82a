/*
 * ciede's DSP function (ciede_dsp.h). Per row, the stages of the Lab conversion run over all
 * 2w samples (the reference's, then the distorted's) one stage at a time,
 * and so do the stages of CIEDE2000 over the row's w samples: the samples
 * are independent, so the processor overlaps them, and the Lab stages
 * vectorize where the ISA has gathers for their tables. Same helpers, same
 * values as vq_ciede_pixel() (what the GPU computes).
 *
 * The variants compile the same source for AVX2 and AVX-512 (gathers let
 * the Lab stages vectorize); IEEE operations give the same bits in any
 * vector width, and -ffp-contract=off keeps multiplies and adds apart.
 */
#include "ciede_dsp.h"

size_t vq_ciede_row_scratch(unsigned w)
{
    return 6 * 2 * (size_t)w * sizeof(double) + (size_t)w * sizeof(VqCiedeWork);
}

static inline unsigned px(const uint8_t *row, unsigned bps, unsigned x)
{
    return bps == 1 ? row[x] : ((const uint16_t *)(const void *)row)[x];
}

VQ_DSP_TEMPLATE void row_body(const uint8_t *const row[6], unsigned bps,
                              unsigned w, unsigned ss_x, unsigned cw,
                              unsigned bpc, void *scratch, VqCiedeAcc *a)
{
    const unsigned n = 2 * w;
    double *c = scratch; /* c[k * n + i]: channel k of sample i */
    double *m = c + 3 * (size_t)n;
    VqCiedeWork *wk = (VqCiedeWork *)(void *)(m + 3 * (size_t)n);
    for (unsigned s = 0; s < 2; s++) {
        const uint8_t *r0 = row[3 * s], *r1 = row[3 * s + 1], *r2 = row[3 * s + 2];
        for (unsigned x = 0; x < w; x++) {
            unsigned cx = x >> ss_x < cw ? x >> ss_x : cw - 1;
            double rgb[3];
            vq_ciede_rgb(px(r0, bps, x), px(r1, bps, cx), px(r2, bps, cx), bpc,
                         rgb);
            c[s * w + x] = rgb[0];
            c[n + s * w + x] = rgb[1];
            c[2 * n + s * w + x] = rgb[2];
        }
    }
    for (unsigned i = 0; i < 3 * n; i++)
        c[i] = vq_ciede_linear(c[i]);
    for (unsigned i = 0; i < n; i++) {
        double xyz[3];
        vq_ciede_xyz(c[i], c[n + i], c[2 * n + i], xyz);
        m[i] = xyz[0];
        m[n + i] = xyz[1];
        m[2 * n + i] = xyz[2];
    }
    for (unsigned i = 0; i < 3 * n; i++)
        m[i] = vq_ciede_lab_map(m[i]);
    for (unsigned x = 0; x < w; x++)
        vq_ciede_chroma(vq_ciede_lab_of(m[x], m[n + x], m[2 * n + x]),
                        vq_ciede_lab_of(m[w + x], m[n + w + x], m[2 * n + w + x]),
                        &wk[x]);
    for (unsigned x = 0; x < w; x++)
        vq_ciede_hues(&wk[x]);
    for (unsigned x = 0; x < w; x++)
        vq_ciede_angles(&wk[x]);
    for (unsigned x = 0; x < w; x++)
        vq_ciede_rotation(&wk[x]);
    for (unsigned x = 0; x < w; x++) {
        uint32_t sig;
        unsigned e = vq_ciede_bin(vq_ciede_final(&wk[x]), &sig);
        if (e < 255)
            a->bin[e] += sig;
        else if (sig)
            a->n_nan++;
        else
            a->n_inf++;
    }
}

#define CIEDE_VARIANT(isa, TARGET)                                            \
    TARGET decl_ciede_row_fn(vq_ciede_row_##isa)                              \
    {                                                                         \
        row_body(row, bps, w, ss_x, cw, bpc, scratch, acc);                   \
    }

CIEDE_VARIANT(c, )
#if VQ_ARCH_X86_64
CIEDE_VARIANT(avx2, VQ_TARGET_AVX2)
CIEDE_VARIANT(avx512, VQ_TARGET_AVX512)
#endif

void vq_ciede_dsp_init(VqCiedeDsp *c, unsigned flags)
{
    c->row = vq_ciede_row_c;
#if VQ_ARCH_X86_64
    if (flags & VQ_CPU_AVX2)
        c->row = vq_ciede_row_avx2;
    if (flags & VQ_CPU_AVX512)
        c->row = vq_ciede_row_avx512;
#else
    (void)flags;
#endif
}
