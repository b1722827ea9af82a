/*
 * float_moment (libvmaf's float_moment.c): the first and second moments of
 * the reference and distorted luma, samples scaled to the 8-bit range.
 * Outputs in libvmaf's order: float_moment_ref1st, _dis1st, _ref2nd,
 * _dis2nd. The sums are exact integers (kernels/float_moment.h), so the
 * GPU result equals the CPU's bit for bit and both equal libvmaf's. The
 * CPU path's sums are float_moment_dsp.c's, chosen for the CPU at init.
 */
#include <stddef.h>

#include "../../../kernels/float_moment/float_moment.h"
#include "../common/gpu_fn.h"
#include "float_moment_dsp.h"

typedef struct FloatMomentPriv {
    double scale; /* 2^(bpc - 8) */
    VqFMomentDsp dsp;
} FloatMomentPriv;

static const char *const float_moment_outputs[] = {
    "float_moment_ref1st", "float_moment_dis1st", "float_moment_ref2nd",
    "float_moment_dis2nd", NULL
};

static int float_moment_init(VqFex *fex, const VqFormat *fmt)
{
    FloatMomentPriv *s = fex->priv;
    s->scale = (double)(1u << (fmt->bpc - 8));
    vq_fmoment_dsp_init(&s->dsp, vq_cpu_flags());
    fex->planes = VQ_PLANE_Y;
    fex->acc_size = sizeof(VqFloatMomentAcc);
    return 0;
}

static int float_moment_cpu_run(VqFex *fex, const VqFrame *ref,
                                const VqFrame *dis, unsigned index, void *acc,
                                void *scratch)
{
    (void)index;
    (void)scratch;
    VqFloatMomentAcc *a = acc;
    const FloatMomentPriv *s = fex->priv;
    vq_fmoment_sums_fn sums = fex->fmt.bytes_per_sample == 1 ? s->dsp.sums_u8
                                                             : s->dsp.sums_u16;
    for (unsigned k = 0; k < 2; k++) {
        const VqPlane *p = &(k ? dis : ref)->plane[0];
        sums(p->data, p->stride, p->w, p->h, &a->sum[k], &a->sq[k]);
    }
    return 0;
}

#if defined(VQ_HAVE_HIP)
static int float_moment_gpu_run(VqFex *fex, VqGpu *gpu, const VqDevFrame *ref,
                                const VqDevFrame *dis, unsigned index,
                                void *acc_dev)
{
    (void)index;
    return vq_fex_launch_check(
        fex, gpu, vq_float_moment_launch(vq_gpu_compute_stream(gpu),
                                         &ref->plane[0], &dis->plane[0],
                                         ref->bpc, acc_dev));
}
#endif

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
