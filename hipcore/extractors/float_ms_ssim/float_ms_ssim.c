/*
 * float_ms_ssim (libvmaf's float_ms_ssim.c / ms_ssim.c, Wang's MS-SSIM):
 * float_ms_ssim = prod over 5 scales of l^alpha * c^beta * s^gamma, with
 * each scale's mean l, c, s from the float SSIM map (kernels/float_ssim).
 * enable_lcs adds float_ms_ssim_{l,c,s}_scale0..4; enable_db and clip_db as
 * float_ssim. The record holds every scale's map row sums, the same on both
 * backends; one finalize forms the means and the product.
 */
#include "float_ms_ssim_priv.h"

static const VqOption float_ms_ssim_options[] = {
    { .name = "enable_lcs",
      .help = "also write float_ms_ssim_l_scale0..4, _c_scale0..4, "
              "_s_scale0..4 (each scale's mean luminance, contrast, structure)",
      .offset = offsetof(FmsPriv, enable_lcs), .type = VQ_OPT_BOOL,
      .def.b = false },
    { .name = "enable_db",
      .help = "write float_ms_ssim as dB: -10 log10(1 - ms_ssim)",
      .offset = offsetof(FmsPriv, enable_db), .type = VQ_OPT_BOOL,
      .def.b = false },
    { .name = "clip_db",
      .help = "with enable_db, cap at ceil(10 log10(peak^2 * 2 w h))",
      .offset = offsetof(FmsPriv, clip_db), .type = VQ_OPT_BOOL,
      .def.b = false },
    { 0 }
};

enum { OUT_MS, OUT_L = 1, OUT_C = 6, OUT_S = 11 };
static const char *const float_ms_ssim_outputs[] = {
    "float_ms_ssim",
    "float_ms_ssim_l_scale0", "float_ms_ssim_l_scale1",
    "float_ms_ssim_l_scale2", "float_ms_ssim_l_scale3",
    "float_ms_ssim_l_scale4",
    "float_ms_ssim_c_scale0", "float_ms_ssim_c_scale1",
    "float_ms_ssim_c_scale2", "float_ms_ssim_c_scale3",
    "float_ms_ssim_c_scale4",
    "float_ms_ssim_s_scale0", "float_ms_ssim_s_scale1",
    "float_ms_ssim_s_scale2", "float_ms_ssim_s_scale3",
    "float_ms_ssim_s_scale4", NULL
};

static size_t align64(size_t n)
{
    return (n + 63) & ~(size_t)63;
}

static int float_ms_ssim_init(VqFex *fex, const VqFormat *fmt)
{
    FmsPriv *s = fex->priv;
    if (fmt->w[0] < VQ_FMS_MIN_SIZE || fmt->h[0] < VQ_FMS_MIN_SIZE)
        return vq_fail(fex->err, VQ_EUNSUPPORTED,
                       "float_ms_ssim: a %ux%u frame is too small; MS-SSIM "
                       "needs width and height of at least %u (five scales "
                       "of at least 11x11, as libvmaf)",
                       fmt->w[0], fmt->h[0], VQ_FMS_MIN_SIZE);
    size_t rows = 0, off = 0;
    for (unsigned sc = 0; sc < VQ_FMS_SCALES; sc++) {
        s->w[sc] = sc ? s->w[sc - 1] / 2 + (s->w[sc - 1] & 1) : fmt->w[0];
        s->h[sc] = sc ? s->h[sc - 1] / 2 + (s->h[sc - 1] & 1) : fmt->h[0];
        s->row_off[sc] = rows;
        rows += s->h[sc] - (VQ_FSSIM_WIN - 1);
        for (unsigned k = 0; sc && k < 2; k++) {
            s->img_off[sc][k] = off;
            off += align64((size_t)s->w[sc] * s->h[sc] * sizeof(float));
        }
    }
    s->work_off = off;
    size_t map = vq_float_ssim_map_scratch(s->w[0]), lpf = vq_float_ms_ssim_lpf_scratch(s->w[0]);
    fex->scratch_size = off + (map > lpf ? map : lpf);
    if (s->clip_db) {
        /* libvmaf: peak * peak in unsigned, w * h in unsigned */
        unsigned peak = (1u << fmt->bpc) - 1;
        double mse = 0.5 / (fmt->w[0] * fmt->h[0]);
        s->max_db = ceil(10. * log10(peak * peak / mse));
    } else {
        s->max_db = INFINITY;
    }
    s->k = vq_float_ssim_consts();
    vq_float_ssim_dsp_init(&s->dsp, vq_cpu_flags());
    vq_float_ms_ssim_dsp_init(&s->fms, vq_cpu_flags());
    fex->planes = VQ_PLANE_Y;
    fex->acc_size = rows * sizeof(VqFloatSsimRow);
    return 0;
}

static int float_ms_ssim_finalize(VqFex *fex, const void *acc, unsigned index)
{
    const FmsPriv *s = fex->priv;
    const VqFloatSsimRow *rows = acc;
    static const float alphas[] = { VQ_FMS_ALPHAS };
    static const float betas[] = { VQ_FMS_BETAS };
    static const float gammas[] = { VQ_FMS_GAMMAS };
    float l[VQ_FMS_SCALES], c[VQ_FMS_SCALES], sv[VQ_FMS_SCALES];
    double ms = 1.0;
    for (unsigned sc = 0; sc < VQ_FMS_SCALES; sc++) {
        float ssim;
        vq_float_ssim_means(rows + s->row_off[sc], s->w[sc] - (VQ_FSSIM_WIN - 1),
                       s->h[sc] - (VQ_FSSIM_WIN - 1), &ssim, &l[sc], &c[sc],
                       &sv[sc]);
        /* libvmaf: msssim *= pow(l, a) * pow(c, b) * pow(s, g), floats
         * promoted to double */
        ms *= pow(l[sc], alphas[sc]) * pow(c[sc], betas[sc]) *
              pow(sv[sc], gammas[sc]);
    }
    double score = ms;
    if (s->enable_db) {
        double db = -10. * log10(1 - score);
        score = db < s->max_db ? db : s->max_db; /* libvmaf's MIN() */
    }
    int err = vq_fex_emit(fex, OUT_MS, index, score);
    /* libvmaf's order: every l, then every c, then every s */
    for (unsigned sc = 0; !err && s->enable_lcs && sc < VQ_FMS_SCALES; sc++)
        err = vq_fex_emit(fex, OUT_L + sc, index, l[sc]);
    for (unsigned sc = 0; !err && s->enable_lcs && sc < VQ_FMS_SCALES; sc++)
        err = vq_fex_emit(fex, OUT_C + sc, index, c[sc]);
    for (unsigned sc = 0; !err && s->enable_lcs && sc < VQ_FMS_SCALES; sc++)
        err = vq_fex_emit(fex, OUT_S + sc, index, sv[sc]);
    return err;
}

const VqFexDesc vq_fex_float_ms_ssim = {
    .name = "float_ms_ssim",
    .options = float_ms_ssim_options,
    .priv_size = sizeof(FmsPriv),
    .outputs = float_ms_ssim_outputs,
    .exactness = VQ_EXACT_BITWISE,
    .init = float_ms_ssim_init,
    .cpu_run = float_ms_ssim_cpu_run,
    .gpu_init = VQ_GPU_FN(float_ms_ssim_gpu_init),
    .gpu_run = VQ_GPU_FN(float_ms_ssim_gpu_run),
    .gpu_close = VQ_GPU_FN(float_ms_ssim_gpu_close),
    .finalize = float_ms_ssim_finalize,
};
