/* speed_temporal: what its files share (the state, the stages). */
#ifndef VQHIP_EXTRACTORS_SPEED_TEMPORAL_PRIV_H
#define VQHIP_EXTRACTORS_SPEED_TEMPORAL_PRIV_H

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../../kernels/speed_temporal/speed_temporal.h"
#include "../common/speed_engine.h"

typedef struct TemporalPriv {
    VqSpeedOpts o;
    double max_val;
    bool use_ref_diff;
    VqSpeed sp;
    size_t img_scratch;
    size_t row_bytes;
    uint8_t *kept[2]; /* CPU: previous reference and distorted luma */
} TemporalPriv;

/* speed_temporal_cpu.c */
int speed_temporal_cpu_run(VqFex *fex, const VqFrame *ref,
                     const VqFrame *dis, unsigned index, void *acc,
                     void *scratch);

/* speed_temporal_gpu.c: built with a GPU platform only (the descriptor names these
 * through VQ_GPU_FN) */
void speed_temporal_gpu_close(VqFex *fex, VqGpu *gpu);
int speed_temporal_gpu_init(VqFex *fex, VqGpu *gpu);
int speed_temporal_gpu_run(VqFex *fex, VqGpu *gpu, const VqDevFrame *ref,
                     const VqDevFrame *dis, unsigned index,
                     void *acc_dev);

#endif
