/*
 * verify=N (VqConfig.verify): every N-th frame the GPU computes is also
 * computed on the CPU from its slot's host copy and the outputs are
 * compared; on a mismatch the CPU's are used (verify.c says how).
 */
#ifndef VQHIP_RUN_VERIFY_H
#define VQHIP_RUN_VERIFY_H

#include <stdbool.h>
#include <stddef.h>

#include "core/extractor.h"
#include "gpu/staging.h"
#include "run_env.h"

typedef struct VqVerify {
    unsigned every;        /* N: frames index % N == 0 (0: off) */
    unsigned n_frames;     /* frames checked on the CPU */
    unsigned n_mismatch;   /* of those, frames where the GPU differed */
    unsigned n_values;     /* outputs that differed */
    bool warned;           /* "device pictures are not verified" was said */
    struct {               /* the CPU's record and what it is made from */
        void *acc, *scratch, *pix;
        size_t acc_size, scratch_size, pix_size;
    } buf;
} VqVerify;

/* Whether frame index + ahead is verified (ahead > 0: whether one of the
 * next `ahead` frames is, whose temporal extractors need this one). */
bool vq_verify_frame(const VqVerify *v, unsigned index, unsigned ahead);
/* Finalizes GPU extractor fex's record of a slot marked for verification
 * after comparing it with the CPU's (the CPU's is used on a mismatch). */
int vq_verify_finalize(VqVerify *v, const VqRunEnv *env, VqStaging *st,
                       VqFex *fex, VqSlot *slot, const void *gpu_acc);
void vq_verify_free(VqVerify *v);

#endif
