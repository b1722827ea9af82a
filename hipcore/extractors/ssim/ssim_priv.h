/* Integer SSIM: what its files share (the state, the stages). */
#ifndef VQHIP_EXTRACTORS_SSIM_PRIV_H
#define VQHIP_EXTRACTORS_SSIM_PRIV_H

#include <stddef.h>
#include <stdint.h>

#include "../../../kernels/ssim/ssim.h"
#include "../common/gpu_fn.h"
#include "core/picture.h"
#include "ssim_dsp.h"

/*
 * ssim's CPU path (definition in kernels/ssim/ssim.h): rows are filtered
 * horizontally once each into a ring of nine (the window's height); each
 * output row is the vertical pass over the nine mirrored rows it needs,
 * then the pixel formula (the row functions of ssim_dsp.h).
 */
size_t vq_ssim_cpu_scratch(unsigned w);
/* The frame's sum of q; bps = bytes per sample. */
int64_t vq_ssim_cpu_frame(const VqSsimDsp *dsp, const VqPlane *ref,
                          const VqPlane *dis, unsigned bps, VqSsimConsts k,
                          void *scratch);

typedef struct SsimPriv {
    VqSsimConsts k;
    VqSsimDsp dsp;
} SsimPriv;

/* ssim_cpu.c */
int ssim_cpu_run(VqFex *fex, const VqFrame *ref, const VqFrame *dis,
                 unsigned index, void *acc, void *scratch);

/* ssim_gpu.c: built with a GPU platform only (the descriptor names these
 * through VQ_GPU_FN) */
int ssim_gpu_run(VqFex *fex, VqGpu *gpu, const VqDevFrame *ref,
                 const VqDevFrame *dis, unsigned index, void *acc_dev);

#endif
