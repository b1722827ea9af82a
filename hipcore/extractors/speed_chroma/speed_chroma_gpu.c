/* speed_chroma's GPU stage (host side). */
#include "speed_chroma_priv.h"

/* One scratch per set (fex->gpu_sets): frames have no state in common. */
void speed_chroma_gpu_close(VqFex *fex, VqGpu *gpu)
{
    VqSpeedDev *d = fex->gpu_priv;
    if (!d)
        return;
    for (unsigned i = 0; i < VQ_SPEED_GPU_SETS; i++)
        vq_speed_dev_free(&d[i], gpu);
    free(d);
    fex->gpu_priv = NULL;
}

int speed_chroma_gpu_init(VqFex *fex, VqGpu *gpu)
{
    ChromaPriv *s = fex->priv;
    VqSpeedDev *d = calloc(VQ_SPEED_GPU_SETS, sizeof(*d));
    if (!d)
        return vq_fail(fex->err, VQ_ENOMEM, "speed_chroma: out of memory");
    fex->gpu_priv = d;
    if (!fex->gpu_sets || fex->gpu_sets > VQ_SPEED_GPU_SETS)
        fex->gpu_sets = 1;
    int err = 0;
    for (unsigned i = 0; !err && i < fex->gpu_sets; i++)
        err = vq_speed_dev_init(&d[i], gpu, &s->sp, 4, "speed_chroma");
    return err;
}

int speed_chroma_gpu_run(VqFex *fex, VqGpu *gpu, const VqDevFrame *ref,
                   const VqDevFrame *dis, unsigned index, void *acc_dev)
{
    (void)index;
    ChromaPriv *s = fex->priv;
    const VqSpeedDev *d = (const VqSpeedDev *)fex->gpu_priv +
                          fex->gpu_seq % fex->gpu_sets;
    VqSpeedDevImages img = { .n = 4, .bpc = ref->bpc };
    img.cur[0] = ref->plane[1];
    img.cur[1] = dis->plane[1];
    img.cur[2] = ref->plane[2];
    img.cur[3] = dis->plane[2];
    static const unsigned ref_img[2] = { 0, 2 }, dis_img[2] = { 1, 3 };
    return vq_fex_launch_check(fex, gpu,
                               vq_speed_dev_run(d, gpu, &s->sp, &img, 2,
                                                ref_img, dis_img, acc_dev));
}
