/*
 * float_ms_ssim's decimation on the CPU (definition in
 * kernels/float_ms_ssim/float_ms_ssim.h). The row function has a C version
 * and, on x86-64, an AVX2 build of the same source, chosen once when the
 * extractor starts; both are bit-identical (tests/ssim/fssim_unit.c).
 */
#ifndef VQHIP_EXTRACTORS_FMS_CPU_H
#define VQHIP_EXTRACTORS_FMS_CPU_H

#include "../../../kernels/float_ms_ssim/float_ms_ssim.h"
#include "../float_ssim/fssim_cpu.h"

typedef struct VqFmsDsp {
    /* dst[x] for x < n from the nine mirrored source rows around 2y, split
     * into even[v][i] = column 2i - 4 and odd[v][i] = column 2i - 3. */
    void (*lpf_row)(const float *const *even, const float *const *odd,
                    unsigned n, float *dst);
    const char *name;
} VqFmsDsp;

/* As vq_fssim_dsp_init. */
int vq_fms_dsp_init(VqFmsDsp *dsp, int level);

/* One decimation of src (w x h) into dst (ceil(w/2) x ceil(h/2), packed). */
size_t vq_fms_lpf_scratch(unsigned w);
void vq_fms_cpu_lpf(const VqFmsDsp *dsp, const VqFssimSrc *src, float *dst,
                    void *scratch);

#endif
