/* Opening and closing a context. */
#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "base/cpu.h"
#include "context.h"
#include "run/gpu_run.h"

VqConfig vq_default_config(void)
{
    VqConfig cfg;
    memset(&cfg, 0, sizeof(cfg));
    cfg.backend = VQ_BACKEND_AUTO;
    cfg.depth = 0; /* chosen when the extractors are set up (pipeline.c) */
    cfg.log_level = VQ_LOG_LEVEL_WARNING;
    cfg.open_hold_bytes = VQ_DEFAULT_OPEN_HOLD_BYTES;
    return cfg;
}

int vq_open(VqContext **pctx, const VqConfig *cfg)
{
    if (!pctx)
        return VQ_EINVAL;
    VqContext *ctx = calloc(1, sizeof(*ctx));
    *pctx = ctx;
    if (!ctx)
        return VQ_ENOMEM;
    VqConfig c = cfg ? *cfg : vq_default_config();
    vq_selection_init(&ctx->sel, &ctx->err, c.n_subsample);
    vq_pipeline_init(&ctx->run, &c, &ctx->sel, &ctx->host, &ctx->err);
    if (c.depth > VQ_MAX_DEPTH)
        return vq_fail(&ctx->err, VQ_EINVAL, "depth %u is above the maximum %d",
                       c.depth, VQ_MAX_DEPTH);
    if (c.backend != VQ_BACKEND_AUTO && c.backend != VQ_BACKEND_HIP &&
        c.backend != VQ_BACKEND_CPU)
        return vq_fail(&ctx->err, VQ_EINVAL, "unknown backend %d",
                       (int)c.backend);
    const VqLogger *log = &ctx->run.log;
    const char *bad_mask = vq_cpu_mask_env_error();
    if (bad_mask)
        vq_log(log, VQ_LOG_LEVEL_WARNING,
               "VQHIP_CPU_MASK=%s not understood (avx2, avx512, all, none, "
               "comma separated, or a number): the CPU path uses its C code",
               bad_mask);
    char cpu_names[64];
    vq_log(log, VQ_LOG_LEVEL_INFO, "CPU SIMD variants: %s",
           vq_cpu_flags_string(vq_cpu_flags(), cpu_names, sizeof(cpu_names)));
    return vq_pipeline_open_gpu(&ctx->run);
}

void vq_close(VqContext **pctx)
{
    if (!pctx || !*pctx)
        return;
    VqContext *ctx = *pctx;
    if (ctx->ladder)
        return; /* the ladder's: vq_ladder_close closes it */
    bool print = vq_stats_wanted(ctx);
    double t_close = vq_now();
    if (print)
        vq_stats_print(ctx);
    vq_live_close(ctx);
    vq_pipeline_stop(&ctx->run);
    vq_selection_close(&ctx->sel);
    vq_host_bufs_clear(&ctx->host, ctx->run.gpu);
    vq_pipeline_free(&ctx->run);
    vq_selection_free(&ctx->sel);
    free(ctx->frame_scores);
    vq_windows_api_free(ctx);
    vq_realign_notes_free(ctx);
    vq_frame_numbers_free(ctx);
    vq_prom_free(ctx->prom);
    if (print)
        vq_stats_print_close(vq_now() - t_close);
    free(ctx);
    *pctx = NULL;
}

const char *vq_last_error(const VqContext *ctx)
{
    return ctx ? ctx->err.msg : "no context";
}

unsigned vq_planes_read(const VqContext *ctx)
{
    return ctx ? vq_pipeline_planes(&ctx->run) : 0;
}
