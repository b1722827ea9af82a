/*
 * The pictures' colour description during a run, for the extractors that
 * read it (VQ_FEX_USES_COLOR): the first pair's holds for the run.
 */
#include "context.h"

/* Whether an active extractor reads the pictures' colour description. */
static bool uses_color(const VqContext *ctx)
{
    for (unsigned i = 0; i < ctx->n_fex; i++)
        if (ctx->fex[i]->desc->flags & VQ_FEX_USES_COLOR)
            return true;
    return false;
}

/* After vq_configure (whose geometry carries no real colour description)
 * the first pair's colour description becomes the run's; the extractors
 * that read it are initialized again with it. Nothing is in flight yet, and
 * the size and format are unchanged, so their layout must stay the same. */
static int color_from_first_pair(VqContext *ctx, const VqPicture *ref,
                                 const VqPicture *dis)
{
    ctx->color_pending = false;
    if (!vq_color_differs(&ctx->fmt, 0, ref) &&
        !vq_color_differs(&ctx->fmt, 1, dis))
        return 0;
    vq_format_set_color(&ctx->fmt, ref, dis);
    for (unsigned i = 0; i < ctx->n_fex; i++) {
        VqFex *fex = ctx->fex[i];
        fex->fmt = ctx->fmt;
        if (!(fex->desc->flags & VQ_FEX_USES_COLOR))
            continue;
        size_t acc = fex->acc_size, scratch = fex->scratch_size;
        unsigned planes = fex->planes, lag = fex->lag;
        int err = fex->desc->init(fex, &ctx->fmt);
        if (err)
            return err;
        if (fex->acc_size != acc || fex->scratch_size != scratch ||
            fex->planes != planes || fex->lag != lag)
            return vq_fail(&ctx->err, VQ_EINVAL, "%s: its layout changed "
                           "with the colour description (internal error)",
                           fex->desc->name);
    }
    return 0;
}

int vq_color_pair(VqContext *ctx, const VqPicture *ref, const VqPicture *dis)
{
    if (ctx->color_pending) {
        int err = color_from_first_pair(ctx, ref, dis);
        if (err)
            return err;
    }
    if (!ctx->color_warned && uses_color(ctx) &&
        (vq_color_differs(&ctx->fmt, 0, ref) ||
         vq_color_differs(&ctx->fmt, 1, dis))) {
        ctx->color_warned = true;
        vq_log(ctx, VQ_LOG_LEVEL_WARNING,
               "frame %u: the colour description (matrix, range, chroma "
               "location) changed; the first frame's is kept for the run",
               ctx->n_submitted);
    }
    return 0;
}
