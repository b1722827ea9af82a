/*
 * motion_v2: the single-pass integer motion of the HIP fork of libvmaf
 * (upstream libvmaf 3.2.0 has no such extractor). Per frame the SAD of the
 * 5x5-blurred luma difference between the reference one frame earlier (two
 * with motion_five_frame_window) and the current one (kernels/motion_v2),
 * normalised as integer motion's score:
 *   motion_v2_sad_score = min(SAD / 256 / (w h) * motion_fps_weight,
 *                             motion_max_val)
 * equal, bit for bit, to motion's VMAF_integer_feature_motion_sad_score.
 * motion2_v2_score and motion3_v2_score are defined as libvmaf's
 * integer_motion2 and integer_motion3 (its flush): motion2 is the smaller of
 * the scores of frames j - (window - 1) and j + 1 (0 before the first
 * scored frame, the frame's own score for the last one); motion3 is motion2
 * blended towards motion_blend_offset, clipped to motion_max_val and, with
 * motion_moving_average, averaged with the previous frame's; the frames
 * before the first scored one take the first scored frame's value.
 * Options: integer motion's, same names, aliases and ranges.
 *
 * Each frame's motion2/motion3 is written once the next score exists
 * (fex->lag frames later), the last frames' at flush.
 */
#include "motion_v2_priv.h"

static const VqOption motion_v2_options[] = {
    { .name = "motion_force_zero", .alias = "force_0",
      .help = "force every motion score to zero",
      .offset = offsetof(MotionV2Priv, force_zero), .type = VQ_OPT_BOOL,
      .def.b = false, .flags = VQ_OPT_FEATURE_PARAM },
    { .name = "motion_blend_factor", .alias = "mbf",
      .help = "weight of the score itself when blending with the offset",
      .offset = offsetof(MotionV2Priv, blend_factor), .type = VQ_OPT_DOUBLE,
      .def.d = 1.0, .min = 0.0, .max = 1.0, .flags = VQ_OPT_FEATURE_PARAM },
    { .name = "motion_blend_offset", .alias = "mbo",
      .help = "scores are blended towards min(score, this offset)",
      .offset = offsetof(MotionV2Priv, blend_offset), .type = VQ_OPT_DOUBLE,
      .def.d = 40.0, .min = 0.0, .max = 1000.0,
      .flags = VQ_OPT_FEATURE_PARAM },
    { .name = "motion_fps_weight", .alias = "mfw",
      .help = "multiplies the SAD score (frame rate correction)",
      .offset = offsetof(MotionV2Priv, fps_weight), .type = VQ_OPT_DOUBLE,
      .def.d = 1.0, .min = 0.0, .max = 5.0, .flags = VQ_OPT_FEATURE_PARAM },
    { .name = "motion_max_val", .alias = "mmxv",
      .help = "scores above this value are clipped to it",
      .offset = offsetof(MotionV2Priv, max_val), .type = VQ_OPT_DOUBLE,
      .def.d = 10000.0, .min = 0.0, .max = 10000.0,
      .flags = VQ_OPT_FEATURE_PARAM },
    { .name = "motion_five_frame_window", .alias = "mffw",
      .help = "compare each frame with the one two frames earlier",
      .offset = offsetof(MotionV2Priv, five_frame_window), .type = VQ_OPT_BOOL,
      .def.b = false, .flags = VQ_OPT_FEATURE_PARAM },
    { .name = "motion_moving_average", .alias = "mma",
      .help = "motion3_v2_score averages each frame with the one before",
      .offset = offsetof(MotionV2Priv, moving_average), .type = VQ_OPT_BOOL,
      .def.b = false, .flags = VQ_OPT_FEATURE_PARAM },
    { 0 }
};

enum { OUT_SAD, OUT_MOTION2, OUT_MOTION3 };
static const char *const motion_v2_outputs[] = {
    "motion_v2_sad_score", "motion2_v2_score", "motion3_v2_score", NULL
};

static int motion_v2_init(VqFex *fex, const VqFormat *fmt)
{
    MotionV2Priv *s = fex->priv;
    if (fmt->w[0] < VQ_MOTION_V2_MIN_SIDE || fmt->h[0] < VQ_MOTION_V2_MIN_SIDE)
        return vq_fail(fex->err, VQ_EUNSUPPORTED,
                       "motion_v2: a %ux%u frame is too small; its 5-tap blur "
                       "needs at least %ux%u luma samples", fmt->w[0],
                       fmt->h[0], VQ_MOTION_V2_MIN_SIDE, VQ_MOTION_V2_MIN_SIDE);
    s->window = s->five_frame_window ? 2 : 1;
    s->n_kept = s->window + 1;
    s->row_bytes = (size_t)fmt->w[0] * fmt->bytes_per_sample;
    vq_motion_v2_dsp_init(&s->dsp, vq_cpu_flags());
    fex->planes = VQ_PLANE_Y;
    fex->acc_size = sizeof(VqMotionV2Acc);
    fex->lag = s->window;
    return 0;
}

/* ---- shared finalize ---------------------------------------------------- */

static double min_d(double a, double b)
{
    return a < b ? a : b;
}

static double blended(const MotionV2Priv *s, double x)
{
    const double v = x * s->blend_factor +
                     (1 - s->blend_factor) * min_d(s->blend_offset, x);
    return min_d(v, s->max_val);
}

static double score_at(const MotionV2Priv *s, unsigned i)
{
    return s->score[i % MV2_RING];
}

/* motion2/motion3 of frame j; next: whether frame j + 1 was scored. */
static int emit_frame(VqFex *fex, unsigned j, bool next)
{
    MotionV2Priv *s = fex->priv;
    double m2, m3;
    if (j < s->window) {
        m2 = 0.;
        m3 = s->first;
        s->prev_processed = s->first;
    } else {
        if (!next)
            m2 = score_at(s, j);
        else if (j + 1 - s->window >= s->window)
            m2 = min_d(score_at(s, j + 1 - s->window), score_at(s, j + 1));
        else
            m2 = score_at(s, j + 1);
        const double processed = blended(s, m2);
        m3 = s->moving_average ? (processed + s->prev_processed) / 2.0
                               : processed;
        s->prev_processed = processed;
    }
    int err = vq_fex_emit(fex, OUT_MOTION2, j, m2);
    return err ? err : vq_fex_emit(fex, OUT_MOTION3, j, m3);
}

/* Emits every frame whose neighbours are known (all of them at the end). */
static int emit_ready(VqFex *fex, bool end)
{
    MotionV2Priv *s = fex->priv;
    while (s->n_done < s->n_scored) {
        const unsigned j = s->n_done;
        /* frames before the window need the first scored frame's value */
        if (j < s->window && s->n_scored <= s->window && !end)
            return 0;
        if (j >= s->window && s->n_scored <= j + 1 && !end)
            return 0;
        if (j == 0)
            s->first = s->n_scored > s->window
                     ? blended(s, score_at(s, s->window)) : 0.;
        int err = emit_frame(fex, j, s->n_scored > j + 1);
        if (err)
            return err;
        s->n_done++;
    }
    return 0;
}

static int motion_v2_finalize(VqFex *fex, const void *acc, unsigned index)
{
    MotionV2Priv *s = fex->priv;
    double score = 0.;
    if (!s->force_zero && index >= s->window) {
        const double n = (double)(fex->fmt.w[0] * fex->fmt.h[0]);
        score = min_d((double)((const VqMotionV2Acc *)acc)->sad / 256. / n *
                      s->fps_weight, s->max_val);
    }
    int err = vq_fex_emit(fex, OUT_SAD, index, score);
    if (err)
        return err;
    s->score[index % MV2_RING] = score;
    s->n_scored = index + 1;
    return emit_ready(fex, false);
}

static int motion_v2_flush(VqFex *fex)
{
    return emit_ready(fex, true);
}

static void motion_v2_close(VqFex *fex)
{
    motion_v2_free_kept(&((MotionV2Priv *)fex->priv)->cpu);
}

const VqFexDesc vq_fex_motion_v2 = {
    .name = "motion_v2",
    .options = motion_v2_options,
    .priv_size = sizeof(MotionV2Priv),
    .outputs = motion_v2_outputs,
    .flags = VQ_FEX_TEMPORAL | VQ_FEX_REF_SHARED,
    .exactness = VQ_EXACT_BITWISE,
    .init = motion_v2_init,
    .cpu_run = motion_v2_cpu_run,
    .gpu_init = VQ_GPU_FN(motion_v2_gpu_init),
    .gpu_run = VQ_GPU_FN(motion_v2_gpu_run),
    .gpu_close = VQ_GPU_FN(motion_v2_gpu_close),
    .finalize = motion_v2_finalize,
    .flush = motion_v2_flush,
    .close = motion_v2_close,
    .ref_state_free = motion_v2_free_shared,
};
