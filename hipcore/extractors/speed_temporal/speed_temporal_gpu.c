/* speed_temporal's GPU stage (host side). */
#include "speed_temporal_priv.h"

/* GPU state: one scratch per set (fex->gpu_sets = K) and a ring of K + 1
 * copies of the luma pair. Run n (fex->gpu_seq) copies its pair into copy
 * n % (K + 1), records that copy's event, then waits for the event of run
 * n - 1's copy before it estimates. The copy it overwrites was last read
 * by run n - K, which used the same set, so the same stream: done. */
#define TEMPORAL_RING (VQ_SPEED_GPU_SETS + 1)

typedef struct TemporalGpu {
    VqSpeedDev dev[VQ_SPEED_GPU_SETS];
    void *kept[TEMPORAL_RING][2];
    VqEvent copied[TEMPORAL_RING];
    size_t pitch;
} TemporalGpu;
void speed_temporal_gpu_close(VqFex *fex, VqGpu *gpu)
{
    TemporalGpu *g = fex->gpu_priv;
    if (!g)
        return;
    for (unsigned i = 0; i < VQ_SPEED_GPU_SETS; i++)
        vq_speed_dev_free(&g->dev[i], gpu);
    for (unsigned i = 0; i < TEMPORAL_RING; i++) {
        vq_gpu_free(gpu, g->kept[i][0]);
        vq_gpu_free(gpu, g->kept[i][1]);
        if (g->copied[i])
            vq_gpu_event_destroy(gpu, g->copied[i]);
    }
    free(g);
    fex->gpu_priv = NULL;
}

int speed_temporal_gpu_init(VqFex *fex, VqGpu *gpu)
{
    TemporalPriv *s = fex->priv;
    TemporalGpu *g = calloc(1, sizeof(*g));
    if (!g)
        return vq_fail(fex->err, VQ_ENOMEM, "speed_temporal: out of memory");
    fex->gpu_priv = g;
    if (!fex->gpu_sets || fex->gpu_sets > VQ_SPEED_GPU_SETS)
        fex->gpu_sets = 1;
    int err = 0;
    for (unsigned i = 0; !err && i <= fex->gpu_sets; i++) {
        for (int k = 0; !err && k < 2; k++)
            err = vq_gpu_malloc_pitch(gpu, &g->kept[i][k], &g->pitch,
                                      s->row_bytes, fex->fmt.h[0],
                                      "speed_temporal: previous frame");
        if (!err)
            err = vq_gpu_event_create(gpu, &g->copied[i]);
    }
    for (unsigned i = 0; !err && i < fex->gpu_sets; i++)
        err = vq_speed_dev_init(&g->dev[i], gpu, &s->sp, 2, "speed_temporal");
    return err;
}

int speed_temporal_gpu_run(VqFex *fex, VqGpu *gpu, const VqDevFrame *ref,
                     const VqDevFrame *dis, unsigned index,
                     void *acc_dev)
{
    TemporalPriv *s = fex->priv;
    TemporalGpu *g = fex->gpu_priv;
    const unsigned ring = fex->gpu_sets + 1, n = fex->gpu_seq;
    void *const *mine = g->kept[n % ring];
    const VqDevPlane *cur[2] = { &ref->plane[0], &dis->plane[0] };
    VqStream st = vq_gpu_compute_stream(gpu);
    for (int k = 0; k < 2; k++) {
        int rc = vq_speed_copy_launch(st, cur[k], mine[k], g->pitch,
                                      (int)fex->fmt.bytes_per_sample);
        int err = vq_fex_launch_check(fex, gpu, rc);
        if (err)
            return err;
    }
    int err = vq_gpu_event_record(gpu, g->copied[n % ring], st);
    if (err || index == 0 || n == 0)
        return err;
    const unsigned before = (n - 1) % ring;
    err = vq_gpu_event_wait(gpu, st, g->copied[before]);
    if (err)
        return err;
    VqSpeedDevImages img = { .n = 2, .bpc = ref->bpc };
    img.cur[0] = *cur[0];
    img.cur[1] = *cur[s->use_ref_diff ? 0 : 1];
    for (int k = 0; k < 2; k++) {
        img.prev[k] = *cur[k];
        img.prev[k].data = g->kept[before][k];
        img.prev[k].pitch = g->pitch;
    }
    static const unsigned ref_img[1] = { 0 }, dis_img[1] = { 1 };
    return vq_fex_launch_check(fex, gpu,
                               vq_speed_dev_run(&g->dev[n % fex->gpu_sets], gpu,
                                                &s->sp, &img, 1, ref_img,
                                                dis_img, acc_dev));
}
