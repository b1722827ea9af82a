/* motion_v2: what its files share (the state, the stages). */
#ifndef VQHIP_EXTRACTORS_MOTION_V2_PRIV_H
#define VQHIP_EXTRACTORS_MOTION_V2_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "../../../kernels/motion_v2/motion_v2.h"
#include "../common/gpu_fn.h"
#include "motion_v2_dsp.h"

#define MV2_RING 4      /* scores kept: j - 1 .. j + 2 */
#define MV2_MAX_KEPT 3  /* previous frames kept: window + 1 */

/* One SAD: the previous plane (packed rows) against the current one. */
typedef struct Mv2Rows {
    const uint8_t *prev;
    size_t prev_pitch;
    const uint8_t *cur;
    ptrdiff_t cur_stride;
    int w, h, bytes, bpc;
} Mv2Rows;

/* The CPU path's state between frames. A pair run's is in priv; a
 * ladder's renditions share one (fex->share: core/refshare.h). */
typedef struct Mv2Kept {
    uint8_t *kept[MV2_MAX_KEPT]; /* previous reference luma planes */
    int32_t *vrow;               /* one row of vertical results + 4 */
} Mv2Kept;

typedef struct MotionV2Priv {
    bool force_zero;
    double blend_factor, blend_offset, fps_weight, max_val;
    bool five_frame_window, moving_average;
    unsigned window;   /* 1, or 2 with the five-frame window */
    unsigned n_kept;   /* window + 1 */
    size_t row_bytes;
    Mv2Kept cpu;                 /* CPU: the state between frames */
    VqMotionV2Dsp dsp;           /* CPU: row functions chosen at init */
    double score[MV2_RING];
    unsigned n_scored, n_done;
    double first, prev_processed;
} MotionV2Priv;

/* motion_v2_cpu.c */
void motion_v2_free_kept(Mv2Kept *k);
void motion_v2_free_shared(void *state); /* desc->ref_state_free */
int motion_v2_cpu_run(VqFex *fex, const VqFrame *ref,
                      const VqFrame *dis, unsigned index, void *acc,
                      void *scratch);

/* motion_v2_gpu.c: built with a GPU platform only (the descriptor names these
 * through VQ_GPU_FN) */
void motion_v2_gpu_close(VqFex *fex, VqGpu *gpu);
int motion_v2_gpu_init(VqFex *fex, VqGpu *gpu);
int motion_v2_gpu_run(VqFex *fex, VqGpu *gpu, const VqDevFrame *ref,
                      const VqDevFrame *dis, unsigned index,
                      void *acc_dev);

#endif
