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
/* Frames in flight when the caller leaves depth at 0: this, or more where
 * an extractor runs several frames at once (pipeline.c). A frame's slot is
 * free again only after its copy, upload, kernels and download: with 2, a
 * 4K vmaf_v0.6.1 frame in host memory waited for its slot and the H200 ran
 * about 1500 fps; with 4, 2200-2280 (8 and 16 threads). */
#define VQ_DEFAULT_DEPTH 4
/* Frames before those in flight whose host copies are kept for temporal
 * extractors' CPU state (motion: 2). */
#define VQ_MAX_HISTORY 4
#define VQ_MAX_SLOTS (VQ_MAX_DEPTH + VQ_MAX_HISTORY)

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
    bool color_warned;  /* a later pair's colour description differed */
    bool color_pending; /* vq_configure: the first pair gives the colour */
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
    double t_gpu_open, t_setup; /* vq_open's GPU part, vq_pipeline_start */
    double t_first;     /* first submit to the first frame's scores */
    VqGpuTraffic traffic_setup; /* the GPU's copies before the first frame */
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

    /* A GPU fault: frames from fallback_frame on ran on the CPU. */
    bool fell_back;
    unsigned fallback_frame;
    char fallback_reason[VQ_ERR_MSG_SIZE];
    /* verify= (verify.c) */
    unsigned n_verified, n_verify_mismatch, n_verify_values;
    bool verify_warned;
    struct VqVerifyBuf {
        void *acc, *scratch, *pix;
        size_t acc_size, scratch_size, pix_size;
    } vbuf;
    char incomplete[256]; /* vq_set_incomplete's reason */
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

/* fallback.c: after a device error (VQ_EDEVICE) on the GPU side, moves
 * every GPU extractor to the CPU and recomputes the frames in flight from
 * their held host copies (or fails: strict=1, frames without copies). */
int vq_fallback(VqContext *ctx);
/* Releases fex's GPU side (pipeline.c). */
void vq_fex_gpu_close(VqContext *ctx, VqFex *fex);

/* verify.c: finalizes GPU extractor fex's record of a slot marked for
 * verification after comparing it with the CPU's (the CPU's is used on a
 * mismatch). */
int vq_verify_finalize(VqContext *ctx, VqFex *fex, VqSlot *slot,
                       const void *gpu_acc);
void vq_verify_free(VqContext *ctx);
/* The slot of the ring holding frame `index` with its host copy, or NULL. */
VqSlot *vq_held_slot(VqContext *ctx, unsigned index);

/* context.c: whether a model reads one of fex's outputs; removes
 * extractor i (before the run starts). */
bool vq_fex_needed_by_model(const VqContext *ctx, const VqFex *fex);
void vq_fex_drop(VqContext *ctx, unsigned i);

/* gpu_frames.c: the GPU side of the frame flow. */
bool vq_fex_has_gpu(const VqContext *ctx, const VqFex *fex);
/* release non-NULL (device pictures): the planes are lent to the slot,
 * which calls release (*taken set) once its work is done. */
int vq_gpu_submit(VqContext *ctx, const VqFrame *ref, const VqFrame *dis,
                  unsigned index, bool device, VqStream producer,
                  VqReleaseFn release, void *opaque, bool *taken);
/* Reads back one slot's results (waiting for them) and finalizes them. */
int vq_gpu_collect_slot(VqContext *ctx, VqSlot *slot);
/* Busy slots, oldest first; returns their count. */
unsigned vq_gpu_in_flight(const VqContext *ctx, VqSlot **out);
/* Host copies of device pictures for the extractors that run on the CPU. */
int vq_download_frames(VqContext *ctx, VqStream producer, const VqFrame *dref,
                       const VqFrame *ddis, VqFrame *href, VqFrame *hdis);

/* pipeline.c */
int vq_pipeline_start(VqContext *ctx, const VqPicture *ref,
                      const VqPicture *dis);
void vq_pipeline_stop(VqContext *ctx);

/* log_order.c: the models' outputs ranked after every extractor's. */
int vq_log_rank_models(VqContext *ctx);

/* pipeline_color.c: for each valid pair before it is scored. After
 * vq_configure, the first pair's colour description becomes the run's;
 * a later change is warned about once. */
int vq_color_pair(VqContext *ctx, const VqPicture *ref, const VqPicture *dis);

/* Seconds between the first submit and the last frame received. */
double vq_run_seconds(const VqContext *ctx);
double vq_now(void);

/* VQHIP_MODEL_DIR when set (looked in first by version=, before the
 * built-in models and the installed folder), else NULL. */
const char *vq_model_dir(void);

/* The context's GPU made current on the calling thread (vq_gpu_bind), at
 * the start of each call that reaches the device. */
static inline int vq_bind(VqContext *ctx)
{
    return ctx->gpu ? vq_gpu_bind(ctx->gpu) : 0;
}

#endif
