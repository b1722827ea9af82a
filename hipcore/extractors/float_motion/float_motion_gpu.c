/* float_motion's GPU path (host side): the same planes and record as the
 * CPU path's (float_motion_cpu.c), on the device. */
#include <stdlib.h>
#include <string.h>

#include "float_motion_priv.h"
#include "../common/float_plane.h"

typedef struct FMotionGpu {
    float *blur[2][VQ_FMOTION_MAX_PLANES][2];
    size_t pitch[VQ_FMOTION_MAX_PLANES][2];
    VqFResizeTap *tab[VQ_FMOTION_MAX_PLANES]; /* x then y entries */
} FMotionGpu;

void vq_float_motion_gpu_close(VqFex *fex, VqGpu *gpu)
{
    FMotionGpu *g = fex->gpu_priv;
    if (!g)
        return;
    for (unsigned p = 0; p < VQ_FMOTION_MAX_PLANES; p++) {
        for (unsigned l = 0; l < 2; l++)
            for (unsigned k = 0; k < 2; k++)
                vq_gpu_free(gpu, g->blur[k][p][l]);
        vq_gpu_free(gpu, g->tab[p]);
    }
    free(g);
    fex->gpu_priv = NULL;
}

int vq_float_motion_gpu_init(VqFex *fex, VqGpu *gpu)
{
    const FMotionPriv *s = fex->priv;
    if (s->force_zero)
        return 0;
    const VqFloatMotionDims *d = &s->dims;
    FMotionGpu *g = calloc(1, sizeof(*g));
    if (!g)
        return vq_fail(fex->err, VQ_ENOMEM, "float_motion: out of memory");
    fex->gpu_priv = g;
    int err = 0;
    VqStream st = vq_gpu_compute_stream(gpu);
    for (unsigned p = 0; !err && p < d->np; p++) {
        for (unsigned l = 0; !err && l < d->nl; l++)
            for (unsigned k = 0; !err && k < 2; k++)
                err = vq_gpu_malloc_pitch(gpu, (void **)&g->blur[k][p][l],
                                          &g->pitch[p][l],
                                          d->w[p][l] * sizeof(float),
                                          d->h[p][l], "float_motion: blur");
        if (err || d->nl < 2)
            continue;
        size_t n = (d->w[p][1] + d->h[p][1]) * sizeof(VqFResizeTap);
        err = vq_gpu_malloc(gpu, (void **)&g->tab[p], n, "float_motion: table");
        if (!err)
            err = vq_gpu_upload2d(gpu, st, g->tab[p], n, s->half_tab[p][0], n,
                                  n, 1);
    }
    if (!err)
        err = vq_gpu_sync(gpu, st);
    if (err)
        vq_float_motion_gpu_close(fex, gpu);
    return err;
}

int vq_float_motion_gpu_run(VqFex *fex, VqGpu *gpu, const VqDevFrame *ref,
                       const VqDevFrame *dis, unsigned index, void *acc_dev)
{
    (void)dis;
    const FMotionPriv *s = fex->priv;
    const FMotionGpu *g = fex->gpu_priv;
    if (s->force_zero)
        return 0;
    const VqFloatMotionDims *d = &s->dims;
    VqStream st = vq_gpu_compute_stream(gpu);
    const unsigned cur = index & 1, prev = cur ^ 1;
    int rc = 0;
    for (unsigned p = 0; !rc && p < d->np; p++) {
        rc = vq_float_motion_blur_launch(st, &ref->plane[p], ref->bpc, s->taps,
                                    g->blur[cur][p][0], g->pitch[p][0]);
        if (!rc && d->nl > 1)
            rc = vq_float_motion_half_launch(
                st, g->blur[cur][p][0], g->pitch[p][0], d->w[p][0],
                d->h[p][0], g->tab[p], g->tab[p] + d->w[p][1],
                g->blur[cur][p][1], g->pitch[p][1], d->w[p][1], d->h[p][1]);
        for (unsigned l = 0; !rc && index > 0 && l < d->nl; l++)
            rc = vq_float_motion_sad_launch(st, g->blur[prev][p][l],
                                       g->blur[cur][p][l], g->pitch[p][l],
                                       d->w[p][l], d->h[p][l],
                                       (float *)acc_dev + d->off[p][l]);
    }
    return vq_fex_launch_check(fex, gpu, rc);
}
