/*
 * ssim: vqhip's integer SSIM (definition in kernels/ssim/ssim.h; libvmaf
 * registers no such extractor). Both backends produce the exact integer sum
 * of the pixels' fixed-point values; one finalize forms the frame's mean.
 */
#include "ssim_priv.h"

static const char *const ssim_outputs[] = { "ssim", NULL };

static int ssim_init(VqFex *fex, const VqFormat *fmt)
{
    SsimPriv *s = fex->priv;
    s->k = vq_ssim_consts(fmt->bpc);
    vq_ssim_dsp_init(&s->dsp, vq_cpu_flags());
    fex->planes = VQ_PLANE_Y;
    fex->acc_size = sizeof(VqSsimAcc);
    fex->scratch_size = vq_ssim_cpu_scratch(fmt->w[0]);
    return 0;
}

static int ssim_finalize(VqFex *fex, const void *acc, unsigned index)
{
    const VqSsimAcc *a = acc;
    double n = (double)fex->fmt.w[0] * (double)fex->fmt.h[0];
    return vq_fex_emit(fex, 0, index, (double)a->sum / VQ_SSIM_Q / n);
}

const VqFexDesc vq_fex_ssim = {
    .name = "ssim",
    .priv_size = sizeof(SsimPriv),
    .outputs = ssim_outputs,
    .exactness = VQ_EXACT_BITWISE,
    .init = ssim_init,
    .cpu_run = ssim_cpu_run,
    .gpu_run = VQ_GPU_FN(ssim_gpu_run),
    .finalize = ssim_finalize,
};
