/*
 * float_ssim (libvmaf's float_ssim.c): SSIM of the luma plane with libvmaf's
 * iqa code, on samples scaled to the 8-bit range, after libvmaf's automatic
 * decimation (scale = round(min(w, h) / 256), at least 1) or the one the
 * scale option sets. float_ssim, and with enable_lcs float_ssim_l, _c, _s;
 * enable_db writes float_ssim as -10 log10(1 - ssim), clip_db caps that.
 * The record holds the map's row sums (kernels/float_ssim/float_ssim.h),
 * the same on both backends; one finalize forms the means.
 */
#include "float_ssim_priv.h"

static const VqOption float_ssim_options[] = {
    { .name = "enable_lcs",
      .help = "also write float_ssim_l, float_ssim_c, float_ssim_s "
              "(mean luminance, contrast, structure terms)",
      .offset = offsetof(FssimPriv, enable_lcs), .type = VQ_OPT_BOOL,
      .def.b = false },
    { .name = "enable_db", .help = "write float_ssim as dB: -10 log10(1 - ssim)",
      .offset = offsetof(FssimPriv, enable_db), .type = VQ_OPT_BOOL,
      .def.b = false },
    { .name = "clip_db",
      .help = "with enable_db, cap at ceil(10 log10(peak^2 * 2 w h))",
      .offset = offsetof(FssimPriv, clip_db), .type = VQ_OPT_BOOL,
      .def.b = false },
    /* range and meaning as libvmaf's */
    { .name = "scale",
      .help = "decimation factor: 0 = auto (round(min(w, h) / 256)), "
              "1 = none, 2..10",
      .offset = offsetof(FssimPriv, scale), .type = VQ_OPT_INT,
      .def.i = 0, .min = 0, .max = 10 },
    { 0 }
};

enum { OUT_SSIM, OUT_L, OUT_C, OUT_S };
static const char *const float_ssim_outputs[] = {
    "float_ssim", "float_ssim_l", "float_ssim_c", "float_ssim_s", NULL
};

/* libvmaf's iqa _round() of a non-negative float: halves round up. */
static int iqa_round(float a)
{
    int i = (int)a;
    return a - (float)i >= 0.5f ? i + 1 : i;
}

/* The decimated size of libvmaf's _iqa_decimate. */
static unsigned decimated(unsigned n, unsigned factor)
{
    return factor > 1 ? n / factor + (n & 1) : n;
}

static int float_ssim_init(VqFex *fex, const VqFormat *fmt)
{
    FssimPriv *s = fex->priv;
    unsigned w = fmt->w[0], h = fmt->h[0];
    if (s->scale > 0) {
        s->factor = (unsigned)s->scale;
    } else {
        int f = iqa_round((float)(w < h ? w : h) / 256.0f);
        s->factor = f > 1 ? (unsigned)f : 1;
    }
    s->dw = decimated(w, s->factor);
    s->dh = decimated(h, s->factor);
    if (s->dw < VQ_FSSIM_WIN || s->dh < VQ_FSSIM_WIN)
        return vq_fail(fex->err, VQ_EUNSUPPORTED,
                       "float_ssim: a %ux%u frame is too small: after "
                       "decimation by %u it is %ux%u, and SSIM's 11x11 window "
                       "needs at least 11x11 (libvmaf computes garbage there)",
                       w, h, s->factor, s->dw, s->dh);
    if (s->clip_db) {
        /* libvmaf: peak * peak in unsigned, w * h in unsigned */
        unsigned peak = (1u << fmt->bpc) - 1;
        double mse = 0.5 / (w * h);
        s->max_db = ceil(10. * log10(peak * peak / mse));
    } else {
        s->max_db = INFINITY;
    }
    s->k = vq_float_ssim_consts();
    vq_float_ssim_dsp_init(&s->dsp, vq_cpu_flags());
    fex->planes = VQ_PLANE_Y;
    fex->acc_size = (size_t)(s->dh - (VQ_FSSIM_WIN - 1)) * sizeof(VqFloatSsimRow);
    size_t scratch = vq_float_ssim_map_scratch(s->dw);
    s->img_bytes = 0;
    if (s->factor > 1) {
        s->img_bytes = ((size_t)s->dw * s->dh * sizeof(float) + 63) & ~(size_t)63;
        size_t box = vq_float_ssim_box_scratch(w, s->dw);
        scratch = 2 * s->img_bytes + (box > scratch ? box : scratch);
    }
    fex->scratch_size = scratch;
    return 0;
}

static int float_ssim_finalize(VqFex *fex, const void *acc, unsigned index)
{
    const FssimPriv *s = fex->priv;
    float ssim, l, c, sv;
    vq_float_ssim_means(acc, s->dw - (VQ_FSSIM_WIN - 1), s->dh - (VQ_FSSIM_WIN - 1),
                   &ssim, &l, &c, &sv);
    double score = ssim;
    if (s->enable_db) {
        double db = -10. * log10(1 - score);
        score = db < s->max_db ? db : s->max_db; /* libvmaf's MIN() */
    }
    int err = vq_fex_emit(fex, OUT_SSIM, index, score);
    if (!err && s->enable_lcs) {
        err = vq_fex_emit(fex, OUT_L, index, l);
        if (!err)
            err = vq_fex_emit(fex, OUT_C, index, c);
        if (!err)
            err = vq_fex_emit(fex, OUT_S, index, sv);
    }
    return err;
}

const VqFexDesc vq_fex_float_ssim = {
    .name = "float_ssim",
    .options = float_ssim_options,
    .priv_size = sizeof(FssimPriv),
    .outputs = float_ssim_outputs,
    .exactness = VQ_EXACT_BITWISE,
    .init = float_ssim_init,
    .cpu_run = float_ssim_cpu_run,
    .gpu_init = VQ_GPU_FN(float_ssim_gpu_init),
    .gpu_run = VQ_GPU_FN(float_ssim_gpu_run),
    .gpu_close = VQ_GPU_FN(float_ssim_gpu_close),
    .finalize = float_ssim_finalize,
};
