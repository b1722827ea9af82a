/*
 * ssim, the CPU path's DSP functions and their variants (see
 * hipcore/cpu.h). vq_ssim_dsp_init fills a table once, at extractor init;
 * every variant is bit-identical to the C function (tests/checkasm): exact
 * integer sums, and the shared pixel formula's IEEE double operations.
 */
#ifndef VQHIP_EXTRACTORS_SSIM_DSP_H
#define VQHIP_EXTRACTORS_SSIM_DSP_H

#include <stdint.h>

#include "../../../kernels/ssim/ssim.h"
#include "base/cpu.h"

/* One filtered row: the horizontal sums of x, y, x^2, y^2, x y. */
typedef struct VqSsimHRow {
    uint32_t *hx, *hy;
    uint64_t *hxx, *hyy, *hxy;
} VqSsimHRow;

/* out's w values from padded sample rows (samples of up to 16 bits):
 * px[i] = sample mirror(i - 4), i < w + 8; likewise py. */
#define decl_ssim_hrow_fn(name)                                               \
    void(name)(const uint32_t *px, const uint32_t *py, unsigned w,            \
               const VqSsimHRow *out)
typedef decl_ssim_hrow_fn(*vq_ssim_hrow_fn);

/* The sum of vq_ssim_pixel over w pixels whose window rows are rows[0..8]
 * (filtered rows of samples of up to 16 bits). */
#define decl_ssim_vrow_fn(name)                                               \
    int64_t(name)(const VqSsimHRow *const *rows, unsigned w, VqSsimConsts k)
typedef decl_ssim_vrow_fn(*vq_ssim_vrow_fn);

typedef struct VqSsimDsp {
    vq_ssim_hrow_fn hrow;
    vq_ssim_vrow_fn vrow;
} VqSsimDsp;

void vq_ssim_dsp_init(VqSsimDsp *c, unsigned flags);

decl_ssim_hrow_fn(vq_ssim_hrow_c);
decl_ssim_vrow_fn(vq_ssim_vrow_c);
#if VQ_ARCH_X86_64
decl_ssim_hrow_fn(vq_ssim_hrow_avx2);
decl_ssim_vrow_fn(vq_ssim_vrow_avx2);
decl_ssim_hrow_fn(vq_ssim_hrow_avx512);
decl_ssim_vrow_fn(vq_ssim_vrow_avx512);
#endif

#endif
