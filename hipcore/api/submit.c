/* Pictures in, scores out: the run's public calls (run/pipeline.h). */
#include <limits.h>
#include <stdlib.h>

#include "context.h"

int vq_configure(VqContext *ctx, const VqPicture *geometry)
{
    if (!ctx || !geometry)
        return VQ_EINVAL;
    return vq_pipeline_configure(&ctx->run, geometry);
}

/* Pairs accepted so far, held ones included: the next pair's index. */
static unsigned n_pairs(const VqContext *ctx)
{
    return ctx->run.n_submitted + ctx->run.held.n;
}

/* After a submit call: the pair it accepted (if any) keeps its pts for
 * the windows. */
static int note_pts(VqContext *ctx, int err, unsigned before, const VqPicture *dis)
{
    if (err || n_pairs(ctx) != before + 1)
        return err;
    err = vq_frame_numbers_accepted(ctx, before);
    if (err || !dis)
        return err;
    err = vq_windows_note_pts(&ctx->win, before, dis->pts);
    return err ? vq_fail(&ctx->err, err, "windows: the pairs' timestamps "
                         "are out of step (or out of memory)") : 0;
}

int vq_ladder_guard(VqContext *ctx)
{
    if (!ctx->ladder || ctx->ladder_submitting)
        return 0;
    return vq_fail(&ctx->err, VQ_ESTATE, "rendition %u belongs to a ladder: "
                   "its pictures come through vq_ladder_submit",
                   ctx->ladder_index + 1);
}

int vq_skip_next(VqContext *ctx)
{
    if (!ctx)
        return VQ_EINVAL;
    int err = vq_collector_skip(&ctx->sel.coll, n_pairs(ctx));
    return err ? vq_fail(&ctx->err, err, "out of memory") : 0;
}

int vq_submit(VqContext *ctx, const VqPicture *ref, const VqPicture *dis)
{
    if (!ctx)
        return VQ_EINVAL;
    int g = vq_ladder_guard(ctx);
    if (g)
        return g;
    unsigned before = n_pairs(ctx);
    return note_pts(ctx, vq_pipeline_submit(&ctx->run, ref, dis, NULL, NULL),
                    before, dis);
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
    int g = vq_ladder_guard(ctx);
    if (g) {
        release(opaque);
        return g;
    }
    unsigned before = n_pairs(ctx);
    return note_pts(ctx, vq_pipeline_submit(&ctx->run, ref, dis, release,
                                            opaque), before, dis);
}

int vq_submit_device(VqContext *ctx, const VqDevicePicture *ref,
                     const VqDevicePicture *dis)
{
    if (!ctx)
        return VQ_EINVAL;
    int g = vq_ladder_guard(ctx);
    if (g)
        return g;
    unsigned before = n_pairs(ctx);
    return note_pts(ctx, vq_pipeline_submit_device(&ctx->run, ref, dis, NULL,
                                                   NULL),
                    before, dis ? &dis->pic : NULL);
}

int vq_submit_device_retained(VqContext *ctx, const VqDevicePicture *ref,
                              const VqDevicePicture *dis, VqReleaseFn release,
                              void *opaque)
{
    int g = ctx ? vq_ladder_guard(ctx) : VQ_EINVAL;
    if (g) {
        if (release)
            release(opaque);
        return g;
    }
    unsigned before = n_pairs(ctx);
    return note_pts(ctx, vq_pipeline_submit_device(&ctx->run, ref, dis,
                                                   release, opaque),
                    before, dis ? &dis->pic : NULL);
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
    if (p->n_delivered == p->n_ready) {
        if (!p->flushed)
            return VQ_EAGAIN;
        /* the run ended: a window still open closes */
        err = vq_live_end(ctx);
        vq_prom_frame(ctx, UINT_MAX, true);
        return err ? err : VQ_EOF;
    }

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
    ctx->n_received_scored += vq_collector_scored(coll, index);
    /* the last frame after vq_flush closes the last window */
    err = vq_live_delivered(ctx, index, p->flushed &&
                               p->n_delivered == p->n_submitted);
    if (err)
        return err;
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
