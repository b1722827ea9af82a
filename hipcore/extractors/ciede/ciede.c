/*
 * ciede (libvmaf's ciede.c): ciede2000 = 45 - 20 log10 of the mean
 * CIEDE2000 difference between the two frames, every luma sample with its
 * chroma repeated (kernels/ciede/ciede.h). Any chroma format and bit
 * depth; gray is refused (no colour), as libvmaf does.
 *
 * Chroma is read only inside the planes: luma (x, y) takes chroma
 * (min(x >> ss_x, cw - 1), min(y >> ss_y, ch - 1)). For 4:2:0 with even
 * sizes and for 4:4:4 that is libvmaf's choice; libvmaf's 4:2:2 and its
 * odd-size 4:2:0 read other samples (README, "Differences from libvmaf").
 */
#include "ciede_priv.h"

static const char *const ciede_outputs[] = { "ciede2000", NULL };

static int ciede_init(VqFex *fex, const VqFormat *fmt)
{
    if (fmt->n_planes != 3)
        return vq_fail(fex->err, VQ_EUNSUPPORTED,
                       "ciede: gray input has no colour to compare "
                       "(libvmaf refuses it too)");
    if (!fmt->w[1] || !fmt->h[1])
        return vq_fail(fex->err, VQ_EUNSUPPORTED,
                       "ciede: a %ux%u %s frame has empty chroma planes: "
                       "at least 2 samples are needed in each subsampled "
                       "direction", fmt->w[0], fmt->h[0],
                       vq_pix_fmt_name(fmt->fmt));
    fex->planes = VQ_PLANE_ALL;
    fex->acc_size = sizeof(VqCiedeAcc);
    fex->scratch_size = vq_ciede_row_scratch(fmt->w[0]);
    vq_ciede_dsp_init(&((CiedePriv *)fex->priv)->dsp, vq_cpu_flags());
    return 0;
}

static int ciede_finalize(VqFex *fex, const void *acc, unsigned index)
{
    const VqCiedeAcc *a = acc;
    double sum = a->n_nan ? NAN : a->n_inf ? INFINITY : vq_ciede_exact_sum(a);
    double n = (double)(fex->fmt.w[0] * fex->fmt.h[0]);
    return vq_fex_emit(fex, 0, index, 45. - 20. * log10(sum / n));
}

const VqFexDesc vq_fex_ciede = {
    .name = "ciede",
    .priv_size = sizeof(CiedePriv),
    .outputs = ciede_outputs,
    .exactness = VQ_EXACT_BITWISE,
    .init = ciede_init,
    .cpu_run = ciede_cpu_run,
    .gpu_run = VQ_GPU_FN(ciede_gpu_run),
    .finalize = ciede_finalize,
};
