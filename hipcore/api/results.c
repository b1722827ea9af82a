/* What a run produced: outputs by name and log order, pooled values,
 * aggregates, the backends that computed them. */
#include "context.h"

unsigned vq_output_count(const VqContext *ctx)
{
    return ctx ? ctx->sel.coll.n : 0;
}

const char *vq_output_name(const VqContext *ctx, unsigned i)
{
    int id = ctx ? vq_collector_nth(&ctx->sel.coll, i) : VQ_EINVAL;
    return id >= 0 ? ctx->sel.coll.series[id].name : NULL;
}

const char *vq_output_backend(const VqContext *ctx, const char *name)
{
    if (!ctx || !name)
        return NULL;
    return vq_pipeline_output_backend(&ctx->run, name);
}

const char *vq_backend_name(const VqContext *ctx)
{
    return ctx ? ctx->run.backend_name : "";
}

const char *vq_device_name(const VqContext *ctx)
{
    if (ctx && ctx->import.on)
        return ctx->import.device;
    return ctx && ctx->run.gpu ? vq_gpu_name(ctx->run.gpu) : "";
}

int vq_pooled(VqContext *ctx, const char *name, VqPool pool, double *out)
{
    if (!ctx || !name || !out)
        return VQ_EINVAL;
    int err = vq_collector_pool(&ctx->sel.coll, name, pool,
                                ctx->run.n_delivered, out);
    if (err == VQ_ENOTFOUND)
        return vq_fail(&ctx->err, err, "no output named '%s'", name);
    if (err)
        return vq_fail(&ctx->err, err, "'%s' has no value for some frame "
                       "(or no frame was received)", name);
    return 0;
}

unsigned vq_aggregate_count(const VqContext *ctx)
{
    return ctx ? ctx->sel.coll.n_aggregate : 0;
}

int vq_aggregate(const VqContext *ctx, unsigned i, VqScore *out)
{
    if (!ctx || !out || i >= ctx->sel.coll.n_aggregate)
        return VQ_EINVAL;
    *out = ctx->sel.coll.aggregate[i];
    return 0;
}
