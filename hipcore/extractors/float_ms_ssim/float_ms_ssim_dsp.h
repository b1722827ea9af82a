/*
 * float_ms_ssim, the CPU path's DSP function and its variants (see
 * hipcore/cpu.h): the 9x9 decimation's row filter. Filled once at extractor
 * init; every variant is bit-identical to the C function (tests/checkasm).
 * The scales' maps use float_ssim's table (float_ssim_dsp.h).
 */
#ifndef VQHIP_EXTRACTORS_FLOAT_MS_SSIM_DSP_H
#define VQHIP_EXTRACTORS_FLOAT_MS_SSIM_DSP_H

#include "../../../kernels/float_ms_ssim/float_ms_ssim.h"
#include "../float_ssim/float_ssim_dsp.h"

/* dst[x] for x < n: the decimation's output x of one row from the nine
 * mirrored source rows around it, split into even[v][i] = column 2i - 4
 * (i < n + 4) and odd[v][i] = column 2i - 3 (i < n + 3): the double sum,
 * kernel row by row, of the 81 float products, rounded to float. */
#define decl_fms_lpf_row_fn(name)                                             \
    void(name)(const float *const *even, const float *const *odd, unsigned n, \
               float *dst)
typedef decl_fms_lpf_row_fn(*vq_float_ms_ssim_lpf_row_fn);

typedef struct VqFloatMsSsimDsp {
    vq_float_ms_ssim_lpf_row_fn lpf_row;
} VqFloatMsSsimDsp;

void vq_float_ms_ssim_dsp_init(VqFloatMsSsimDsp *c, unsigned flags);

decl_fms_lpf_row_fn(vq_float_ms_ssim_lpf_row_c);
#if VQ_ARCH_X86_64
decl_fms_lpf_row_fn(vq_float_ms_ssim_lpf_row_avx2);
decl_fms_lpf_row_fn(vq_float_ms_ssim_lpf_row_avx512);
#endif

#endif
