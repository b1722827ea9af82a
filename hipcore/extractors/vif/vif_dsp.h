/*
 * Integer VIF, the CPU path's DSP functions and their variants (see
 * hipcore/cpu.h). vq_vif_dsp_init fills a table once, at extractor init:
 * the C functions first, then those of each instruction set the flags
 * allow. Every variant is bit-identical to the C function (tests/checkasm).
 */
#ifndef VQHIP_EXTRACTORS_VIF_DSP_H
#define VQHIP_EXTRACTORS_VIF_DSP_H

#include "base/cpu.h"
#include "vif_cpu.h"

/* One row of the statistic at scale s: rr[k], rd[k] (k < 2 * half + 1) are
 * the mirrored source rows around it, 8-bit when u8 (scale 0 only), else
 * 16-bit. Leaves the row's sigmas in t->s1, s2, s12 (w values); uses
 * t->v and t->sum. */
#define decl_vif_stat_row_fn(name)                                            \
    void(name)(unsigned s, bool u8, const void *const *rr,                    \
               const void *const *rd, unsigned w, VqVifVRound rnd,            \
               VqVifWork *t)
typedef decl_vif_stat_row_fn(*vq_vif_stat_row_fn);

/* One row of scale s + 1 from scale s (s < 3): rr, rd are the rows around
 * an even row of scale s, filtered with scale s + 1's taps; out_r, out_d
 * get the w / 2 values at even columns. Uses t->d_ref, t->d_dis. */
#define decl_vif_down_row_fn(name)                                            \
    void(name)(unsigned s, bool u8, const void *const *rr,                    \
               const void *const *rd, unsigned w, VqVifVRound rnd,            \
               VqVifWork *t, uint16_t *out_r, uint16_t *out_d)
typedef decl_vif_down_row_fn(*vq_vif_down_row_fn);

/* The log-domain terms (vq_vif_log_terms) of m pixels, added to
 * acc->num_log and acc->den_log; idx is scratch for 3 * m int32. */
#define decl_vif_log_terms_fn(name)                                           \
    void(name)(const VqVifParams *p, unsigned m, const int32_t *l1,           \
               const int32_t *l2, const int32_t *l12, int32_t *idx,           \
               VqVifScaleAcc *acc)
typedef decl_vif_log_terms_fn(*vq_vif_log_terms_fn);

/* The plain terms of n pixels' sigmas: each pixel that is not in the log
 * domain (vq_vif_is_log) adds its clamped sigma2_sq to acc->num_non_log
 * and 1 to acc->den_non_log; the sigmas of the others are copied, in
 * order, to l1, l2, l12 (room for n + VQ_VIF_GATHER_SLACK values each).
 * Returns how many were copied. */
#define decl_vif_plain_terms_fn(name)                                         \
    unsigned(name)(const int32_t *s1, const int32_t *s2, const int32_t *s12,  \
                   unsigned n, int32_t *l1, int32_t *l2, int32_t *l12,        \
                   VqVifScaleAcc *acc)
typedef decl_vif_plain_terms_fn(*vq_vif_plain_terms_fn);
#define VQ_VIF_GATHER_SLACK 16

typedef struct VqVifDsp {
    vq_vif_stat_row_fn stat_row;
    vq_vif_down_row_fn down_row;
    vq_vif_plain_terms_fn plain_terms;
    vq_vif_log_terms_fn log_terms;
} VqVifDsp;

void vq_vif_dsp_init(VqVifDsp *c, unsigned flags);

decl_vif_stat_row_fn(vq_vif_stat_row_c);
decl_vif_down_row_fn(vq_vif_down_row_c);
decl_vif_plain_terms_fn(vq_vif_plain_terms_c);
decl_vif_log_terms_fn(vq_vif_log_terms_c);
#if VQ_ARCH_X86_64
decl_vif_stat_row_fn(vq_vif_stat_row_avx2);
decl_vif_down_row_fn(vq_vif_down_row_avx2);
decl_vif_plain_terms_fn(vq_vif_plain_terms_avx2);
decl_vif_log_terms_fn(vq_vif_log_terms_avx2);
decl_vif_stat_row_fn(vq_vif_stat_row_avx512);
decl_vif_down_row_fn(vq_vif_down_row_avx512);
decl_vif_plain_terms_fn(vq_vif_plain_terms_avx512);
decl_vif_log_terms_fn(vq_vif_log_terms_avx512);
#endif

#endif
