/* psnr_hvs: state shared by the extractor's host files. */
#ifndef VQHIP_PSNR_HVS_PRIV_H
#define VQHIP_PSNR_HVS_PRIV_H

#include "../../../kernels/psnr_hvs/psnr_hvs.h"
#include "../../../kernels/psnr_hvs/psnr_hvs_sum.h"
#include "../common/gpu_fn.h"
#include "psnr_hvs_dsp.h"

typedef struct PsnrHvsPriv {
    VqHvsTables tab[3];
    unsigned bx[3], by[3]; /* blocks across and down each plane */
    VqPsnrHvsDsp dsp;      /* the CPU variants, chosen at init */
} PsnrHvsPriv;

/* The GPU path (psnr_hvs_gpu.c), built with a GPU platform only. */
int vq_psnr_hvs_gpu_init(VqFex *fex, VqGpu *gpu);
int vq_psnr_hvs_gpu_run(VqFex *fex, VqGpu *gpu, const VqDevFrame *ref,
                        const VqDevFrame *dis, unsigned index, void *acc_dev);
void vq_psnr_hvs_gpu_close(VqFex *fex, VqGpu *gpu);

/* psnr_hvs_cpu.c */
int psnr_hvs_cpu_run(VqFex *fex, const VqFrame *ref, const VqFrame *dis,
                     unsigned index, void *acc, void *scratch);

#endif
