/* psnr's GPU stage (host side). */
#include "psnr_priv.h"

int psnr_gpu_run(VqFex *fex, VqGpu *gpu, const VqDevFrame *ref,
                 const VqDevFrame *dis, unsigned index, void *acc_dev)
{
    (void)index;
    const PsnrPriv *s = fex->priv;
    VqPsnrAcc *a = acc_dev;
    for (unsigned p = 0; p < s->n_planes; p++) {
        int err = vq_fex_launch_check(
            fex, gpu, vq_psnr_sse_launch(vq_gpu_compute_stream(gpu),
                                         &ref->plane[p], &dis->plane[p],
                                         ref->bpc, &a->sse[p]));
        if (err)
            return err;
    }
    return 0;
}
