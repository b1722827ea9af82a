/*
 * Integer VIF (libvmaf's "vif", integer_vif.c): integer_vif_scale0..3, and
 * with debug=true also integer_vif, integer_vif_num, integer_vif_den and the
 * per-scale numerators and denominators. Both backends produce the
 * per-scale integer sums of kernels/vif.h; vif_finalize turns them into
 * values exactly as libvmaf does (through float, as libvmaf stores them).
 */
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "../../../kernels/vif/vif.h"
#include "../common/gpu_fn.h"
#include "vif_dsp.h"

typedef struct VifPriv {
    bool debug;
    double gain_limit;
    bool skip_scale0;
    /* derived in init */
    VqVifDims dims;
    uint16_t log2_tab[VQ_VIF_LOG2_SIZE];
    VqVifDsp dsp; /* the CPU path's functions, chosen once */
} VifPriv;

static const VqOption vif_options[] = {
    { .name = "debug", .help = "also write integer_vif, its numerator and "
                               "denominator, and those of every scale",
      .offset = offsetof(VifPriv, debug), .type = VQ_OPT_BOOL,
      .def.b = false },
    /* default, range and alias as libvmaf's (DEFAULT_VIF_ENHN_GAIN_LIMIT) */
    { .name = "vif_enhn_gain_limit", .alias = "egl",
      .help = "enhancement gain imposed on vif, >= 1.0 (1.0: no gain)",
      .offset = offsetof(VifPriv, gain_limit), .type = VQ_OPT_DOUBLE,
      .def.d = 100.0, .min = 1.0, .max = 100.0,
      .flags = VQ_OPT_FEATURE_PARAM },
    { .name = "vif_skip_scale0", .alias = "ssclz",
      .help = "skip scale 0 (integer_vif_scale0 is written as 0)",
      .offset = offsetof(VifPriv, skip_scale0), .type = VQ_OPT_BOOL,
      .def.b = false, .flags = VQ_OPT_FEATURE_PARAM },
    { 0 }
};

enum {
    OUT_SCALE = 0,    /* integer_vif_scale0..3 */
    OUT_VIF = 4,      /* debug outputs from here on */
    OUT_NUM,
    OUT_DEN,
    OUT_SCALE_ND = 7, /* num_scale0, den_scale0, num_scale1, ... */
};
static const char *const vif_outputs[] = {
    "integer_vif_scale0", "integer_vif_scale1", "integer_vif_scale2",
    "integer_vif_scale3", "integer_vif", "integer_vif_num", "integer_vif_den",
    "integer_vif_num_scale0", "integer_vif_den_scale0",
    "integer_vif_num_scale1", "integer_vif_den_scale1",
    "integer_vif_num_scale2", "integer_vif_den_scale2",
    "integer_vif_num_scale3", "integer_vif_den_scale3", NULL
};

/* round(2048 * log2f(i)) as libvmaf's log_generate(); the float is formed
 * from the double log2, i.e. correctly rounded, which equals glibc's log2f
 * at every entry of the table (checked) without depending on the libm. */
static void vif_log2_table(uint16_t *tab)
{
    for (unsigned i = VQ_VIF_LOG2_BASE; i < VQ_VIF_LOG2_BASE + VQ_VIF_LOG2_SIZE;
         i++)
        tab[i - VQ_VIF_LOG2_BASE] =
            (uint16_t)round((float)log2((double)i) * 2048.0f);
}

static int vif_init(VqFex *fex, const VqFormat *fmt)
{
    VifPriv *s = fex->priv;
    if (fmt->w[0] < VQ_VIF_MIN_SIZE || fmt->h[0] < VQ_VIF_MIN_SIZE)
        return vq_fail(fex->err, VQ_EUNSUPPORTED,
                       "vif: a %ux%u frame is too small; vif needs at least "
                       "%ux%u (libvmaf crashes below 8 rows and has an empty "
                       "scale 3 below 8 columns)",
                       fmt->w[0], fmt->h[0], VQ_VIF_MIN_SIZE, VQ_VIF_MIN_SIZE);
    vq_vif_dims(&s->dims, fmt->w[0], fmt->h[0]);
    vif_log2_table(s->log2_tab);
    vq_vif_dsp_init(&s->dsp, vq_cpu_flags());
    fex->planes = VQ_PLANE_Y;
    fex->acc_size = sizeof(VqVifAcc);
    fex->scratch_size = vq_vif_cpu_scratch_size(&s->dims);
    fex->part_scratch_size = vq_vif_cpu_row_size(&s->dims);
    return 0;
}

static VqVifParams vif_params(const VifPriv *s, unsigned bpc)
{
    VqVifParams p = {
        .bpc = bpc,
        .skip_scale0 = s->skip_scale0,
        .gain_limit = s->gain_limit,
        .log2_tab = s->log2_tab,
    };
    return p;
}

/* One scale of a frame split into row bands, each band a part
 * (vq_fex_parallel) with its own sums. */
#define VIF_MAX_PARTS 64
#define VIF_BAND_ROWS 16

typedef struct VifBands {
    const VifPriv *s;
    const VqVifParams *p;
    unsigned scale, n;
    const VqPlane *ref, *dis;
    void *images;
    VqVifScaleAcc acc[VIF_MAX_PARTS];
} VifBands;

static void vif_band(void *arg, unsigned part, void *rows)
{
    VifBands *b = arg;
    unsigned h = b->s->dims.h[b->scale];
    unsigned y0 = (unsigned)((uint64_t)h * part / b->n);
    unsigned y1 = (unsigned)((uint64_t)h * (part + 1) / b->n);
    vq_vif_cpu_scale_rows(&b->s->dsp, b->p, &b->s->dims, b->scale, b->ref,
                          b->dis, b->images, rows, y0, y1, &b->acc[part]);
}

static int vif_cpu_run(VqFex *fex, const VqFrame *ref, const VqFrame *dis,
                       unsigned index, void *acc, void *scratch)
{
    (void)index;
    const VifPriv *s = fex->priv;
    VqVifParams p = vif_params(s, fex->fmt.bpc);
    unsigned threads = vq_fex_threads(fex);
    if (threads < 2 || s->dims.w[0] < VQ_VIF_SPLIT_MIN_W) {
        vq_vif_cpu_frame(&s->dsp, &p, &s->dims, &ref->plane[0],
                         &dis->plane[0], scratch, acc);
        return 0;
    }
    VqVifAcc *out = acc;
    VifBands b = { .s = s, .p = &p, .ref = &ref->plane[0],
                   .dis = &dis->plane[0], .images = scratch };
    for (unsigned sc = 0; sc < VQ_VIF_SCALES; sc++) {
        unsigned n = s->dims.h[sc] / VIF_BAND_ROWS;
        if (n > 2 * threads)
            n = 2 * threads;
        if (n > VIF_MAX_PARTS)
            n = VIF_MAX_PARTS;
        b.scale = sc;
        b.n = n ? n : 1;
        memset(b.acc, 0, sizeof(b.acc));
        int err = vq_fex_parallel(fex, b.n, vif_band, &b);
        if (err)
            return vq_fail(fex->err, err, "vif: out of memory");
        /* integer sums: the same in any order; added in band order */
        for (unsigned k = 0; k < b.n; k++) {
            out->scale[sc].num_log += b.acc[k].num_log;
            out->scale[sc].den_log += b.acc[k].den_log;
            out->scale[sc].num_non_log += b.acc[k].num_non_log;
            out->scale[sc].den_non_log += b.acc[k].den_non_log;
        }
    }
    return 0;
}

/* Frames have no vif state in common: with two sets of scale images, two
 * frames' kernels run at once on two lanes (fex->gpu_sets), so one frame's
 * small scales overlap the next frame's scale 0 (up to
 * VQ_GPU_SETS_MAX_PIXELS). */
#define VIF_GPU_SETS 2

#if defined(VQ_HAVE_HIP)
typedef struct VifGpuSet {
    uint32_t *edge;                  /* VQ_VIF_EDGE_N values */
    uint16_t *img[2][VQ_VIF_SCALES]; /* scales 1..3 */
    size_t pitch[VQ_VIF_SCALES];     /* bytes */
} VifGpuSet;

typedef struct VifGpu {
    uint16_t *log2_tab;
    VifGpuSet set[VIF_GPU_SETS];
} VifGpu;

static void vif_gpu_close(VqFex *fex, VqGpu *gpu)
{
    VifGpu *g = fex->gpu_priv;
    if (!g)
        return;
    vq_gpu_free(gpu, g->log2_tab);
    for (unsigned i = 0; i < VIF_GPU_SETS; i++) {
        vq_gpu_free(gpu, g->set[i].edge);
        for (unsigned s = 1; s < VQ_VIF_SCALES; s++) {
            vq_gpu_free(gpu, g->set[i].img[0][s]);
            vq_gpu_free(gpu, g->set[i].img[1][s]);
        }
    }
    free(g);
    fex->gpu_priv = NULL;
}

static int vif_gpu_set_init(VifGpuSet *set, VqGpu *gpu, const VifPriv *s)
{
    int err = vq_gpu_malloc(gpu, (void **)&set->edge,
                            VQ_VIF_EDGE_N * sizeof(uint32_t), "vif edge");
    for (unsigned sc = 1; !err && sc < VQ_VIF_SCALES; sc++) {
        size_t row = s->dims.w[sc] * sizeof(uint16_t);
        /* scale 3 has a row 1 even when it is one row high */
        size_t rows = s->dims.h[sc] + (sc == VQ_VIF_SCALES - 1);
        for (unsigned k = 0; !err && k < 2; k++)
            err = vq_gpu_malloc_pitch(gpu, (void **)&set->img[k][sc],
                                      &set->pitch[sc], row, rows,
                                      "vif scale images");
    }
    return err;
}

static int vif_gpu_init(VqFex *fex, VqGpu *gpu)
{
    const VifPriv *s = fex->priv;
    VifGpu *g = calloc(1, sizeof(*g));
    if (!g)
        return vq_fail(fex->err, VQ_ENOMEM, "out of memory");
    fex->gpu_priv = g;
    if (!fex->gpu_sets || fex->gpu_sets > VIF_GPU_SETS ||
        s->dims.w[0] * s->dims.h[0] > VQ_GPU_SETS_MAX_PIXELS)
        fex->gpu_sets = 1;
    size_t tab_bytes = VQ_VIF_LOG2_SIZE * sizeof(uint16_t);
    int err = vq_gpu_malloc(gpu, (void **)&g->log2_tab, tab_bytes,
                            "vif log2 table");
    for (unsigned i = 0; !err && i < fex->gpu_sets; i++)
        err = vif_gpu_set_init(&g->set[i], gpu, s);
    VqStream st = vq_gpu_compute_stream(gpu);
    if (!err)
        err = vq_gpu_upload2d(gpu, st, g->log2_tab, tab_bytes, s->log2_tab,
                              tab_bytes, tab_bytes, 1);
    if (!err)
        err = vq_gpu_sync(gpu, st);
    if (err)
        vif_gpu_close(fex, gpu);
    return err;
}

static int vif_gpu_run(VqFex *fex, VqGpu *gpu, const VqDevFrame *ref,
                       const VqDevFrame *dis, unsigned index, void *acc_dev)
{
    (void)index;
    const VifPriv *s = fex->priv;
    const VifGpu *g = fex->gpu_priv;
    const VifGpuSet *set = &g->set[fex->gpu_seq % fex->gpu_sets];
    VqVifAcc *acc = acc_dev;
    VqStream st = vq_gpu_compute_stream(gpu);
    for (unsigned sc = 0; sc < VQ_VIF_SCALES; sc++) {
        VqDevPlane r = ref->plane[0], d = dis->plane[0];
        if (sc > 0) {
            r.data = set->img[0][sc];
            d.data = set->img[1][sc];
            r.pitch = d.pitch = set->pitch[sc];
            r.w = d.w = s->dims.w[sc];
            r.h = d.h = s->dims.h[sc];
        }
        bool last = sc + 1 == VQ_VIF_SCALES;
        int err = vq_fex_launch_check(
            fex, gpu,
            vq_vif_scale_launch(st, sc, &r, &d, ref->bpc,
                                !(sc == 0 && s->skip_scale0), g->log2_tab,
                                s->gain_limit, last ? NULL : set->img[0][sc + 1],
                                last ? NULL : set->img[1][sc + 1],
                                last ? 0 : set->pitch[sc + 1], set->edge,
                                &acc->scale[sc]));
        if (err)
            return err;
    }
    return 0;
}
#endif

/* libvmaf keeps each scale's numerator and denominator as float. */
static void vif_num_den(const VqVifScaleAcc *a, float *num, float *den)
{
    *num = (float)(a->num_log / 2048.0 +
                   (a->den_non_log - (a->num_non_log / 16384.0) / 65025.0));
    *den = (float)(a->den_log / 2048.0 + a->den_non_log);
}

static int vif_finalize(VqFex *fex, const void *acc, unsigned index)
{
    const VifPriv *s = fex->priv;
    const VqVifAcc *a = acc;
    float num[VQ_VIF_SCALES], den[VQ_VIF_SCALES];
    for (unsigned sc = 0; sc < VQ_VIF_SCALES; sc++)
        vif_num_den(&a->scale[sc], &num[sc], &den[sc]);
    if (s->skip_scale0) {
        num[0] = 0.0f;
        den[0] = -1.0f;
    }
    int err = 0;
    for (unsigned sc = 0; !err && sc < VQ_VIF_SCALES; sc++) {
        float score = sc == 0 && s->skip_scale0 ? 0.0f : num[sc] / den[sc];
        err = vq_fex_emit(fex, OUT_SCALE + sc, index, score);
    }
    if (err || !s->debug)
        return err;
    unsigned first = s->skip_scale0 ? 1 : 0;
    double score_num = 0.0, score_den = 0.0;
    for (unsigned sc = first; sc < VQ_VIF_SCALES; sc++) {
        score_num += num[sc];
        score_den += den[sc];
    }
    double score = score_den == 0.0 ? 1.0 : score_num / score_den;
    err = vq_fex_emit(fex, OUT_VIF, index, score);
    if (!err)
        err = vq_fex_emit(fex, OUT_NUM, index, score_num);
    if (!err)
        err = vq_fex_emit(fex, OUT_DEN, index, score_den);
    for (unsigned sc = 0; !err && sc < VQ_VIF_SCALES; sc++) {
        err = vq_fex_emit(fex, OUT_SCALE_ND + 2 * sc, index, num[sc]);
        if (!err)
            err = vq_fex_emit(fex, OUT_SCALE_ND + 2 * sc + 1, index, den[sc]);
    }
    return err;
}

const VqFexDesc vq_fex_vif = {
    .name = "vif",
    .options = vif_options,
    .priv_size = sizeof(VifPriv),
    .outputs = vif_outputs,
    .exactness = VQ_EXACT_BITWISE,
    .init = vif_init,
    .cpu_run = vif_cpu_run,
    .gpu_init = VQ_GPU_FN(vif_gpu_init),
    .gpu_sets = VIF_GPU_SETS,
    .gpu_run = VQ_GPU_FN(vif_gpu_run),
    .gpu_close = VQ_GPU_FN(vif_gpu_close),
    .finalize = vif_finalize,
};
