/* Integer motion: what its files share (the state, the stages). */
#ifndef VQHIP_EXTRACTORS_MOTION_PRIV_H
#define VQHIP_EXTRACTORS_MOTION_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "../../../kernels/motion/motion.h"
#include "../common/gpu_fn.h"
#include "motion_dsp.h"

#define MOTION_SCORE_RING 4 /* scores kept: frames j - 1 .. j + 2 */
#define MOTION_MAX_PLANES 3 /* previous planes kept: min_idx + 1 */

/* The CPU path's state between frames: the last reference luma planes,
 * packed. A pair run's is in priv; a ladder's renditions share one
 * (fex->share: core/refshare.h). */
typedef struct MotionKept {
    uint8_t *plane[MOTION_MAX_PLANES];
} MotionKept;

typedef struct MotionPriv {
    bool force_zero;
    double blend_factor;
    double blend_offset;
    double fps_weight;
    double max_val;
    bool five_frame_window;
    bool moving_average;
    bool debug;
    /* derived in init */
    unsigned min_idx; /* first frame with a score: 1, or 2 (five-frame) */
    unsigned n_planes_kept;
    size_t row_bytes;
    /* CPU path (a temporal extractor's frames run one at a time, so cpu_run
     * may keep them here) */
    MotionKept kept;
    /* finalize state */
    double score[MOTION_SCORE_RING]; /* SAD score of frame i at i % RING */
    unsigned n_scored;               /* frames through finalize */
    unsigned n_done;                 /* frames with motion2/motion3 written */
    double stamp;                    /* motion3 of the frames before min_idx */
    double prev_processed;
    VqMotionDsp dsp; /* the CPU path's functions, chosen once */
} MotionPriv;

/* motion_cpu.c */
void motion_free_kept(MotionKept *k);
void motion_free_shared(void *state); /* desc->ref_state_free */
int motion_cpu_run(VqFex *fex, const VqFrame *ref, const VqFrame *dis,
                   unsigned index, void *acc, void *scratch);

/* motion_gpu.c: built with a GPU platform only (the descriptor names these
 * through VQ_GPU_FN) */
void motion_gpu_close(VqFex *fex, VqGpu *gpu);
int motion_gpu_init(VqFex *fex, VqGpu *gpu);
int motion_gpu_run(VqFex *fex, VqGpu *gpu, const VqDevFrame *ref,
                   const VqDevFrame *dis, unsigned index, void *acc_dev);

#endif
