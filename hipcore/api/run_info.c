/* How a run went (vq_run_info), for summaries and logs. */
#include <stdio.h>
#include <string.h>

#include "context.h"

int vq_run_info(const VqContext *ctx, VqRunInfo *info)
{
    if (!ctx || !info)
        return VQ_EINVAL;
    const VqPipeline *p = &ctx->run;
    memset(info, 0, sizeof(*info));
    /* pairs held while the GPU opens count as submitted */
    info->submitted = p->n_submitted + p->held.n;
    info->received = p->n_delivered;
    info->scored = ctx->n_received_scored;
    info->incomplete = ctx->incomplete;
    if (!*ctx->incomplete) {
        if (p->failed)
            info->incomplete = "the run stopped on an error";
        else if (!p->flushed)
            info->incomplete = "the run was not flushed (the input did not end)";
        else if (p->n_delivered < p->n_submitted)
            info->incomplete = "not every frame's scores were received";
    }
    info->complete = !*info->incomplete;
    info->fell_back = p->fallback.fell_back;
    info->fallback_frame = p->fallback.first;
    info->fallback_reason = p->fallback.reason;
    info->verify = p->gpu_run.verify.every;
    info->verified = p->gpu_run.verify.n_frames;
    info->mismatches = p->gpu_run.verify.n_mismatch;
    info->depth = p->prepared ? p->cfg.depth : 0;
    const VqFexList *fexs = &ctx->sel.fexs;
    for (unsigned i = 0; p->prepared && i < fexs->n; i++)
        if (fexs->fex[i]->lag > info->lag)
            info->lag = fexs->fex[i]->lag;
    if (p->gpu) {
        VqGpuTraffic t;
        vq_gpu_traffic(p->gpu, &t);
        info->bytes_to_device = t.planes_up - p->times.traffic_setup.planes_up;
    }
    return 0;
}

void vq_set_incomplete(VqContext *ctx, const char *reason)
{
    if (ctx)
        snprintf(ctx->incomplete, sizeof(ctx->incomplete), "%s",
                 reason && *reason ? reason : "marked incomplete");
}
