/*
 * Frame flow: submit -> (GPU slots | CPU run) -> finalize -> models -> receive.
 *
 * Frames are finalized in submission order on each backend. Frame i is ready
 * once every extractor has finalized it (fex->lag frames later for temporal
 * extractors, unless flushed) and the models have scored it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "context.h"

/*
 * libvmaf's log lists outputs in the order they were first written to its
 * collector. Without a thread pool (its tool's and filter's default) that
 * is: the extractors' outputs written with a frame's own extraction, by
 * extractor in the order they were selected (a model's extractors first
 * when the model is selected first), each in the order it writes them;
 * then the outputs written later (temporal ones such as integer motion2,
 * and those written at the end); then the models' outputs (log_rank_models).
 * Ranks encode that order, so the log does not depend on which backend or
 * worker finished first.
 */
#define RANK_STAGE(s) ((uint64_t)(s) << 40)
#define RANK_OWNER(i) ((uint64_t)(i) << 20)

static uint64_t output_rank(const VqFex *fex, unsigned index)
{
    /* frames are finalized in order: index below n_finalized means a
     * value written after its own frame (temporal lag or flush) */
    unsigned stage = index < fex->n_finalized;
    unsigned made = 0;
    for (unsigned k = 0; k < fex->n_outputs; k++)
        made += fex->out_id[k] >= 0;
    return RANK_STAGE(stage) | RANK_OWNER(fex->order) | made;
}

/* Models' outputs after every extractor's: each model's main output in the
 * order the models were selected, then the others (bootstrap members,
 * bagging, stddev, interval), model by model, as libvmaf's tool writes
 * them when it pools the scores at the end. */
static int log_rank_models(VqContext *ctx)
{
    for (unsigned i = 0; i < ctx->n_model; i++) {
        const VqModel *m = ctx->model[i];
        for (unsigned k = 0; k < vq_model_output_count(m); k++) {
            uint64_t rank = k ? RANK_STAGE(3) | RANK_OWNER(i) | k
                              : RANK_STAGE(2) | RANK_OWNER(i);
            int id = vq_collector_series_ranked(&ctx->coll,
                                                vq_model_output_name(m, k),
                                                ctx->model_backend[i], rank);
            if (id < 0)
                return vq_fail(&ctx->err, id, "out of memory");
        }
    }
    return 0;
}

int vq_fex_emit(VqFex *fex, unsigned k, unsigned index, double value)
{
    if (k >= fex->n_outputs)
        return vq_fail(fex->err, VQ_EINVAL, "%s: output %u out of range",
                       fex->desc->name, k);
    if (fex->out_id[k] < 0) {
        int id = vq_collector_series_ranked(fex->coll, fex->out_name[k],
                                            fex->on_gpu ? "hip" : "cpu",
                                            output_rank(fex, index));
        if (id < 0)
            return vq_fail(fex->err, id, "out of memory");
        fex->out_id[k] = id;
    }
    int err = vq_collector_set(fex->coll, fex->out_id[k], index, value);
    return err ? vq_fail(fex->err, err, "out of memory") : 0;
}

int vq_fex_emit_aggregate(VqFex *fex, const char *name, double value)
{
    int err = vq_collector_set_aggregate(fex->coll, name, value);
    return err ? vq_fail(fex->err, err, "out of memory") : 0;
}

double vq_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

double vq_run_seconds(const VqContext *ctx)
{
    return ctx->t_end - ctx->t_start;
}

static const char *model_backend(VqContext *ctx, const VqModel *m)
{
    unsigned n = vq_model_input_count(m);
    for (unsigned i = 0; i < n; i++) {
        const char *spec, *output;
        vq_model_input(m, i, &spec, &output);
        const char *b = vq_output_backend(ctx, output);
        if (!b || strcmp(b, "hip"))
            return "cpu";
    }
    return "hip";
}

/* Chooses each extractor's backend and sets up GPU staging. */
static int choose_backends(VqContext *ctx)
{
    unsigned planes = 0, n_gpu = 0, n_cpu = 0;
    for (unsigned i = 0; i < ctx->n_fex; i++) {
        VqFex *fex = ctx->fex[i];
        fex->on_gpu = false;
        if (ctx->gpu && fex->desc->gpu_run) {
            int err = fex->desc->gpu_init ? fex->desc->gpu_init(fex, ctx->gpu) : 0;
            fex->gpu_ready = true;
            if (err) {
                if (ctx->cfg.strict)
                    return err;
                vq_log(ctx, VQ_LOG_LEVEL_WARNING,
                       "%s: GPU setup failed, computing it on the CPU: %s",
                       fex->desc->name, ctx->err.msg);
                if (fex->desc->gpu_close)
                    fex->desc->gpu_close(fex, ctx->gpu);
                fex->gpu_ready = false;
            } else {
                fex->on_gpu = true;
            }
        } else if (ctx->gpu) {
            if (ctx->cfg.strict)
                return vq_fail(&ctx->err, VQ_EUNSUPPORTED,
                               "%s has no GPU path (strict)", fex->desc->name);
            vq_log(ctx, VQ_LOG_LEVEL_WARNING,
                   "%s has no GPU path yet: computed on the CPU",
                   fex->desc->name);
        }
        if (fex->on_gpu) {
            n_gpu++;
            planes |= fex->planes;
        } else {
            n_cpu++;
        }
    }
    snprintf(ctx->backend_name, sizeof(ctx->backend_name), "%s",
             n_gpu && n_cpu ? "hip+cpu" : n_gpu ? "hip" : "cpu");
    unsigned threads = ctx->cfg.n_threads;
    if (!threads)
        threads = vq_cpu_count(); /* every core this process may use */
    if (threads > 1 && vq_threadpool_open(&ctx->pool, threads))
        return vq_fail(&ctx->err, VQ_ENOMEM, "cannot start %u threads", threads);
    size_t acc_gpu = vq_acc_layout(ctx->fex, ctx->n_fex, true);
    int err = vq_cpu_open(&ctx->cpu, ctx);
    if (!err && n_gpu)
        err = vq_staging_open(&ctx->staging, ctx->gpu, &ctx->fmt, planes,
                              ctx->cfg.depth, acc_gpu, ctx->pool, &ctx->err);
    return err;
}

int vq_pipeline_start(VqContext *ctx, const VqPicture *ref)
{
    int err = vq_format_from_picture(&ctx->fmt, ref, "reference", &ctx->err);
    if (err)
        return err;
    if (!ctx->n_fex && !ctx->n_model)
        return vq_fail(&ctx->err, VQ_EINVAL,
                       "no feature or model was selected");
    for (unsigned i = 0; i < ctx->n_fex; i++) {
        VqFex *fex = ctx->fex[i];
        fex->fmt = ctx->fmt;
        err = fex->desc->init(fex, &ctx->fmt);
        if (err)
            return err;
    }
    ctx->started = true;
    err = choose_backends(ctx);
    if (err)
        return err;
    for (unsigned i = 0; i < ctx->n_model; i++)
        ctx->model_backend[i] = model_backend(ctx, ctx->model[i]);
    return log_rank_models(ctx);
}

void vq_pipeline_stop(VqContext *ctx)
{
    vq_cpu_close(&ctx->cpu); /* waits for its tasks */
    vq_threadpool_close(&ctx->pool);
    if (ctx->staging)
        vq_staging_close(&ctx->staging);
    for (unsigned i = 0; i < ctx->n_fex; i++) {
        VqFex *fex = ctx->fex[i];
        if (fex->gpu_ready && fex->desc->gpu_close)
            fex->desc->gpu_close(fex, ctx->gpu);
        fex->gpu_ready = false;
    }
}

/* Reads back one slot's results (waiting for them) and finalizes them. */
static int collect_slot(VqContext *ctx, VqSlot *slot)
{
    if (!slot->busy)
        return 0;
    slot->busy = false;
    if (slot->has_work) {
        double t = vq_now();
        int err = vq_gpu_event_sync(ctx->gpu, slot->done);
        ctx->t_wait += vq_now() - t;
        if (err)
            return err;
    }
    for (unsigned i = 0; i < ctx->n_fex; i++) {
        VqFex *fex = ctx->fex[i];
        if (!fex->on_gpu)
            continue;
        if (vq_fex_runs_on(ctx, fex, slot->index)) {
            int err = fex->desc->finalize(fex, slot->acc_host + fex->acc_off,
                                          slot->index);
            if (err)
                return err;
        }
        fex->n_finalized++;
    }
    return 0;
}

/* Collects finished GPU slots and CPU frames in order; with wait, all. */
static int collect(VqContext *ctx, bool wait)
{
    int err = ctx->cpu ? vq_cpu_collect(ctx->cpu, wait) : 0;
    if (err || !ctx->staging)
        return err;
    unsigned depth = ctx->staging->depth;
    for (unsigned n = 0; n < depth; n++) {
        /* The oldest slot in flight is the one after the newest. */
        VqSlot *slot = &ctx->staging->slot[(ctx->next_slot + n) % depth];
        if (!slot->busy)
            continue;
        if (!wait && slot->has_work) {
            int done = vq_gpu_event_done(ctx->gpu, slot->done);
            if (done < 0)
                return done;
            if (!done)
                return 0;
        }
        err = collect_slot(ctx, slot);
        if (err)
            return err;
    }
    return 0;
}

static unsigned frames_final(const VqFex *fex)
{
    if (fex->flushed)
        return fex->n_finalized;
    return fex->n_finalized > fex->lag ? fex->n_finalized - fex->lag : 0;
}

/* Advances n_ready over frames whose outputs are all final. */
static int update_ready(VqContext *ctx)
{
    while (ctx->n_ready < ctx->n_submitted) {
        unsigned i = ctx->n_ready;
        for (unsigned k = 0; k < ctx->n_fex; k++)
            if (frames_final(ctx->fex[k]) <= i)
                return 0;
        bool sampled = ctx->cfg.n_subsample <= 1 || !(i % ctx->cfg.n_subsample);
        for (unsigned k = 0; sampled && k < ctx->n_model; k++) {
            int err = vq_model_predict(ctx->model[k], &ctx->coll, i,
                                       ctx->model_backend[k], &ctx->err);
            if (err)
                return err;
        }
        ctx->n_ready++;
    }
    return 0;
}

/* Device pictures, when a submission has them. */
typedef struct DeviceInput {
    VqStream producer;
} DeviceInput;

/* Whether every stored plane of both frames lies in pinned buffers of
 * vq_host_alloc (then uploaded without the host copy). */
static bool frames_pinned(const VqContext *ctx, const VqFrame *r,
                          const VqFrame *d)
{
    const VqFormat *fmt = &ctx->fmt;
    unsigned n_stored = fmt->semiplanar ? 2 : fmt->n_planes;
    if (!ctx->n_host_buf || ctx->staging->mapped)
        return false;
    for (unsigned k = 0; k < 2; k++)
        for (unsigned p = 0; p < n_stored; p++) {
            const VqPlane *pl = &(k ? d : r)->plane[p];
            if (!pl->h)
                continue;
            size_t len = (size_t)pl->stride * (pl->h - 1) +
                         vq_raw_row_bytes(fmt, p);
            if (!vq_in_host_buf(ctx, pl->data, len))
                return false;
        }
    return true;
}

static int submit_gpu(VqContext *ctx, const VqFrame *ref, const VqFrame *dis,
                      unsigned index, const DeviceInput *dev)
{
    VqStaging *st = ctx->staging;
    VqSlot *slot = &st->slot[ctx->next_slot];
    int err = collect_slot(ctx, slot);
    if (err)
        return err;
    slot->index = index;
    slot->has_work = false;
    for (unsigned i = 0; i < ctx->n_fex; i++)
        if (ctx->fex[i]->on_gpu && vq_fex_runs_on(ctx, ctx->fex[i], index))
            slot->has_work = true;
    if (slot->has_work) {
        double t0 = vq_now();
        if (dev)
            err = vq_staging_upload_device(st, slot, ref, dis, dev->producer);
        else if (frames_pinned(ctx, ref, dis))
            err = vq_staging_upload_pinned(st, slot, ref, dis);
        else
            err = vq_staging_upload(st, slot, ref, dis);
        double t1 = vq_now();
        for (unsigned i = 0; !err && i < ctx->n_fex; i++) {
            VqFex *fex = ctx->fex[i];
            if (fex->on_gpu && vq_fex_runs_on(ctx, fex, index))
                err = fex->desc->gpu_run(fex, ctx->gpu, &slot->view[0],
                                         &slot->view[1], index,
                                         slot->acc_dev + fex->acc_off);
        }
        if (!err)
            err = vq_staging_finish(st, slot);
        ctx->t_copy += t1 - t0;
        ctx->t_enqueue += vq_now() - t1;
        ctx->n_gpu_frames++;
        if (err)
            return err;
    }
    slot->busy = true;
    ctx->next_slot = (ctx->next_slot + 1) % st->depth;
    return 0;
}

/* Host copies of device pictures for the extractors that run on the CPU:
 * each stored plane downloaded into ctx->dl (caller's layout). */
static int download_frames(VqContext *ctx, const DeviceInput *dev,
                           const VqFrame *dref, const VqFrame *ddis,
                           VqFrame *href, VqFrame *hdis)
{
    const VqFormat *fmt = &ctx->fmt;
    /* Rare path (an extractor without a GPU path): the host waits for the
     * producer instead of an event chain. */
    if (dev->producer) {
        int err = vq_gpu_sync(ctx->gpu, dev->producer);
        if (err)
            return err;
    }
    unsigned n_stored = fmt->semiplanar ? 2 : fmt->n_planes;
    size_t need = 0;
    for (unsigned p = 0; p < n_stored; p++)
        need += 2 * vq_raw_row_bytes(fmt, p) * fmt->h[p];
    if (ctx->dl_size < need) {
        void *b = realloc(ctx->dl, need);
        if (!b)
            return vq_fail(&ctx->err, VQ_ENOMEM, "out of memory");
        ctx->dl = b;
        ctx->dl_size = need;
    }
    const VqFrame in[2] = { *dref, *ddis }; /* the outputs may alias them */
    const VqFrame *src[2] = { &in[0], &in[1] };
    VqFrame *dst[2] = { href, hdis };
    VqStream up = vq_gpu_upload_stream(ctx->gpu);
    size_t off = 0;
    for (unsigned k = 0; k < 2; k++) {
        memset(dst[k], 0, sizeof(*dst[k]));
        for (unsigned p = 0; p < n_stored; p++) {
            size_t row = vq_raw_row_bytes(fmt, p);
            VqPlane *d = &dst[k]->plane[p];
            d->data = (uint8_t *)ctx->dl + off;
            d->stride = (ptrdiff_t)row;
            d->w = fmt->w[p];
            d->h = fmt->h[p];
            int err = vq_gpu_download2d(ctx->gpu, up, (uint8_t *)ctx->dl + off,
                                        row, src[k]->plane[p].data,
                                        (size_t)src[k]->plane[p].stride, row,
                                        fmt->h[p]);
            if (err)
                return err;
            off += row * fmt->h[p];
        }
    }
    return vq_gpu_sync(ctx->gpu, up);
}

static int submit_frame(VqContext *ctx, const VqPicture *ref,
                        const VqPicture *dis, const DeviceInput *dev,
                        VqReleaseFn release, void *opaque, bool *taken);

/* submit_frame, then the caller's planes given back unless the CPU run
 * took them on. */
static int submit(VqContext *ctx, const VqPicture *ref, const VqPicture *dis,
                  const DeviceInput *dev, VqReleaseFn release, void *opaque)
{
    bool taken = false;
    int err = submit_frame(ctx, ref, dis, dev, release, opaque, &taken);
    if (release && !taken)
        release(opaque);
    return err;
}

static int submit_frame(VqContext *ctx, const VqPicture *ref,
                        const VqPicture *dis, const DeviceInput *dev,
                        VqReleaseFn release, void *opaque, bool *taken)
{
    if (!ctx)
        return VQ_EINVAL;
    if (ctx->failed)
        return vq_fail(&ctx->err, VQ_ESTATE,
                       "an earlier error stopped this run");
    if (ctx->flushed)
        return vq_fail(&ctx->err, VQ_ESTATE, "submit after flush");
    vq_err_clear(&ctx->err);
    int err;
    if (!ctx->started) {
        ctx->t_start = vq_now();
        err = vq_pipeline_start(ctx, ref);
        if (err) {
            ctx->failed = true;
            vq_pipeline_stop(ctx);
            return err;
        }
    }
    if (dev && !ctx->gpu)
        return vq_fail(&ctx->err, VQ_EUNSUPPORTED,
                       "pictures in device memory need the GPU backend "
                       "(this context computes on the CPU)");
    /* A bad picture is refused without stopping the run. */
    VqFrame r, d;
    err = vq_frame_from_picture(&r, &ctx->fmt, ref, "reference", &ctx->err);
    if (!err)
        err = vq_frame_from_picture(&d, &ctx->fmt, dis, "distorted", &ctx->err);
    if (err)
        return err;
    unsigned index = ctx->n_submitted;
    if (ctx->staging)
        err = submit_gpu(ctx, &r, &d, index, dev);
    if (!err && dev && vq_cpu_active(ctx->cpu))
        err = download_frames(ctx, dev, &r, &d, &r, &d);
    if (!err) {
        double t = vq_now();
        /* planes downloaded from the GPU are not the caller's */
        err = vq_cpu_submit(ctx->cpu, &r, &d, index, dev ? NULL : release,
                            opaque, taken);
        ctx->t_cpu += vq_now() - t;
    }
    if (!err) {
        ctx->n_submitted++;
        err = collect(ctx, false);
    }
    if (!err)
        err = update_ready(ctx);
    if (err)
        ctx->failed = true;
    return err;
}

int vq_submit(VqContext *ctx, const VqPicture *ref, const VqPicture *dis)
{
    return submit(ctx, ref, dis, NULL, NULL, NULL);
}

int vq_submit_retained(VqContext *ctx, const VqPicture *ref,
                       const VqPicture *dis, VqReleaseFn release, void *opaque)
{
    if (!release)
        return vq_submit(ctx, ref, dis);
    return submit(ctx, ref, dis, NULL, release, opaque);
}

int vq_submit_device(VqContext *ctx, const VqDevicePicture *ref,
                     const VqDevicePicture *dis)
{
    if (!ctx || !ref || !dis)
        return VQ_EINVAL;
    if (ref->device != ctx->cfg.device || dis->device != ctx->cfg.device)
        return vq_fail(&ctx->err, VQ_EINVAL,
                       "device pictures on GPU %d and %d, but this context "
                       "uses GPU %d", ref->device, dis->device, ctx->cfg.device);
    if (ref->stream != dis->stream)
        return vq_fail(&ctx->err, VQ_EINVAL,
                       "the reference and distorted device pictures name "
                       "different producer streams");
    DeviceInput dev = { (VqStream)ref->stream };
    return submit(ctx, &ref->pic, &dis->pic, &dev, NULL, NULL);
}

int vq_flush(VqContext *ctx)
{
    if (!ctx)
        return VQ_EINVAL;
    if (ctx->flushed)
        return 0;
    ctx->flushed = true;
    if (ctx->failed)
        return vq_fail(&ctx->err, VQ_ESTATE,
                       "an earlier error stopped this run");
    int err = collect(ctx, true);
    for (unsigned i = 0; !err && i < ctx->n_fex; i++) {
        VqFex *fex = ctx->fex[i];
        if (fex->desc->flush && ctx->started)
            err = fex->desc->flush(fex);
        fex->flushed = true;
    }
    if (!err)
        err = update_ready(ctx);
    if (err)
        ctx->failed = true;
    return err;
}

static int receive(VqContext *ctx, VqFrameScores *out, bool wait)
{
    if (!ctx || !out)
        return VQ_EINVAL;
    if (ctx->failed)
        return vq_fail(&ctx->err, VQ_ESTATE,
                       "an earlier error stopped this run");
    int err = collect(ctx, wait);
    if (!err)
        err = update_ready(ctx);
    if (err) {
        ctx->failed = true;
        return err;
    }
    if (ctx->n_delivered == ctx->n_ready)
        return ctx->flushed ? VQ_EOF : VQ_EAGAIN;

    unsigned index = ctx->n_delivered;
    if (ctx->frame_scores_cap < ctx->coll.n) {
        VqScore *s = realloc(ctx->frame_scores, ctx->coll.n * sizeof(*s));
        if (!s)
            return vq_fail(&ctx->err, VQ_ENOMEM, "out of memory");
        ctx->frame_scores = s;
        ctx->frame_scores_cap = ctx->coll.n;
    }
    unsigned n = 0;
    for (unsigned i = 0; i < ctx->coll.n; i++) {
        int id = vq_collector_nth(&ctx->coll, i);
        double v;
        if (vq_collector_get(&ctx->coll, id, index, &v)) {
            ctx->frame_scores[n].name = ctx->coll.series[id].name;
            ctx->frame_scores[n].value = v;
            n++;
        }
    }
    ctx->t_end = vq_now();
    out->index = index;
    out->n = n;
    out->scores = ctx->frame_scores;
    ctx->n_delivered++;
    return 0;
}

int vq_receive(VqContext *ctx, VqFrameScores *out)
{
    return receive(ctx, out, false);
}

int vq_receive_wait(VqContext *ctx, VqFrameScores *out)
{
    return receive(ctx, out, true);
}
