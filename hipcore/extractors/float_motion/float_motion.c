/*
 * float_motion (libvmaf's float_motion.c): motion, motion2 and motion3 from
 * the blurred reference luma (kernels/float_motion/float_motion.h). Both
 * backends fill the record with the row sums of |previous - current|; the
 * shared finalize turns them into scores with libvmaf's float and double
 * steps, and writes each frame's motion2 and motion3 when the next frame's
 * score is known (libvmaf writes the same values one frame later, and the
 * last frame's at flush).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>

#include "float_motion_priv.h"

/* Names, aliases, defaults and ranges as libvmaf's float_motion.c. */
static const VqOption fmotion_options[] = {
    { .name = "debug", .help = "also write motion (the score of each frame)",
      .offset = offsetof(FMotionPriv, debug), .type = VQ_OPT_BOOL,
      .def.b = true },
    { .name = "motion_force_zero", .alias = "force_0",
      .help = "force every motion score to zero",
      .offset = offsetof(FMotionPriv, force_zero), .type = VQ_OPT_BOOL,
      .def.b = false, .flags = VQ_OPT_FEATURE_PARAM },
    { .name = "motion_fps_weight", .alias = "mfw",
      .help = "multiplies the score (frame rate correction)",
      .offset = offsetof(FMotionPriv, fps_weight), .type = VQ_OPT_DOUBLE,
      .def.d = 1.0, .min = 0.0, .max = 5.0, .flags = VQ_OPT_FEATURE_PARAM },
    { .name = "motion_blend_factor", .alias = "mbf",
      .help = "weight of the score itself when blending with the offset",
      .offset = offsetof(FMotionPriv, blend_factor), .type = VQ_OPT_DOUBLE,
      .def.d = 1.0, .min = 0.0, .max = 1.0, .flags = VQ_OPT_FEATURE_PARAM },
    { .name = "motion_blend_offset", .alias = "mbo",
      .help = "scores are blended towards min(score, this offset)",
      .offset = offsetof(FMotionPriv, blend_offset), .type = VQ_OPT_DOUBLE,
      .def.d = 40.0, .min = 0.0, .max = 1000.0,
      .flags = VQ_OPT_FEATURE_PARAM },
    { .name = "motion_add_scale1", .alias = "mdc",
      .help = "add the score of the frames resized to half size",
      .offset = offsetof(FMotionPriv, add_scale1), .type = VQ_OPT_BOOL,
      .def.b = false, .flags = VQ_OPT_FEATURE_PARAM },
    { .name = "motion_filter_size", .alias = "mfs",
      .help = "blur taps: 5, 3, or 1 (no blur); other values mean 5",
      .offset = offsetof(FMotionPriv, filter_size), .type = VQ_OPT_INT,
      .def.i = 5, .min = 0, .max = 9, .flags = VQ_OPT_FEATURE_PARAM },
    { .name = "motion_add_uv", .alias = "mau",
      .help = "add the scores of both chroma planes",
      .offset = offsetof(FMotionPriv, add_uv), .type = VQ_OPT_BOOL,
      .def.b = false, .flags = VQ_OPT_FEATURE_PARAM },
    { .name = "motion_max_val", .alias = "mmxv",
      .help = "scores above this value are clipped to it",
      .offset = offsetof(FMotionPriv, max_val), .type = VQ_OPT_DOUBLE,
      .def.d = 10000.0, .min = 0.0, .max = 10000.0,
      .flags = VQ_OPT_FEATURE_PARAM },
    { 0 }
};

enum { OUT_MOTION, OUT_MOTION2, OUT_MOTION3 };
static const char *const fmotion_outputs[] = { "motion", "motion2", "motion3",
                                               NULL };

static const float taps5[] = { VQ_FMOTION_TAPS5 };
static const float taps3[] = { VQ_FMOTION_TAPS3 };
static const float taps1[] = { VQ_FMOTION_TAPS1 };

static void fmotion_dims(VqFloatMotionDims *d, const VqFormat *fmt, bool uv,
                         bool half)
{
    unsigned off = 0;
    d->np = uv ? 3 : 1;
    d->nl = half ? 2 : 1;
    for (unsigned p = 0; p < d->np; p++) {
        d->w[p][0] = fmt->w[p];
        d->h[p][0] = fmt->h[p];
        /* libvmaf: (int)(n * 0.5 + 0.5) */
        d->w[p][1] = (unsigned)(int)(fmt->w[p] * 0.5 + 0.5);
        d->h[p][1] = (unsigned)(int)(fmt->h[p] * 0.5 + 0.5);
        for (unsigned l = 0; l < d->nl; l++) {
            d->off[p][l] = off;
            off += d->h[p][l];
        }
    }
    d->n_floats = off;
}

static int fmotion_init(VqFex *fex, const VqFormat *fmt)
{
    FMotionPriv *s = fex->priv;
    if (s->add_uv && fmt->n_planes < 3)
        return vq_fail(fex->err, VQ_EUNSUPPORTED,
                       "float_motion: motion_add_uv needs chroma planes; "
                       "a gray input has none");
    fmotion_dims(&s->dims, fmt, s->add_uv, s->add_scale1);
    for (unsigned p = 0; p < s->dims.np; p++)
        if (fmt->w[p] < VQ_FMOTION_MIN_SIDE || fmt->h[p] < VQ_FMOTION_MIN_SIDE)
            return vq_fail(fex->err, VQ_EUNSUPPORTED,
                           "float_motion: a %ux%u %s plane is too small; the "
                           "blur needs at least %ux%u samples", fmt->w[p],
                           fmt->h[p], p ? "chroma" : "luma",
                           VQ_FMOTION_MIN_SIDE, VQ_FMOTION_MIN_SIDE);
    if (s->add_scale1 && s->dims.w[0][1] > VQ_FMOTION_HALF_MAX_W)
        return vq_fail(fex->err, VQ_EUNSUPPORTED,
                       "float_motion: motion_add_scale1 supports widths up "
                       "to %u (libvmaf's limit); this frame is %u wide",
                       2 * VQ_FMOTION_HALF_MAX_W - 1, fmt->w[0]);
    const float *f = s->filter_size == 1 ? taps1 : s->filter_size == 3
                   ? taps3 : taps5;
    s->taps.n = s->filter_size == 3 ? 3 : 5;
    for (int k = 0; k < s->taps.n; k++)
        s->taps.f[k] = f[k];
    fex->planes = s->add_uv ? VQ_PLANE_ALL : VQ_PLANE_Y;
    fex->acc_size = s->force_zero ? sizeof(float)
                                  : s->dims.n_floats * sizeof(float);
    fex->lag = s->force_zero ? 0 : 1;
    vq_float_motion_dsp_init(&s->dsp, vq_cpu_flags());
    if (!s->force_zero && vq_float_motion_tables(s))
        return vq_fail(fex->err, VQ_ENOMEM, "float_motion: out of memory");
    return 0;
}

/* ---- shared finalize --------------------------------------------------- */

static double min_d(double a, double b)
{
    return a < b ? a : b;
}

/* libvmaf's motion_blend(), then the clip to motion_max_val. */
static double processed(const FMotionPriv *s, double score)
{
    double v = score * s->fps_weight;
    double b = v * s->blend_factor +
               (1 - s->blend_factor) * min_d(s->blend_offset, v);
    return min_d(b, s->max_val);
}

/* The score of one frame from its row sums (motion.c: vmaf_image_sad_c;
 * float_motion.c adds the planes in double). */
static double frame_score(const FMotionPriv *s, const float *rows)
{
    const VqFloatMotionDims *d = &s->dims;
    double score = 0.0;
    for (unsigned p = 0; p < d->np; p++) {
        float m = 0.0f;
        for (unsigned l = 0; l < d->nl; l++) {
            float acc = 0.0f;
            for (unsigned y = 0; y < d->h[p][l]; y++)
                acc += rows[d->off[p][l] + y];
            float level = acc / (float)(int)(d->w[p][l] * d->h[p][l]);
            m = l ? m + level : level;
        }
        score = p ? score + m : m;
    }
    return score;
}

static int fmotion_finalize(VqFex *fex, const void *acc, unsigned index)
{
    FMotionPriv *s = fex->priv;
    int err;
    if (s->force_zero) {
        err = vq_fex_emit(fex, OUT_MOTION2, index, 0.);
        if (!err)
            err = vq_fex_emit(fex, OUT_MOTION3, index, 0.);
        if (!err && s->debug)
            err = vq_fex_emit(fex, OUT_MOTION, index, 0.);
        return err;
    }
    s->n_frames = index + 1;
    if (index == 0) {
        err = vq_fex_emit(fex, OUT_MOTION2, 0, 0.);
        if (!err && s->debug)
            err = vq_fex_emit(fex, OUT_MOTION, 0, 0.);
        return err;
    }
    double score = frame_score(s, acc);
    err = s->debug ? vq_fex_emit(fex, OUT_MOTION, index,
                                 min_d(score * s->fps_weight, s->max_val))
                   : 0;
    if (!err && index == 1)
        err = vq_fex_emit(fex, OUT_MOTION3, 0, processed(s, score));
    if (!err && index > 1) {
        double m2 = s->prev_score < score ? s->prev_score : score;
        err = vq_fex_emit(fex, OUT_MOTION2, index - 1,
                          min_d(m2 * s->fps_weight, s->max_val));
        if (!err)
            err = vq_fex_emit(fex, OUT_MOTION3, index - 1, processed(s, m2));
    }
    s->prev_score = score;
    return err;
}

static int fmotion_flush(VqFex *fex)
{
    FMotionPriv *s = fex->priv;
    if (s->force_zero || s->n_frames == 0)
        return 0;
    unsigned last = s->n_frames - 1;
    if (last == 0)
        return vq_fex_emit(fex, OUT_MOTION3, 0, 0.);
    int err = vq_fex_emit(fex, OUT_MOTION2, last,
                          min_d(s->prev_score * s->fps_weight, s->max_val));
    if (!err)
        err = vq_fex_emit(fex, OUT_MOTION3, last, processed(s, s->prev_score));
    return err;
}

static void fmotion_close(VqFex *fex)
{
    vq_float_motion_cpu_close(fex->priv);
}

const VqFexDesc vq_fex_float_motion = {
    .name = "float_motion",
    .options = fmotion_options,
    .priv_size = sizeof(FMotionPriv),
    .outputs = fmotion_outputs,
    .flags = VQ_FEX_TEMPORAL | VQ_FEX_REF_SHARED,
    .exactness = VQ_EXACT_BITWISE,
    .init = fmotion_init,
    .cpu_run = vq_float_motion_cpu_run,
    .gpu_init = VQ_GPU_FN(vq_float_motion_gpu_init),
    .gpu_run = VQ_GPU_FN(vq_float_motion_gpu_run),
    .gpu_close = VQ_GPU_FN(vq_float_motion_gpu_close),
    .finalize = fmotion_finalize,
    .flush = fmotion_flush,
    .close = fmotion_close,
    .ref_state_free = vq_float_motion_free_shared,
};
