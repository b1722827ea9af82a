/*
 * Frame flow: submit -> (GPU slots | CPU run) -> finalize -> models -> receive.
 *
 * Frames are finalized in submission order on each backend. Frame i is ready
 * once every extractor has finalized it (fex->lag frames later for temporal
 * extractors, unless flushed) and the models have scored it.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "context.h"

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
    unsigned planes = 0, n_gpu = 0, n_cpu = 0, history = 0, n_sets = 0;
    unsigned max_sets = 1;
    bool fake = ctx->gpu && vq_gpu_is_fake(ctx->gpu);
    /* the fake device has one stream */
    unsigned lane_cap = ctx->gpu && !fake ? vq_staging_lane_cap() : 0;
    for (unsigned i = 0; i < ctx->n_fex; i++) {
        VqFex *fex = ctx->fex[i];
        fex->on_gpu = false;
        fex->gpu_seq = 0;
        fex->gpu_sets = 1;
        if (lane_cap >= 2 && fex->desc->gpu_sets > 1)
            fex->gpu_sets = fex->desc->gpu_sets < lane_cap ? fex->desc->gpu_sets
                                                           : lane_cap;
        if (ctx->gpu && vq_fex_has_gpu(ctx, fex)) {
            int err = fex->desc->gpu_init && !fake
                      ? fex->desc->gpu_init(fex, ctx->gpu) : 0;
            fex->gpu_ready = true;
            if (err) {
                if (ctx->cfg.strict)
                    return err;
                vq_log(ctx, VQ_LOG_LEVEL_WARNING,
                       "%s: GPU setup failed, computing it on the CPU: %s",
                       fex->desc->name, ctx->err.msg);
                vq_fex_gpu_close(ctx, fex);
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
            if (!fex->gpu_sets)
                fex->gpu_sets = 1;
            fex->gpu_lane0 = n_sets;
            n_sets += fex->gpu_sets;
            if (fex->gpu_sets > max_sets)
                max_sets = fex->gpu_sets;
            n_gpu++;
            planes |= fex->planes;
            if ((fex->desc->flags & VQ_FEX_TEMPORAL) && fex->lag > history)
                history = fex->lag < VQ_MAX_HISTORY ? fex->lag : VQ_MAX_HISTORY;
        } else {
            n_cpu++;
        }
    }
    snprintf(ctx->backend_name, sizeof(ctx->backend_name), "%s",
             n_gpu && n_cpu ? "hip+cpu" : n_gpu ? "hip" : "cpu");
    unsigned threads = ctx->cfg.n_threads;
    /* every core this process may use; with every extractor on the GPU the
     * workers only copy frames into staging, where all 16 cores of the
     * H200's host were slower than 8 (1080p vmaf_v0.6.1: 2765 fps with 16,
     * 3955 with 8, 3923 with 4; at 4K 8 and 4 alike, 2 threads far less) */
    if (!threads)
        threads = n_cpu || vq_cpu_count() < 8 ? vq_cpu_count() : 8;
    if (threads > 1 && vq_threadpool_open(&ctx->pool, threads))
        return vq_fail(&ctx->err, VQ_ENOMEM, "cannot start %u threads", threads);
    /* An extractor whose frames run at once needs them in flight: with K
     * sets, 2K frames (one set's next frame is queued while it works). */
    if (!ctx->cfg.depth)
        ctx->cfg.depth = 2 * max_sets > VQ_DEFAULT_DEPTH ? 2 * max_sets
                                                         : VQ_DEFAULT_DEPTH;
    if (ctx->cfg.depth > VQ_MAX_DEPTH)
        ctx->cfg.depth = VQ_MAX_DEPTH;
    size_t acc_gpu = vq_acc_layout(ctx->fex, ctx->n_fex, true);
    int err = vq_cpu_open(&ctx->cpu, ctx);
    /* Slots beyond the frames in flight keep the host copies of the frames
     * before them that a temporal extractor's CPU path would need (to
     * verify a frame, or to take over after a fault). */
    if (!err && n_gpu)
        err = vq_staging_open(&ctx->staging, ctx->gpu, &ctx->fmt, planes,
                              ctx->cfg.depth + history, acc_gpu, ctx->pool,
                              &ctx->err);
    if (!err && n_sets > 1 && lane_cap >= 2)
        err = vq_staging_use_lanes(ctx->staging, n_sets);
    if (err == VQ_EDEVICE && n_gpu)
        err = vq_fallback(ctx);
    return err;
}

static int pipeline_setup(VqContext *ctx, const VqPicture *ref,
                          const VqPicture *dis);

int vq_pipeline_start(VqContext *ctx, const VqPicture *ref,
                      const VqPicture *dis)
{
    double t = vq_now();
    int err = pipeline_setup(ctx, ref, dis);
    ctx->t_setup = vq_now() - t;
    return err;
}

static int pipeline_setup(VqContext *ctx, const VqPicture *ref,
                          const VqPicture *dis)
{
    int err = vq_format_from_picture(&ctx->fmt, ref, "reference", &ctx->err);
    if (!err && dis)
        err = vq_format_set_color(&ctx->fmt, ref, dis);
    if (err)
        return err;
    if (!ctx->n_fex && !ctx->n_model)
        return vq_fail(&ctx->err, VQ_EINVAL,
                       "no feature or model was selected");
    for (unsigned i = 0; i < ctx->n_fex; i++) {
        VqFex *fex = ctx->fex[i];
        fex->fmt = ctx->fmt;
        err = fex->desc->init(fex, &ctx->fmt);
        /* skip_unsupported: an extractor that cannot score this size or
         * format is left out, unless a model needs it */
        if (err == VQ_EUNSUPPORTED && ctx->cfg.skip_unsupported &&
            !vq_fex_needed_by_model(ctx, fex)) {
            vq_log(ctx, VQ_LOG_LEVEL_WARNING, "%s (skip_unsupported: its "
                   "outputs are left out)", ctx->err.msg);
            vq_fex_drop(ctx, i--);
            err = 0;
        }
        if (err)
            return err;
    }
    if (!ctx->n_fex && !ctx->n_model)
        return vq_fail(&ctx->err, VQ_EUNSUPPORTED, "no selected feature can "
                       "score %ux%u pictures", ctx->fmt.w[0], ctx->fmt.h[0]);
    ctx->started = true;
    err = choose_backends(ctx);
    if (err)
        return err;
    /* the extractors' set-up uploads (tables) are not frame traffic */
    if (ctx->gpu)
        vq_gpu_traffic(ctx->gpu, &ctx->traffic_setup);
    for (unsigned i = 0; i < ctx->n_model; i++)
        ctx->model_backend[i] = model_backend(ctx, ctx->model[i]);
    return vq_log_rank_models(ctx);
}

void vq_pipeline_stop(VqContext *ctx)
{
    vq_cpu_close(&ctx->cpu); /* waits for its tasks */
    vq_threadpool_close(&ctx->pool);
    if (ctx->staging)
        vq_staging_close(&ctx->staging);
    for (unsigned i = 0; i < ctx->n_fex; i++)
        vq_fex_gpu_close(ctx, ctx->fex[i]);
    vq_verify_free(ctx);
}

static int collect_once(VqContext *ctx, bool wait);

/* Collects finished GPU slots and CPU frames in order; with wait, all. A
 * device error moves the run to the CPU (vq_fallback). */
static int collect(VqContext *ctx, bool wait)
{
    int err = collect_once(ctx, wait);
    if (err == VQ_EDEVICE && ctx->staging) {
        err = vq_fallback(ctx);
        if (!err)
            err = collect_once(ctx, wait);
    }
    return err;
}

static int collect_once(VqContext *ctx, bool wait)
{
    int err = ctx->cpu ? vq_cpu_collect(ctx->cpu, wait) : 0;
    if (err || !ctx->staging)
        return err;
    VqSlot *fl[VQ_MAX_SLOTS];
    unsigned n_fl = vq_gpu_in_flight(ctx, fl);
    for (unsigned n = 0; n < n_fl; n++) {
        VqSlot *slot = fl[n];
        if (!wait && slot->has_work) {
            int done = vq_gpu_event_done(ctx->gpu, slot->done);
            if (done < 0)
                return done;
            if (!done)
                return 0;
        }
        err = vq_gpu_collect_slot(ctx, slot);
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

/* A model's score is a number: NaN or infinity (from non-finite inputs,
 * e.g. a feature that is infinite on identical frames) stops the run. */
static int check_finite(VqContext *ctx, const VqModel *m, unsigned index)
{
    for (unsigned k = 0; k < vq_model_output_count(m); k++) {
        const char *name = vq_model_output_name(m, k);
        double v;
        if (vq_collector_get(&ctx->coll, vq_collector_find(&ctx->coll, name),
                             index, &v) && !isfinite(v))
            return vq_fail(&ctx->err, VQ_EMODEL, "model '%s' gave %s for "
                           "'%s' on frame %u (a feature it reads is not "
                           "finite there): no score can be reported",
                           vq_model_name(m), isnan(v) ? "NaN" : "infinity",
                           name, index);
    }
    return 0;
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
            if (!err)
                err = check_finite(ctx, ctx->model[k], i);
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
    int err = vq_bind(ctx);
    if (err)
        return err;
    if (!ctx->n_submitted)
        ctx->t_start = vq_now();
    if (!ctx->started) {
        err = vq_pipeline_start(ctx, ref, dis);
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
    err = vq_color_pair(ctx, ref, dis);
    if (err) {
        ctx->failed = true;
        return err;
    }
    unsigned index = ctx->n_submitted;
    if (ctx->staging) {
        err = vq_gpu_submit(ctx, &r, &d, index, dev != NULL,
                            dev ? dev->producer : NULL, dev ? release : NULL,
                            opaque, taken);
        /* this frame was not in flight: it goes to the CPU below */
        if (err == VQ_EDEVICE)
            err = vq_fallback(ctx);
    }
    /* After a fault the GPU is not touched again: the CPU cannot read
     * pictures in device memory (never a download from a faulted device). */
    if (!err && dev && ctx->fell_back)
        err = vq_fail(&ctx->err, VQ_EDEVICE, "%s; pictures in device "
                      "memory cannot be scored on the CPU after that",
                      ctx->fallback_reason);
    if (!err && dev && vq_cpu_active(ctx->cpu))
        err = vq_download_frames(ctx, dev->producer, &r, &d, &r, &d);
    if (!err) {
        double t = vq_now();
        /* planes downloaded from the GPU are not the caller's (a lent
         * device pair stays the GPU slot's) */
        bool cpu_took = false;
        err = vq_cpu_submit(ctx->cpu, &r, &d, index, dev ? NULL : release,
                            opaque, &cpu_took);
        *taken = *taken || cpu_took;
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

int vq_configure(VqContext *ctx, const VqPicture *geometry)
{
    if (!ctx || !geometry)
        return VQ_EINVAL;
    if (ctx->started || ctx->failed)
        return vq_fail(&ctx->err, VQ_ESTATE, "vq_configure: the run has "
                       "already started");
    int err = vq_bind(ctx);
    if (!err)
        err = vq_pipeline_start(ctx, geometry, NULL);
    if (err) {
        ctx->failed = true;
        vq_pipeline_stop(ctx);
    }
    ctx->color_pending = !err;
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

/* Device pictures, copied (release NULL) or lent until release. A pair
 * refused before it is read is given back at once. */
static int submit_device(VqContext *ctx, const VqDevicePicture *ref,
                         const VqDevicePicture *dis, VqReleaseFn release,
                         void *opaque)
{
    int err = 0;
    if (!ctx || !ref || !dis)
        err = VQ_EINVAL;
    else if (ref->device != ctx->cfg.device || dis->device != ctx->cfg.device)
        err = vq_fail(&ctx->err, VQ_EINVAL,
                      "device pictures on GPU %d and %d, but this context "
                      "uses GPU %d", ref->device, dis->device, ctx->cfg.device);
    else if (ref->stream != dis->stream)
        err = vq_fail(&ctx->err, VQ_EINVAL,
                      "the reference and distorted device pictures name "
                      "different producer streams");
    if (err) {
        if (release)
            release(opaque);
        return err;
    }
    DeviceInput dev = { (VqStream)ref->stream };
    return submit(ctx, &ref->pic, &dis->pic, &dev, release, opaque);
}

int vq_submit_device(VqContext *ctx, const VqDevicePicture *ref,
                     const VqDevicePicture *dis)
{
    return submit_device(ctx, ref, dis, NULL, NULL);
}

int vq_submit_device_retained(VqContext *ctx, const VqDevicePicture *ref,
                              const VqDevicePicture *dis, VqReleaseFn release,
                              void *opaque)
{
    return submit_device(ctx, ref, dis, release, opaque);
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
    int err = vq_bind(ctx);
    if (!err)
        err = collect(ctx, true);
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
    int err = vq_bind(ctx);
    if (!err)
        err = collect(ctx, wait);
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
    if (!ctx->n_delivered)
        ctx->t_first = ctx->t_end - ctx->t_start;
    out->index = index;
    out->n = n;
    out->scores = ctx->frame_scores;
    out->backend = ctx->fell_back && index >= ctx->fallback_frame
                   ? "cpu" : ctx->backend_name;
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
