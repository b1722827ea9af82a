/*
 * float_ms_ssim's decimation on the CPU (definition in
 * kernels/float_ms_ssim/float_ms_ssim.h), on the row filter of
 * float_ms_ssim_dsp.h.
 */
#ifndef VQHIP_EXTRACTORS_FMS_CPU_H
#define VQHIP_EXTRACTORS_FMS_CPU_H

#include "../../../kernels/float_ms_ssim/float_ms_ssim.h"
#include "../float_ssim/fssim_cpu.h"
#include "float_ms_ssim_dsp.h"

/* One decimation of src (w x h) into dst (ceil(w/2) x ceil(h/2), packed). */
size_t vq_fms_lpf_scratch(unsigned w);
void vq_fms_cpu_lpf(const VqFmsDsp *dsp, const VqFssimSrc *src, float *dst,
                    void *scratch);

#endif
