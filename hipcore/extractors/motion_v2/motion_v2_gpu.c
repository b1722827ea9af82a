/* motion_v2's GPU stage (host side). */
#include "motion_v2_priv.h"

typedef struct MotionV2Gpu {
    void *kept[MV2_MAX_KEPT];
    size_t pitch;
} MotionV2Gpu;

/* ---- GPU path ----------------------------------------------------------- */

void motion_v2_gpu_close(VqFex *fex, VqGpu *gpu)
{
    MotionV2Gpu *g = fex->gpu_priv;
    if (!g)
        return;
    for (unsigned k = 0; k < MV2_MAX_KEPT; k++)
        vq_gpu_free(gpu, g->kept[k]);
    free(g);
    fex->gpu_priv = NULL;
}

int motion_v2_gpu_init(VqFex *fex, VqGpu *gpu)
{
    const MotionV2Priv *s = fex->priv;
    if (s->force_zero)
        return 0;
    MotionV2Gpu *g = calloc(1, sizeof(*g));
    if (!g)
        return vq_fail(fex->err, VQ_ENOMEM, "motion_v2: out of memory");
    fex->gpu_priv = g;
    for (unsigned k = 0; k < s->n_kept; k++) {
        int err = vq_gpu_malloc_pitch(gpu, &g->kept[k], &g->pitch, s->row_bytes,
                                      fex->fmt.h[0], "motion_v2: previous frame");
        if (err)
            return err;
    }
    return 0;
}

int motion_v2_gpu_run(VqFex *fex, VqGpu *gpu, const VqDevFrame *ref,
                      const VqDevFrame *dis, unsigned index,
                      void *acc_dev)
{
    (void)dis;
    const MotionV2Priv *s = fex->priv;
    const MotionV2Gpu *g = fex->gpu_priv;
    if (s->force_zero)
        return 0;
    const VqDevPlane *cur = &ref->plane[0];
    void *store = g->kept[index % s->n_kept];
    int rc;
    if (index >= s->window) {
        const VqDevPlane prev = {
            .data = g->kept[(index - s->window) % s->n_kept],
            .pitch = g->pitch, .w = cur->w, .h = cur->h,
        };
        rc = vq_motion_v2_sad_launch(vq_gpu_compute_stream(gpu), cur, &prev,
                                     store, g->pitch, ref->bpc,
                                     &((VqMotionV2Acc *)acc_dev)->sad);
    } else {
        rc = vq_motion_v2_store_launch(vq_gpu_compute_stream(gpu), cur, store,
                                       g->pitch, ref->bpc);
    }
    return vq_fex_launch_check(fex, gpu, rc);
}
