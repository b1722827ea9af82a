/* ssim's GPU stage (host side). */
#include "ssim_priv.h"

int ssim_gpu_run(VqFex *fex, VqGpu *gpu, const VqDevFrame *ref,
                 const VqDevFrame *dis, unsigned index, void *acc_dev)
{
    (void)index;
    const SsimPriv *s = fex->priv;
    VqSsimAcc *a = acc_dev;
    return vq_fex_launch_check(
        fex, gpu, vq_ssim_launch(vq_gpu_compute_stream(gpu), &ref->plane[0],
                                 &dis->plane[0], ref->bpc, s->k, &a->sum));
}
