/*
 * float_moment (libvmaf's float_moment.c): the first and second moments of
 * the reference and distorted luma, samples scaled to the 8-bit range.
 * Outputs in libvmaf's order: float_moment_ref1st, _dis1st, _ref2nd,
 * _dis2nd. The sums are exact integers (kernels/float_moment.h), so the
 * GPU result equals the CPU's bit for bit and both equal libvmaf's. The
 * CPU path's sums are float_moment_dsp.c's, chosen for the CPU at init.
 */
#include "float_moment_priv.h"

static const char *const float_moment_outputs[] = {
    "float_moment_ref1st", "float_moment_dis1st", "float_moment_ref2nd",
    "float_moment_dis2nd", NULL
};

static int float_moment_init(VqFex *fex, const VqFormat *fmt)
{
    FloatMomentPriv *s = fex->priv;
    s->scale = (double)(1u << (fmt->bpc - 8));
    vq_float_moment_dsp_init(&s->dsp, vq_cpu_flags());
    fex->planes = VQ_PLANE_Y;
    fex->acc_size = sizeof(VqFloatMomentAcc);
    return 0;
}

static int float_moment_finalize(VqFex *fex, const void *acc, unsigned index)
{
    const FloatMomentPriv *s = fex->priv;
    const VqFloatMomentAcc *a = acc;
    /* libvmaf divides its double sum by the int w * h. */
    double n = (double)(int)(fex->fmt.w[0] * fex->fmt.h[0]);
    double v[4] = {
        (double)a->sum[0] / s->scale / n,
        (double)a->sum[1] / s->scale / n,
        (double)a->sq[0] / (s->scale * s->scale) / n,
        (double)a->sq[1] / (s->scale * s->scale) / n,
    };
    for (unsigned k = 0; k < 4; k++) {
        int err = vq_fex_emit(fex, k, index, v[k]);
        if (err)
            return err;
    }
    return 0;
}

const VqFexDesc vq_fex_float_moment = {
    .name = "float_moment",
    .priv_size = sizeof(FloatMomentPriv),
    .outputs = float_moment_outputs,
    .exactness = VQ_EXACT_BITWISE,
    .init = float_moment_init,
    .cpu_run = float_moment_cpu_run,
    .gpu_run = VQ_GPU_FN(float_moment_gpu_run),
    .finalize = float_moment_finalize,
};
