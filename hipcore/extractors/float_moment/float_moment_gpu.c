/* float_moment's GPU stage (host side). */
#include "float_moment_priv.h"

int float_moment_gpu_run(VqFex *fex, VqGpu *gpu, const VqDevFrame *ref,
                         const VqDevFrame *dis, unsigned index,
                         void *acc_dev)
{
    (void)index;
    return vq_fex_launch_check(
        fex, gpu, vq_float_moment_launch(vq_gpu_compute_stream(gpu),
                                         &ref->plane[0], &dis->plane[0],
                                         ref->bpc, acc_dev));
}
