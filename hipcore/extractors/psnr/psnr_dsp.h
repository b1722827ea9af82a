/*
 * Integer PSNR, the CPU path's DSP functions and their variants (see
 * hipcore/cpu.h): filled once at extractor init by vq_psnr_dsp_init; every
 * variant is bit-identical to the C function (tests/checkasm).
 */
#ifndef VQHIP_EXTRACTORS_PSNR_DSP_H
#define VQHIP_EXTRACTORS_PSNR_DSP_H

#include <stddef.h>
#include <stdint.h>

#include "base/cpu.h"

/* The sum of vq_psnr_term over a w x h block (w <= 16384): 8-bit samples
 * for sse_u8, 16-bit ones of any depth for sse_u16. Strides in bytes. */
#define decl_psnr_sse_fn(name)                                                \
    uint64_t(name)(const uint8_t *ref, ptrdiff_t ref_stride,                  \
                   const uint8_t *dis, ptrdiff_t dis_stride, unsigned w,      \
                   unsigned h)
typedef decl_psnr_sse_fn(*vq_psnr_sse_fn);

typedef struct VqPsnrDsp {
    vq_psnr_sse_fn sse_u8;
    vq_psnr_sse_fn sse_u16;
} VqPsnrDsp;

void vq_psnr_dsp_init(VqPsnrDsp *c, unsigned flags);

decl_psnr_sse_fn(vq_psnr_sse_u8_c);
decl_psnr_sse_fn(vq_psnr_sse_u16_c);
#if VQ_ARCH_X86_64
decl_psnr_sse_fn(vq_psnr_sse_u8_avx2);
decl_psnr_sse_fn(vq_psnr_sse_u16_avx2);
decl_psnr_sse_fn(vq_psnr_sse_u8_avx512);
decl_psnr_sse_fn(vq_psnr_sse_u16_avx512);
#endif

#endif
