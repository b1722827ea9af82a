/*
 * Opening the GPU: at once, or on a thread of its own (VqConfig.open_async)
 * while the caller goes on; the result is taken on the caller's thread
 * (vq_gpu_open_join), which is where it is logged and acted on.
 */
#ifndef VQHIP_RUN_GPU_OPEN_H
#define VQHIP_RUN_GPU_OPEN_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>

#include "base/error.h"
#include "gpu/gpu.h"

typedef struct VqGpuOpen {
    int device, use_current;
    /* the open's result, to be read once it finished (joined) */
    VqGpu *gpu;           /* NULL when it failed */
    int err;              /* 0, or why it failed (message in why) */
    VqErrBuf why;         /* also the GPU's error buffer until it is taken */
    double seconds;       /* how long it took */
    pthread_t thread;
    bool pending;         /* on a thread that was not joined yet */
    atomic_bool done;     /* that thread finished */
} VqGpuOpen;

/* Opens GPU `device` (use_current: VqConfig.use_current_context), on a
 * thread when async (at once when the thread cannot be started). */
void vq_gpu_open_begin(VqGpuOpen *o, int device, int use_current,
                       bool async);
/* Whether an open runs on its thread, or finished there and was not
 * joined yet. */
bool vq_gpu_open_pending(const VqGpuOpen *o);
/* Whether a pending open finished (never waits). */
bool vq_gpu_open_finished(VqGpuOpen *o);
/* Waits for a pending open; its result is then in o. */
void vq_gpu_open_join(VqGpuOpen *o);

#endif
