/* float_motion: state shared by the extractor (float_motion.c) and its
 * CPU and GPU paths (float_motion_cpu.c, float_motion_gpu.c). */
#ifndef VQHIP_EXTRACTORS_FLOAT_MOTION_PRIV_H
#define VQHIP_EXTRACTORS_FLOAT_MOTION_PRIV_H

#include <stdbool.h>

#include "../../../kernels/float_motion/float_motion.h"
#include "../common/gpu_fn.h"
#include "float_motion_dsp.h"

/* The CPU path's buffers: the blurred planes of the last two frames, full
 * and half size, and the plane as floats then one row of the vertical
 * pass. A pair run's are in priv; a ladder's renditions share one set
 * (fex->share: core/refshare.h). */
typedef struct FMotionBufs {
    float *blur[2][VQ_FMOTION_MAX_PLANES][2];
    float *work;
} FMotionBufs;

typedef struct FMotionPriv {
    bool debug;
    bool force_zero;
    double fps_weight;
    double blend_factor;
    double blend_offset;
    bool add_scale1;
    int filter_size;
    bool add_uv;
    double max_val;
    /* derived in init */
    VqFloatMotionDims dims;
    VqFloatMotionTaps taps;
    VqFResizeTap *half_tab[VQ_FMOTION_MAX_PLANES][2]; /* x, y tables */
    /* CPU path (a temporal extractor's frames run one at a time) */
    FMotionBufs bufs;
    VqFloatMotionDsp dsp; /* row functions chosen at init */
    /* finalize state */
    unsigned n_frames;
    double prev_score;
} FMotionPriv;

/* The half-size bilinear tables (motion_add_scale1), for both paths. */
int vq_float_motion_tables(FMotionPriv *s);
void vq_float_motion_cpu_close(FMotionPriv *s);
void vq_float_motion_free_shared(void *state); /* desc->ref_state_free */
int vq_float_motion_cpu_run(VqFex *fex, const VqFrame *ref, const VqFrame *dis,
                       unsigned index, void *acc, void *scratch);

int vq_float_motion_gpu_init(VqFex *fex, VqGpu *gpu);
int vq_float_motion_gpu_run(VqFex *fex, VqGpu *gpu, const VqDevFrame *ref,
                       const VqDevFrame *dis, unsigned index, void *acc_dev);
void vq_float_motion_gpu_close(VqFex *fex, VqGpu *gpu);

#endif
