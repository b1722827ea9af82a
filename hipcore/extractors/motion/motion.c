/*
 * Integer motion (libvmaf's "motion", integer_motion.c): per frame the SAD
 * score, the mean absolute value of the 5x5-blurred difference between the
 * reference luma one frame earlier (two with motion_five_frame_window) and
 * the current one; from those, integer_motion2 (the smaller of two
 * neighbouring scores) and integer_motion3 (motion2 blended, clipped and
 * optionally averaged). The distorted frames are not used.
 *
 * libvmaf at this version blurs the difference, not each frame, so the
 * state kept between frames is the previous raw reference luma: in priv for
 * the CPU path (in a ladder, in the renditions' share: the SAD is computed
 * once per frame for all of them), in device buffers for the GPU path (the
 * kernel copies the current luma there as it reads it).
 *
 * libvmaf writes motion2 and motion3 for every frame at flush; here each
 * frame's values are written as soon as the scores they depend on exist
 * (fex->lag frames later), and the last frames at flush, with the same
 * values.
 */
#include "motion_priv.h"
/* Names, aliases, defaults and ranges as libvmaf's integer_motion.c. */
static const VqOption motion_options[] = {
    { .name = "motion_force_zero", .alias = "force_0",
      .help = "force every motion score to zero",
      .offset = offsetof(MotionPriv, force_zero), .type = VQ_OPT_BOOL,
      .def.b = false, .flags = VQ_OPT_FEATURE_PARAM },
    { .name = "motion_blend_factor", .alias = "mbf",
      .help = "weight of the score itself when blending with the offset",
      .offset = offsetof(MotionPriv, blend_factor), .type = VQ_OPT_DOUBLE,
      .def.d = 1.0, .min = 0.0, .max = 1.0, .flags = VQ_OPT_FEATURE_PARAM },
    { .name = "motion_blend_offset", .alias = "mbo",
      .help = "scores are blended towards min(score, this offset)",
      .offset = offsetof(MotionPriv, blend_offset), .type = VQ_OPT_DOUBLE,
      .def.d = 40.0, .min = 0.0, .max = 1000.0,
      .flags = VQ_OPT_FEATURE_PARAM },
    { .name = "motion_fps_weight", .alias = "mfw",
      .help = "multiplies the SAD score (frame rate correction)",
      .offset = offsetof(MotionPriv, fps_weight), .type = VQ_OPT_DOUBLE,
      .def.d = 1.0, .min = 0.0, .max = 5.0, .flags = VQ_OPT_FEATURE_PARAM },
    { .name = "motion_max_val", .alias = "mmxv",
      .help = "scores above this value are clipped to it",
      .offset = offsetof(MotionPriv, max_val), .type = VQ_OPT_DOUBLE,
      .def.d = 10000.0, .min = 0.0, .max = 10000.0,
      .flags = VQ_OPT_FEATURE_PARAM },
    { .name = "motion_five_frame_window", .alias = "mffw",
      .help = "compare each frame with the one two frames earlier",
      .offset = offsetof(MotionPriv, five_frame_window), .type = VQ_OPT_BOOL,
      .def.b = false, .flags = VQ_OPT_FEATURE_PARAM },
    { .name = "motion_moving_average", .alias = "mma",
      .help = "integer_motion3 averages each frame with the one before",
      .offset = offsetof(MotionPriv, moving_average), .type = VQ_OPT_BOOL,
      .def.b = false, .flags = VQ_OPT_FEATURE_PARAM },
    { .name = "debug", .help = "also write integer_motion (the SAD score)",
      .offset = offsetof(MotionPriv, debug), .type = VQ_OPT_BOOL,
      .def.b = false },
    { 0 }
};

enum { OUT_SAD, OUT_MOTION, OUT_MOTION2, OUT_MOTION3 };
static const char *const motion_outputs[] = {
    "VMAF_integer_feature_motion_sad_score", "integer_motion",
    "integer_motion2", "integer_motion3", NULL
};

static int motion_init(VqFex *fex, const VqFormat *fmt)
{
    MotionPriv *s = fex->priv;
    if (fmt->w[0] < VQ_MOTION_MIN_SIDE || fmt->h[0] < VQ_MOTION_MIN_SIDE)
        return vq_fail(fex->err, VQ_EUNSUPPORTED,
                       "motion: a %ux%u frame is too small; its 5-tap blur "
                       "needs at least %ux%u luma samples",
                       fmt->w[0], fmt->h[0], VQ_MOTION_MIN_SIDE,
                       VQ_MOTION_MIN_SIDE);
    vq_motion_dsp_init(&s->dsp, vq_cpu_flags());
    s->min_idx = s->five_frame_window ? 2 : 1;
    s->n_planes_kept = s->min_idx + 1;
    s->row_bytes = (size_t)fmt->w[0] * fmt->bytes_per_sample;
    fex->planes = VQ_PLANE_Y;
    fex->acc_size = sizeof(VqMotionAcc);
    /* one row of vertical results, split into hi and lo, with the halo,
     * and room for the vector loads of hblur_sad, which reach one value
     * past the lo row (motion_dsp.h) */
    fex->scratch_size =
        (2 * (fmt->w[0] + 2 * VQ_MOTION_RADIUS) + 1) * sizeof(int16_t);
    fex->part_scratch_size = fex->scratch_size;
    fex->lag = s->min_idx;
    return 0;
}

/* ---- shared finalize --------------------------------------------------- */

static double min_d(double a, double b)
{
    return a < b ? a : b;
}

/* libvmaf's motion_blend(). */
static double motion_blend(const MotionPriv *s, double score)
{
    return score * s->blend_factor +
           (1 - s->blend_factor) * min_d(s->blend_offset, score);
}

static double score_of(const MotionPriv *s, unsigned i)
{
    return s->score[i % MOTION_SCORE_RING];
}

/* Writes motion2 and motion3 for every frame whose inputs are known; at
 * the end of the stream (last) also for the frames without a next score. */
static int emit_ready(VqFex *fex, bool last)
{
    MotionPriv *s = fex->priv;
    const unsigned stride = s->five_frame_window ? 2 : 1;
    while (s->n_done < s->n_scored) {
        const unsigned j = s->n_done;
        const bool has_next = s->n_scored > j + 1;
        double motion2, motion3;
        if (j < s->min_idx) {
            /* motion3 of these frames is the processed score of frame
             * min_idx, or 0 when the stream ends before it. */
            if (s->n_scored <= s->min_idx && !last)
                break;
            if (j == 0)
                s->stamp = s->n_scored > s->min_idx
                         ? min_d(motion_blend(s, score_of(s, s->min_idx)),
                                 s->max_val)
                         : 0.;
            motion2 = 0.;
            motion3 = s->stamp;
            s->prev_processed = s->stamp;
        } else {
            if (!has_next && !last)
                break;
            if (!has_next)
                motion2 = score_of(s, j);
            else if (j - (stride - 1) >= s->min_idx)
                motion2 = min_d(score_of(s, j - (stride - 1)), score_of(s, j + 1));
            else
                motion2 = score_of(s, j + 1);
            double processed = min_d(motion_blend(s, motion2), s->max_val);
            motion3 = s->moving_average ? (processed + s->prev_processed) / 2.0
                                        : processed;
            s->prev_processed = processed;
        }
        int err = vq_fex_emit(fex, OUT_MOTION2, j, motion2);
        if (!err)
            err = vq_fex_emit(fex, OUT_MOTION3, j, motion3);
        if (err)
            return err;
        s->n_done++;
    }
    return 0;
}

static int motion_finalize(VqFex *fex, const void *acc, unsigned index)
{
    MotionPriv *s = fex->priv;
    const VqMotionAcc *a = acc;
    double score = 0.;
    if (!s->force_zero && index >= s->min_idx) {
        double n = (double)(fex->fmt.w[0] * fex->fmt.h[0]);
        score = min_d((double)a->sad / 256. / n * s->fps_weight, s->max_val);
    }
    int err = vq_fex_emit(fex, OUT_SAD, index, score);
    if (!err && s->debug)
        err = vq_fex_emit(fex, OUT_MOTION, index, score);
    if (err)
        return err;
    s->score[index % MOTION_SCORE_RING] = score;
    s->n_scored = index + 1;
    return emit_ready(fex, false);
}

static int motion_flush(VqFex *fex)
{
    return emit_ready(fex, true);
}

static void motion_close(VqFex *fex)
{
    motion_free_kept(&((MotionPriv *)fex->priv)->kept);
}

const VqFexDesc vq_fex_motion = {
    .name = "motion",
    .options = motion_options,
    .priv_size = sizeof(MotionPriv),
    .outputs = motion_outputs,
    .flags = VQ_FEX_TEMPORAL | VQ_FEX_REF_SHARED,
    .exactness = VQ_EXACT_BITWISE,
    .init = motion_init,
    .cpu_run = motion_cpu_run,
    .gpu_init = VQ_GPU_FN(motion_gpu_init),
    .gpu_run = VQ_GPU_FN(motion_gpu_run),
    .gpu_close = VQ_GPU_FN(motion_gpu_close),
    .finalize = motion_finalize,
    .flush = motion_flush,
    .close = motion_close,
    .ref_state_free = motion_free_shared,
};
