/* Pictures in, scores out: the run's public calls (run/pipeline.h). */
#include <stdlib.h>

#include "context.h"

int vq_configure(VqContext *ctx, const VqPicture *geometry)
{
    if (!ctx || !geometry)
        return VQ_EINVAL;
    return vq_pipeline_configure(&ctx->run, geometry);
}

int vq_submit(VqContext *ctx, const VqPicture *ref, const VqPicture *dis)
{
    if (!ctx)
        return VQ_EINVAL;
    return vq_pipeline_submit(&ctx->run, ref, dis, NULL, NULL);
}

int vq_submit_retained(VqContext *ctx, const VqPicture *ref,
                       const VqPicture *dis, VqReleaseFn release, void *opaque)
{
    if (!release)
        return vq_submit(ctx, ref, dis);
    if (!ctx) {
        release(opaque);
        return VQ_EINVAL;
    }
    return vq_pipeline_submit(&ctx->run, ref, dis, release, opaque);
}

int vq_submit_device(VqContext *ctx, const VqDevicePicture *ref,
                     const VqDevicePicture *dis)
{
    if (!ctx)
        return VQ_EINVAL;
    return vq_pipeline_submit_device(&ctx->run, ref, dis, NULL, NULL);
}

int vq_submit_device_retained(VqContext *ctx, const VqDevicePicture *ref,
                              const VqDevicePicture *dis, VqReleaseFn release,
                              void *opaque)
{
    if (!ctx) {
        if (release)
            release(opaque);
        return VQ_EINVAL;
    }
    return vq_pipeline_submit_device(&ctx->run, ref, dis, release, opaque);
}

int vq_flush(VqContext *ctx)
{
    if (!ctx)
        return VQ_EINVAL;
    return vq_pipeline_flush(&ctx->run);
}

static int receive(VqContext *ctx, VqFrameScores *out, bool wait)
{
    if (!ctx || !out)
        return VQ_EINVAL;
    VqPipeline *p = &ctx->run;
    int err = vq_pipeline_poll(p, wait);
    if (err)
        return err;
    if (p->n_delivered == p->n_ready)
        return p->flushed ? VQ_EOF : VQ_EAGAIN;

    const VqCollector *coll = &ctx->sel.coll;
    unsigned index = p->n_delivered;
    if (ctx->frame_scores_cap < coll->n) {
        VqScore *s = realloc(ctx->frame_scores, coll->n * sizeof(*s));
        if (!s)
            return vq_fail(&ctx->err, VQ_ENOMEM, "out of memory");
        ctx->frame_scores = s;
        ctx->frame_scores_cap = coll->n;
    }
    unsigned n = 0;
    for (unsigned i = 0; i < coll->n; i++) {
        int id = vq_collector_nth(coll, i);
        double v;
        if (vq_collector_get(coll, id, index, &v)) {
            ctx->frame_scores[n].name = coll->series[id].name;
            ctx->frame_scores[n].value = v;
            n++;
        }
    }
    vq_pipeline_delivered(p);
    out->index = index;
    out->n = n;
    out->scores = ctx->frame_scores;
    out->backend = vq_pipeline_frame_backend(p, index);
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
