/*
 * Integer PSNR (libvmaf's "psnr"): psnr_y, psnr_cb, psnr_cr per frame,
 * mse_* with enable_mse, and apsnr_* (PSNR of the summed error over the whole
 * run) with enable_apsnr. Peak, caps and min_sse follow libvmaf's
 * integer_psnr.c.
 */
#include "psnr_priv.h"

static const VqOption psnr_options[] = {
    { .name = "enable_chroma", .help = "also score the Cb and Cr planes",
      .offset = offsetof(PsnrPriv, enable_chroma), .type = VQ_OPT_BOOL,
      .def.b = true },
    { .name = "enable_mse", .help = "also write mse_y, mse_cb, mse_cr",
      .offset = offsetof(PsnrPriv, enable_mse), .type = VQ_OPT_BOOL,
      .def.b = false },
    { .name = "enable_apsnr",
      .help = "also write apsnr_* (PSNR of the error summed over all frames)",
      .offset = offsetof(PsnrPriv, enable_apsnr), .type = VQ_OPT_BOOL,
      .def.b = false },
    { .name = "reduced_hbd_peak",
      .help = "high bit depth peak 255 << (bpc - 8) instead of 2^bpc - 1",
      .offset = offsetof(PsnrPriv, reduced_hbd_peak), .type = VQ_OPT_BOOL,
      .def.b = false },
    { .name = "min_sse", .help = "smallest SSE assumed (caps the PSNR)",
      .offset = offsetof(PsnrPriv, min_sse), .type = VQ_OPT_DOUBLE,
      .def.d = 0.0, .min = 0.0, .max = DBL_MAX },
    { 0 }
};

enum { OUT_PSNR = 0, OUT_MSE = 3 };
static const char *const psnr_outputs[] = {
    "psnr_y", "psnr_cb", "psnr_cr", "mse_y", "mse_cb", "mse_cr", NULL
};

static int psnr_init(VqFex *fex, const VqFormat *fmt)
{
    PsnrPriv *s = fex->priv;
    s->n_planes = s->enable_chroma ? fmt->n_planes : 1;
    for (unsigned p = 1; p < s->n_planes; p++)
        if (!fmt->w[p] || !fmt->h[p])
            return vq_fail(fex->err, VQ_EUNSUPPORTED,
                           "psnr: a %ux%u %s frame has empty chroma planes; "
                           "use enable_chroma=false", fmt->w[0], fmt->h[0],
                           vq_pix_fmt_name(fmt->fmt));
    unsigned bpc = fmt->bpc;
    /* libvmaf's 8-bit path always uses 255, whatever reduced_hbd_peak says. */
    unsigned peak = bpc == 8 ? 255
                  : s->reduced_hbd_peak ? 255u << (bpc - 8) : (1u << bpc) - 1;
    s->peak = peak;
    for (unsigned p = 0; p < 3; p++) {
        if (s->min_sse != 0.0) {
            unsigned w = fmt->w[0] >> (p && fmt->fmt != VQ_PIX_FMT_444);
            unsigned h = fmt->h[0] >> (p && fmt->fmt == VQ_PIX_FMT_420);
            double mse = s->min_sse / ((double)w * h);
            s->psnr_max[p] = ceil(10. * log10((double)peak * peak / mse));
        } else {
            s->psnr_max[p] = 6. * bpc + 12.;
        }
    }
    vq_psnr_dsp_init(&s->dsp, vq_cpu_flags());
    fex->planes = s->n_planes == 3 ? VQ_PLANE_ALL : VQ_PLANE_Y;
    fex->acc_size = sizeof(VqPsnrAcc);
    return 0;
}

static int psnr_finalize(VqFex *fex, const void *acc, unsigned index)
{
    PsnrPriv *s = fex->priv;
    const VqPsnrAcc *a = acc;
    for (unsigned p = 0; p < s->n_planes; p++) {
        double n = (double)fex->fmt.w[p] * fex->fmt.h[p];
        if (s->enable_apsnr) {
            s->apsnr_sse[p] += a->sse[p];
            s->apsnr_n[p] += (uint64_t)fex->fmt.w[p] * fex->fmt.h[p];
        }
        double mse = (double)a->sse[p] / n;
        double psnr = 10. * log10(s->peak * s->peak / fmax(mse, 1e-16));
        int err = vq_fex_emit(fex, OUT_PSNR + p, index,
                              fmin(psnr, s->psnr_max[p]));
        if (!err && s->enable_mse)
            err = vq_fex_emit(fex, OUT_MSE + p, index, mse);
        if (err)
            return err;
    }
    return 0;
}

static unsigned psnr_sums(const VqFex *fex, uint64_t *out)
{
    const PsnrPriv *s = fex->priv;
    if (!s->enable_apsnr)
        return 0;
    for (unsigned p = 0; p < 3; p++) {
        out[p] = s->apsnr_sse[p];
        out[3 + p] = s->apsnr_n[p];
    }
    return 6;
}

static void psnr_add_sums(VqFex *fex, const uint64_t *in)
{
    PsnrPriv *s = fex->priv;
    for (unsigned p = 0; p < 3; p++) {
        s->apsnr_sse[p] += in[p];
        s->apsnr_n[p] += in[3 + p];
    }
}

static int psnr_flush(VqFex *fex)
{
    static const char *const names[3] = { "apsnr_y", "apsnr_cb", "apsnr_cr" };
    const PsnrPriv *s = fex->priv;
    if (!s->enable_apsnr)
        return 0;
    /* Only planes that were scored get an apsnr (libvmaf writes all three,
     * a meaningless -inf for unscored ones). */
    for (unsigned p = 0; p < s->n_planes; p++) {
        if (!s->apsnr_n[p])
            continue;
        double apsnr = 10. * (log10(s->peak * s->peak) +
                              log10((double)s->apsnr_n[p]) -
                              log10((double)s->apsnr_sse[p]));
        double cap = ceil(10. * log10(s->peak * s->peak *
                                      (double)s->apsnr_n[p] * 2.));
        int err = vq_fex_emit_aggregate(fex, names[p], apsnr < cap ? apsnr : cap);
        if (err)
            return err;
    }
    return 0;
}

const VqFexDesc vq_fex_psnr = {
    .name = "psnr",
    .options = psnr_options,
    .priv_size = sizeof(PsnrPriv),
    .outputs = psnr_outputs,
    .exactness = VQ_EXACT_BITWISE,
    .init = psnr_init,
    .cpu_run = psnr_cpu_run,
    .gpu_run = VQ_GPU_FN(psnr_gpu_run),
    .finalize = psnr_finalize,
    .flush = psnr_flush,
    .sums = psnr_sums,
    .add_sums = psnr_add_sums,
    .aggregate = psnr_flush,   /* psnr's flush writes only the aggregates */
};
