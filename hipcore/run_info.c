/* How a run went (vq_run_info), for summaries and logs. */
#include <stdio.h>
#include <string.h>

#include "context.h"

int vq_run_info(const VqContext *ctx, VqRunInfo *info)
{
    if (!ctx || !info)
        return VQ_EINVAL;
    memset(info, 0, sizeof(*info));
    info->submitted = ctx->n_submitted;
    info->received = ctx->n_delivered;
    info->incomplete = ctx->incomplete;
    if (!*ctx->incomplete) {
        if (ctx->failed)
            info->incomplete = "the run stopped on an error";
        else if (!ctx->flushed)
            info->incomplete = "the run was not flushed (the input did not end)";
        else if (ctx->n_delivered < ctx->n_submitted)
            info->incomplete = "not every frame's scores were received";
    }
    info->complete = !*info->incomplete;
    info->fell_back = ctx->fell_back;
    info->fallback_frame = ctx->fallback_frame;
    info->fallback_reason = ctx->fallback_reason;
    info->verify = ctx->cfg.verify;
    info->verified = ctx->n_verified;
    info->mismatches = ctx->n_verify_mismatch;
    info->depth = ctx->started ? ctx->cfg.depth : 0;
    for (unsigned i = 0; ctx->started && i < ctx->n_fex; i++)
        if (ctx->fex[i]->lag > info->lag)
            info->lag = ctx->fex[i]->lag;
    if (ctx->gpu) {
        VqGpuTraffic t;
        vq_gpu_traffic(ctx->gpu, &t);
        info->bytes_to_device = t.planes_up - ctx->traffic_setup.planes_up;
    }
    return 0;
}

void vq_set_incomplete(VqContext *ctx, const char *reason)
{
    if (ctx)
        snprintf(ctx->incomplete, sizeof(ctx->incomplete), "%s",
                 reason && *reason ? reason : "marked incomplete");
}
