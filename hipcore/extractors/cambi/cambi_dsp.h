/*
 * CAMBI, the CPU path's DSP functions and their variants (see
 * hipcore/cpu.h): filled once at extractor init by vq_cambi_dsp_init; every
 * variant is bit-identical to the C function (tests/checkasm).
 */
#ifndef VQHIP_EXTRACTORS_CAMBI_DSP_H
#define VQHIP_EXTRACTORS_CAMBI_DSP_H

#include <stddef.h>
#include <stdint.h>

#include "base/cpu.h"

/* c[k] = max(c[k], vq_cambi_term(weight, h0[k], max(h1[k], h2[k]),
 * recip[h0[k] + max(h1[k], h2[k])])) for k < n: one contrast step over a
 * run of samples of one value. h0[k] + max(h1[k], h2[k]) indexes recip;
 * weight * h0[k] * max(h1[k], h2[k]) < 2^31. */
#define decl_cambi_terms_fn(name)                                             \
    void(name)(float *c, const uint16_t *h0, const uint16_t *h1,              \
               const uint16_t *h2, unsigned n, int weight,                    \
               const float *recip)
typedef decl_cambi_terms_fn(*vq_cambi_terms_fn);

/* b[x] = vq_cambi_mode3(r[x - 1], r[x], r[x + 1]) for 0 < x < w - 1,
 * b[0] = r[0], b[w - 1] = r[w - 1] (w >= 1). */
#define decl_cambi_hmode_fn(name)                                             \
    void(name)(uint16_t *b, const uint16_t *r, unsigned w)
typedef decl_cambi_hmode_fn(*vq_cambi_hmode_fn);

/* o[x] = vq_cambi_mode3(b0[x], b1[x], b2[x]) for x < w. */
#define decl_cambi_vmode_fn(name)                                             \
    void(name)(uint16_t *o, const uint16_t *b0, const uint16_t *b1,           \
               const uint16_t *b2, unsigned w)
typedef decl_cambi_vmode_fn(*vq_cambi_vmode_fn);

/* m[x] = (v[x] + ... + v[x + 6]) > index for x < w: v holds w + 6 column
 * sums of at most 7 each. */
#define decl_cambi_mask_row_fn(name)                                          \
    void(name)(uint8_t *m, const uint8_t *v, unsigned w, unsigned index)
typedef decl_cambi_mask_row_fn(*vq_cambi_mask_row_fn);

/* row[x] += sign * |[a, b] n [x - pad, x + pad]| (modulo 2^16) for every x
 * of [0, w) the run [a, b] reaches: a run of equal samples entering
 * (sign 1) or leaving (-1) the windows of a histogram row. 0 <= a <= b < w,
 * pad <= 63. */
#define decl_cambi_add_run_fn(name)                                           \
    void(name)(uint16_t *row, int a, int b, int pad, int w, int sign)
typedef decl_cambi_add_run_fn(*vq_cambi_add_run_fn);

typedef struct VqCambiDsp {
    vq_cambi_terms_fn terms;
    vq_cambi_hmode_fn hmode;
    vq_cambi_vmode_fn vmode;
    vq_cambi_mask_row_fn mask_row;
    vq_cambi_add_run_fn add_run;
} VqCambiDsp;

void vq_cambi_dsp_init(VqCambiDsp *c, unsigned flags);

#define VQ_CAMBI_DSP_DECL(isa)                                                \
    decl_cambi_hmode_fn(vq_cambi_hmode_##isa);                                \
    decl_cambi_vmode_fn(vq_cambi_vmode_##isa);                                \
    decl_cambi_mask_row_fn(vq_cambi_mask_row_##isa);                          \
    decl_cambi_add_run_fn(vq_cambi_add_run_##isa);

VQ_CAMBI_DSP_DECL(c)
decl_cambi_terms_fn(vq_cambi_terms_c);
#if VQ_ARCH_X86_64
VQ_CAMBI_DSP_DECL(avx2)
VQ_CAMBI_DSP_DECL(avx512)
decl_cambi_terms_fn(vq_cambi_terms_avx2); /* also with AVX-512 */
#endif

#endif
