/* CIEDE2000: what its files share (the state, the stages). */
#ifndef VQHIP_EXTRACTORS_CIEDE_PRIV_H
#define VQHIP_EXTRACTORS_CIEDE_PRIV_H

#include <math.h>
#include <stddef.h>

#include "../common/gpu_fn.h"
#include "ciede_dsp.h"

typedef struct CiedePriv {
    VqCiedeDsp dsp; /* the CPU variants, chosen at init */
} CiedePriv;

/* ciede_cpu.c */
int ciede_cpu_run(VqFex *fex, const VqFrame *ref, const VqFrame *dis,
                  unsigned index, void *acc, void *scratch);

/* ciede_gpu.c: built with a GPU platform only (the descriptor names these
 * through VQ_GPU_FN) */
int ciede_gpu_run(VqFex *fex, VqGpu *gpu, const VqDevFrame *ref,
                  const VqDevFrame *dis, unsigned index, void *acc_dev);

#endif
