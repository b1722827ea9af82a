/*
 * The GPU's open taken by the run, and the pairs that wait while it opens
 * on its thread (VqConfig.open_async): held up to open_hold_bytes, then
 * scored in order once it is open, on the GPU or, when it could not be
 * opened, on the CPU (or, strict, not at all).
 */
#include "base/clock.h"
#include "pipeline_priv.h"

/* The open's GPU becomes the run's. */
static void take_gpu(VqPipeline *p)
{
    VqGpuOpen *o = &p->open;
    p->times.gpu_open = o->seconds;
    p->gpu = p->gpu_run.gpu = o->gpu;
    if (p->gpu)
        vq_gpu_set_errbuf(p->gpu, p->err);
}

int vq_pipeline_gpu_opened(VqPipeline *p)
{
    VqGpuOpen *o = &p->open;
    take_gpu(p);
    if (o->err) {
        if (p->cfg.strict)
            return vq_fail(p->err, o->err,
                           "GPU backend unavailable (strict): %s", o->why.msg);
        vq_log(&p->log, VQ_LOG_LEVEL_WARNING,
               "GPU backend unavailable, using the CPU: %s", o->why.msg);
        return 0;
    }
    vq_log(&p->log, VQ_LOG_LEVEL_INFO, "GPU %d: %s (%s, wave size %d)",
           p->cfg.device, vq_gpu_name(p->gpu), vq_gpu_platform(),
           vq_gpu_wave_size(p->gpu));
    return 0;
}

int vq_pipeline_settle(VqPipeline *p, bool wait)
{
    VqGpuOpen *o = &p->open;
    if (!vq_gpu_open_pending(o) || (!wait && !vq_gpu_open_finished(o)))
        return 0;
    vq_gpu_open_join(o);
    if (p->failed) { /* the run stopped while the GPU opened */
        take_gpu(p);
        vq_held_clear(&p->held);
        return 0;
    }
    int err = vq_pipeline_gpu_opened(p);
    if (!err && p->prepared) {
        err = vq_pipeline_bind(p);
        if (!err)
            err = vq_pipeline_start(p, NULL, NULL);
        if (err)
            vq_pipeline_stop_stages(p);
    }
    if (!err && p->held.n)
        vq_log(&p->log, VQ_LOG_LEVEL_INFO, "%u frame pairs (%zu KiB) waited "
               "while the GPU opened", p->held.n, p->held.bytes >> 10);
    /* the held pairs, oldest first, as if submitted now */
    VqHeldPair hp;
    while (!err && vq_held_pop(&p->held, &hp)) {
        bool taken = false;
        err = vq_pipeline_submit_frame(p, &hp.ref, &hp.dis, NULL,
                                       hp.copy ? NULL : hp.release, hp.opaque,
                                       &taken);
        if (taken)
            hp.release = NULL; /* the run gives the planes back */
        vq_held_pair_free(&hp);
    }
    if (err) {
        p->failed = true;
        vq_held_clear(&p->held);
    }
    return err;
}

int vq_pipeline_await_gpu(VqPipeline *p)
{
    return vq_pipeline_settle(p, true);
}

int vq_pipeline_hold(VqPipeline *p, const VqPicture *ref,
                     const VqPicture *dis, VqReleaseFn release, void *opaque,
                     bool *taken)
{
    if (vq_gpu_open_finished(&p->open)) {
        int err = vq_pipeline_settle(p, false);
        return err ? err : vq_pipeline_submit_frame(p, ref, dis, NULL,
                                                    release, opaque, taken);
    }
    if (p->failed)
        return vq_fail(p->err, VQ_ESTATE,
                       "an earlier error stopped this run");
    vq_err_clear(p->err);
    if (!p->n_submitted && !p->held.total)
        p->times.start = vq_now();
    int err = 0;
    if (!p->prepared) {
        double t = vq_now();
        err = vq_pipeline_prepare(p, ref, dis);
        p->times.setup += vq_now() - t;
        if (err) {
            p->failed = true;
            vq_pipeline_stop_stages(p);
            return err;
        }
    }
    /* A bad picture is refused now, without stopping the run. */
    VqFrame r, d;
    unsigned planes = vq_pipeline_planes(p);
    err = vq_frame_from_picture(&r, &p->fmt, ref, "reference", p->err);
    if (!err)
        err = vq_frame_from_picture(&d, &p->fmt, dis, "distorted", p->err);
    if (!err)
        err = vq_frame_check_range(&r, &p->fmt, planes, "reference", p->err);
    if (!err)
        err = vq_frame_check_range(&d, &p->fmt, planes, "distorted", p->err);
    if (err)
        return err;
    if (p->held.bytes + vq_held_pair_bytes(&p->fmt, planes) > p->held.budget) {
        /* over the budget: this pair waits for the GPU */
        err = vq_pipeline_settle(p, true);
        return err ? err : vq_pipeline_submit_frame(p, ref, dis, NULL,
                                                    release, opaque, taken);
    }
    err = vq_held_push(&p->held, &p->fmt, planes, ref, dis, &r, &d, release,
                       opaque, p->err);
    if (err) {
        p->failed = true;
        return err;
    }
    *taken = release != NULL;
    return 0;
}

void vq_pipeline_stop(VqPipeline *p)
{
    /* an open cannot be stopped: waited for, its GPU closed with the run */
    if (vq_gpu_open_pending(&p->open)) {
        vq_gpu_open_join(&p->open);
        take_gpu(p);
    }
    vq_held_clear(&p->held);
    vq_pipeline_bind(p); /* what cannot be made current is released all
                            the same */
    vq_pipeline_stop_stages(p);
}
