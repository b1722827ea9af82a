/*
 * Integer ADM, the CPU path's DSP functions and their variants (see
 * hipcore/cpu.h): the row passes of the DWT (kernels/adm/adm_fixed.h),
 * filled once at extractor init by vq_adm_dsp_init; every variant is
 * bit-identical to the C function (tests/checkasm).
 */
#ifndef VQHIP_EXTRACTORS_ADM_DSP_H
#define VQHIP_EXTRACTORS_ADM_DSP_H

#include <stdint.h>

#include "../../cpu.h"

/* Scale 0, vertical pass over n columns of rows r0..r3 (samples of bpc
 * bits: 8-bit ones for _u8, 9..16-bit ones for _u16): lo[x], and hi[x]
 * when with_hi. */
#define decl_adm_dwt_vert0_u8_fn(name)                                        \
    void(name)(const uint8_t *r0, const uint8_t *r1, const uint8_t *r2,       \
               const uint8_t *r3, int n, int bpc, int with_hi, int32_t *lo,   \
               int32_t *hi)
typedef decl_adm_dwt_vert0_u8_fn(*vq_adm_dwt_vert0_u8_fn);

#define decl_adm_dwt_vert0_u16_fn(name)                                       \
    void(name)(const uint16_t *r0, const uint16_t *r1, const uint16_t *r2,    \
               const uint16_t *r3, int n, int bpc, int with_hi, int32_t *lo,  \
               int32_t *hi)
typedef decl_adm_dwt_vert0_u16_fn(*vq_adm_dwt_vert0_u16_fn);

/* Scales 1..3, vertical pass over n columns of int32 rows (any values),
 * rounding shift `shift`: lo[x], and hi[x] when with_hi. */
#define decl_adm_dwt_vert_fn(name)                                            \
    void(name)(const int32_t *r0, const int32_t *r1, const int32_t *r2,       \
               const int32_t *r3, int n, int shift, int with_hi, int32_t *lo, \
               int32_t *hi)
typedef decl_adm_dwt_vert_fn(*vq_adm_dwt_vert_fn);

/* Scale 0, horizontal pass (low or high filter) of a vertical row t of
 * int16 values: out[j] for j0 <= j < j1 from t[2j - 1 .. 2j + 2]. */
#define decl_adm_dwt_horiz0_fn(name)                                          \
    void(name)(const int32_t *t, int j0, int j1, int32_t *out)
typedef decl_adm_dwt_horiz0_fn(*vq_adm_dwt_horiz0_fn);

/* Scales 1..3, the same with int32 values and a rounding shift. */
#define decl_adm_dwt_horiz_fn(name)                                           \
    void(name)(const int32_t *t, int j0, int j1, int shift, int32_t *out)
typedef decl_adm_dwt_horiz_fn(*vq_adm_dwt_horiz_fn);

typedef struct VqAdmDsp {
    vq_adm_dwt_vert0_u8_fn dwt_vert0_u8;
    vq_adm_dwt_vert0_u16_fn dwt_vert0_u16;
    vq_adm_dwt_vert_fn dwt_vert;
    vq_adm_dwt_horiz0_fn dwt_horiz0_lo, dwt_horiz0_hi;
    vq_adm_dwt_horiz_fn dwt_horiz_lo, dwt_horiz_hi;
} VqAdmDsp;

void vq_adm_dsp_init(VqAdmDsp *c, unsigned flags);

#define VQ_ADM_DSP_DECL(isa)                                                  \
    decl_adm_dwt_vert0_u8_fn(vq_adm_dwt_vert0_u8_##isa);                      \
    decl_adm_dwt_vert0_u16_fn(vq_adm_dwt_vert0_u16_##isa);                    \
    decl_adm_dwt_vert_fn(vq_adm_dwt_vert_##isa);                              \
    decl_adm_dwt_horiz0_fn(vq_adm_dwt_horiz0_lo_##isa);                       \
    decl_adm_dwt_horiz0_fn(vq_adm_dwt_horiz0_hi_##isa);                       \
    decl_adm_dwt_horiz_fn(vq_adm_dwt_horiz_lo_##isa);                         \
    decl_adm_dwt_horiz_fn(vq_adm_dwt_horiz_hi_##isa)

VQ_ADM_DSP_DECL(c);
#if VQ_ARCH_X86_64
VQ_ADM_DSP_DECL(avx2);
VQ_ADM_DSP_DECL(avx512);
#endif

#endif
