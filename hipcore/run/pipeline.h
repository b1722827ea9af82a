/*
 * A run's frame flow: submit -> (GPU run | CPU run) -> finalize -> models
 * -> ready. Frames are finalized in submission order on each backend.
 * Frame i is ready once every extractor has finalized it (fex->lag frames
 * later for temporal extractors, unless flushed) and the models have
 * scored it. Each stage keeps its own state: the GPU run, the CPU run,
 * the fallback, the colour check, the pairs held while the GPU opens.
 */
#ifndef VQHIP_RUN_PIPELINE_H
#define VQHIP_RUN_PIPELINE_H

#include <stdbool.h>

#include "base/error.h"
#include "base/log.h"
#include "base/threadpool.h"
#include "color.h"
#include "cpu_run.h"
#include "fallback.h"
#include "gpu_open.h"
#include "gpu_run.h"
#include "held.h"
#include "host_bufs.h"
#include "run_env.h"
#include "selection.h"

/* How the run went so far, for stats and logs (seconds, monotonic). */
typedef struct VqRunTimes {
    double start, end;      /* first submit, last receive */
    double cpu;             /* CPU extractors' submit */
    double gpu_open;        /* opening the GPU */
    double setup;           /* the extractors' set-up */
    double first;           /* first submit to the first frame's scores */
    VqGpuTraffic traffic_setup; /* the GPU's copies before the first frame */
} VqRunTimes;

typedef struct VqPipeline {
    VqConfig cfg;           /* the context's; depth is the run's choice */
    VqSelection *sel;       /* what is computed, where outputs go */
    VqErrBuf *err;
    VqLogger log;
    VqRunEnv env;           /* what the stages read */
    VqFormat fmt;

    VqGpuOpen open;
    VqGpu *gpu;             /* NULL: CPU only (or still opening) */
    VqThreadPool *pool;     /* NULL when running on one thread */
    VqGpuRun gpu_run;
    VqCpuRun *cpu;          /* the CPU extractors' frames */
    VqFallback fallback;
    VqColor color;
    VqHeld held;
    const char *model_backend[VQ_MAX_MODELS];

    bool prepared;          /* format known, extractors initialized (no
                               feature or model can be added any more) */
    bool running;           /* backends chosen: frames can be scored */
    bool failed;            /* a GPU or extractor error: the run cannot go on */
    bool flushed;
    unsigned n_submitted;
    unsigned n_ready;       /* frames whose outputs (models too) are final */
    unsigned n_delivered;
    char backend_name[16];
    VqRunTimes times;
} VqPipeline;

/* A pipeline for sel with the context's configuration; errors go to err,
 * host buffers (vq_host_alloc) are in host. */
void vq_pipeline_init(VqPipeline *p, const VqConfig *cfg, VqSelection *sel,
                      const VqHostBufs *host, VqErrBuf *err);
/* Opens the GPU (cfg.backend not CPU): at once, or on a thread with
 * cfg.open_async. Fails (strict) when it cannot be opened. */
int vq_pipeline_open_gpu(VqPipeline *p);
/* Gives back what the run holds: stops it, waits for a GPU still opening,
 * gives held pairs back. The GPU stays open (vq_pipeline_free closes it). */
void vq_pipeline_stop(VqPipeline *p);
void vq_pipeline_free(VqPipeline *p);

/* The GPU made current on the calling thread (vq_gpu_bind), at the start
 * of each call that reaches the device. */
static inline int vq_pipeline_bind(VqPipeline *p)
{
    return p->gpu ? vq_gpu_bind(p->gpu) : 0;
}

/* vq_configure: the run's format from geometry, extractors started. */
int vq_pipeline_configure(VqPipeline *p, const VqPicture *geometry);
/* vq_submit / vq_submit_retained (release non-NULL) and their device
 * counterparts: release is called exactly once. */
int vq_pipeline_submit(VqPipeline *p, const VqPicture *ref,
                       const VqPicture *dis, VqReleaseFn release,
                       void *opaque);
int vq_pipeline_submit_device(VqPipeline *p, const VqDevicePicture *ref,
                              const VqDevicePicture *dis, VqReleaseFn release,
                              void *opaque);
/* Starts the run as the first submit of (ref, dis) would (waiting for a
 * GPU still opening), so that each extractor's backend is known before
 * any frame (a ladder's shared reference work); 0 at once when running. */
int vq_pipeline_begin(VqPipeline *p, const VqPicture *ref,
                      const VqPicture *dis);
int vq_pipeline_flush(VqPipeline *p);
/* Collects finished work (with wait, all of it) and advances n_ready. */
int vq_pipeline_poll(VqPipeline *p, bool wait);
/* Frame n_delivered was handed out. */
void vq_pipeline_delivered(VqPipeline *p);
/* Where frame `index` was computed ("hip", "cpu", "hip+cpu"). */
const char *vq_pipeline_frame_backend(const VqPipeline *p, unsigned index);
/* Which backend computes output `name` ("hip", "cpu", "hip+cpu"), once
 * known; NULL for an unknown name. */
const char *vq_pipeline_output_backend(const VqPipeline *p, const char *name);
/* The planes the extractors read (VQ_PLANE_*), once prepared (else 0). */
unsigned vq_pipeline_planes(const VqPipeline *p);
/* Seconds between the first submit and the last frame received. */
double vq_pipeline_seconds(const VqPipeline *p);
/* Waits for a GPU still opening and takes its result (the held pairs are
 * scored then); 0 at once when none is. */
int vq_pipeline_await_gpu(VqPipeline *p);

#endif
