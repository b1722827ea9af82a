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
 * the CPU path, in device buffers for the GPU path (the kernel copies the
 * current luma there as it reads it).
 *
 * libvmaf writes motion2 and motion3 for every frame at flush; here each
 * frame's values are written as soon as the scores they depend on exist
 * (fex->lag frames later), and the last frames at flush, with the same
 * values.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "../../../kernels/motion/motion.h"
#include "../common/gpu_fn.h"
#include "motion_dsp.h"

#define MOTION_SCORE_RING 4 /* scores kept: frames j - 1 .. j + 2 */
#define MOTION_MAX_PLANES 3 /* previous planes kept: min_idx + 1 */

typedef struct MotionPriv {
    bool force_zero;
    double blend_factor;
    double blend_offset;
    double fps_weight;
    double max_val;
    bool five_frame_window;
    bool moving_average;
    bool debug;
    /* derived in init */
    unsigned min_idx; /* first frame with a score: 1, or 2 (five-frame) */
    unsigned n_planes_kept;
    size_t row_bytes;
    /* CPU path (a temporal extractor's frames run one at a time, so cpu_run
     * may keep them here): the last reference luma planes, packed */
    uint8_t *kept[MOTION_MAX_PLANES];
    /* finalize state */
    double score[MOTION_SCORE_RING]; /* SAD score of frame i at i % RING */
    unsigned n_scored;               /* frames through finalize */
    unsigned n_done;                 /* frames with motion2/motion3 written */
    double stamp;                    /* motion3 of the frames before min_idx */
    double prev_processed;
    VqMotionDsp dsp; /* the CPU path's functions, chosen once */
} MotionPriv;

typedef struct MotionGpu {
    void *kept[MOTION_MAX_PLANES];
    size_t pitch;
} MotionGpu;

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

/* ---- CPU path ---------------------------------------------------------- */

/* Fills the two mirrored taps on each side of a row at [2, w + 2). */
static void mirror_row_edges(int16_t *row, size_t w)
{
    int16_t *v = row + VQ_MOTION_RADIUS;
    row[0] = v[2];
    row[1] = v[1];
    v[w] = v[w - 2];
    v[w + 1] = v[w - 3];
}

/* The SAD of rows [y0, y1). */
static uint64_t motion_sad_cpu(const MotionPriv *s, const VqFormat *fmt,
                               const uint8_t *prev, const VqPlane *cur,
                               int16_t *scratch, unsigned y0, unsigned y1)
{
    const unsigned w = cur->w, h = cur->h, bpc = fmt->bpc;
    int16_t *hi = scratch, *lo = scratch + w + 2 * VQ_MOTION_RADIUS;
    uint64_t sad = 0;
    for (unsigned i = y0; i < y1; i++) {
        const void *pr[5], *cr[5];
        for (int k = 0; k < 5; k++) {
            int row = vq_motion_mirror((int)i - VQ_MOTION_RADIUS + k, (int)h);
            pr[k] = prev + (size_t)row * s->row_bytes;
            cr[k] = cur->data + (ptrdiff_t)row * cur->stride;
        }
        if (fmt->bytes_per_sample == 1)
            s->dsp.vblur_u8(hi + VQ_MOTION_RADIUS, lo + VQ_MOTION_RADIUS,
                            (const uint8_t *const *)pr,
                            (const uint8_t *const *)cr, w);
        else
            s->dsp.vblur_u16(hi + VQ_MOTION_RADIUS, lo + VQ_MOTION_RADIUS,
                             (const uint16_t *const *)pr,
                             (const uint16_t *const *)cr, w, bpc);
        mirror_row_edges(hi, w);
        mirror_row_edges(lo, w);
        sad += s->dsp.hblur_sad(hi, lo, w);
    }
    return sad;
}

static void motion_free_cpu_state(MotionPriv *s)
{
    for (unsigned k = 0; k < MOTION_MAX_PLANES; k++) {
        free(s->kept[k]);
        s->kept[k] = NULL;
    }
}

/* Rows in bands (vq_fex_parallel): each band's SAD, and its rows of the
 * current frame copied into the store (never the plane read as prev). */
#define MOTION_MAX_PARTS 64
#define MOTION_BAND_ROWS 32

typedef struct MotionBands {
    const MotionPriv *s;
    const VqFormat *fmt;
    const uint8_t *prev; /* NULL: nothing to score */
    const VqPlane *cur;
    uint8_t *store;
    unsigned n;
    uint64_t sad[MOTION_MAX_PARTS];
} MotionBands;

static void motion_band(void *arg, unsigned part, void *scratch)
{
    MotionBands *b = arg;
    unsigned h = b->cur->h;
    unsigned y0 = (unsigned)((uint64_t)h * part / b->n);
    unsigned y1 = (unsigned)((uint64_t)h * (part + 1) / b->n);
    if (b->prev)
        b->sad[part] = motion_sad_cpu(b->s, b->fmt, b->prev, b->cur, scratch,
                                      y0, y1);
    for (unsigned y = y0; y < y1; y++)
        memcpy(b->store + y * b->s->row_bytes,
               b->cur->data + (ptrdiff_t)y * b->cur->stride, b->s->row_bytes);
}

static int motion_cpu_run(VqFex *fex, const VqFrame *ref, const VqFrame *dis,
                          unsigned index, void *acc, void *scratch)
{
    (void)dis;
    MotionPriv *s = fex->priv;
    VqMotionAcc *a = acc;
    if (s->force_zero)
        return 0;
    const VqPlane *cur = &ref->plane[0];
    if (!s->kept[0]) {
        for (unsigned k = 0; k < s->n_planes_kept; k++)
            s->kept[k] = malloc(s->row_bytes * cur->h);
        for (unsigned k = 0; k < s->n_planes_kept; k++)
            if (!s->kept[k]) {
                motion_free_cpu_state(s);
                return vq_fail(fex->err, VQ_ENOMEM, "motion: out of memory");
            }
    }
    MotionBands b = { .s = s, .fmt = &fex->fmt, .cur = cur };
    if (index >= s->min_idx)
        b.prev = s->kept[(index - s->min_idx) % s->n_planes_kept];
    b.store = s->kept[index % s->n_planes_kept];
    unsigned n = vq_fex_threads(fex) > 1 ? cur->h / MOTION_BAND_ROWS : 1;
    if (n > 2 * vq_fex_threads(fex))
        n = 2 * vq_fex_threads(fex);
    b.n = n < 1 ? 1 : n > MOTION_MAX_PARTS ? MOTION_MAX_PARTS : n;
    if (b.n == 1) {
        motion_band(&b, 0, scratch);
    } else {
        int err = vq_fex_parallel(fex, b.n, motion_band, &b);
        if (err)
            return vq_fail(fex->err, err, "motion: out of memory");
    }
    for (unsigned k = 0; b.prev && k < b.n; k++)
        a->sad += b.sad[k];
    return 0;
}

/* ---- GPU path ---------------------------------------------------------- */

#if defined(VQ_HAVE_HIP)
static void motion_gpu_close(VqFex *fex, VqGpu *gpu)
{
    MotionGpu *g = fex->gpu_priv;
    if (!g)
        return;
    for (unsigned k = 0; k < MOTION_MAX_PLANES; k++)
        vq_gpu_free(gpu, g->kept[k]);
    free(g);
    fex->gpu_priv = NULL;
}

static int motion_gpu_init(VqFex *fex, VqGpu *gpu)
{
    const MotionPriv *s = fex->priv;
    if (s->force_zero)
        return 0;
    MotionGpu *g = calloc(1, sizeof(*g));
    if (!g)
        return vq_fail(fex->err, VQ_ENOMEM, "motion: out of memory");
    fex->gpu_priv = g;
    for (unsigned k = 0; k < s->n_planes_kept; k++) {
        size_t pitch = 0;
        int err = vq_gpu_malloc_pitch(gpu, &g->kept[k], &pitch, s->row_bytes,
                                      fex->fmt.h[0], "motion: previous frame");
        if (err)
            return err;
        g->pitch = pitch;
    }
    return 0;
}

static int motion_gpu_run(VqFex *fex, VqGpu *gpu, const VqDevFrame *ref,
                          const VqDevFrame *dis, unsigned index, void *acc_dev)
{
    (void)dis;
    const MotionPriv *s = fex->priv;
    const MotionGpu *g = fex->gpu_priv;
    if (s->force_zero)
        return 0;
    VqMotionAcc *a = acc_dev;
    const VqDevPlane *cur = &ref->plane[0];
    void *store = g->kept[index % s->n_planes_kept];
    int rc;
    if (index >= s->min_idx) {
        const VqDevPlane prev = {
            .data = g->kept[(index - s->min_idx) % s->n_planes_kept],
            .pitch = g->pitch, .w = cur->w, .h = cur->h,
        };
        rc = vq_motion_sad_launch(vq_gpu_compute_stream(gpu), cur, &prev,
                                  store, g->pitch, ref->bpc, &a->sad);
    } else {
        rc = vq_motion_store_launch(vq_gpu_compute_stream(gpu), cur, store,
                                    g->pitch, ref->bpc);
    }
    return vq_fex_launch_check(fex, gpu, rc);
}
#endif

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
    motion_free_cpu_state(fex->priv);
}

const VqFexDesc vq_fex_motion = {
    .name = "motion",
    .options = motion_options,
    .priv_size = sizeof(MotionPriv),
    .outputs = motion_outputs,
    .flags = VQ_FEX_TEMPORAL,
    .exactness = VQ_EXACT_BITWISE,
    .init = motion_init,
    .cpu_run = motion_cpu_run,
    .gpu_init = VQ_GPU_FN(motion_gpu_init),
    .gpu_run = VQ_GPU_FN(motion_gpu_run),
    .gpu_close = VQ_GPU_FN(motion_gpu_close),
    .finalize = motion_finalize,
    .flush = motion_flush,
    .close = motion_close,
};
