/*
 * float_adm (libvmaf's float_adm.c): adm2, aim, adm3, adm_scale0..3, and
 * with debug=true adm, adm_num, adm_den and each scale's numerator and
 * denominator. Both backends fill the record with per-row float sums
 * (kernels/float_adm/float_adm.h); the shared finalize adds them up and
 * forms the scores with libvmaf's powf, float and double steps.
 */
#include <math.h>
#include <stdlib.h>

#include "float_adm_priv.h"

#define FEATURE VQ_OPT_FEATURE_PARAM
#define FACTOR(n, a, field, what)                                             \
    { .name = n, .alias = a, .help = what, .offset = offsetof(FAdmPriv, field), \
      .type = VQ_OPT_DOUBLE, .def.d = -1.0, .min = -1.0, .max = 10.0,          \
      .flags = FEATURE }

/* Names, aliases, defaults and ranges as libvmaf's float_adm.c. */
static const VqOption float_adm_options[] = {
    { .name = "debug", .help = "also write adm, adm_num, adm_den and the "
                               "numerator and denominator of every scale",
      .offset = offsetof(FAdmPriv, debug), .type = VQ_OPT_BOOL,
      .def.b = false },
    { .name = "adm_enhn_gain_limit", .alias = "egl",
      .help = "enhancement gain imposed on adm, >= 1.0 (1.0: no gain)",
      .offset = offsetof(FAdmPriv, gain_limit), .type = VQ_OPT_DOUBLE,
      .def.d = 100.0, .min = 1.0, .max = 100.0, .flags = FEATURE },
    { .name = "adm_norm_view_dist", .alias = "nvd",
      .help = "viewing distance / height of the reference display",
      .offset = offsetof(FAdmPriv, norm_view_dist), .type = VQ_OPT_DOUBLE,
      .def.d = 3.0, .min = 0.75, .max = 24.0, .flags = FEATURE },
    { .name = "adm_noise_weight", .alias = "nw", .help = "noise weight",
      .offset = offsetof(FAdmPriv, noise_weight), .type = VQ_OPT_DOUBLE,
      .def.d = 0.03125, .min = 0.0, .max = 1500.0, .flags = FEATURE },
    { .name = "adm_csf_scale", .alias = "scf",
      .help = "scale of Barten's CSF (adm_csf_mode=1)",
      .offset = offsetof(FAdmPriv, csf_scale), .type = VQ_OPT_DOUBLE,
      .def.d = 1.0, .min = 0.0, .max = 50.0, .flags = FEATURE },
    { .name = "adm_csf_diag_scale", .alias = "scfd",
      .help = "scale of Barten's CSF for the diagonal band",
      .offset = offsetof(FAdmPriv, csf_diag_scale), .type = VQ_OPT_DOUBLE,
      .def.d = 1.0, .min = 0.0, .max = 50.0, .flags = FEATURE },
    { .name = "adm_ref_display_height", .alias = "rdf",
      .help = "height of the reference display in pixels",
      .offset = offsetof(FAdmPriv, ref_display_height), .type = VQ_OPT_INT,
      .def.i = 1080, .min = 1, .max = 4320, .flags = FEATURE },
    { .name = "adm_csf_mode", .alias = "csf",
      .help = "contrast sensitivity: 0 Watson, 1 Barten, 2 DLM (3..9: 0)",
      .offset = offsetof(FAdmPriv, csf_mode), .type = VQ_OPT_INT,
      .def.i = 0, .min = 0, .max = 9, .flags = FEATURE },
    { .name = "adm_bypass_cm", .alias = "bcm",
      .help = "1: no contrast masking",
      .offset = offsetof(FAdmPriv, bypass_cm), .type = VQ_OPT_INT,
      .def.i = 0, .min = 0, .max = 1, .flags = FEATURE },
    { .name = "adm_adm3_apply_hm", .alias = "aah",
      .help = "adm3 is the harmonic mean of adm2 and 1 - aim",
      .offset = offsetof(FAdmPriv, adm3_apply_hm), .type = VQ_OPT_BOOL,
      .def.b = false, .flags = FEATURE },
    { .name = "adm_p_norm", .alias = "apn",
      .help = "p-norm of the pooling",
      .offset = offsetof(FAdmPriv, p_norm), .type = VQ_OPT_DOUBLE,
      .def.d = 3.0, .min = 1.0, .max = 20.0, .flags = FEATURE },
    { .name = "adm_dlm_weight", .alias = "dlmw",
      .help = "weight of adm2 against aim in adm3 (1: adm2 only)",
      .offset = offsetof(FAdmPriv, dlm_weight), .type = VQ_OPT_DOUBLE,
      .def.d = 0.5, .min = 0.0, .max = 1.0, .flags = FEATURE },
    { .name = "adm_min_val", .alias = "min",
      .help = "smallest value of adm3 (lower values are raised)",
      .offset = offsetof(FAdmPriv, min_val), .type = VQ_OPT_DOUBLE,
      .def.d = 0.0, .min = 0.0, .max = 1.0, .flags = FEATURE },
    FACTOR("adm_f1s0", "f1s0", f1[0], "weight of bands h, v at scale 0 (-1: CSF)"),
    FACTOR("adm_f1s1", "f1s1", f1[1], "weight of bands h, v at scale 1 (-1: CSF)"),
    FACTOR("adm_f1s2", "f1s2", f1[2], "weight of bands h, v at scale 2 (-1: CSF)"),
    FACTOR("adm_f1s3", "f1s3", f1[3], "weight of bands h, v at scale 3 (-1: CSF)"),
    FACTOR("adm_f2s0", "f2s0", f2[0], "weight of band d at scale 0 (-1: CSF)"),
    FACTOR("adm_f2s1", "f2s1", f2[1], "weight of band d at scale 1 (-1: CSF)"),
    FACTOR("adm_f2s2", "f2s2", f2[2], "weight of band d at scale 2 (-1: CSF)"),
    FACTOR("adm_f2s3", "f2s3", f2[3], "weight of band d at scale 3 (-1: CSF)"),
    { .name = "adm_skip_aim_scale", .alias = "sasc",
      .help = "leave this scale (0..3) out of aim",
      .offset = offsetof(FAdmPriv, skip_aim_scale), .type = VQ_OPT_INT,
      .def.i = -1, .min = 0, .max = 3, .flags = FEATURE },
    { .name = "adm_skip_scale0", .alias = "ssz",
      .help = "skip scale 0 (its numerator is 0)",
      .offset = offsetof(FAdmPriv, skip_scale0), .type = VQ_OPT_BOOL,
      .def.b = false, .flags = FEATURE },
    { 0 }
};

enum {
    OUT_ADM2, OUT_AIM, OUT_ADM3, OUT_SCALE, /* adm_scale0..3 */
    OUT_ADM = OUT_SCALE + 4,                /* debug outputs from here on */
    OUT_NUM, OUT_DEN, OUT_SCALE_ND,         /* adm_num_scale0, den0, ... */
};
static const char *const float_adm_outputs[] = {
    "adm2", "aim", "adm3", "adm_scale0", "adm_scale1", "adm_scale2",
    "adm_scale3", "adm", "adm_num", "adm_den", "adm_num_scale0",
    "adm_den_scale0", "adm_num_scale1", "adm_den_scale1", "adm_num_scale2",
    "adm_den_scale2", "adm_num_scale3", "adm_den_scale3", NULL
};

/* libvmaf's borders: border_factor 0.1 of each side is left out of the
 * terms; decouple and csf go one tap further (adm_tools.c). */
static void regions(unsigned w, unsigned h, VqFloatAdmRect *outer,
                    VqFloatAdmRect *inner)
{
    const double bf = 0.1;
    inner->left = (int)(w * bf - 0.5);
    inner->top = (int)(h * bf - 0.5);
    inner->right = (int)w - inner->left;
    inner->bottom = (int)h - inner->top;
    int left = (int)(w * bf - 0.5 - 1), top = (int)(h * bf - 0.5 - 1);
    int right = (int)w - left + 2, bottom = (int)h - top + 2;
    outer->left = left < 0 ? 0 : left;
    outer->top = top < 0 ? 0 : top;
    outer->right = right > (int)w ? (int)w : right;
    outer->bottom = bottom > (int)h ? (int)h : bottom;
}

static int float_adm_init(VqFex *fex, const VqFormat *fmt)
{
    FAdmPriv *s = fex->priv;
    VqFloatAdmDims *d = &s->dims;
    if (fmt->w[0] < VQ_FADM_MIN_SIZE || fmt->h[0] < VQ_FADM_MIN_SIZE)
        return vq_fail(fex->err, VQ_EUNSUPPORTED,
                       "float_adm: a %ux%u frame is too small; float_adm "
                       "needs at least %ux%u (every scale's bands at least "
                       "2x2)", fmt->w[0], fmt->h[0], VQ_FADM_MIN_SIZE,
                       VQ_FADM_MIN_SIZE);
    unsigned w = fmt->w[0], h = fmt->h[0], off = 0;
    for (unsigned sc = 0; sc < VQ_FADM_SCALES; sc++) {
        d->in_w[sc] = w;
        d->in_h[sc] = h;
        w = (w + 1) / 2;
        h = (h + 1) / 2;
        d->w[sc] = w;
        d->h[sc] = h;
        regions(w, h, &d->outer[sc], &d->inner[sc]);
        d->rows[sc] = (unsigned)(d->inner[sc].bottom - d->inner[sc].top);
        d->off[sc] = off;
        off += VQ_FADM_NQ * d->rows[sc];
        vq_float_adm_rfactors(s, (int)sc, d->rfactor[sc]);
    }
    d->n_floats = off;
    /* libvmaf: (float)(cos(1 degree)^2), folded from double constants */
    const double c = cos(1.0 * 3.14159265358979323846 / 180.0);
    d->cos_1deg_sq = (float)(c * c);
    d->gain_limit = s->gain_limit;
    d->gain_f = (float)s->gain_limit;
    d->gain_exact = (double)d->gain_f == s->gain_limit;
    d->p_norm = (float)s->p_norm;
    d->cube = s->p_norm == 3.0;
    d->bypass_cm = s->bypass_cm;
    vq_float_adm_dsp_init(&s->dsp, vq_cpu_flags());
    fex->planes = VQ_PLANE_Y;
    fex->acc_size = d->n_floats * sizeof(float);
    fex->scratch_size = vq_float_adm_cpu_scratch_size(s);
    return 0;
}

/* One scale's sums from its row sums, as adm_cm_s and adm_csf_den_scale_s
 * end: per band powf(sum, 1/p) plus the noise constant, bands added. */
static float scale_value(const FAdmPriv *s, const float *rows, unsigned n,
                         const VqFloatAdmRect *r, double noise_weight)
{
    const float inv_p = 1.0f / s->p_norm;
    int rw = r->right - r->left, rh = r->bottom - r->top;
    float noise = vq_powf(rw * rh * noise_weight, inv_p);
    float band[3];
    for (unsigned b = 0; b < 3; b++) {
        float acc = 0;
        for (unsigned i = 0; i < n; i++)
            acc += rows[b * n + i];
        band[b] = vq_powf(acc, inv_p) + noise;
    }
    return band[0] + band[1] + band[2];
}

static int float_adm_finalize(VqFex *fex, const void *acc, unsigned index)
{
    const FAdmPriv *s = fex->priv;
    const VqFloatAdmDims *d = &s->dims;
    const float *rows = acc;
    double num = 0, den = 0, aim_num = 0, aim_den = 0;
    double scores[2 * VQ_FADM_SCALES];
    for (unsigned sc = 0; sc < VQ_FADM_SCALES; sc++) {
        float num_s = 0.0, den_s = 0.0, aim_s = 0.0;
        if (sc == 0 && s->skip_scale0) {
            den_s = 1e-10;
        } else {
            const float *r = rows + d->off[sc];
            const unsigned n = d->rows[sc];
            num_s = scale_value(s, r + VQ_FADM_NUM * n, n, &d->inner[sc],
                                s->noise_weight);
            aim_s = scale_value(s, r + VQ_FADM_AIM * n, n, &d->inner[sc],
                                0.0);
            den_s = scale_value(s, r + VQ_FADM_DEN * n, n, &d->inner[sc],
                                s->noise_weight);
        }
        num += num_s;
        den += den_s;
        if (s->skip_aim_scale != (int)sc) {
            aim_den += den_s;
            aim_num += aim_s;
        }
        scores[2 * sc] = num_s;
        scores[2 * sc + 1] = den_s;
    }
    const double limit = 1e-10 * (fex->fmt.w[0] * fex->fmt.h[0]) /
                         (1920.0 * 1080.0);
    num = num < limit ? 0 : num;
    den = den < limit ? 0 : den;
    /* libvmaf leaves aim unset when den is 0; it is 0 here */
    double score = 1.0f, aim = 0.0;
    if (den != 0.0) {
        double q = aim_num / aim_den;
        aim = q < 1.0f ? q : 1.0f;
        score = num / den;
    }
    double adm3 = s->adm3_apply_hm
                ? 2 * score * aim / (score + aim)
                : score * s->dlm_weight + (1 - aim) * (1 - s->dlm_weight);
    adm3 = adm3 > s->min_val ? adm3 : s->min_val;
    int err = vq_fex_emit(fex, OUT_ADM2, index, score);
    if (!err)
        err = vq_fex_emit(fex, OUT_AIM, index, aim);
    if (!err)
        err = vq_fex_emit(fex, OUT_ADM3, index, adm3);
    for (unsigned sc = 0; !err && sc < VQ_FADM_SCALES; sc++)
        err = vq_fex_emit(fex, OUT_SCALE + sc, index,
                          scores[2 * sc] / scores[2 * sc + 1]);
    if (err || !s->debug)
        return err;
    err = vq_fex_emit(fex, OUT_ADM, index, score);
    if (!err)
        err = vq_fex_emit(fex, OUT_NUM, index, num);
    if (!err)
        err = vq_fex_emit(fex, OUT_DEN, index, den);
    for (unsigned k = 0; !err && k < 2 * VQ_FADM_SCALES; k++)
        err = vq_fex_emit(fex, OUT_SCALE_ND + k, index, scores[k]);
    return err;
}

const VqFexDesc vq_fex_float_adm = {
    .name = "float_adm",
    .options = float_adm_options,
    .priv_size = sizeof(FAdmPriv),
    .outputs = float_adm_outputs,
    .exactness = VQ_EXACT_BITWISE,
    .init = float_adm_init,
    .cpu_run = vq_float_adm_cpu_run,
    .gpu_init = VQ_GPU_FN(vq_float_adm_gpu_init),
    .gpu_run = VQ_GPU_FN(vq_float_adm_gpu_run),
    .gpu_close = VQ_GPU_FN(vq_float_adm_gpu_close),
    .finalize = float_adm_finalize,
};
