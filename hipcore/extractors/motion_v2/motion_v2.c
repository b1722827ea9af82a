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
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "../../../kernels/motion_v2/motion_v2.h"
#include "../common/gpu_fn.h"
#include "motion_v2_dsp.h"

#define MV2_RING 4      /* scores kept: j - 1 .. j + 2 */
#define MV2_MAX_KEPT 3  /* previous frames kept: window + 1 */

/* One SAD: the previous plane (packed rows) against the current one. */
typedef struct Mv2Rows {
    const uint8_t *prev;
    size_t prev_pitch;
    const uint8_t *cur;
    ptrdiff_t cur_stride;
    int w, h, bytes, bpc;
} Mv2Rows;

typedef struct MotionV2Priv {
    bool force_zero;
    double blend_factor, blend_offset, fps_weight, max_val;
    bool five_frame_window, moving_average;
    unsigned window;   /* 1, or 2 with the five-frame window */
    unsigned n_kept;   /* window + 1 */
    size_t row_bytes;
    uint8_t *kept[MV2_MAX_KEPT]; /* CPU: previous reference luma planes */
    VqMotionV2Dsp dsp;           /* CPU: row functions chosen at init */
    int32_t *vrow;               /* CPU: one row of vertical results + 4 */
    double score[MV2_RING];
    unsigned n_scored, n_done;
    double first, prev_processed;
} MotionV2Priv;

typedef struct MotionV2Gpu {
    void *kept[MV2_MAX_KEPT];
    size_t pitch;
} MotionV2Gpu;

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

/* ---- CPU path ----------------------------------------------------------- */

/* The SAD of a frame: per row the vertical pass, the mirrored taps, the
 * horizontal pass (through the DSP table chosen at init). */
static uint64_t sad_cpu(const VqMotionV2Dsp *dsp, const Mv2Rows *f,
                        int32_t *vrow)
{
    const int w = f->w, h = f->h;
    int32_t *v = vrow + 2; /* v[-2], v[-1], v[w], v[w+1]: mirrored taps */
    uint64_t sad = 0;
    for (int i = 0; i < h; i++) {
        const void *p[5], *c[5];
        for (int k = 0; k < 5; k++) {
            const int y = vq_motion_v2_mirror(i - 2 + k, h);
            p[k] = f->prev + (size_t)y * f->prev_pitch;
            c[k] = f->cur + (ptrdiff_t)y * f->cur_stride;
        }
        if (f->bytes == 1)
            dsp->vert_u8(v, (const uint8_t *const *)p,
                         (const uint8_t *const *)c, (size_t)w);
        else
            dsp->vert_u16(v, (const uint16_t *const *)p,
                          (const uint16_t *const *)c, (size_t)w,
                          (unsigned)f->bpc);
        v[-2] = v[2];
        v[-1] = v[1];
        v[w] = v[w - 2];
        v[w + 1] = v[w - 3];
        sad += dsp->hor_sad(vrow, (size_t)w);
    }
    return sad;
}

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

static void free_cpu_state(MotionV2Priv *s)
{
    for (unsigned k = 0; k < MV2_MAX_KEPT; k++) {
        free(s->kept[k]);
        s->kept[k] = NULL;
    }
    free(s->vrow);
    s->vrow = NULL;
}

static int motion_v2_cpu_run(VqFex *fex, const VqFrame *ref,
                             const VqFrame *dis, unsigned index, void *acc,
                             void *scratch)
{
    (void)dis;
    (void)scratch;
    MotionV2Priv *s = fex->priv;
    if (s->force_zero)
        return 0;
    const VqPlane *cur = &ref->plane[0];
    if (!s->kept[0]) {
        bool ok = (s->vrow = malloc((cur->w + 4) * sizeof(int32_t))) != NULL;
        for (unsigned k = 0; k < s->n_kept; k++)
            ok = ok && (s->kept[k] = malloc(s->row_bytes * cur->h)) != NULL;
        if (!ok) {
            free_cpu_state(s);
            return vq_fail(fex->err, VQ_ENOMEM, "motion_v2: out of memory");
        }
    }
    if (index >= s->window) {
        const Mv2Rows f = {
            .prev = s->kept[(index - s->window) % s->n_kept],
            .prev_pitch = s->row_bytes, .cur = cur->data,
            .cur_stride = cur->stride, .w = (int)cur->w, .h = (int)cur->h,
            .bytes = (int)fex->fmt.bytes_per_sample, .bpc = (int)fex->fmt.bpc,
        };
        ((VqMotionV2Acc *)acc)->sad = sad_cpu(&s->dsp, &f, s->vrow);
    }
    uint8_t *store = s->kept[index % s->n_kept];
    for (unsigned y = 0; y < cur->h; y++)
        memcpy(store + y * s->row_bytes, cur->data + (ptrdiff_t)y * cur->stride,
               s->row_bytes);
    return 0;
}

/* ---- GPU path ----------------------------------------------------------- */

#if defined(VQ_HAVE_HIP)
static void motion_v2_gpu_close(VqFex *fex, VqGpu *gpu)
{
    MotionV2Gpu *g = fex->gpu_priv;
    if (!g)
        return;
    for (unsigned k = 0; k < MV2_MAX_KEPT; k++)
        vq_gpu_free(gpu, g->kept[k]);
    free(g);
    fex->gpu_priv = NULL;
}

static int motion_v2_gpu_init(VqFex *fex, VqGpu *gpu)
{
    const MotionV2Priv *s = fex->priv;
    if (s->force_zero)
        return 0;
    MotionV2Gpu *g = calloc(1, sizeof(*g));
    if (!g)
        return vq_fail(fex->err, VQ_ENOMEM, "motion_v2: out of memory");
    fex->gpu_priv = g;
    for (unsigned k = 0; k < s->n_kept; k++) {
        int err = vq_gpu_malloc_pitch(gpu, &g->kept[k], &g->pitch, s->row_bytes,
                                      fex->fmt.h[0], "motion_v2: previous frame");
        if (err)
            return err;
    }
    return 0;
}

static int motion_v2_gpu_run(VqFex *fex, VqGpu *gpu, const VqDevFrame *ref,
                             const VqDevFrame *dis, unsigned index,
                             void *acc_dev)
{
    (void)dis;
    const MotionV2Priv *s = fex->priv;
    const MotionV2Gpu *g = fex->gpu_priv;
    if (s->force_zero)
        return 0;
    const VqDevPlane *cur = &ref->plane[0];
    void *store = g->kept[index % s->n_kept];
    int rc;
    if (index >= s->window) {
        const VqDevPlane prev = {
            .data = g->kept[(index - s->window) % s->n_kept],
            .pitch = g->pitch, .w = cur->w, .h = cur->h,
        };
        rc = vq_motion_v2_sad_launch(vq_gpu_compute_stream(gpu), cur, &prev,
                                     store, g->pitch, ref->bpc,
                                     &((VqMotionV2Acc *)acc_dev)->sad);
    } else {
        rc = vq_motion_v2_store_launch(vq_gpu_compute_stream(gpu), cur, store,
                                       g->pitch, ref->bpc);
    }
    return vq_fex_launch_check(fex, gpu, rc);
}
#endif

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
    free_cpu_state(fex->priv);
}

const VqFexDesc vq_fex_motion_v2 = {
    .name = "motion_v2",
    .options = motion_v2_options,
    .priv_size = sizeof(MotionV2Priv),
    .outputs = motion_v2_outputs,
    .flags = VQ_FEX_TEMPORAL,
    .exactness = VQ_EXACT_BITWISE,
    .init = motion_v2_init,
    .cpu_run = motion_v2_cpu_run,
    .gpu_init = VQ_GPU_FN(motion_v2_gpu_init),
    .gpu_run = VQ_GPU_FN(motion_v2_gpu_run),
    .gpu_close = VQ_GPU_FN(motion_v2_gpu_close),
    .finalize = motion_v2_finalize,
    .flush = motion_v2_flush,
    .close = motion_v2_close,
};
