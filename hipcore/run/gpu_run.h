/*
 * The GPU side of a run: staging slots filled and enqueued (submit), read
 * back and finalized in frame order (collect), with the verify= checks and
 * the host copies a fallback recomputes from. The fake device of builds
 * without a HIP platform runs extractors' CPU code here.
 */
#ifndef VQHIP_RUN_GPU_RUN_H
#define VQHIP_RUN_GPU_RUN_H

#include <stdbool.h>
#include <stddef.h>

#include "core/extractor.h"
#include "core/picture.h"
#include "gpu/gpu.h"
#include "gpu/gpu_range.h"
#include "gpu/staging.h"
#include "host_bufs.h"
#include "run_env.h"
#include "verify.h"

#define VQ_MAX_DEPTH 16
/* Frames in flight when the caller leaves depth at 0: this, or more where
 * an extractor runs several frames at once (pipeline_setup.c). A frame's
 * slot is free again only after its copy, upload, kernels and download:
 * with 2, a 4K vmaf_v0.6.1 frame in host memory waited for its slot and
 * the H200 ran about 1500 fps; with 4, 2200-2280 (8 and 16 threads). */
#define VQ_DEFAULT_DEPTH 4
/* Frames before those in flight whose host copies are kept for temporal
 * extractors' CPU state (motion: 2). */
#define VQ_MAX_HISTORY 4
#define VQ_MAX_SLOTS (VQ_MAX_DEPTH + VQ_MAX_HISTORY)

typedef struct VqGpuRun {
    const VqRunEnv *env;
    VqGpu *gpu;              /* NULL: no GPU */
    const VqHostBufs *host;  /* vq_host_alloc's buffers: uploaded in place */
    VqStaging *staging;      /* NULL when no extractor runs on the GPU */
    unsigned depth;          /* frames in flight at most */
    unsigned next_slot;
    VqVerify verify;
    void *dl;                /* host copies of device pictures for the */
    size_t dl_size;          /* extractors on the CPU */
    VqGpuRange range;        /* device pictures' sample range check */
    VqSharedRef *shared_ref; /* set by a ladder around one submit: this
                                frame's reference, staged once for every
                                rendition (taken: set to NULL) */
    /* Where the time goes (VQHIP_STATS): host copies into staging,
     * enqueueing GPU work, waiting for GPU results; frames with GPU work. */
    double t_copy, t_enqueue, t_wait;
    unsigned n_frames;
} VqGpuRun;

/* Whether fex runs on gpu: its kernels, or on the fake device (tests) its
 * CPU code, for extractors without frame-to-frame state. */
bool vq_fex_has_gpu(const VqGpu *gpu, const VqFex *fex);
/* Releases fex's GPU side. */
void vq_fex_gpu_close(VqGpu *gpu, VqFex *fex);

/* Opens the staging ring: `slots` slots of the planes the GPU extractors
 * read and acc_size bytes of records, with n_sets lanes when lanes > 1. */
int vq_gpu_run_start(VqGpuRun *g, unsigned planes, unsigned slots,
                     size_t acc_size, VqThreadPool *pool, unsigned n_sets,
                     unsigned lane_cap);
/* Closes the staging ring and every extractor's GPU side. */
void vq_gpu_run_stop(VqGpuRun *g);
/* vq_gpu_run_stop, and the buffers kept between runs. */
void vq_gpu_run_free(VqGpuRun *g);

/* Enqueues frame `index`. release non-NULL (device pictures): the planes
 * are lent to the slot, which calls release (*taken set) once its work is
 * done. */
int vq_gpu_submit(VqGpuRun *g, const VqFrame *ref, const VqFrame *dis,
                  unsigned index, bool device, VqStream producer,
                  VqReleaseFn release, void *opaque, bool *taken);
/* Reads back one slot's results (waiting for them) and finalizes them. */
int vq_gpu_collect_slot(VqGpuRun *g, VqSlot *slot);
/* Busy slots, oldest first; returns their count. */
unsigned vq_gpu_in_flight(const VqGpuRun *g, VqSlot **out);
/* Host copies of device pictures for the extractors that run on the CPU. */
int vq_download_frames(VqGpuRun *g, VqStream producer, const VqFrame *dref,
                       const VqFrame *ddis, VqFrame *href, VqFrame *hdis);

#endif
