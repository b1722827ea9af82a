/*
 * float_psnr (libvmaf's float_psnr.c): luma PSNR on samples scaled to the
 * 8-bit range, peak 255 * (2^bpc - 1) / 2^bpc, capped at 60/72/84/108 dB.
 * The squared-error sum is an exact integer (see kernels/float_psnr.h), so
 * the GPU result equals the CPU's bit for bit. Up to 12 bits every term is
 * the integer square itself (below 2^24, exact in float), so the CPU path
 * sums it with integer psnr's DSP table (psnr_dsp.h, SIMD variants chosen
 * at init): the same integers, in any order the same sum.
 */
#include "float_psnr_priv.h"

static const char *const float_psnr_outputs[] = { "float_psnr", NULL };

static int float_psnr_init(VqFex *fex, const VqFormat *fmt)
{
    FloatPsnrPriv *s = fex->priv;
    /* libvmaf's constants (psnr_tools.c): peak and cap per bit depth. */
    switch (fmt->bpc) {
    case 8: s->peak = 255.0; s->psnr_max = 60.0; break;
    case 10: s->peak = 255.75; s->psnr_max = 72.0; break;
    case 12: s->peak = 255.9375; s->psnr_max = 84.0; break;
    default: s->peak = 255.99609375; s->psnr_max = 108.0; break;
    }
    double scale = (double)(1u << (fmt->bpc - 8));
    s->scale2 = scale * scale;
    vq_psnr_dsp_init(&s->dsp, vq_cpu_flags());
    fex->planes = VQ_PLANE_Y;
    fex->acc_size = sizeof(VqFloatPsnrAcc);
    return 0;
}

static int float_psnr_finalize(VqFex *fex, const void *acc, unsigned index)
{
    const FloatPsnrPriv *s = fex->priv;
    const VqFloatPsnrAcc *a = acc;
    /* Same operations, in the same order, as libvmaf's compute_psnr(). */
    double noise = (double)a->sum / s->scale2;
    noise /= (double)(fex->fmt.w[0] * fex->fmt.h[0]);
    double psnr = 10 * log10(s->peak * s->peak / fmax(noise, 1e-10));
    return vq_fex_emit(fex, 0, index, fmin(psnr, s->psnr_max));
}

const VqFexDesc vq_fex_float_psnr = {
    .name = "float_psnr",
    .priv_size = sizeof(FloatPsnrPriv),
    .outputs = float_psnr_outputs,
    .exactness = VQ_EXACT_BITWISE,
    .init = float_psnr_init,
    .cpu_run = float_psnr_cpu_run,
    .gpu_run = VQ_GPU_FN(float_psnr_gpu_run),
    .finalize = float_psnr_finalize,
};
