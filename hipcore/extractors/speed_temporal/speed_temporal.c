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
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../../kernels/speed_temporal/speed_temporal.h"
#include "../common/speed_engine.h"

typedef struct TemporalPriv {
    VqSpeedOpts o;
    double max_val;
    bool use_ref_diff;
    VqSpeed sp;
    size_t img_scratch;
    size_t row_bytes;
    uint8_t *kept[2]; /* CPU: previous reference and distorted luma */
} TemporalPriv;

#if defined(VQ_HAVE_HIP)
/* GPU state: one scratch per set (fex->gpu_sets = K) and a ring of K + 1
 * copies of the luma pair. Run n (fex->gpu_seq) copies its pair into copy
 * n % (K + 1), records that copy's event, then waits for the event of run
 * n - 1's copy before it estimates. The copy it overwrites was last read
 * by run n - K, which used the same set, so the same stream: done. */
#define TEMPORAL_RING (VQ_SPEED_GPU_SETS + 1)

typedef struct TemporalGpu {
    VqSpeedDev dev[VQ_SPEED_GPU_SETS];
    void *kept[TEMPORAL_RING][2];
    VqEvent copied[TEMPORAL_RING];
    size_t pitch;
} TemporalGpu;
#endif

/* Names, aliases, defaults and ranges as libvmaf 3.2.0's speed_temporal
 * options. */
static const VqOption temporal_options[] = {
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

static const char *const temporal_outputs[] = { "speed_temporal", NULL };

static int temporal_init(VqFex *fex, const VqFormat *fmt)
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

static VqSpeedSrc diff_src(const VqPlane *cur, const uint8_t *prev,
                           size_t prev_pitch, const VqFormat *fmt)
{
    VqSpeedSrc src = {
        .cur = cur->data, .cur_pitch = (size_t)cur->stride,
        .prev = prev, .prev_pitch = prev_pitch,
        .bytes = (int32_t)fmt->bytes_per_sample,
        .scaler = (float)(1u << (fmt->bpc - 8)),
    };
    return src;
}

static int temporal_cpu_run(VqFex *fex, const VqFrame *ref,
                            const VqFrame *dis, unsigned index, void *acc,
                            void *scratch)
{
    TemporalPriv *s = fex->priv;
    const VqPlane *cur[2] = { &ref->plane[0], &dis->plane[0] };
    const unsigned h = fex->fmt.h[0];
    if (!s->kept[0]) {
        s->kept[0] = malloc(s->row_bytes * h);
        s->kept[1] = malloc(s->row_bytes * h);
        if (!s->kept[0] || !s->kept[1])
            return vq_fail(fex->err, VQ_ENOMEM, "speed_temporal: out of memory");
    }
    if (index > 0) {
        const size_t nb = (size_t)s->sp.g.nb;
        float *res_buf = (float *)((char *)scratch + s->img_scratch);
        VqSpeedResult rr = { res_buf, res_buf + nb, false };
        VqSpeedResult rd = { res_buf + 2 * nb, res_buf + 3 * nb, false };
        VqSpeedSrc sr = diff_src(cur[0], s->kept[0], s->row_bytes, &fex->fmt);
        VqSpeedSrc sd = diff_src(cur[s->use_ref_diff ? 0 : 1], s->kept[1],
                                 s->row_bytes, &fex->fmt);
        vq_speed_cpu_image(&s->sp, &sr, &rr, scratch);
        vq_speed_cpu_image(&s->sp, &sd, &rd, scratch);
        vq_speed_cpu_pair(&s->sp, &rr, &rd, acc);
    }
    for (int k = 0; k < 2; k++)
        for (unsigned y = 0; y < h; y++)
            memcpy(s->kept[k] + y * s->row_bytes,
                   cur[k]->data + (ptrdiff_t)y * cur[k]->stride, s->row_bytes);
    return 0;
}

#if defined(VQ_HAVE_HIP)
static void temporal_gpu_close(VqFex *fex, VqGpu *gpu)
{
    TemporalGpu *g = fex->gpu_priv;
    if (!g)
        return;
    for (unsigned i = 0; i < VQ_SPEED_GPU_SETS; i++)
        vq_speed_dev_free(&g->dev[i], gpu);
    for (unsigned i = 0; i < TEMPORAL_RING; i++) {
        vq_gpu_free(gpu, g->kept[i][0]);
        vq_gpu_free(gpu, g->kept[i][1]);
        if (g->copied[i])
            vq_gpu_event_destroy(gpu, g->copied[i]);
    }
    free(g);
    fex->gpu_priv = NULL;
}

static int temporal_gpu_init(VqFex *fex, VqGpu *gpu)
{
    TemporalPriv *s = fex->priv;
    TemporalGpu *g = calloc(1, sizeof(*g));
    if (!g)
        return vq_fail(fex->err, VQ_ENOMEM, "speed_temporal: out of memory");
    fex->gpu_priv = g;
    if (!fex->gpu_sets || fex->gpu_sets > VQ_SPEED_GPU_SETS)
        fex->gpu_sets = 1;
    int err = 0;
    for (unsigned i = 0; !err && i <= fex->gpu_sets; i++) {
        for (int k = 0; !err && k < 2; k++)
            err = vq_gpu_malloc_pitch(gpu, &g->kept[i][k], &g->pitch,
                                      s->row_bytes, fex->fmt.h[0],
                                      "speed_temporal: previous frame");
        if (!err)
            err = vq_gpu_event_create(gpu, &g->copied[i]);
    }
    for (unsigned i = 0; !err && i < fex->gpu_sets; i++)
        err = vq_speed_dev_init(&g->dev[i], gpu, &s->sp, 2, "speed_temporal");
    return err;
}

static int temporal_gpu_run(VqFex *fex, VqGpu *gpu, const VqDevFrame *ref,
                            const VqDevFrame *dis, unsigned index,
                            void *acc_dev)
{
    TemporalPriv *s = fex->priv;
    TemporalGpu *g = fex->gpu_priv;
    const unsigned ring = fex->gpu_sets + 1, n = fex->gpu_seq;
    void *const *mine = g->kept[n % ring];
    const VqDevPlane *cur[2] = { &ref->plane[0], &dis->plane[0] };
    VqStream st = vq_gpu_compute_stream(gpu);
    for (int k = 0; k < 2; k++) {
        int rc = vq_speed_copy_launch(st, cur[k], mine[k], g->pitch,
                                      (int)fex->fmt.bytes_per_sample);
        int err = vq_fex_launch_check(fex, gpu, rc);
        if (err)
            return err;
    }
    int err = vq_gpu_event_record(gpu, g->copied[n % ring], st);
    if (err || index == 0 || n == 0)
        return err;
    const unsigned before = (n - 1) % ring;
    err = vq_gpu_event_wait(gpu, st, g->copied[before]);
    if (err)
        return err;
    VqSpeedDevImages img = { .n = 2, .bpc = ref->bpc };
    img.cur[0] = *cur[0];
    img.cur[1] = *cur[s->use_ref_diff ? 0 : 1];
    for (int k = 0; k < 2; k++) {
        img.prev[k] = *cur[k];
        img.prev[k].data = g->kept[before][k];
        img.prev[k].pitch = g->pitch;
    }
    static const unsigned ref_img[1] = { 0 }, dis_img[1] = { 1 };
    return vq_fex_launch_check(fex, gpu,
                               vq_speed_dev_run(&g->dev[n % fex->gpu_sets], gpu,
                                                &s->sp, &img, 1, ref_img,
                                                dis_img, acc_dev));
}
#endif

static int temporal_finalize(VqFex *fex, const void *acc, unsigned index)
{
    const TemporalPriv *s = fex->priv;
    bool singular;
    const float score = index ? vq_speed_pair_score(&s->sp, acc, &singular)
                              : 0.0f;
    return vq_fex_emit(fex, 0, index, score);
}

static void temporal_close(VqFex *fex)
{
    TemporalPriv *s = fex->priv;
    vq_speed_release(&s->sp);
    free(s->kept[0]);
    free(s->kept[1]);
    s->kept[0] = s->kept[1] = NULL;
}

const VqFexDesc vq_fex_speed_temporal = {
    .name = "speed_temporal",
    .options = temporal_options,
    .priv_size = sizeof(TemporalPriv),
    .outputs = temporal_outputs,
    .flags = VQ_FEX_TEMPORAL,
    .exactness = VQ_EXACT_BITWISE,
    .init = temporal_init,
    .cpu_run = temporal_cpu_run,
    .gpu_sets = VQ_SPEED_GPU_SETS,
    .gpu_init = VQ_GPU_FN(temporal_gpu_init),
    .gpu_run = VQ_GPU_FN(temporal_gpu_run),
    .gpu_close = VQ_GPU_FN(temporal_gpu_close),
    .finalize = temporal_finalize,
    .close = temporal_close,
};
