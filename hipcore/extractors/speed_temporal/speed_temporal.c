/*
 * speed_temporal (libvmaf's speed.c, vmaf_fex_speed_temporal): SpEED on the
 * luma difference of consecutive frames, reference (prev - cur) against
 * distorted (prev - cur, or with speed_use_ref_diff the distorted previous
 * frame minus the current reference). Output speed_temporal; frame 0 has
 * no previous frame and scores 0, as in libvmaf.
 *
 * As libvmaf 3.2.0: the score is not clipped (speed_max_val is accepted and
 * names the output, but libvmaf's extract never applies it), and
 * speed_weight_var_mode is not an option here (mode 0).
 *
 * State between frames: the previous reference and distorted luma, in priv
 * for the CPU path (a temporal extractor's frames run one at a time) and in
 * device buffers for the GPU path.
 */
#include "speed_temporal_priv.h"

/* Names, aliases, defaults and ranges as libvmaf 3.2.0's speed_temporal
 * options. */
static const VqOption speed_temporal_options[] = {
    { .name = "speed_kernelscale", .alias = "ks",
      .help = "scale of the Gaussian kernels (one of libvmaf's kernel scales)",
      .offset = offsetof(TemporalPriv, o.kernelscale), .type = VQ_OPT_DOUBLE,
      .def.d = VQ_SPEED_DEF_KERNELSCALE, .min = 0.1, .max = 4.0,
      .flags = VQ_OPT_FEATURE_PARAM },
    { .name = "speed_prescale", .alias = "ps",
      .help = "scale the frames by this factor first",
      .offset = offsetof(TemporalPriv, o.prescale), .type = VQ_OPT_DOUBLE,
      .def.d = VQ_SPEED_DEF_PRESCALE, .min = 0.1, .max = 4.0,
      .flags = VQ_OPT_FEATURE_PARAM },
    { .name = "speed_prescale_method", .alias = "psm",
      .help = "resampling of speed_prescale: nearest, bilinear, bicubic, "
              "lanczos4",
      .offset = offsetof(TemporalPriv, o.method), .type = VQ_OPT_STRING,
      .def.s = VQ_SPEED_DEF_METHOD, .choices = vq_speed_methods,
      .flags = VQ_OPT_FEATURE_PARAM },
    { .name = "speed_sigma_nn", .alias = "snn",
      .help = "standard deviation of the neural noise",
      .offset = offsetof(TemporalPriv, o.sigma_nn), .type = VQ_OPT_DOUBLE,
      .def.d = VQ_SPEED_DEF_SIGMA_NN, .min = 0.1, .max = 2.0,
      .flags = VQ_OPT_FEATURE_PARAM },
    { .name = "speed_nn_floor", .alias = "nnf",
      .help = "neural noise floor, a fraction of speed_sigma_nn",
      .offset = offsetof(TemporalPriv, o.nn_floor), .type = VQ_OPT_DOUBLE,
      .def.d = VQ_SPEED_DEF_NN_FLOOR, .min = 0.0, .max = 1.0,
      .flags = VQ_OPT_FEATURE_PARAM },
    { .name = "speed_max_val", .alias = "mxv",
      .help = "names the output like libvmaf; libvmaf does not clip "
              "speed_temporal with it",
      .offset = offsetof(TemporalPriv, max_val), .type = VQ_OPT_DOUBLE,
      .def.d = VQ_SPEED_DEF_MAX_VAL, .min = 0.0, .max = 1000.0,
      .flags = VQ_OPT_FEATURE_PARAM },
    { .name = "speed_use_ref_diff", .alias = "urd",
      .help = "distorted side: previous distorted frame minus the current "
              "reference frame",
      .offset = offsetof(TemporalPriv, use_ref_diff), .type = VQ_OPT_BOOL,
      .def.b = false, .flags = VQ_OPT_FEATURE_PARAM },
    { 0 }
};

static const char *const speed_temporal_outputs[] = { "speed_temporal", NULL };

static int speed_temporal_init(VqFex *fex, const VqFormat *fmt)
{
    TemporalPriv *s = fex->priv;
    char hint[96];
    const unsigned m = vq_speed_min_side(s->o.prescale);
    snprintf(hint, sizeof(hint), " (frames of %ux%u or more)", m, m);
    s->o.weight_var_mode = 0;
    int err = vq_speed_setup(&s->sp, &s->o, fmt->w[0], fmt->h[0],
                             "speed_temporal", "luma plane", hint, fex->err);
    if (err)
        return err;
    s->img_scratch = (vq_speed_cpu_scratch(&s->sp) + 63) & ~(size_t)63;
    s->row_bytes = (size_t)fmt->w[0] * fmt->bytes_per_sample;
    fex->planes = VQ_PLANE_Y;
    fex->acc_size = VQ_SPEED_TEMPORAL_PAIRS * vq_speed_pair_size(s->sp.g.nb);
    fex->scratch_size = s->img_scratch + 4 * (size_t)s->sp.g.nb * sizeof(float);
    fex->lag = 0;
    return 0;
}

static int speed_temporal_finalize(VqFex *fex, const void *acc, unsigned index)
{
    const TemporalPriv *s = fex->priv;
    bool singular;
    const float score = index ? vq_speed_pair_score(&s->sp, acc, &singular)
                              : 0.0f;
    return vq_fex_emit(fex, 0, index, score);
}

static void speed_temporal_close(VqFex *fex)
{
    TemporalPriv *s = fex->priv;
    vq_speed_release(&s->sp);
    free(s->kept[0]);
    free(s->kept[1]);
    s->kept[0] = s->kept[1] = NULL;
}

const VqFexDesc vq_fex_speed_temporal = {
    .name = "speed_temporal",
    .options = speed_temporal_options,
    .priv_size = sizeof(TemporalPriv),
    .outputs = speed_temporal_outputs,
    .flags = VQ_FEX_TEMPORAL,
    .exactness = VQ_EXACT_BITWISE,
    .init = speed_temporal_init,
    .cpu_run = speed_temporal_cpu_run,
    .gpu_sets = VQ_SPEED_GPU_SETS,
    .gpu_init = VQ_GPU_FN(speed_temporal_gpu_init),
    .gpu_run = VQ_GPU_FN(speed_temporal_gpu_run),
    .gpu_close = VQ_GPU_FN(speed_temporal_gpu_close),
    .finalize = speed_temporal_finalize,
    .close = speed_temporal_close,
};
