/* float_psnr: what its files share (the state, the stages). */
#ifndef VQHIP_EXTRACTORS_FLOAT_PSNR_PRIV_H
#define VQHIP_EXTRACTORS_FLOAT_PSNR_PRIV_H

#include <math.h>
#include <stddef.h>

#include "../../../kernels/float_psnr/float_psnr.h"
#include "../common/gpu_fn.h"
#include "../psnr/psnr_dsp.h"

/* The deepest samples whose squared differences float holds exactly. */
#define FPSNR_EXACT_BPC 12

typedef struct FloatPsnrPriv {
    double peak, psnr_max;
    double scale2; /* (2^(bpc - 8))^2: integer units per squared 8-bit unit */
    VqPsnrDsp dsp; /* CPU: integer psnr's sums, up to FPSNR_EXACT_BPC bits */
} FloatPsnrPriv;

/* float_psnr_cpu.c */
int float_psnr_cpu_run(VqFex *fex, const VqFrame *ref,
                       const VqFrame *dis, unsigned index, void *acc,
                       void *scratch);

/* float_psnr_gpu.c: built with a GPU platform only (the descriptor names these
 * through VQ_GPU_FN) */
int float_psnr_gpu_run(VqFex *fex, VqGpu *gpu, const VqDevFrame *ref,
                       const VqDevFrame *dis, unsigned index,
                       void *acc_dev);

#endif
