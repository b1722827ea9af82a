/* float_moment: what its files share (the state, the stages). */
#ifndef VQHIP_EXTRACTORS_FLOAT_MOMENT_PRIV_H
#define VQHIP_EXTRACTORS_FLOAT_MOMENT_PRIV_H

#include <stddef.h>

#include "../../../kernels/float_moment/float_moment.h"
#include "../common/gpu_fn.h"
#include "float_moment_dsp.h"

typedef struct FloatMomentPriv {
    double scale; /* 2^(bpc - 8) */
    VqFloatMomentDsp dsp;
} FloatMomentPriv;

/* float_moment_cpu.c */
int float_moment_cpu_run(VqFex *fex, const VqFrame *ref,
                         const VqFrame *dis, unsigned index, void *acc,
                         void *scratch);

/* float_moment_gpu.c: built with a GPU platform only (the descriptor names these
 * through VQ_GPU_FN) */
int float_moment_gpu_run(VqFex *fex, VqGpu *gpu, const VqDevFrame *ref,
                         const VqDevFrame *dis, unsigned index,
                         void *acc_dev);

#endif
