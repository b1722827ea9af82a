/* Integer PSNR: what its files share (the options' state, the stages). */
#ifndef VQHIP_EXTRACTORS_PSNR_PRIV_H
#define VQHIP_EXTRACTORS_PSNR_PRIV_H

#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stddef.h>

#include "../../../kernels/psnr/psnr.h"
#include "../common/gpu_fn.h"
#include "psnr_dsp.h"

typedef struct PsnrPriv {
    bool enable_chroma;
    bool enable_mse;
    bool enable_apsnr;
    bool reduced_hbd_peak;
    double min_sse;
    /* derived in init */
    unsigned n_planes;
    double peak;
    double psnr_max[3];
    uint64_t apsnr_sse[3];
    uint64_t apsnr_n[3];
    VqPsnrDsp dsp; /* the CPU path's functions, chosen once */
} PsnrPriv;

/* psnr_cpu.c */
int psnr_cpu_run(VqFex *fex, const VqFrame *ref, const VqFrame *dis,
                 unsigned index, void *acc, void *scratch);

/* psnr_gpu.c: built with a GPU platform only (the descriptor names these
 * through VQ_GPU_FN) */
int psnr_gpu_run(VqFex *fex, VqGpu *gpu, const VqDevFrame *ref,
                 const VqDevFrame *dis, unsigned index, void *acc_dev);

#endif
