/*
 * float_ansnr (libvmaf's float_ansnr.c): anti-noise SNR of the luma. The
 * reference is smoothed with a 3x3 and the distorted with a 5x5 kernel;
 * float_ansnr = 10 log10(signal / noise) of the smoothed planes, and
 * float_anpsnr the PSNR of that noise with libvmaf's 8-bit-range peak.
 * The record holds each row's float sums (kernels/float_ansnr.h); the one
 * finalize adds them in row order as libvmaf does. The CPU path's row
 * conversion and filters are float_ansnr_dsp.c's, chosen at init.
 */
#include "float_ansnr_priv.h"

static const char *const float_ansnr_outputs[] = { "float_ansnr",
                                                   "float_anpsnr", NULL };

static int float_ansnr_init(VqFex *fex, const VqFormat *fmt)
{
    FloatAnsnrPriv *s = fex->priv;
    unsigned w = fmt->w[0], h = fmt->h[0];
    if (w < 3 || h < 3)
        return vq_fail(fex->err, VQ_EUNSUPPORTED,
                       "float_ansnr: a %ux%u frame is too small: its 5x5 "
                       "filter needs at least 3x3 luma samples", w, h);
    /* libvmaf's peaks and caps (float_ansnr.c) per bit depth. */
    switch (fmt->bpc) {
    case 8: s->peak = 255.0; s->psnr_max = 60.0; break;
    case 10: s->peak = 255.75; s->psnr_max = 72.0; break;
    case 12: s->peak = 255.9375; s->psnr_max = 84.0; break;
    default: s->peak = 255.99609375; s->psnr_max = 108.0; break;
    }
    s->inv_scale = 1.0f / (float)(1u << (fmt->bpc - 8));
    s->pw = (size_t)w + 4;
    vq_float_ansnr_dsp_init(&s->dsp, vq_cpu_flags());
    fex->planes = VQ_PLANE_Y;
    fex->acc_size = (size_t)h * sizeof(VqAnsnrRow);
    /* two rings of padded rows, the two filtered rows, the ring tags */
    fex->scratch_size = (2 * RING * s->pw + 2 * (size_t)w) * sizeof(float) +
                        2 * RING * sizeof(int);
    return 0;
}

static int float_ansnr_finalize(VqFex *fex, const void *acc, unsigned index)
{
    const FloatAnsnrPriv *s = fex->priv;
    const VqAnsnrRow *rows = acc;
    unsigned w = fex->fmt.w[0], h = fex->fmt.h[0];
    /* libvmaf's ansnr_mse: float sums of the rows' float sums, in order. */
    float sig = 0.0f, noise = 0.0f;
    for (unsigned i = 0; i < h; i++) {
        sig += rows[i].sig;
        noise += rows[i].noise;
    }
    /* compute_ansnr(): sig / noise is a float division there too. */
    double ansnr = noise == 0 ? s->psnr_max : 10.0 * log10(sig / noise);
    double n = fmax(noise, 1e-10);
    double anpsnr = fmin(10 * log10(s->peak * s->peak * (int)w * (int)h / n),
                         s->psnr_max);
    int err = vq_fex_emit(fex, 0, index, ansnr);
    return err ? err : vq_fex_emit(fex, 1, index, anpsnr);
}

const VqFexDesc vq_fex_float_ansnr = {
    .name = "float_ansnr",
    .priv_size = sizeof(FloatAnsnrPriv),
    .outputs = float_ansnr_outputs,
    .exactness = VQ_EXACT_BITWISE,
    .init = float_ansnr_init,
    .cpu_run = float_ansnr_cpu_run,
    .gpu_run = VQ_GPU_FN(float_ansnr_gpu_run),
    .finalize = float_ansnr_finalize,
};
