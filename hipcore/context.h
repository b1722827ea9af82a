/* The context behind the public VqContext handle. */
#ifndef VQHIP_CONTEXT_H
#define VQHIP_CONTEXT_H

#include <stdbool.h>

#include "collector.h"
#include "cpu_frames.h"
#include "error.h"
#include "extractor.h"
#include "gpu/gpu.h"
#include "gpu/staging.h"
#include "model/model.h"
#include "picture.h"
#include "threadpool.h"
#include "vqhip.h"

#define VQ_MAX_FEX 64
#define VQ_MAX_MODELS 16
#define VQ_MAX_DEPTH 16

struct VqContext {
    VqConfig cfg;
    VqErrBuf err;

    VqFex *fex[VQ_MAX_FEX];
    unsigned n_fex;
    VqModel *model[VQ_MAX_MODELS];
    const char *model_backend[VQ_MAX_MODELS];
    unsigned n_model;

    VqCollector coll;
    VqFormat fmt;
    bool started;       /* first picture seen, extractors initialized */
    bool failed;        /* a GPU or extractor error: the run cannot go on */
    bool flushed;
    unsigned n_submitted;
    unsigned n_ready;   /* frames whose outputs (models included) are final */
    unsigned n_delivered;

    VqGpu *gpu;         /* NULL: CPU only */
    VqStaging *staging; /* NULL when no extractor runs on the GPU */
    unsigned next_slot;
    VqThreadPool *pool; /* NULL when running on one thread */
    VqCpuRun *cpu;      /* the CPU extractors' frames */

    double t_start, t_end; /* monotonic seconds: first submit, last receive */
    /* Where the time goes (printed at close with VQHIP_STATS=1): host copies
     * into staging, enqueueing GPU work, waiting for GPU results, CPU
     * extractors' submit. */
    double t_copy, t_enqueue, t_wait, t_cpu;
    unsigned n_gpu_frames;

    struct VqHostBuf {  /* vq_host_alloc's buffers */
        uint8_t *ptr;
        size_t size;
        bool pinned;
    } *host_buf;
    unsigned n_host_buf;
    void *dl;           /* host copies of device pictures for CPU extractors */
    size_t dl_size;

    VqScore *frame_scores;
    unsigned frame_scores_cap;
    char backend_name[16];
};

/* Logs through the configured callback (or stderr). */
void vq_log(const VqContext *ctx, VqLogLevel level, const char *fmt, ...)
    VQ_PRINTF(3, 4);

/* Whether fex computes frame index (n_subsample skips non-temporal ones). */
static inline bool vq_fex_runs_on(const VqContext *ctx, const VqFex *fex,
                                  unsigned index)
{
    unsigned sub = ctx->cfg.n_subsample;
    return (fex->desc->flags & VQ_FEX_TEMPORAL) || sub <= 1 || !(index % sub);
}

/* Whether [p, p + len) lies in one of vq_host_alloc's pinned buffers. */
bool vq_in_host_buf(const VqContext *ctx, const void *p, size_t len);

/* pipeline.c */
int vq_pipeline_start(VqContext *ctx, const VqPicture *ref);
void vq_pipeline_stop(VqContext *ctx);

/* Seconds between the first submit and the last frame received. */
double vq_run_seconds(const VqContext *ctx);
double vq_now(void);

/* VQHIP_MODEL_DIR when set (looked in first by version=, before the
 * built-in models and the installed folder), else NULL. */
const char *vq_model_dir(void);

#endif
