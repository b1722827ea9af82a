/* The first pair's colour description for the run (color.h). */
#include "base/log.h"
#include "color.h"

/* Whether an active extractor reads the pictures' colour description. */
static bool uses_color(const VqFexList *fexs)
{
    for (unsigned i = 0; i < fexs->n; i++)
        if (fexs->fex[i]->desc->flags & VQ_FEX_USES_COLOR)
            return true;
    return false;
}

/* After vq_configure (whose geometry carries no real colour description)
 * the first pair's colour description becomes the run's; the extractors
 * that read it are initialized again with it. Nothing is in flight yet, and
 * the size and format are unchanged, so their layout must stay the same. */
static int color_from_first_pair(VqColor *c, const VqRunEnv *env,
                                 VqFormat *fmt, const VqPicture *ref,
                                 const VqPicture *dis)
{
    c->pending = false;
    if (!vq_color_differs(fmt, 0, ref) && !vq_color_differs(fmt, 1, dis))
        return 0;
    vq_format_set_color(fmt, ref, dis);
    for (unsigned i = 0; i < env->fexs->n; i++) {
        VqFex *fex = env->fexs->fex[i];
        fex->fmt = *fmt;
        if (!(fex->desc->flags & VQ_FEX_USES_COLOR))
            continue;
        size_t acc = fex->acc_size, scratch = fex->scratch_size;
        unsigned planes = fex->planes, lag = fex->lag;
        int err = fex->desc->init(fex, fmt);
        if (err)
            return err;
        if (fex->acc_size != acc || fex->scratch_size != scratch ||
            fex->planes != planes || fex->lag != lag)
            return vq_fail(env->err, VQ_EINVAL, "%s: its layout changed "
                           "with the colour description (internal error)",
                           fex->desc->name);
    }
    return 0;
}

int vq_color_pair(VqColor *c, const VqRunEnv *env, VqFormat *fmt,
                  const VqPicture *ref, const VqPicture *dis, unsigned index)
{
    if (c->pending) {
        int err = color_from_first_pair(c, env, fmt, ref, dis);
        if (err)
            return err;
    }
    if (!c->warned && uses_color(env->fexs) &&
        (vq_color_differs(fmt, 0, ref) || vq_color_differs(fmt, 1, dis))) {
        c->warned = true;
        vq_log(env->log, VQ_LOG_LEVEL_WARNING,
               "frame %u: the colour description (matrix, range, chroma "
               "location) changed; the first frame's is kept for the run",
               index);
    }
    return 0;
}
