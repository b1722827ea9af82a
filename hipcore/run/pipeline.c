/*
 * The frame flow (pipeline.h): a pair submitted to the GPU run and the CPU
 * run, their finished frames collected in order, frames made ready once
 * every output (the models' too) is final.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "pipeline_priv.h"

void vq_pipeline_init(VqPipeline *p, const VqConfig *cfg, VqSelection *sel,
                      const VqHostBufs *host, VqErrBuf *err)
{
    memset(p, 0, sizeof(*p));
    p->cfg = *cfg;
    p->sel = sel;
    p->err = err;
    p->log = (VqLogger){ cfg->log, cfg->log_opaque, cfg->log_level };
    p->env = (VqRunEnv){ &sel->fexs, &p->fmt, &sel->coll, err,
                         &p->log };
    p->gpu_run.env = &p->env;
    p->gpu_run.host = host;
    p->gpu_run.verify.every = cfg->verify;
    p->held.budget = cfg->open_hold_bytes;
}

int vq_pipeline_open_gpu(VqPipeline *p)
{
    if (p->cfg.backend == VQ_BACKEND_CPU)
        return 0;
    /* the caller's current context is this thread's: opened here */
    bool async = p->cfg.open_async && !p->cfg.use_current_context;
    vq_gpu_open_begin(&p->open, p->cfg.device, p->cfg.use_current_context,
                      async);
    return vq_gpu_open_pending(&p->open) ? 0 : vq_pipeline_gpu_opened(p);
}

void vq_pipeline_free(VqPipeline *p)
{
    vq_held_clear(&p->held);
    vq_gpu_run_free(&p->gpu_run);
    vq_gpu_close(&p->gpu);
    p->gpu_run.gpu = NULL;
}

double vq_pipeline_seconds(const VqPipeline *p)
{
    return p->times.end - p->times.start;
}

static int collect_once(VqPipeline *p, bool wait);

/* Collects finished GPU slots and CPU frames in order; with wait, all. A
 * device error moves the run to the CPU (vq_fallback). */
static int collect(VqPipeline *p, bool wait)
{
    int err = collect_once(p, wait);
    if (err == VQ_EDEVICE && p->gpu_run.staging) {
        err = vq_pipeline_fallback(p);
        if (!err)
            err = collect_once(p, wait);
    }
    return err;
}

static int collect_once(VqPipeline *p, bool wait)
{
    int err = p->cpu ? vq_cpu_collect(p->cpu, wait) : 0;
    if (err || !p->gpu_run.staging)
        return err;
    VqSlot *fl[VQ_MAX_SLOTS];
    unsigned n_fl = vq_gpu_in_flight(&p->gpu_run, fl);
    for (unsigned n = 0; n < n_fl; n++) {
        VqSlot *slot = fl[n];
        if (!wait && slot->has_work) {
            int done = vq_gpu_event_done(p->gpu, slot->done);
            if (done < 0)
                return done;
            if (!done)
                return 0;
        }
        err = vq_gpu_collect_slot(&p->gpu_run, slot);
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
static int check_finite(VqPipeline *p, const VqModel *m, unsigned index)
{
    const VqCollector *coll = &p->sel->coll;
    for (unsigned k = 0; k < vq_model_output_count(m); k++) {
        const char *name = vq_model_output_name(m, k);
        double v;
        if (vq_collector_get(coll, vq_collector_find(coll, name), index, &v) &&
            !isfinite(v))
            return vq_fail(p->err, VQ_EMODEL, "model '%s' gave %s for "
                           "'%s' on frame %u (a feature it reads is not "
                           "finite there): no score can be reported",
                           vq_model_name(m), isnan(v) ? "NaN" : "infinity",
                           name, index);
    }
    return 0;
}

/* Advances n_ready over frames whose outputs are all final. */
static int update_ready(VqPipeline *p)
{
    const VqSelection *sel = p->sel;
    while (p->n_ready < p->n_submitted) {
        unsigned i = p->n_ready;
        for (unsigned k = 0; k < sel->fexs.n; k++)
            if (frames_final(sel->fexs.fex[k]) <= i)
                return 0;
        bool sampled = vq_collector_scored(&sel->coll, i);
        for (unsigned k = 0; sampled && k < sel->n_model; k++) {
            int err = vq_model_predict(sel->model[k], &p->sel->coll, i,
                                       p->model_backend[k], p->err);
            if (!err)
                err = check_finite(p, sel->model[k], i);
            if (err)
                return err;
        }
        p->n_ready++;
    }
    return 0;
}

int vq_pipeline_submit_frame(VqPipeline *p, const VqPicture *ref,
                             const VqPicture *dis, const VqDeviceInput *dev,
                             VqReleaseFn release, void *opaque, bool *taken)
{
    if (p->failed)
        return vq_fail(p->err, VQ_ESTATE,
                       "an earlier error stopped this run");
    if (p->flushed)
        return vq_fail(p->err, VQ_ESTATE, "submit after flush");
    vq_err_clear(p->err);
    int err = vq_pipeline_bind(p);
    if (err)
        return err;
    if (!p->n_submitted && !p->held.total)
        p->times.start = vq_now();
    if (!p->running) {
        err = vq_pipeline_start(p, ref, dis);
        if (err) {
            p->failed = true;
            vq_pipeline_stop_stages(p);
            return err;
        }
    }
    if (dev && !p->gpu)
        return vq_fail(p->err, VQ_EUNSUPPORTED,
                       "pictures in device memory need the GPU backend "
                       "(this context computes on the CPU)");
    /* A bad picture is refused without stopping the run. */
    VqFrame r, d;
    err = vq_frame_from_picture(&r, &p->fmt, ref, "reference", p->err);
    if (!err)
        err = vq_frame_from_picture(&d, &p->fmt, dis, "distorted", p->err);
    if (!err && !dev)
        err = vq_frame_check_range(&r, &p->fmt, vq_pipeline_planes(p),
                                   "reference", p->err);
    if (!err && !dev)
        err = vq_frame_check_range(&d, &p->fmt, vq_pipeline_planes(p),
                                   "distorted", p->err);
    /* device pictures: the same check and message, on the GPU (not after
     * a fault: they are refused below) */
    if (!err && dev && !p->fallback.fell_back) {
        err = vq_gpu_check_range(p->gpu, &p->gpu_run.range, dev->producer,
                                 &r, &d, &p->fmt, vq_pipeline_planes(p),
                                 p->err);
        if (err == VQ_EDEVICE && !vq_pipeline_fallback(p))
            err = vq_fail(p->err, VQ_EDEVICE, "%s; pictures in device "
                          "memory cannot be scored on the CPU after that",
                          p->fallback.reason);
    }
    if (err)
        return err;
    err = vq_color_pair(&p->color, &p->env, &p->fmt, ref, dis,
                        p->n_submitted);
    if (err) {
        p->failed = true;
        return err;
    }
    unsigned index = p->n_submitted;
    if (p->gpu_run.staging) {
        err = vq_gpu_submit(&p->gpu_run, &r, &d, index, dev != NULL,
                            dev ? dev->producer : NULL, dev ? release : NULL,
                            opaque, taken);
        /* this frame was not in flight: it goes to the CPU below */
        if (err == VQ_EDEVICE)
            err = vq_pipeline_fallback(p);
    }
    /* After a fault the GPU is not touched again: the CPU cannot read
     * pictures in device memory (never a download from a faulted device). */
    if (!err && dev && p->fallback.fell_back)
        err = vq_fail(p->err, VQ_EDEVICE, "%s; pictures in device "
                      "memory cannot be scored on the CPU after that",
                      p->fallback.reason);
    if (!err && dev && vq_cpu_active(p->cpu))
        err = vq_download_frames(&p->gpu_run, dev->producer, &r, &d, &r, &d);
    if (!err) {
        double t = vq_now();
        /* planes downloaded from the GPU are not the caller's (a lent
         * device pair stays the GPU slot's) */
        bool cpu_took = false;
        err = vq_cpu_submit(p->cpu, &r, &d, index, dev ? NULL : release,
                            opaque, &cpu_took);
        *taken = *taken || cpu_took;
        p->times.cpu += vq_now() - t;
    }
    if (!err) {
        p->n_submitted++;
        err = collect(p, false);
    }
    if (!err)
        err = update_ready(p);
    if (err)
        p->failed = true;
    return err;
}

int vq_pipeline_submit(VqPipeline *p, const VqPicture *ref,
                       const VqPicture *dis, VqReleaseFn release,
                       void *opaque)
{
    bool taken = false;
    int err = vq_gpu_open_pending(&p->open)
              ? vq_pipeline_hold(p, ref, dis, release, opaque, &taken)
              : vq_pipeline_submit_frame(p, ref, dis, NULL, release, opaque,
                                         &taken);
    /* the caller's planes go back unless the run took them on */
    if (release && !taken)
        release(opaque);
    return err;
}

int vq_pipeline_submit_device(VqPipeline *p, const VqDevicePicture *ref,
                              const VqDevicePicture *dis, VqReleaseFn release,
                              void *opaque)
{
    int err = 0;
    if (!ref || !dis)
        err = VQ_EINVAL;
    else if (ref->device != p->cfg.device || dis->device != p->cfg.device)
        err = vq_fail(p->err, VQ_EINVAL,
                      "device pictures on GPU %d and %d, but this context "
                      "uses GPU %d", ref->device, dis->device, p->cfg.device);
    else if (ref->stream != dis->stream)
        err = vq_fail(p->err, VQ_EINVAL,
                      "the reference and distorted device pictures name "
                      "different producer streams");
    /* device pictures need the GPU's fate */
    if (!err)
        err = vq_pipeline_settle(p, true);
    bool taken = false;
    if (!err) {
        VqDeviceInput dev = { (VqStream)ref->stream };
        err = vq_pipeline_submit_frame(p, &ref->pic, &dis->pic, &dev, release,
                                       opaque, &taken);
    }
    /* a pair refused before it is read is given back at once */
    if (release && !taken)
        release(opaque);
    return err;
}

int vq_pipeline_configure(VqPipeline *p, const VqPicture *geometry)
{
    if (p->prepared || p->failed)
        return vq_fail(p->err, VQ_ESTATE, "vq_configure: the run has "
                       "already started");
    int err = vq_pipeline_settle(p, false);
    if (!err)
        err = vq_pipeline_bind(p);
    if (!err) {
        /* while the GPU opens, the extractors only (their backends once
         * it is open) */
        if (vq_gpu_open_pending(&p->open)) {
            double t = vq_now();
            err = vq_pipeline_prepare(p, geometry, NULL);
            p->times.setup += vq_now() - t;
        } else {
            err = vq_pipeline_start(p, geometry, NULL);
        }
    }
    if (err) {
        p->failed = true;
        vq_pipeline_stop_stages(p);
    }
    p->color.pending = !err;
    return err;
}

int vq_pipeline_begin(VqPipeline *p, const VqPicture *ref,
                      const VqPicture *dis)
{
    if (p->running || p->failed || p->flushed)
        return 0; /* the submit itself answers the last two */
    int err = vq_pipeline_settle(p, true);
    if (!err)
        err = vq_pipeline_bind(p);
    if (!err && !p->running)
        err = vq_pipeline_start(p, ref, dis);
    if (err) {
        p->failed = true;
        vq_pipeline_stop_stages(p);
    }
    return err;
}

int vq_pipeline_flush(VqPipeline *p)
{
    if (p->flushed)
        return 0;
    /* the held pairs are scored first */
    int err = vq_pipeline_settle(p, true);
    p->flushed = true;
    if (err)
        return err;
    if (p->failed)
        return vq_fail(p->err, VQ_ESTATE,
                       "an earlier error stopped this run");
    err = vq_pipeline_bind(p);
    if (!err)
        err = collect(p, true);
    /* no frame reads a ladder's shared references again */
    if (!err)
        vq_staging_drop_all_shared(p->gpu_run.staging);
    const VqFexList *fexs = &p->sel->fexs;
    for (unsigned i = 0; !err && i < fexs->n; i++) {
        VqFex *fex = fexs->fex[i];
        if (fex->desc->flush && p->prepared)
            err = fex->desc->flush(fex);
        fex->flushed = true;
    }
    if (!err)
        err = update_ready(p);
    if (err)
        p->failed = true;
    return err;
}

int vq_pipeline_poll(VqPipeline *p, bool wait)
{
    if (p->failed)
        return vq_fail(p->err, VQ_ESTATE,
                       "an earlier error stopped this run");
    int err = vq_pipeline_settle(p, wait);
    if (!err)
        err = vq_pipeline_bind(p);
    if (!err)
        err = collect(p, wait);
    if (!err)
        err = update_ready(p);
    if (err)
        p->failed = true;
    return err;
}

void vq_pipeline_delivered(VqPipeline *p)
{
    p->times.end = vq_now();
    if (!p->n_delivered)
        p->times.first = p->times.end - p->times.start;
    p->n_delivered++;
}

const char *vq_pipeline_frame_backend(const VqPipeline *p, unsigned index)
{
    return p->fallback.fell_back && index >= p->fallback.first
           ? "cpu" : p->backend_name;
}

const char *vq_pipeline_output_backend(const VqPipeline *p, const char *name)
{
    const VqSelection *sel = p->sel;
    int id = vq_collector_find(&sel->coll, name);
    if (id >= 0)
        return sel->coll.series[id].backend;
    /* Not written yet: answer from the extractor that provides it. */
    bool known = p->prepared && !vq_gpu_open_pending(&p->open);
    for (unsigned i = 0; known && i < sel->fexs.n; i++)
        for (unsigned k = 0; k < sel->fexs.fex[i]->n_outputs; k++)
            if (!strcmp(sel->fexs.fex[i]->out_name[k], name))
                return sel->fexs.fex[i]->on_gpu ? "hip" : "cpu";
    return NULL;
}

unsigned vq_pipeline_planes(const VqPipeline *p)
{
    unsigned planes = 0;
    for (unsigned i = 0; p->prepared && i < p->sel->fexs.n; i++)
        planes |= p->sel->fexs.fex[i]->planes;
    return planes;
}
