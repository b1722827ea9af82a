/*
 * float_vif (libvmaf's float_vif.c): vif_scale0..3, and with debug=true
 * vif, vif_num, vif_den and each scale's numerator and denominator. Both
 * backends fill the record with per-row float sums
 * (kernels/float_vif/float_vif.h); the shared finalize adds them up and
 * forms the scores with libvmaf's float and double steps.
 */
#include <math.h>
#include <stdlib.h>

#include "float_vif_priv.h"

static const char *const prescale_methods[] = { "nearest", "bilinear",
                                                "bicubic", "lanczos4", NULL };

/* Names, aliases, defaults and ranges as libvmaf's float_vif.c. */
static const VqOption fvif_options[] = {
    { .name = "debug", .help = "also write vif, vif_num, vif_den and the "
                               "numerator and denominator of every scale",
      .offset = offsetof(FVifPriv, debug), .type = VQ_OPT_BOOL,
      .def.b = false },
    { .name = "vif_enhn_gain_limit", .alias = "egl",
      .help = "enhancement gain imposed on vif, >= 1.0 (1.0: no gain)",
      .offset = offsetof(FVifPriv, gain_limit), .type = VQ_OPT_DOUBLE,
      .def.d = 100.0, .min = 1.0, .max = 100.0,
      .flags = VQ_OPT_FEATURE_PARAM },
    { .name = "vif_kernelscale", .alias = "ks",
      .help = "scale of the Gaussian filters' width (one of libvmaf's 21 "
              "values, e.g. 0.5, 1, 1.5, 2, 3)",
      .offset = offsetof(FVifPriv, kernelscale), .type = VQ_OPT_DOUBLE,
      .def.d = 1.0, .min = 0.1, .max = 4.0, .flags = VQ_OPT_FEATURE_PARAM },
    { .name = "vif_prescale", .alias = "ps",
      .help = "resize the frames by this factor first (2.0: twice as large)",
      .offset = offsetof(FVifPriv, prescale), .type = VQ_OPT_DOUBLE,
      .def.d = 1.0, .min = 0.1, .max = 4.0, .flags = VQ_OPT_FEATURE_PARAM },
    { .name = "vif_scale1_min_val", .alias = "s1miv",
      .help = "smallest value of vif_scale1 (lower values are raised)",
      .offset = offsetof(FVifPriv, min_val[1]), .type = VQ_OPT_DOUBLE,
      .def.d = 0.0, .min = 0.0, .max = 1.0, .flags = VQ_OPT_FEATURE_PARAM },
    { .name = "vif_scale2_min_val", .alias = "s2miv",
      .help = "smallest value of vif_scale2 (lower values are raised)",
      .offset = offsetof(FVifPriv, min_val[2]), .type = VQ_OPT_DOUBLE,
      .def.d = 0.0, .min = 0.0, .max = 1.0, .flags = VQ_OPT_FEATURE_PARAM },
    { .name = "vif_scale3_min_val", .alias = "s3miv",
      .help = "smallest value of vif_scale3 (lower values are raised)",
      .offset = offsetof(FVifPriv, min_val[3]), .type = VQ_OPT_DOUBLE,
      .def.d = 0.0, .min = 0.0, .max = 1.0, .flags = VQ_OPT_FEATURE_PARAM },
    { .name = "vif_prescale_method", .alias = "pm",
      .help = "how vif_prescale resizes: nearest, bilinear, bicubic, "
              "lanczos4",
      .offset = offsetof(FVifPriv, prescale_method), .type = VQ_OPT_ENUM,
      .def.i = VQ_FRESIZE_NEAREST, .choices = prescale_methods,
      .flags = VQ_OPT_FEATURE_PARAM },
    { .name = "vif_sigma_nsq", .alias = "snsq",
      .help = "neural noise variance",
      .offset = offsetof(FVifPriv, sigma_nsq), .type = VQ_OPT_DOUBLE,
      .def.d = 2.0, .min = 0.0, .max = 5.0, .flags = VQ_OPT_FEATURE_PARAM },
    { .name = "vif_skip_scale0", .alias = "ssclz",
      .help = "skip scale 0 (vif_scale0 is written as 0)",
      .offset = offsetof(FVifPriv, skip_scale0), .type = VQ_OPT_BOOL,
      .def.b = false, .flags = VQ_OPT_FEATURE_PARAM },
    { 0 }
};

enum {
    OUT_SCALE = 0, /* vif_scale0..3 */
    OUT_VIF = 4,   /* debug outputs from here on */
    OUT_NUM,
    OUT_DEN,
    OUT_SCALE_ND = 7, /* vif_num_scale0, vif_den_scale0, ... */
};
static const char *const fvif_outputs[] = {
    "vif_scale0", "vif_scale1", "vif_scale2", "vif_scale3", "vif", "vif_num",
    "vif_den", "vif_num_scale0", "vif_den_scale0", "vif_num_scale1",
    "vif_den_scale1", "vif_num_scale2", "vif_den_scale2", "vif_num_scale3",
    "vif_den_scale3", NULL
};

/* libvmaf vif_tools.h (valid_kernelscales): the filter widths it accepts;
 * an option value within 1e-3 of one of them is used as given. */
static const float valid_kernelscales[] = {
    1.0, 1.0f / 2.0f, 3.0f / 2.0f, 2.0f, 2.0f / 3.0f, 24.0f / 10.0f,
    360.0f / 97.0f, 4.0f / 3.0f, 3.5f / 3.0f, 3.75f / 3.0f, 4.25f / 3.0f,
    5.0f / 3.0f, 3.0f, 1.0f / 2.25f, 1.4746f, 1.54f, 1.6f, 1.06667f,
    0.711111f, 0.740740f, 1.111111f,
};

static int kernelscale_valid(float ks)
{
    for (size_t i = 0; i < sizeof(valid_kernelscales) / sizeof(float); i++)
        if (fabsf(ks - valid_kernelscales[i]) < 1e-3)
            return 1;
    return 0;
}

/* vif_get_filter_size(): 2^(4 - scale) + 1 taps times the kernel scale,
 * rounded up to odd, at least 3. */
static int filter_size(int scale, float ks)
{
    int n = (1 << (4 - scale)) + 1;
    int c = (int)ceil(n * ks);
    c = c % 2 == 0 ? c + 1 : c;
    return c > 3 ? c : 3;
}

/* get_1d_gaussian_kernel(): standard deviation size / 5, normalized to a
 * float sum of 1, with libvmaf's float and double steps. */
static void gaussian(float *out, int size)
{
    const double pi = 3.14159265358979323846;
    float stdev = size / 5.0f, sum = 0;
    int k = (size - 1) / 2;
    for (int i = 0; i < size; i++) {
        float x = (float)(i - k), mean = 0;
        float num = exp(-0.5 * (x - mean) / stdev * (x - mean) / stdev);
        float den = 1 / (stdev * sqrt(2 * pi));
        out[i] = num / den;
        sum += out[i];
    }
    for (int i = 0; i < size; i++)
        out[i] /= sum;
}

/* Whether a side of n samples gives every scale enough samples for its
 * filter (one mirror reflection: more than half the taps). */
static int side_ok(const FVifPriv *s, unsigned n, const int *fw)
{
    unsigned m = (unsigned)(int)(n * s->prescale + 0.5);
    for (unsigned sc = 0; sc < VQ_FVIF_SCALES; sc++, m /= 2)
        if (m < (unsigned)(fw[sc] / 2) + 1)
            return 0;
    return 1;
}

/* The smallest side that side_ok accepts. */
static unsigned min_side(const FVifPriv *s, const int *fw)
{
    unsigned n = 1;
    while (!side_ok(s, n, fw) && n < (1u << 20))
        n++;
    return n;
}

static int fvif_init(VqFex *fex, const VqFormat *fmt)
{
    FVifPriv *s = fex->priv;
    VqFloatVifDims *d = &s->dims;
    if (!kernelscale_valid((float)s->kernelscale))
        return vq_fail(fex->err, VQ_EINVAL,
                       "float_vif: vif_kernelscale %g is not one of the "
                       "values libvmaf accepts (1, 0.5, 1.5, 2, 2/3, 2.4, "
                       "360/97, 4/3, 3.5/3, 3.75/3, 4.25/3, 5/3, 3, 1/2.25, "
                       "1.4746, 1.54, 1.6, 1.06667, 0.711111, 0.74074, "
                       "1.111111)", s->kernelscale);
    s->src_w = fmt->w[0];
    s->src_h = fmt->h[0];
    unsigned w = (unsigned)(int)(fmt->w[0] * s->prescale + 0.5);
    unsigned h = (unsigned)(int)(fmt->h[0] * s->prescale + 0.5);
    if (s->prescale_method == VQ_FRESIZE_BILINEAR && w > 7680)
        return vq_fail(fex->err, VQ_EUNSUPPORTED,
                       "float_vif: bilinear vif_prescale supports results up "
                       "to 7680 wide (libvmaf's limit), not %u", w);
    s->resized = w != fmt->w[0] || h != fmt->h[0];
    for (unsigned sc = 0; sc < VQ_FVIF_SCALES; sc++)
        d->fw[sc] = filter_size((int)sc, (float)s->kernelscale);
    if (!side_ok(s, fmt->w[0], d->fw) || !side_ok(s, fmt->h[0], d->fw)) {
        unsigned m = min_side(s, d->fw);
        return vq_fail(fex->err, VQ_EUNSUPPORTED,
                       "float_vif: a %ux%u frame is too small; with these "
                       "options (scale 3's %d-tap filter%s) it needs at least "
                       "%ux%u", fmt->w[0], fmt->h[0], d->fw[3],
                       s->resized ? ", after vif_prescale" : "", m, m);
    }
    unsigned off = 0;
    for (unsigned sc = 0; sc < VQ_FVIF_SCALES; sc++) {
        d->w[sc] = w;
        d->h[sc] = h;
        gaussian(d->taps[sc], d->fw[sc]);
        d->off_num[sc] = off;
        d->off_den[sc] = off + h;
        off += 2 * h;
        w /= 2;
        h /= 2;
    }
    d->n_floats = off;
    s->c.sigma_nsq = s->sigma_nsq;
    float nsq = (float)s->sigma_nsq;
    /* powf(nsq, 2.0f): the exact square rounded to float */
    s->c.sigma_max_inv = (float)((float)((double)nsq * nsq) / (255.0 * 255.0));
    s->c.gain_limit = (float)s->gain_limit;
    int e2;
    s->c.den_float = s->sigma_nsq > 0 && frexp(s->sigma_nsq, &e2) == 0.5;
    s->nsq_up = (float)s->sigma_nsq;
    if ((double)s->nsq_up < s->sigma_nsq)
        s->nsq_up = nextafterf(s->nsq_up, INFINITY);
    vq_float_vif_dsp_init(&s->dsp, vq_cpu_flags());
    if (s->resized) {
        const VqFResizeMethod m = (VqFResizeMethod)s->prescale_method;
        s->tab_x = malloc((d->w[0] + d->h[0]) * sizeof(VqFResizeTap));
        if (!s->tab_x)
            return vq_fail(fex->err, VQ_ENOMEM, "float_vif: out of memory");
        s->tab_y = s->tab_x + d->w[0];
        for (unsigned x = 0; x < d->w[0]; x++)
            s->tab_x[x] = vq_fresize_axis(m, (int)s->src_w, (int)d->w[0],
                                          (int)x);
        for (unsigned y = 0; y < d->h[0]; y++)
            s->tab_y[y] = vq_fresize_axis(m, (int)s->src_h, (int)d->h[0],
                                          (int)y);
    }
    fex->planes = VQ_PLANE_Y;
    fex->acc_size = d->n_floats * sizeof(float);
    fex->scratch_size = vq_float_vif_cpu_scratch_size(s);
    return 0;
}

static int fvif_finalize(VqFex *fex, const void *acc, unsigned index)
{
    const FVifPriv *s = fex->priv;
    const VqFloatVifDims *d = &s->dims;
    const float *rows = acc;
    double scores[2 * VQ_FVIF_SCALES];
    for (unsigned sc = 0; sc < VQ_FVIF_SCALES; sc++) {
        float num = 0.0f, den = 0.0f;
        for (unsigned i = 0; i < d->h[sc]; i++) {
            num += rows[d->off_num[sc] + i];
            den += rows[d->off_den[sc] + i];
        }
        scores[2 * sc] = num;
        scores[2 * sc + 1] = den;
    }
    int err = vq_fex_emit(fex, OUT_SCALE, index,
                          s->skip_scale0 ? 0.0f : scores[0] / scores[1]);
    for (unsigned sc = 1; !err && sc < VQ_FVIF_SCALES; sc++) {
        double v = scores[2 * sc] / scores[2 * sc + 1];
        err = vq_fex_emit(fex, OUT_SCALE + sc, index,
                          v > s->min_val[sc] ? v : s->min_val[sc]);
    }
    if (err || !s->debug)
        return err;
    double num = 0.0, den = 0.0;
    for (unsigned sc = s->skip_scale0 ? 1 : 0; sc < VQ_FVIF_SCALES; sc++) {
        num += scores[2 * sc];
        den += scores[2 * sc + 1];
    }
    if (s->skip_scale0) {
        scores[0] = 0.0f;
        scores[1] = -1.0f;
    }
    err = vq_fex_emit(fex, OUT_VIF, index, den == 0.0 ? 1.0f : num / den);
    if (!err)
        err = vq_fex_emit(fex, OUT_NUM, index, num);
    if (!err)
        err = vq_fex_emit(fex, OUT_DEN, index, den);
    for (unsigned k = 0; !err && k < 2 * VQ_FVIF_SCALES; k++)
        err = vq_fex_emit(fex, OUT_SCALE_ND + k, index, scores[k]);
    return err;
}

static void fvif_close(VqFex *fex)
{
    FVifPriv *s = fex->priv;
    free(s->tab_x);
    s->tab_x = s->tab_y = NULL;
}

const VqFexDesc vq_fex_float_vif = {
    .name = "float_vif",
    .options = fvif_options,
    .priv_size = sizeof(FVifPriv),
    .outputs = fvif_outputs,
    .exactness = VQ_EXACT_BITWISE,
    .init = fvif_init,
    .cpu_run = vq_float_vif_cpu_run,
    .gpu_init = VQ_GPU_FN(vq_float_vif_gpu_init),
    .gpu_run = VQ_GPU_FN(vq_float_vif_gpu_run),
    .gpu_close = VQ_GPU_FN(vq_float_vif_gpu_close),
    .finalize = fvif_finalize,
    .close = fvif_close,
};
