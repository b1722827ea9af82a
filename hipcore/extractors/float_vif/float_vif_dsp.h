/*
 * float_vif, the CPU path's DSP functions and their variants (see
 * hipcore/cpu.h): filled once at extractor init by vq_float_vif_dsp_init; every
 * variant is bit-identical to the C function (tests/checkasm), and the C
 * functions to plain loops over the shared helpers of
 * kernels/float_vif/float_vif.h (tests/float/float_unit).
 */
#ifndef VQHIP_EXTRACTORS_FLOAT_VIF_DSP_H
#define VQHIP_EXTRACTORS_FLOAT_VIF_DSP_H

#include "../../../kernels/float_vif/float_vif.h"
#include "base/cpu.h"

/* The vertical pass of one output row of a w-wide image pair: ra[k] and
 * rb[k] are the (mirrored) source rows of tap k of f (n taps). nq == 2:
 * o[0], o[1] get the filtered ref and dis; nq == 5: also o[2..4], the
 * filtered ref^2, dis^2 and ref*dis. Each value is vq_fconv_dot's sum. */
#define decl_fvif_vert_fn(name)                                               \
    void(name)(const float *const *ra, const float *const *rb,               \
               const float *f, int n, unsigned w, int nq, float *const *o)
typedef decl_fvif_vert_fn(*vq_float_vif_vert_fn);

/* The horizontal pass: out[j] = sum_k f[k] * v[j - n / 2 + k], j < w; v
 * has its n / 2 mirrored values on both sides. */
#define decl_fvif_horiz_fn(name)                                              \
    void(name)(const float *v, unsigned w, const float *f, int n, float *out)
typedef decl_fvif_horiz_fn(*vq_float_vif_horiz_fn);

/* The statistic's terms of w pixels (vq_float_vif_terms): nsq_up is the
 * smallest float >= c->sigma_nsq, with which libvmaf's double comparison
 * s1 < sigma_nsq is done in float. */
#define decl_fvif_stats_fn(name)                                              \
    void(name)(const VqFloatVifConst *c, float nsq_up, const float *mu1,         \
               const float *mu2, const float *xx, const float *yy,           \
               const float *xy, unsigned w, float *num, float *den)
typedef decl_fvif_stats_fn(*vq_float_vif_stats_fn);

typedef struct VqFloatVifDsp {
    vq_float_vif_vert_fn vert;
    vq_float_vif_horiz_fn horiz;
    vq_float_vif_stats_fn stats;
} VqFloatVifDsp;

void vq_float_vif_dsp_init(VqFloatVifDsp *c, unsigned flags);

decl_fvif_vert_fn(vq_float_vif_vert_c);
decl_fvif_horiz_fn(vq_float_vif_horiz_c);
decl_fvif_stats_fn(vq_float_vif_stats_c);
#if VQ_ARCH_X86_64
decl_fvif_vert_fn(vq_float_vif_vert_avx2);
decl_fvif_horiz_fn(vq_float_vif_horiz_avx2);
decl_fvif_stats_fn(vq_float_vif_stats_avx2);
decl_fvif_vert_fn(vq_float_vif_vert_avx512);
decl_fvif_horiz_fn(vq_float_vif_horiz_avx512);
decl_fvif_stats_fn(vq_float_vif_stats_avx512);
#endif

#endif
