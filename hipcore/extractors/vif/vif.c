/*
 * Integer VIF (libvmaf's "vif", integer_vif.c): integer_vif_scale0..3, and
 * with debug=true also integer_vif, integer_vif_num, integer_vif_den and the
 * per-scale numerators and denominators. Both backends produce the
 * per-scale integer sums of kernels/vif.h; vif_finalize turns them into
 * values exactly as libvmaf does (through float, as libvmaf stores them).
 */
#include "vif_priv.h"

static const VqOption vif_options[] = {
    { .name = "debug", .help = "also write integer_vif, its numerator and "
                               "denominator, and those of every scale",
      .offset = offsetof(VifPriv, debug), .type = VQ_OPT_BOOL,
      .def.b = false },
    /* default, range and alias as libvmaf's (DEFAULT_VIF_ENHN_GAIN_LIMIT) */
    { .name = "vif_enhn_gain_limit", .alias = "egl",
      .help = "enhancement gain imposed on vif, >= 1.0 (1.0: no gain)",
      .offset = offsetof(VifPriv, gain_limit), .type = VQ_OPT_DOUBLE,
      .def.d = 100.0, .min = 1.0, .max = 100.0,
      .flags = VQ_OPT_FEATURE_PARAM },
    { .name = "vif_skip_scale0", .alias = "ssclz",
      .help = "skip scale 0 (integer_vif_scale0 is written as 0)",
      .offset = offsetof(VifPriv, skip_scale0), .type = VQ_OPT_BOOL,
      .def.b = false, .flags = VQ_OPT_FEATURE_PARAM },
    { 0 }
};

enum {
    OUT_SCALE = 0,    /* integer_vif_scale0..3 */
    OUT_VIF = 4,      /* debug outputs from here on */
    OUT_NUM,
    OUT_DEN,
    OUT_SCALE_ND = 7, /* num_scale0, den_scale0, num_scale1, ... */
};
static const char *const vif_outputs[] = {
    "integer_vif_scale0", "integer_vif_scale1", "integer_vif_scale2",
    "integer_vif_scale3", "integer_vif", "integer_vif_num", "integer_vif_den",
    "integer_vif_num_scale0", "integer_vif_den_scale0",
    "integer_vif_num_scale1", "integer_vif_den_scale1",
    "integer_vif_num_scale2", "integer_vif_den_scale2",
    "integer_vif_num_scale3", "integer_vif_den_scale3", NULL
};

/* round(2048 * log2f(i)) as libvmaf's log_generate(); the float is formed
 * from the double log2, i.e. correctly rounded, which equals glibc's log2f
 * at every entry of the table (checked) without depending on the libm. */
static void vif_log2_table(uint16_t *tab)
{
    for (unsigned i = VQ_VIF_LOG2_BASE; i < VQ_VIF_LOG2_BASE + VQ_VIF_LOG2_SIZE;
         i++)
        tab[i - VQ_VIF_LOG2_BASE] =
            (uint16_t)round((float)log2((double)i) * 2048.0f);
}

static int vif_init(VqFex *fex, const VqFormat *fmt)
{
    VifPriv *s = fex->priv;
    if (fmt->w[0] < VQ_VIF_MIN_SIZE || fmt->h[0] < VQ_VIF_MIN_SIZE)
        return vq_fail(fex->err, VQ_EUNSUPPORTED,
                       "vif: a %ux%u frame is too small; vif needs at least "
                       "%ux%u (libvmaf crashes below 8 rows and has an empty "
                       "scale 3 below 8 columns)",
                       fmt->w[0], fmt->h[0], VQ_VIF_MIN_SIZE, VQ_VIF_MIN_SIZE);
    vq_vif_dims(&s->dims, fmt->w[0], fmt->h[0]);
    vif_log2_table(s->log2_tab);
    vq_vif_dsp_init(&s->dsp, vq_cpu_flags());
    fex->planes = VQ_PLANE_Y;
    fex->acc_size = sizeof(VqVifAcc);
    fex->scratch_size = vq_vif_cpu_scratch_size(&s->dims);
    fex->part_scratch_size = vq_vif_cpu_row_size(&s->dims);
    return 0;
}

/* libvmaf keeps each scale's numerator and denominator as float. */
static void vif_num_den(const VqVifScaleAcc *a, float *num, float *den)
{
    *num = (float)(a->num_log / 2048.0 +
                   (a->den_non_log - (a->num_non_log / 16384.0) / 65025.0));
    *den = (float)(a->den_log / 2048.0 + a->den_non_log);
}

static int vif_finalize(VqFex *fex, const void *acc, unsigned index)
{
    const VifPriv *s = fex->priv;
    const VqVifAcc *a = acc;
    float num[VQ_VIF_SCALES], den[VQ_VIF_SCALES];
    for (unsigned sc = 0; sc < VQ_VIF_SCALES; sc++)
        vif_num_den(&a->scale[sc], &num[sc], &den[sc]);
    if (s->skip_scale0) {
        num[0] = 0.0f;
        den[0] = -1.0f;
    }
    int err = 0;
    for (unsigned sc = 0; !err && sc < VQ_VIF_SCALES; sc++) {
        float score = sc == 0 && s->skip_scale0 ? 0.0f : num[sc] / den[sc];
        err = vq_fex_emit(fex, OUT_SCALE + sc, index, score);
    }
    if (err || !s->debug)
        return err;
    unsigned first = s->skip_scale0 ? 1 : 0;
    double score_num = 0.0, score_den = 0.0;
    for (unsigned sc = first; sc < VQ_VIF_SCALES; sc++) {
        score_num += num[sc];
        score_den += den[sc];
    }
    double score = score_den == 0.0 ? 1.0 : score_num / score_den;
    err = vq_fex_emit(fex, OUT_VIF, index, score);
    if (!err)
        err = vq_fex_emit(fex, OUT_NUM, index, score_num);
    if (!err)
        err = vq_fex_emit(fex, OUT_DEN, index, score_den);
    for (unsigned sc = 0; !err && sc < VQ_VIF_SCALES; sc++) {
        err = vq_fex_emit(fex, OUT_SCALE_ND + 2 * sc, index, num[sc]);
        if (!err)
            err = vq_fex_emit(fex, OUT_SCALE_ND + 2 * sc + 1, index, den[sc]);
    }
    return err;
}

const VqFexDesc vq_fex_vif = {
    .name = "vif",
    .options = vif_options,
    .priv_size = sizeof(VifPriv),
    .outputs = vif_outputs,
    .exactness = VQ_EXACT_BITWISE,
    .init = vif_init,
    .cpu_run = vif_cpu_run,
    .gpu_init = VQ_GPU_FN(vif_gpu_init),
    .gpu_sets = VIF_GPU_SETS,
    .gpu_run = VQ_GPU_FN(vif_gpu_run),
    .gpu_close = VQ_GPU_FN(vif_gpu_close),
    .finalize = vif_finalize,
    .flags = VQ_FEX_REF_PRODUCT,
    .ladder_work_size = vif_ladder_work_size,
    .ladder_run = vif_ladder_run,
    .gpu_ref_size = VQ_GPU_FN(vif_gpu_ref_size),
    .gpu_ref_run = VQ_GPU_FN(vif_gpu_ref_run),
    .gpu_run_split = VQ_GPU_FN(vif_gpu_run_split),
};
