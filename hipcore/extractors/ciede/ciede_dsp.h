/*
 * ciede, the CPU path's DSP table (see hipcore/cpu.h): filled once at
 * extractor init by vq_ciede_dsp_init; every variant is bit-identical to the
 * C function (tests/checkasm), which computes what vq_ciede_pixel() (the
 * GPU's per-sample composition) computes (tests/ciede/ciede_cpu_test.c).
 */
#ifndef VQHIP_EXTRACTORS_CIEDE_DSP_H
#define VQHIP_EXTRACTORS_CIEDE_DSP_H

#include <stddef.h>
#include <stdint.h>

#include "../../../kernels/ciede/ciede.h"
#include "base/cpu.h"

/* One row: the w luma samples of the reference (row[0]) and the distorted
 * (row[3]) with their chroma rows (row[1], row[2]; row[4], row[5]), chroma
 * column min(x >> ss_x, cw - 1) for luma column x; samples 8-bit when bps
 * is 1, else 16-bit of depth bpc. Adds the w differences to acc. scratch:
 * vq_ciede_row_scratch(w) bytes, 8-byte aligned, contents free. */
#define decl_ciede_row_fn(name)                                               \
    void(name)(const uint8_t *const row[6], unsigned bps, unsigned w,         \
               unsigned ss_x, unsigned cw, unsigned bpc, void *scratch,       \
               VqCiedeAcc *acc)
typedef decl_ciede_row_fn(*vq_ciede_row_fn);

typedef struct VqCiedeDsp {
    vq_ciede_row_fn row;
} VqCiedeDsp;

size_t vq_ciede_row_scratch(unsigned w);
void vq_ciede_dsp_init(VqCiedeDsp *c, unsigned flags);

decl_ciede_row_fn(vq_ciede_row_c);
#if VQ_ARCH_X86_64
decl_ciede_row_fn(vq_ciede_row_avx2);
decl_ciede_row_fn(vq_ciede_row_avx512);
#endif

#endif
