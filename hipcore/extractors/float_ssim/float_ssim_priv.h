/* float_ssim: what its files share (the state, the stages). */
#ifndef VQHIP_EXTRACTORS_FLOAT_SSIM_PRIV_H
#define VQHIP_EXTRACTORS_FLOAT_SSIM_PRIV_H

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>

#include "../../../kernels/float_ssim/float_ssim.h"
#include "../common/gpu_fn.h"
#include "../common/float_ssim_map.h"

typedef struct FssimPriv {
    bool enable_lcs, enable_db, clip_db;
    int scale;
    /* derived in init */
    unsigned factor;        /* decimation factor, 1 = none */
    unsigned dw, dh;        /* the decimated (scored) size */
    double max_db;
    VqFloatSsimConsts k;
    VqFloatSsimDsp dsp;
    size_t img_bytes;       /* one decimated image in scratch */
} FssimPriv;

/* float_ssim_cpu.c */
int float_ssim_cpu_run(VqFex *fex, const VqFrame *ref, const VqFrame *dis,
                  unsigned index, void *acc, void *scratch);

/* float_ssim_gpu.c: built with a GPU platform only (the descriptor names these
 * through VQ_GPU_FN) */
void float_ssim_gpu_close(VqFex *fex, VqGpu *gpu);
int float_ssim_gpu_init(VqFex *fex, VqGpu *gpu);
int float_ssim_gpu_run(VqFex *fex, VqGpu *gpu, const VqDevFrame *ref,
                  const VqDevFrame *dis, unsigned index, void *acc_dev);

#endif
