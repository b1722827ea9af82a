/*
 * Integer ADM (libvmaf's "adm", integer_adm.c): detail loss (integer_adm2,
 * per scale integer_adm_scale0..3), additive impairment (integer_aim) and
 * their blend (integer_adm3), with libvmaf's options and output names.
 *
 * Both backends fill VqAdmAcc, libvmaf's 64-bit integer accumulators (per
 * scale and band, after its per-row rounding); adm_finalize turns them into
 * scores with libvmaf's float arithmetic.
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "adm_priv.h"

static const VqOption adm_options[] = {
    { .name = "debug", .help = "also write num/den values per scale",
      .offset = offsetof(AdmPriv, debug), .type = VQ_OPT_BOOL, .def.b = false },
    { .name = "adm_csf_scale", .alias = "scf",
      .help = "scale of the horizontal and vertical CSF terms (Barten CSF)",
      .offset = offsetof(AdmPriv, csf_scale), .type = VQ_OPT_DOUBLE,
      .def.d = 1.0, .min = 0.0, .max = 50.0, .flags = VQ_OPT_FEATURE_PARAM },
    { .name = "adm_csf_diag_scale", .alias = "scfd",
      .help = "scale of the diagonal CSF term (Barten CSF)",
      .offset = offsetof(AdmPriv, csf_diag_scale), .type = VQ_OPT_DOUBLE,
      .def.d = 1.0, .min = 0.0, .max = 50.0, .flags = VQ_OPT_FEATURE_PARAM },
    { .name = "adm_dlm_weight", .alias = "dlmw",
      .help = "weight of DLM against AIM in integer_adm3 (1: DLM only)",
      .offset = offsetof(AdmPriv, dlm_weight), .type = VQ_OPT_DOUBLE,
      .def.d = 0.5, .min = 0.0, .max = 1.0, .flags = VQ_OPT_FEATURE_PARAM },
    { .name = "adm_enhn_gain_limit", .alias = "egl",
      .help = "enhancement gain limit, >= 1 (1: no gain from enhancement)",
      .offset = offsetof(AdmPriv, enhn_gain_limit), .type = VQ_OPT_DOUBLE,
      .def.d = 100.0, .min = 1.0, .max = 100.0, .flags = VQ_OPT_FEATURE_PARAM },
    { .name = "adm_norm_view_dist", .alias = "nvd",
      .help = "viewing distance / display height",
      .offset = offsetof(AdmPriv, norm_view_dist), .type = VQ_OPT_DOUBLE,
      .def.d = 3.0, .min = 0.75, .max = 24.0, .flags = VQ_OPT_FEATURE_PARAM },
    { .name = "adm_ref_display_height", .alias = "rdh",
      .help = "reference display height in pixels",
      .offset = offsetof(AdmPriv, ref_display_height), .type = VQ_OPT_INT,
      .def.i = 1080, .min = 1, .max = 4320, .flags = VQ_OPT_FEATURE_PARAM },
    { .name = "adm_csf_mode", .alias = "csf",
      .help = "CSF: 0 Watson97, 1 Barten, 2 Barten/Watson blend, 3 blend (MAE)",
      .offset = offsetof(AdmPriv, csf_mode), .type = VQ_OPT_INT,
      .def.i = ADM_CSF_WATSON97, .min = 0, .max = 3,
      .flags = VQ_OPT_FEATURE_PARAM },
    { .name = "adm_noise_weight", .alias = "nw", .help = "noise weight",
      .offset = offsetof(AdmPriv, noise_weight), .type = VQ_OPT_DOUBLE,
      .def.d = 0.03125, .min = 0.0, .max = 1500.0,
      .flags = VQ_OPT_FEATURE_PARAM },
    { .name = "adm_skip_aim", .help = "do not compute AIM",
      .offset = offsetof(AdmPriv, skip_aim), .type = VQ_OPT_BOOL,
      .def.b = false },
    { .name = "adm_skip_scale0", .alias = "ssz", .help = "do not score scale 0",
      .offset = offsetof(AdmPriv, skip_scale0), .type = VQ_OPT_BOOL,
      .def.b = false, .flags = VQ_OPT_FEATURE_PARAM },
    { .name = "adm_min_val", .alias = "min",
      .help = "lower clip of integer_adm3",
      .offset = offsetof(AdmPriv, min_val), .type = VQ_OPT_DOUBLE,
      .def.d = 0.0, .min = 0.0, .max = 1.0, .flags = VQ_OPT_FEATURE_PARAM },
    { 0 }
};

enum {
    OUT_ADM2, OUT_AIM, OUT_ADM3, OUT_SCALE0,
    OUT_DBG_ADM = OUT_SCALE0 + 4, OUT_DBG_NUM, OUT_DBG_DEN, OUT_DBG_SCALES,
};

/* libvmaf's order; the debug outputs (debug=true) follow. */
static const char *const adm_outputs[] = {
    "integer_adm2", "integer_aim", "integer_adm3",
    "integer_adm_scale0", "integer_adm_scale1", "integer_adm_scale2",
    "integer_adm_scale3",
    "integer_adm", "integer_adm_num", "integer_adm_den",
    "integer_adm_num_scale0", "integer_adm_den_scale0",
    "integer_adm_num_scale1", "integer_adm_den_scale1",
    "integer_adm_num_scale2", "integer_adm_den_scale2",
    "integer_adm_num_scale3", "integer_adm_den_scale3",
    NULL
};

static int adm_init(VqFex *fex, const VqFormat *fmt)
{
    AdmPriv *s = fex->priv;
    int err = vq_adm_setup(s, fmt->w[0], fmt->h[0], fmt->bpc, fex->err);
    if (err)
        return err;
    /* libvmaf's div_lookup: 2^30 / d with the sign of d, d = -32768..32768. */
    s->recip = malloc(65537 * sizeof(*s->recip));
    if (!s->recip)
        return vq_fail(fex->err, VQ_ENOMEM, "out of memory");
    for (int32_t d = 0; d <= 32768; d++) {
        s->recip[32768 + d] = vq_adm_recip(d);
        s->recip[32768 - d] = -vq_adm_recip(d);
    }
    vq_adm_dsp_init(&s->dsp, vq_cpu_flags());
    fex->planes = VQ_PLANE_Y;
    fex->acc_size = sizeof(VqAdmAcc);
    fex->scratch_size = vq_adm_cpu_scratch_size(s);
    fex->part_scratch_size = s->rows_size;
    return 0;
}

static int adm_finalize(VqFex *fex, const void *acc, unsigned index)
{
    const AdmPriv *s = fex->priv;
    double num = 0, den = 0, aim_num = 0;
    double scores[8];
    for (int k = 0; k < 4; k++) {
        float n, a, d;
        vq_adm_scale_scores(s, acc, k, &n, &a, &d);
        num += n;
        den += d;
        aim_num += a;
        scores[2 * k] = n;
        scores[2 * k + 1] = d;
    }
    const double limit =
        1e-10 * (int)(fex->fmt.w[0] * fex->fmt.h[0]) / (1920.0 * 1080.0);
    num = num < limit ? 0 : num;
    den = den < limit ? 0 : den;
    /* With a zero denominator libvmaf leaves AIM unset (an uninitialised
     * value); 0 is written here. */
    double score = 1.0, aim = 0.0;
    if (den != 0.0) {
        aim = aim_num / den;
        score = num / den;
    }
    double adm3 = score * s->dlm_weight + (1 - aim) * (1 - s->dlm_weight);
    double out[OUT_SCALE0 + 4] = {
        score, aim, adm3 > s->min_val ? adm3 : s->min_val,
        scores[0] / scores[1], scores[2] / scores[3],
        scores[4] / scores[5], scores[6] / scores[7],
    };
    for (unsigned k = 0; k < OUT_SCALE0 + 4; k++) {
        int err = vq_fex_emit(fex, k, index, out[k]);
        if (err)
            return err;
    }
    if (!s->debug)
        return 0;
    double dbg[3 + 8] = { score, num, den };
    for (int k = 0; k < 8; k++)
        dbg[3 + k] = scores[k];
    for (unsigned k = 0; k < 11; k++) {
        int err = vq_fex_emit(fex, OUT_DBG_ADM + k, index, dbg[k]);
        if (err)
            return err;
    }
    return 0;
}

static void adm_close(VqFex *fex)
{
    AdmPriv *s = fex->priv;
    free(s->recip);
    s->recip = NULL;
}

const VqFexDesc vq_fex_adm = {
    .name = "adm",
    .options = adm_options,
    .priv_size = sizeof(AdmPriv),
    .outputs = adm_outputs,
    .exactness = VQ_EXACT_BITWISE,
    .init = adm_init,
    .cpu_run = adm_cpu_run,
    .flags = VQ_FEX_REF_PRODUCT,
    .ref_product_size = adm_ref_product_size,
    .gpu_init = VQ_GPU_FN(vq_adm_gpu_init),
    .gpu_sets = VQ_ADM_GPU_SETS,
    .gpu_run = VQ_GPU_FN(vq_adm_gpu_run),
    .gpu_close = VQ_GPU_FN(vq_adm_gpu_close),
    .gpu_ref_size = VQ_GPU_FN(vq_adm_gpu_ref_size),
    .gpu_ref_run = VQ_GPU_FN(vq_adm_gpu_ref_run),
    .gpu_run_split = VQ_GPU_FN(vq_adm_gpu_run_split),
    .finalize = adm_finalize,
    .close = adm_close,
};
