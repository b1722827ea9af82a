/*
 * Integer ADM, the CPU path's DSP functions and their variants (see
 * hipcore/cpu.h): the row passes of the DWT, the denominator, decoupling,
 * CSF and contrast masking of a row (the arithmetic of
 * kernels/adm/adm_fixed.h), filled once at extractor init by
 * vq_adm_dsp_init; every variant is bit-identical to the C function
 * (tests/checkasm). Columns are [j0, j1) or [c0, c1) of int32 rows.
 */
#ifndef VQHIP_EXTRACTORS_ADM_DSP_H
#define VQHIP_EXTRACTORS_ADM_DSP_H

#include <stdint.h>

#include "base/cpu.h"

/* Scale 0, vertical pass over n columns of rows r0..r3 (samples of bpc
 * bits: 8-bit ones for _u8, 9..16-bit ones for _u16): lo[x], and hi[x]
 * when with_hi, int16 values (vq_adm_dwt0_vlo, _vhi). */
#define decl_adm_dwt_vert0_u8_fn(name)                                        \
    void(name)(const uint8_t *r0, const uint8_t *r1, const uint8_t *r2,       \
               const uint8_t *r3, int n, int bpc, int with_hi, int16_t *lo,   \
               int16_t *hi)
typedef decl_adm_dwt_vert0_u8_fn(*vq_adm_dwt_vert0_u8_fn);

#define decl_adm_dwt_vert0_u16_fn(name)                                       \
    void(name)(const uint16_t *r0, const uint16_t *r1, const uint16_t *r2,    \
               const uint16_t *r3, int n, int bpc, int with_hi, int16_t *lo,  \
               int16_t *hi)
typedef decl_adm_dwt_vert0_u16_fn(*vq_adm_dwt_vert0_u16_fn);

/* Scales 1..3, vertical pass over n columns of int32 rows (any values),
 * rounding shift `shift`: lo[x], and hi[x] when with_hi. */
#define decl_adm_dwt_vert_fn(name)                                            \
    void(name)(const int32_t *r0, const int32_t *r1, const int32_t *r2,       \
               const int32_t *r3, int n, int shift, int with_hi, int32_t *lo, \
               int32_t *hi)
typedef decl_adm_dwt_vert_fn(*vq_adm_dwt_vert_fn);

/* Scale 0, horizontal pass (low or high filter) of a vertical row t:
 * out[j] for j0 <= j < j1 from t[2j - 1 .. 2j + 2]. */
#define decl_adm_dwt_horiz0_fn(name)                                          \
    void(name)(const int16_t *t, int j0, int j1, int32_t *out)
typedef decl_adm_dwt_horiz0_fn(*vq_adm_dwt_horiz0_fn);

/* Scales 1..3, the same with int32 values and a rounding shift. */
#define decl_adm_dwt_horiz_fn(name)                                           \
    void(name)(const int32_t *t, int j0, int j1, int shift, int32_t *out)
typedef decl_adm_dwt_horiz_fn(*vq_adm_dwt_horiz_fn);

/* The denominator's row sum of one reference band (vq_adm_den0; scales
 * 1..3: vq_adm_den123 with the scale's shifts), modulo 2^64. */
#define decl_adm_den0_fn(name) uint64_t(name)(const int32_t *o, int j0, int j1)
typedef decl_adm_den0_fn(*vq_adm_den0_fn);

#define decl_adm_den123_fn(name)                                              \
    uint64_t(name)(const int32_t *o, int j0, int j1, int sq_shift,            \
                   uint64_t sq_add, int cub_shift, uint64_t cub_add)
typedef decl_adm_den123_fn(*vq_adm_den123_fn);

/* What decoupling needs besides the bands. */
typedef struct VqAdmDecouple {
    const int32_t *recip; /* vq_adm_recip(|d|) with d's sign, at -32768..32768 */
    double egl;
    int32_t egl_int;
    float cos1_sq;
} VqAdmDecouple;

/* Decoupling of the columns [c0, c1) of the reference (o) and distorted
 * (t) bands h, v, d: the restored coefficients xr[b] and the additive ones
 * xa[b] (scale 0: vq_adm_k0, vq_adm_restore0 with int16 band values;
 * scales 1..3: vq_adm_k123, vq_adm_restore123). */
#define decl_adm_decouple_fn(name)                                            \
    void(name)(const int32_t *const o[3], const int32_t *const t[3], int c0,  \
               int c1, const VqAdmDecouple *p, int32_t *const xr[3],          \
               int32_t *const xa[3])
typedef decl_adm_decouple_fn(*vq_adm_decouple_fn);

/* CSF of the additive (xa, "n") and restored (xr, "m") coefficients with
 * the weights rf, summed over the bands: the masking filter's input
 * f (|csf| / 30) and its centre tap ctr (|csf| / 15), int32 sums. */
#define decl_adm_csf_fn(name)                                                 \
    void(name)(const int32_t *const xa[3], const int32_t *const xr[3],        \
               const uint32_t rf[3], int c0, int c1, int32_t *f_n,            \
               int32_t *f_m, int32_t *ctr_n, int32_t *ctr_m)
typedef decl_adm_csf_fn(*vq_adm_csf_fn);

/* The contrast-masked cubes of one band row x with its thresholds thr,
 * summed modulo 2^64 (vq_adm_cm0 for band `band`; vq_adm_cm123). */
#define decl_adm_cm0_fn(name)                                                 \
    uint64_t(name)(const int32_t *x, const int32_t *thr, uint32_t rf,         \
                   int band, int cub_shift, int64_t cub_add, int j0, int j1)
typedef decl_adm_cm0_fn(*vq_adm_cm0_fn);

#define decl_adm_cm123_fn(name)                                               \
    uint64_t(name)(const int32_t *x, const int32_t *thr, uint32_t rf,         \
                   int cub_shift, int64_t cub_add, int j0, int j1)
typedef decl_adm_cm123_fn(*vq_adm_cm123_fn);

typedef struct VqAdmDsp {
    vq_adm_dwt_vert0_u8_fn dwt_vert0_u8;
    vq_adm_dwt_vert0_u16_fn dwt_vert0_u16;
    vq_adm_dwt_vert_fn dwt_vert;
    vq_adm_dwt_horiz0_fn dwt_horiz0_lo, dwt_horiz0_hi;
    vq_adm_dwt_horiz_fn dwt_horiz_lo, dwt_horiz_hi;
    vq_adm_den0_fn den0;
    vq_adm_den123_fn den123;
    vq_adm_decouple_fn decouple0, decouple123;
    vq_adm_csf_fn csf0, csf123;
    vq_adm_cm0_fn cm0;
    vq_adm_cm123_fn cm123;
} VqAdmDsp;

void vq_adm_dsp_init(VqAdmDsp *c, unsigned flags);

#define VQ_ADM_DSP_DECL(isa)                                                  \
    decl_adm_dwt_vert0_u8_fn(vq_adm_dwt_vert0_u8_##isa);                      \
    decl_adm_dwt_vert0_u16_fn(vq_adm_dwt_vert0_u16_##isa);                    \
    decl_adm_dwt_vert_fn(vq_adm_dwt_vert_##isa);                              \
    decl_adm_dwt_horiz0_fn(vq_adm_dwt_horiz0_lo_##isa);                       \
    decl_adm_dwt_horiz0_fn(vq_adm_dwt_horiz0_hi_##isa);                       \
    decl_adm_dwt_horiz_fn(vq_adm_dwt_horiz_lo_##isa);                         \
    decl_adm_dwt_horiz_fn(vq_adm_dwt_horiz_hi_##isa);                        \
    decl_adm_den0_fn(vq_adm_den0_##isa);                                      \
    decl_adm_den123_fn(vq_adm_den123_##isa);                                  \
    decl_adm_decouple_fn(vq_adm_decouple0_##isa);                             \
    decl_adm_decouple_fn(vq_adm_decouple123_##isa);                           \
    decl_adm_csf_fn(vq_adm_csf0_##isa);                                       \
    decl_adm_csf_fn(vq_adm_csf123_##isa);                                     \
    decl_adm_cm0_fn(vq_adm_cm0_##isa);                                        \
    decl_adm_cm123_fn(vq_adm_cm123_##isa)

VQ_ADM_DSP_DECL(c);
#if VQ_ARCH_X86_64
VQ_ADM_DSP_DECL(avx2);
VQ_ADM_DSP_DECL(avx512);
#endif

#endif
