/* ciede's GPU stage (host side). */
#include "ciede_priv.h"

int ciede_gpu_run(VqFex *fex, VqGpu *gpu, const VqDevFrame *ref,
                  const VqDevFrame *dis, unsigned index, void *acc_dev)
{
    (void)index;
    return vq_fex_launch_check(
        fex, gpu, vq_ciede_launch(vq_gpu_compute_stream(gpu), ref, dis,
                                  fex->fmt.ss_x, fex->fmt.ss_y, acc_dev));
}
