/* Choosing what a run computes: features and models, before the first
 * picture. */
#include <stdio.h>
#include <stdlib.h>

#include "context.h"

/* VQHIP_MODEL_DIR when set (looked in first by version=, before the
 * built-in models and the installed folder), else NULL. */
static const char *model_dir(void)
{
    const char *env = getenv("VQHIP_MODEL_DIR");
    return env && *env ? env : NULL;
}

int vq_use_feature(VqContext *ctx, const char *spec)
{
    if (!ctx || !spec)
        return VQ_EINVAL;
    if (ctx->run.prepared)
        return vq_fail(&ctx->err, VQ_ESTATE,
                       "features must be chosen before the first picture");
    return vq_selection_add_feature(&ctx->sel, spec, NULL);
}

int vq_use_model(VqContext *ctx, const char *spec)
{
    if (!ctx || !spec)
        return VQ_EINVAL;
    if (ctx->run.prepared)
        return vq_fail(&ctx->err, VQ_ESTATE,
                       "models must be chosen before the first picture");
    return vq_selection_add_model(&ctx->sel, spec, model_dir());
}

size_t vq_list_features(char *buf, size_t size)
{
    size_t need = 0;
    for (const VqFexDesc *const *d = vq_fex_registry(); *d; d++) {
        char opts[1024];
        vq_opt_list((*d)->options, opts, sizeof(opts));
        int n = snprintf(buf && size > need ? buf + need : NULL,
                         buf && size > need ? size - need : 0,
                         "%s: %s\n", (*d)->name, opts);
        if (n > 0)
            need += (size_t)n;
    }
    return need;
}

unsigned vq_model_count(const VqContext *ctx)
{
    return ctx ? ctx->sel.n_model : 0;
}

const char *vq_model_output(const VqContext *ctx, unsigned i)
{
    return ctx && i < ctx->sel.n_model ? vq_model_name(ctx->sel.model[i])
                                       : NULL;
}

const char *vq_model_sha256(const VqContext *ctx, unsigned i)
{
    if (!ctx || i >= ctx->sel.n_model)
        return NULL;
    VqModelOrigin o;
    vq_model_origin(ctx->sel.model[i], &o);
    return o.sha256;
}
