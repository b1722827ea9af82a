/*
 * A device error in the middle of a run: unless strict=1, every extractor
 * that ran on the GPU goes on on the CPU, the frames in flight recomputed
 * from the host copies the staging slots hold (fallback.c).
 */
#ifndef VQHIP_RUN_FALLBACK_H
#define VQHIP_RUN_FALLBACK_H

#include <stdbool.h>

#include "base/error.h"
#include "cpu_run.h"
#include "gpu_run.h"
#include "run_env.h"

typedef struct VqFallback {
    bool fell_back;            /* the GPU is no longer used */
    unsigned first;            /* frames from this one on ran on the CPU */
    char reason[VQ_ERR_MSG_SIZE];
} VqFallback;

/* After a device error (VQ_EDEVICE, message in env->err) on the GPU side:
 * moves every GPU extractor to the CPU run *cpu (reopened) and recomputes
 * the frames in flight; closes g's staging. Fails with strict, or when a
 * frame that must be recomputed has no host copy. n_submitted: frames
 * submitted so far. */
int vq_fallback(VqFallback *fb, const VqRunEnv *env, bool strict,
                VqGpuRun *g, VqCpuRun **cpu, unsigned n_submitted);

#endif
