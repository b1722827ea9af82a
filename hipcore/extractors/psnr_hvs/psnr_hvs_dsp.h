/*
 * psnr_hvs, the CPU path's DSP table (see hipcore/cpu.h): filled once at
 * extractor init by vq_psnr_hvs_dsp_init; every variant is bit-identical to
 * the C function (tests/checkasm), which computes what the GPU's one-block
 * composition and plain sum compute (tests/psnr_hvs/psnr_hvs_cpu_test.c).
 */
#ifndef VQHIP_EXTRACTORS_PSNR_HVS_DSP_H
#define VQHIP_EXTRACTORS_PSNR_HVS_DSP_H

#include <stddef.h>
#include <stdint.h>

#include "../../../kernels/psnr_hvs/psnr_hvs.h"
#include "base/cpu.h"

/* One plane: nbx x nby 8x8 blocks at a step of 7 samples (the plane holds
 * at least 7 * nbx + 1 by 7 * nby + 1 samples, 8-bit when bps is 1, else
 * 16-bit of at most 12 bits); returns libvmaf's float sum of all their
 * terms, block by block in row-major order, term by term. */
#define decl_psnr_hvs_plane_fn(name)                                          \
    float(name)(const uint8_t *ref, ptrdiff_t ref_stride, const uint8_t *dis, \
                ptrdiff_t dis_stride, unsigned bps, unsigned nbx,             \
                unsigned nby, const VqHvsTables *tab)
typedef decl_psnr_hvs_plane_fn(*vq_psnr_hvs_plane_fn);

typedef struct VqPsnrHvsDsp {
    vq_psnr_hvs_plane_fn plane;
} VqPsnrHvsDsp;

void vq_psnr_hvs_dsp_init(VqPsnrHvsDsp *c, unsigned flags);

decl_psnr_hvs_plane_fn(vq_psnr_hvs_plane_c);
#if VQ_ARCH_X86_64
decl_psnr_hvs_plane_fn(vq_psnr_hvs_plane_avx2);
decl_psnr_hvs_plane_fn(vq_psnr_hvs_plane_avx512);
#endif

#endif
