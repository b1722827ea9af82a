/* float_ansnr's GPU stage (host side). */
#include "float_ansnr_priv.h"

int float_ansnr_gpu_run(VqFex *fex, VqGpu *gpu, const VqDevFrame *ref,
                        const VqDevFrame *dis, unsigned index,
                        void *acc_dev)
{
    (void)index;
    return vq_fex_launch_check(
        fex, gpu, vq_float_ansnr_launch(vq_gpu_compute_stream(gpu),
                                        &ref->plane[0], &dis->plane[0],
                                        ref->bpc, acc_dev));
}
