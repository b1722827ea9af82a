/*
 * float_adm, the CPU path's DSP functions and their variants (see
 * hipcore/cpu.h): filled once at extractor init by vq_float_adm_dsp_init; every
 * variant is bit-identical to the C function (tests/checkasm), and the C
 * functions to plain loops over the shared helpers of
 * kernels/float_adm/float_adm.h (tests/float/float_unit).
 */
#ifndef VQHIP_EXTRACTORS_FLOAT_ADM_DSP_H
#define VQHIP_EXTRACTORS_FLOAT_ADM_DSP_H

#include "../../../kernels/float_adm/float_adm.h"
#include "base/cpu.h"

/* Decouple and csf of columns [j0, j1) of a band row (vq_float_adm_decouple,
 * vq_float_adm_csf_f): ref[b], dis[b] are bands h, v, d; out[0..2] get the csf
 * values of a, out[3..5] their filter values, out[6..8] the csf values of
 * r, out[9..11] theirs; rf: the three bands' weights, tab: the reciprocal
 * table. */
#define decl_fadm_csf_row_fn(name)                                            \
    void(name)(const VqFloatAdmDims *d, const float *rf, const uint16_t *tab,   \
               float *const ref[3], float *const dis[3],                     \
               float *const out[12], int j0, int j1)
typedef decl_fadm_csf_row_fn(*vq_float_adm_csf_row_fn);

/* The masked terms of columns [j0, j1) of a band row, 1 <= j0, j1 + 1 <= w
 * (no mirrored neighbours): u, m, l are the csf rows (as csf_row writes
 * them) above, at and below; term[0..2] get the num terms, term[3..5] the
 * aim terms (vq_float_adm_thr_band, vq_float_adm_cm_term), indexed by column. */
#define decl_fadm_cm_row_fn(name)                                             \
    void(name)(const VqFloatAdmDims *d, float *const *u, float *const *m,        \
               float *const *l, int j0, int j1, float *const term[6])
typedef decl_fadm_cm_row_fn(*vq_float_adm_cm_row_fn);

/* The den terms of columns [j0, j1) (vq_float_adm_den_term) into term[0..2]. */
#define decl_fadm_den_row_fn(name)                                            \
    void(name)(const VqFloatAdmDims *d, const float *rf, float *const ref[3],    \
               int j0, int j1, float *const term[3])
typedef decl_fadm_den_row_fn(*vq_float_adm_den_row_fn);

typedef struct VqFloatAdmDsp {
    vq_float_adm_csf_row_fn csf_row;
    vq_float_adm_cm_row_fn cm_row;
    vq_float_adm_den_row_fn den_row;
} VqFloatAdmDsp;

void vq_float_adm_dsp_init(VqFloatAdmDsp *c, unsigned flags);

decl_fadm_csf_row_fn(vq_float_adm_csf_row_c);
decl_fadm_cm_row_fn(vq_float_adm_cm_row_c);
decl_fadm_den_row_fn(vq_float_adm_den_row_c);
#if VQ_ARCH_X86_64
decl_fadm_csf_row_fn(vq_float_adm_csf_row_avx2);
decl_fadm_cm_row_fn(vq_float_adm_cm_row_avx2);
decl_fadm_den_row_fn(vq_float_adm_den_row_avx2);
decl_fadm_csf_row_fn(vq_float_adm_csf_row_avx512);
decl_fadm_cm_row_fn(vq_float_adm_cm_row_avx512);
decl_fadm_den_row_fn(vq_float_adm_den_row_avx512);
#endif

#endif
