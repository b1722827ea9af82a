/* float_ms_ssim: what its files share (the state, the stages). */
#ifndef VQHIP_EXTRACTORS_FLOAT_MS_SSIM_PRIV_H
#define VQHIP_EXTRACTORS_FLOAT_MS_SSIM_PRIV_H

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>

#include "../../../kernels/float_ms_ssim/float_ms_ssim.h"
#include "../common/gpu_fn.h"
#include "../common/float_ssim_map.h"
#include "float_ms_ssim_dsp.h"

/*
 * float_ms_ssim's decimation on the CPU (definition in
 * kernels/float_ms_ssim/float_ms_ssim.h), on the row filter of
 * float_ms_ssim_dsp.h.
 */
/* One decimation of src (w x h) into dst (ceil(w/2) x ceil(h/2), packed). */
size_t vq_float_ms_ssim_lpf_scratch(unsigned w);
void vq_float_ms_ssim_cpu_lpf(const VqFloatMsSsimDsp *dsp, const VqFloatSsimSrc *src, float *dst,
                    void *scratch);

typedef struct FmsPriv {
    bool enable_lcs, enable_db, clip_db;
    /* derived in init */
    unsigned w[VQ_FMS_SCALES], h[VQ_FMS_SCALES];
    size_t row_off[VQ_FMS_SCALES]; /* first record row of each scale */
    size_t img_off[VQ_FMS_SCALES][2]; /* scratch offsets, scales 1..4 */
    size_t work_off;
    double max_db;
    VqFloatSsimConsts k;
    VqFloatSsimDsp dsp;
    VqFloatMsSsimDsp fms;
} FmsPriv;

/* float_ms_ssim_cpu.c */
int float_ms_ssim_cpu_run(VqFex *fex, const VqFrame *ref, const VqFrame *dis,
                unsigned index, void *acc, void *scratch);

/* float_ms_ssim_gpu.c: built with a GPU platform only (the descriptor names these
 * through VQ_GPU_FN) */
void float_ms_ssim_gpu_close(VqFex *fex, VqGpu *gpu);
int float_ms_ssim_gpu_init(VqFex *fex, VqGpu *gpu);
int float_ms_ssim_gpu_run(VqFex *fex, VqGpu *gpu, const VqDevFrame *ref,
                const VqDevFrame *dis, unsigned index, void *acc_dev);

#endif
