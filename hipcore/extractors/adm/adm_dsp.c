/*
 * Integer ADM: the C row passes of the DWT (adm_dsp.h) on the shared
 * helpers of kernels/adm/adm_fixed.h, and the table's init. The x86
 * variants of every function are hand-written (adm_simd_tmpl.h). Integer
 * arithmetic throughout: every variant equals the C function.
 */
#include "../../../kernels/adm/adm.h"
#include "adm_dsp.h"

#define VERT0(name, T)                                                        \
    VQ_DSP_TEMPLATE void name(const T *restrict r0, const T *restrict r1,     \
                              const T *restrict r2, const T *restrict r3,     \
                              int n, int bpc, int with_hi,                    \
                              int16_t *restrict lo, int16_t *restrict hi)     \
    {                                                                         \
        if (with_hi) {                                                        \
            for (int x = 0; x < n; x++) {                                     \
                lo[x] = vq_adm_dwt0_vlo(r0[x], r1[x], r2[x], r3[x], bpc);     \
                hi[x] = vq_adm_dwt0_vhi(r0[x], r1[x], r2[x], r3[x], bpc);     \
            }                                                                 \
        } else {                                                              \
            for (int x = 0; x < n; x++)                                       \
                lo[x] = vq_adm_dwt0_vlo(r0[x], r1[x], r2[x], r3[x], bpc);     \
        }                                                                     \
    }
VERT0(vert0_u8, uint8_t)
VERT0(vert0_u16, uint16_t)
#undef VERT0

VQ_DSP_TEMPLATE void vert(const int32_t *restrict r0,
                          const int32_t *restrict r1,
                          const int32_t *restrict r2,
                          const int32_t *restrict r3, int n, int shift,
                          int with_hi, int32_t *restrict lo,
                          int32_t *restrict hi)
{
    for (int x = 0; x < n; x++)
        lo[x] = vq_adm_dwt_lo(r0[x], r1[x], r2[x], r3[x], shift);
    if (with_hi)
        for (int x = 0; x < n; x++)
            hi[x] = vq_adm_dwt_hi(r0[x], r1[x], r2[x], r3[x], shift);
}

VQ_DSP_TEMPLATE void horiz0_lo(const int16_t *restrict t, int j0, int j1,
                               int32_t *restrict out)
{
    for (int j = j0; j < j1; j++)
        out[j] = vq_adm_dwt0_hlo(t[2 * j - 1], t[2 * j], t[2 * j + 1],
                                 t[2 * j + 2]);
}

VQ_DSP_TEMPLATE void horiz0_hi(const int16_t *restrict t, int j0, int j1,
                               int32_t *restrict out)
{
    for (int j = j0; j < j1; j++)
        out[j] = vq_adm_dwt0_hhi(t[2 * j - 1], t[2 * j], t[2 * j + 1],
                                 t[2 * j + 2]);
}

VQ_DSP_TEMPLATE void horiz_lo(const int32_t *restrict t, int j0, int j1,
                              int shift, int32_t *restrict out)
{
    for (int j = j0; j < j1; j++)
        out[j] = vq_adm_dwt_lo(t[2 * j - 1], t[2 * j], t[2 * j + 1],
                               t[2 * j + 2], shift);
}

VQ_DSP_TEMPLATE void horiz_hi(const int32_t *restrict t, int j0, int j1,
                              int shift, int32_t *restrict out)
{
    for (int j = j0; j < j1; j++)
        out[j] = vq_adm_dwt_hi(t[2 * j - 1], t[2 * j], t[2 * j + 1],
                               t[2 * j + 2], shift);
}

decl_adm_dwt_vert0_u8_fn(vq_adm_dwt_vert0_u8_c)
{
    vert0_u8(r0, r1, r2, r3, n, bpc, with_hi, lo, hi);
}

decl_adm_dwt_vert0_u16_fn(vq_adm_dwt_vert0_u16_c)
{
    vert0_u16(r0, r1, r2, r3, n, bpc, with_hi, lo, hi);
}

decl_adm_dwt_horiz0_fn(vq_adm_dwt_horiz0_lo_c)
{
    horiz0_lo(t, j0, j1, out);
}

decl_adm_dwt_horiz0_fn(vq_adm_dwt_horiz0_hi_c)
{
    horiz0_hi(t, j0, j1, out);
}

decl_adm_dwt_vert_fn(vq_adm_dwt_vert_c)
{
    vert(r0, r1, r2, r3, n, shift, with_hi, lo, hi);
}

decl_adm_dwt_horiz_fn(vq_adm_dwt_horiz_lo_c)
{
    horiz_lo(t, j0, j1, shift, out);
}

decl_adm_dwt_horiz_fn(vq_adm_dwt_horiz_hi_c)
{
    horiz_hi(t, j0, j1, shift, out);
}

#define ADM_SET(c, isa)                                                       \
    do {                                                                      \
        (c)->dwt_vert0_u8 = vq_adm_dwt_vert0_u8_##isa;                        \
        (c)->dwt_vert0_u16 = vq_adm_dwt_vert0_u16_##isa;                      \
        (c)->dwt_vert = vq_adm_dwt_vert_##isa;                                \
        (c)->dwt_horiz0_lo = vq_adm_dwt_horiz0_lo_##isa;                      \
        (c)->dwt_horiz0_hi = vq_adm_dwt_horiz0_hi_##isa;                      \
        (c)->dwt_horiz_lo = vq_adm_dwt_horiz_lo_##isa;                        \
        (c)->dwt_horiz_hi = vq_adm_dwt_horiz_hi_##isa;                        \
        (c)->den0 = vq_adm_den0_##isa;                                        \
        (c)->den123 = vq_adm_den123_##isa;                                    \
        (c)->decouple0 = vq_adm_decouple0_##isa;                              \
        (c)->decouple123 = vq_adm_decouple123_##isa;                          \
        (c)->csf0 = vq_adm_csf0_##isa;                                        \
        (c)->csf123 = vq_adm_csf123_##isa;                                    \
        (c)->cm0 = vq_adm_cm0_##isa;                                          \
        (c)->cm123 = vq_adm_cm123_##isa;                                      \
    } while (0)

void vq_adm_dsp_init(VqAdmDsp *c, unsigned flags)
{
    ADM_SET(c, c);
#if VQ_ARCH_X86_64
    if (flags & VQ_CPU_AVX2)
        ADM_SET(c, avx2);
    if (flags & VQ_CPU_AVX512)
        ADM_SET(c, avx512);
#else
    (void)flags;
#endif
}
