/* VQHIP_STATS=1: where the time went, printed at vq_close. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "context.h"

bool vq_stats_wanted(const VqContext *ctx)
{
    const char *stats = getenv("VQHIP_STATS");
    return stats && *stats && strcmp(stats, "0") && ctx->run.n_submitted;
}

void vq_stats_print(const VqContext *ctx)
{
    const VqPipeline *p = &ctx->run;
    const VqGpuRun *g = &p->gpu_run;
    const VqRunTimes *t = &p->times;
    double n = g->n_frames ? g->n_frames : 1;
    fprintf(stderr, "vqhip stats: %u frames in %.3f s (%.1f fps); per GPU "
            "frame: host copy %.3f ms, enqueue %.3f ms, waiting %.3f ms; "
            "CPU extractors' submit %.3f ms/frame\n", p->n_submitted,
            vq_pipeline_seconds(p), p->n_delivered / vq_pipeline_seconds(p),
            1e3 * g->t_copy / n, 1e3 * g->t_enqueue / n,
            1e3 * g->t_wait / n, 1e3 * t->cpu / p->n_submitted);
    if (!p->gpu)
        return;
    fprintf(stderr, "vqhip stats: start-up: opening the GPU %.3f s "
            "(runtime and context %.3f, streams %.3f, probe kernel "
            "%.3f), extractors' set-up %.3f s; the first frame's "
            "scores %.3f s after its submission\n", t->gpu_open,
            vq_gpu_open_time(p->gpu, VQ_GPU_OPEN_CONTEXT),
            vq_gpu_open_time(p->gpu, VQ_GPU_OPEN_STREAMS),
            vq_gpu_open_time(p->gpu, VQ_GPU_OPEN_PROBE), t->setup, t->first);
    /* what crossed between host and device, per GPU frame: with pictures
     * in device memory both plane figures are 0 */
    VqGpuTraffic now, t0 = t->traffic_setup;
    vq_gpu_traffic(p->gpu, &now);
    fprintf(stderr, "vqhip stats: bytes per GPU frame: planes host to "
            "device %.0f, device to device %.0f, device to host %.0f; "
            "results device to host %.0f\n",
            (now.planes_up - t0.planes_up) / n,
            (now.planes_device - t0.planes_device) / n,
            (now.planes_down - t0.planes_down) / n,
            (now.results_down - t0.results_down) / n);
}

void vq_stats_print_close(double seconds)
{
    fprintf(stderr, "vqhip stats: closing took %.3f s\n", seconds);
}
