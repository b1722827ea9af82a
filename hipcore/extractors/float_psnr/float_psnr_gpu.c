/* float_psnr's GPU stage (host side). */
#include "float_psnr_priv.h"

int float_psnr_gpu_run(VqFex *fex, VqGpu *gpu, const VqDevFrame *ref,
                       const VqDevFrame *dis, unsigned index,
                       void *acc_dev)
{
    (void)index;
    VqFloatPsnrAcc *a = acc_dev;
    return vq_fex_launch_check(
        fex, gpu, vq_float_psnr_launch(vq_gpu_compute_stream(gpu),
                                       &ref->plane[0], &dis->plane[0],
                                       ref->bpc, &a->sum));
}
