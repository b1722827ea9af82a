/*
 * speed_chroma (libvmaf's speed.c, vmaf_fex_speed_chroma): SpEED on the U
 * and V planes of each reference/distorted pair; outputs speed_chroma_u,
 * speed_chroma_v and speed_chroma_uv (their mean; when only one plane's
 * covariance is singular, the other plane's score), each clipped to
 * speed_max_val. The planes have libvmaf's size: w >> 1 (and h >> 1 for
 * 4:2:0), so an odd last column or row is not read.
 *
 * The engine is hipcore/extractors/speed; the record is two pair records
 * (U, V), each the singular flags and one term per 5x5 block.
 */
#include "speed_chroma_priv.h"

/* Names, aliases, defaults and ranges as libvmaf 3.2.0's options_chroma. */
static const VqOption speed_chroma_options[] = {
    { .name = "speed_kernelscale", .alias = "ks",
      .help = "scale of the Gaussian kernels (one of libvmaf's kernel scales)",
      .offset = offsetof(ChromaPriv, o.kernelscale), .type = VQ_OPT_DOUBLE,
      .def.d = VQ_SPEED_DEF_KERNELSCALE, .min = 0.1, .max = 4.0,
      .flags = VQ_OPT_FEATURE_PARAM },
    { .name = "speed_prescale", .alias = "ps",
      .help = "scale the planes by this factor first",
      .offset = offsetof(ChromaPriv, o.prescale), .type = VQ_OPT_DOUBLE,
      .def.d = VQ_SPEED_DEF_PRESCALE, .min = 0.1, .max = 4.0,
      .flags = VQ_OPT_FEATURE_PARAM },
    { .name = "speed_prescale_method", .alias = "psm",
      .help = "resampling of speed_prescale: nearest, bilinear, bicubic, "
              "lanczos4",
      .offset = offsetof(ChromaPriv, o.method), .type = VQ_OPT_STRING,
      .def.s = VQ_SPEED_DEF_METHOD, .choices = vq_speed_methods,
      .flags = VQ_OPT_FEATURE_PARAM },
    { .name = "speed_sigma_nn", .alias = "snn",
      .help = "standard deviation of the neural noise",
      .offset = offsetof(ChromaPriv, o.sigma_nn), .type = VQ_OPT_DOUBLE,
      .def.d = VQ_SPEED_DEF_SIGMA_NN, .min = 0.1, .max = 2.0,
      .flags = VQ_OPT_FEATURE_PARAM },
    { .name = "speed_nn_floor", .alias = "nnf",
      .help = "neural noise floor, a fraction of speed_sigma_nn",
      .offset = offsetof(ChromaPriv, o.nn_floor), .type = VQ_OPT_DOUBLE,
      .def.d = VQ_SPEED_DEF_NN_FLOOR, .min = 0.0, .max = 1.0,
      .flags = VQ_OPT_FEATURE_PARAM },
    { .name = "speed_max_val", .alias = "mxv",
      .help = "scores above this value are clipped to it",
      .offset = offsetof(ChromaPriv, max_val), .type = VQ_OPT_DOUBLE,
      .def.d = VQ_SPEED_DEF_MAX_VAL, .min = 0.0, .max = 1000.0,
      .flags = VQ_OPT_FEATURE_PARAM },
    { .name = "speed_weight_var_mode", .alias = "wvm",
      .help = "how the variances weight the entropies (0..6)",
      .offset = offsetof(ChromaPriv, o.weight_var_mode), .type = VQ_OPT_INT,
      .def.i = 0, .min = 0, .max = 6, .flags = VQ_OPT_FEATURE_PARAM },
    { 0 }
};

enum { OUT_U, OUT_V, OUT_UV };
static const char *const speed_chroma_outputs[] = {
    "speed_chroma_u", "speed_chroma_v", "speed_chroma_uv", NULL
};

static int speed_chroma_init(VqFex *fex, const VqFormat *fmt)
{
    ChromaPriv *s = fex->priv;
    if (fmt->n_planes < 3)
        return vq_fail(fex->err, VQ_EUNSUPPORTED,
                       "speed_chroma needs chroma planes; a %s input has none",
                       vq_pix_fmt_name(fmt->fmt));
    char hint[96];
    const unsigned m = vq_speed_min_side(s->o.prescale);
    snprintf(hint, sizeof(hint), " (frames of %ux%u or more in %s)",
             m << fmt->ss_x, m << fmt->ss_y, vq_pix_fmt_name(fmt->fmt));
    int err = vq_speed_setup(&s->sp, &s->o, fmt->w[1], fmt->h[1],
                             "speed_chroma", "chroma plane", hint, fex->err);
    if (err)
        return err;
    const size_t nb = (size_t)s->sp.g.nb;
    s->img_scratch = (vq_speed_cpu_scratch(&s->sp) + 63) & ~(size_t)63;
    fex->planes = VQ_PLANE_U | VQ_PLANE_V;
    fex->acc_size = VQ_SPEED_CHROMA_PAIRS * pair_bytes(s);
    fex->scratch_size = s->img_scratch + 4 * nb * sizeof(float);
    fex->lag = 0;
    return 0;
}

static double min_d(double a, double b)
{
    return a < b ? a : b;
}

static int speed_chroma_finalize(VqFex *fex, const void *acc, unsigned index)
{
    const ChromaPriv *s = fex->priv;
    bool sing_u, sing_v;
    const float u = vq_speed_pair_score(&s->sp, acc, &sing_u);
    const float v = vq_speed_pair_score(&s->sp, (const char *)acc +
                                        pair_bytes(s), &sing_v);
    float uv;
    if (sing_u && !sing_v)
        uv = v;
    else if (sing_v && !sing_u)
        uv = u;
    else
        uv = (float)((u + v) / 2.0);
    int err = vq_fex_emit(fex, OUT_U, index, min_d(u, s->max_val));
    if (!err)
        err = vq_fex_emit(fex, OUT_V, index, min_d(v, s->max_val));
    if (!err)
        err = vq_fex_emit(fex, OUT_UV, index, min_d(uv, s->max_val));
    return err;
}

static void speed_chroma_close(VqFex *fex)
{
    ChromaPriv *s = fex->priv;
    vq_speed_release(&s->sp);
}

const VqFexDesc vq_fex_speed_chroma = {
    .name = "speed_chroma",
    .options = speed_chroma_options,
    .priv_size = sizeof(ChromaPriv),
    .outputs = speed_chroma_outputs,
    .exactness = VQ_EXACT_BITWISE,
    .init = speed_chroma_init,
    .cpu_run = speed_chroma_cpu_run,
    .gpu_sets = VQ_SPEED_GPU_SETS,
    .gpu_init = VQ_GPU_FN(speed_chroma_gpu_init),
    .gpu_run = VQ_GPU_FN(speed_chroma_gpu_run),
    .gpu_close = VQ_GPU_FN(speed_chroma_gpu_close),
    .finalize = speed_chroma_finalize,
    .close = speed_chroma_close,
    .flags = VQ_FEX_REF_PRODUCT,
    .ref_product_size = speed_chroma_ref_product_size,
};
