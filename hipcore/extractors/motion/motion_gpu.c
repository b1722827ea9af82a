/* motion's GPU stage (host side). */
#include "motion_priv.h"

typedef struct MotionGpu {
    void *kept[MOTION_MAX_PLANES];
    size_t pitch;
} MotionGpu;

void motion_gpu_close(VqFex *fex, VqGpu *gpu)
{
    MotionGpu *g = fex->gpu_priv;
    if (!g)
        return;
    for (unsigned k = 0; k < MOTION_MAX_PLANES; k++)
        vq_gpu_free(gpu, g->kept[k]);
    free(g);
    fex->gpu_priv = NULL;
}

int motion_gpu_init(VqFex *fex, VqGpu *gpu)
{
    const MotionPriv *s = fex->priv;
    if (s->force_zero)
        return 0;
    MotionGpu *g = calloc(1, sizeof(*g));
    if (!g)
        return vq_fail(fex->err, VQ_ENOMEM, "motion: out of memory");
    fex->gpu_priv = g;
    for (unsigned k = 0; k < s->n_planes_kept; k++) {
        size_t pitch = 0;
        int err = vq_gpu_malloc_pitch(gpu, &g->kept[k], &pitch, s->row_bytes,
                                      fex->fmt.h[0], "motion: previous frame");
        if (err)
            return err;
        g->pitch = pitch;
    }
    return 0;
}

int motion_gpu_run(VqFex *fex, VqGpu *gpu, const VqDevFrame *ref,
                   const VqDevFrame *dis, unsigned index, void *acc_dev)
{
    (void)dis;
    const MotionPriv *s = fex->priv;
    const MotionGpu *g = fex->gpu_priv;
    if (s->force_zero)
        return 0;
    VqMotionAcc *a = acc_dev;
    const VqDevPlane *cur = &ref->plane[0];
    void *store = g->kept[index % s->n_planes_kept];
    int rc;
    if (index >= s->min_idx) {
        const VqDevPlane prev = {
            .data = g->kept[(index - s->min_idx) % s->n_planes_kept],
            .pitch = g->pitch, .w = cur->w, .h = cur->h,
        };
        rc = vq_motion_sad_launch(vq_gpu_compute_stream(gpu), cur, &prev,
                                  store, g->pitch, ref->bpc, &a->sad);
    } else {
        rc = vq_motion_store_launch(vq_gpu_compute_stream(gpu), cur, store,
                                    g->pitch, ref->bpc);
    }
    return vq_fex_launch_check(fex, gpu, rc);
}
