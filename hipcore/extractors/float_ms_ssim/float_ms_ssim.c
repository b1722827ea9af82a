/*
 * float_ms_ssim (libvmaf's float_ms_ssim.c / ms_ssim.c, Wang's MS-SSIM):
 * float_ms_ssim = prod over 5 scales of l^alpha * c^beta * s^gamma, with
 * each scale's mean l, c, s from the float SSIM map (kernels/float_ssim).
 * enable_lcs adds float_ms_ssim_{l,c,s}_scale0..4; enable_db and clip_db as
 * float_ssim. The record holds every scale's map row sums, the same on both
 * backends; one finalize forms the means and the product.
 */
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>

#include "../../../kernels/float_ms_ssim/float_ms_ssim.h"
#include "../common/gpu_fn.h"
#include "fms_cpu.h"

typedef struct FmsPriv {
    bool enable_lcs, enable_db, clip_db;
    /* derived in init */
    unsigned w[VQ_FMS_SCALES], h[VQ_FMS_SCALES];
    size_t row_off[VQ_FMS_SCALES]; /* first record row of each scale */
    size_t img_off[VQ_FMS_SCALES][2]; /* scratch offsets, scales 1..4 */
    size_t work_off;
    double max_db;
    VqFssimConsts k;
    VqFssimDsp dsp;
    VqFmsDsp fms;
} FmsPriv;

static const VqOption fms_options[] = {
    { .name = "enable_lcs",
      .help = "also write float_ms_ssim_l_scale0..4, _c_scale0..4, "
              "_s_scale0..4 (each scale's mean luminance, contrast, structure)",
      .offset = offsetof(FmsPriv, enable_lcs), .type = VQ_OPT_BOOL,
      .def.b = false },
    { .name = "enable_db",
      .help = "write float_ms_ssim as dB: -10 log10(1 - ms_ssim)",
      .offset = offsetof(FmsPriv, enable_db), .type = VQ_OPT_BOOL,
      .def.b = false },
    { .name = "clip_db",
      .help = "with enable_db, cap at ceil(10 log10(peak^2 * 2 w h))",
      .offset = offsetof(FmsPriv, clip_db), .type = VQ_OPT_BOOL,
      .def.b = false },
    { 0 }
};

enum { OUT_MS, OUT_L = 1, OUT_C = 6, OUT_S = 11 };
static const char *const fms_outputs[] = {
    "float_ms_ssim",
    "float_ms_ssim_l_scale0", "float_ms_ssim_l_scale1",
    "float_ms_ssim_l_scale2", "float_ms_ssim_l_scale3",
    "float_ms_ssim_l_scale4",
    "float_ms_ssim_c_scale0", "float_ms_ssim_c_scale1",
    "float_ms_ssim_c_scale2", "float_ms_ssim_c_scale3",
    "float_ms_ssim_c_scale4",
    "float_ms_ssim_s_scale0", "float_ms_ssim_s_scale1",
    "float_ms_ssim_s_scale2", "float_ms_ssim_s_scale3",
    "float_ms_ssim_s_scale4", NULL
};

static size_t align64(size_t n)
{
    return (n + 63) & ~(size_t)63;
}

static int fms_init(VqFex *fex, const VqFormat *fmt)
{
    FmsPriv *s = fex->priv;
    if (fmt->w[0] < VQ_FMS_MIN_SIZE || fmt->h[0] < VQ_FMS_MIN_SIZE)
        return vq_fail(fex->err, VQ_EUNSUPPORTED,
                       "float_ms_ssim: a %ux%u frame is too small; MS-SSIM "
                       "needs width and height of at least %u (five scales "
                       "of at least 11x11, as libvmaf)",
                       fmt->w[0], fmt->h[0], VQ_FMS_MIN_SIZE);
    size_t rows = 0, off = 0;
    for (unsigned sc = 0; sc < VQ_FMS_SCALES; sc++) {
        s->w[sc] = sc ? s->w[sc - 1] / 2 + (s->w[sc - 1] & 1) : fmt->w[0];
        s->h[sc] = sc ? s->h[sc - 1] / 2 + (s->h[sc - 1] & 1) : fmt->h[0];
        s->row_off[sc] = rows;
        rows += s->h[sc] - (VQ_FSSIM_WIN - 1);
        for (unsigned k = 0; sc && k < 2; k++) {
            s->img_off[sc][k] = off;
            off += align64((size_t)s->w[sc] * s->h[sc] * sizeof(float));
        }
    }
    s->work_off = off;
    size_t map = vq_fssim_map_scratch(s->w[0]), lpf = vq_fms_lpf_scratch(s->w[0]);
    fex->scratch_size = off + (map > lpf ? map : lpf);
    if (s->clip_db) {
        /* libvmaf: peak * peak in unsigned, w * h in unsigned */
        unsigned peak = (1u << fmt->bpc) - 1;
        double mse = 0.5 / (fmt->w[0] * fmt->h[0]);
        s->max_db = ceil(10. * log10(peak * peak / mse));
    } else {
        s->max_db = INFINITY;
    }
    s->k = vq_fssim_consts();
    vq_fssim_dsp_init(&s->dsp, vq_cpu_flags());
    vq_fms_dsp_init(&s->fms, vq_cpu_flags());
    fex->planes = VQ_PLANE_Y;
    fex->acc_size = rows * sizeof(VqFssimRow);
    return 0;
}

static int fms_cpu_run(VqFex *fex, const VqFrame *ref, const VqFrame *dis,
                       unsigned index, void *acc, void *scratch)
{
    (void)index;
    const FmsPriv *s = fex->priv;
    uint8_t *base = scratch;
    void *work = base + s->work_off;
    VqFssimRow *rows = acc;
    VqFssimSrc src[2];
    const VqPlane *pl[2] = { &ref->plane[0], &dis->plane[0] };
    for (unsigned k = 0; k < 2; k++) {
        VqFssimSrc p = { pl[k]->data, pl[k]->stride, pl[k]->w, pl[k]->h,
                         fex->fmt.bpc };
        src[k] = p;
    }
    for (unsigned sc = 0; sc < VQ_FMS_SCALES; sc++) {
        if (sc) {
            for (unsigned k = 0; k < 2; k++) {
                float *img = (float *)(void *)(base + s->img_off[sc][k]);
                vq_fms_cpu_lpf(&s->fms, &src[k], img, work);
                VqFssimSrc f = { (const uint8_t *)img,
                                 (ptrdiff_t)(s->w[sc] * sizeof(float)),
                                 s->w[sc], s->h[sc], 0 };
                src[k] = f;
            }
        }
        vq_fssim_cpu_map(&s->dsp, &src[0], &src[1], s->k, work,
                         rows + s->row_off[sc]);
    }
    return 0;
}

#if defined(VQ_HAVE_HIP)
typedef struct FmsGpu {
    float *img[VQ_FMS_SCALES][2]; /* scales 1..4 */
    size_t pitch[VQ_FMS_SCALES];  /* bytes */
    double *part;                 /* per row and segment sums of one scale */
} FmsGpu;

static void fms_gpu_close(VqFex *fex, VqGpu *gpu)
{
    FmsGpu *g = fex->gpu_priv;
    if (!g)
        return;
    for (unsigned sc = 1; sc < VQ_FMS_SCALES; sc++) {
        vq_gpu_free(gpu, g->img[sc][0]);
        vq_gpu_free(gpu, g->img[sc][1]);
    }
    vq_gpu_free(gpu, g->part);
    free(g);
    fex->gpu_priv = NULL;
}

static unsigned n_segs(unsigned w)
{
    return (w - (VQ_FSSIM_WIN - 1) + VQ_FSSIM_SEG - 1) / VQ_FSSIM_SEG;
}

static int fms_gpu_init(VqFex *fex, VqGpu *gpu)
{
    const FmsPriv *s = fex->priv;
    FmsGpu *g = calloc(1, sizeof(*g));
    if (!g)
        return vq_fail(fex->err, VQ_ENOMEM, "out of memory");
    fex->gpu_priv = g;
    /* scales run one after the other on one stream: scale 0's partial
     * sums, the largest, bound every scale's */
    size_t part = (size_t)(s->h[0] - (VQ_FSSIM_WIN - 1)) * n_segs(s->w[0]) *
                  VQ_FSSIM_COMPS * sizeof(double);
    int err = vq_gpu_malloc(gpu, (void **)&g->part, part,
                            "float_ms_ssim partial sums");
    for (unsigned sc = 1; !err && sc < VQ_FMS_SCALES; sc++)
        for (unsigned k = 0; !err && k < 2; k++)
            err = vq_gpu_malloc_pitch(gpu, (void **)&g->img[sc][k],
                                      &g->pitch[sc], s->w[sc] * sizeof(float),
                                      s->h[sc], "float_ms_ssim scale images");
    if (err)
        fms_gpu_close(fex, gpu);
    return err;
}

static int fms_gpu_run(VqFex *fex, VqGpu *gpu, const VqDevFrame *ref,
                       const VqDevFrame *dis, unsigned index, void *acc_dev)
{
    (void)index;
    const FmsPriv *s = fex->priv;
    const FmsGpu *g = fex->gpu_priv;
    VqStream st = vq_gpu_compute_stream(gpu);
    VqFssimRow *rows = acc_dev;
    VqDevPlane r = ref->plane[0], d = dis->plane[0];
    unsigned src_bpc = ref->bpc;
    int err = 0;
    for (unsigned sc = 0; !err && sc < VQ_FMS_SCALES; sc++) {
        if (sc) {
            err = vq_fex_launch_check(
                fex, gpu,
                vq_fms_lpf_launch(st, &r, &d, src_bpc, g->img[sc][0],
                                  g->img[sc][1], g->pitch[sc], s->w[sc],
                                  s->h[sc]));
            r.data = g->img[sc][0];
            d.data = g->img[sc][1];
            r.pitch = d.pitch = g->pitch[sc];
            r.w = d.w = s->w[sc];
            r.h = d.h = s->h[sc];
            src_bpc = 0;
        }
        if (!err)
            err = vq_fex_launch_check(
                fex, gpu,
                vq_fssim_map_launch(st, &r, &d, src_bpc, s->k, g->part));
        if (!err)
            err = vq_fex_launch_check(
                fex, gpu,
                vq_fssim_rows_launch(st, g->part, n_segs(s->w[sc]),
                                     s->h[sc] - (VQ_FSSIM_WIN - 1),
                                     rows + s->row_off[sc]));
    }
    return err;
}
#endif

static int fms_finalize(VqFex *fex, const void *acc, unsigned index)
{
    const FmsPriv *s = fex->priv;
    const VqFssimRow *rows = acc;
    static const float alphas[] = { VQ_FMS_ALPHAS };
    static const float betas[] = { VQ_FMS_BETAS };
    static const float gammas[] = { VQ_FMS_GAMMAS };
    float l[VQ_FMS_SCALES], c[VQ_FMS_SCALES], sv[VQ_FMS_SCALES];
    double ms = 1.0;
    for (unsigned sc = 0; sc < VQ_FMS_SCALES; sc++) {
        float ssim;
        vq_fssim_means(rows + s->row_off[sc], s->w[sc] - (VQ_FSSIM_WIN - 1),
                       s->h[sc] - (VQ_FSSIM_WIN - 1), &ssim, &l[sc], &c[sc],
                       &sv[sc]);
        /* libvmaf: msssim *= pow(l, a) * pow(c, b) * pow(s, g), floats
         * promoted to double */
        ms *= pow(l[sc], alphas[sc]) * pow(c[sc], betas[sc]) *
              pow(sv[sc], gammas[sc]);
    }
    double score = ms;
    if (s->enable_db) {
        double db = -10. * log10(1 - score);
        score = db < s->max_db ? db : s->max_db; /* libvmaf's MIN() */
    }
    int err = vq_fex_emit(fex, OUT_MS, index, score);
    /* libvmaf's order: every l, then every c, then every s */
    for (unsigned sc = 0; !err && s->enable_lcs && sc < VQ_FMS_SCALES; sc++)
        err = vq_fex_emit(fex, OUT_L + sc, index, l[sc]);
    for (unsigned sc = 0; !err && s->enable_lcs && sc < VQ_FMS_SCALES; sc++)
        err = vq_fex_emit(fex, OUT_C + sc, index, c[sc]);
    for (unsigned sc = 0; !err && s->enable_lcs && sc < VQ_FMS_SCALES; sc++)
        err = vq_fex_emit(fex, OUT_S + sc, index, sv[sc]);
    return err;
}

const VqFexDesc vq_fex_float_ms_ssim = {
    .name = "float_ms_ssim",
    .options = fms_options,
    .priv_size = sizeof(FmsPriv),
    .outputs = fms_outputs,
    .exactness = VQ_EXACT_BITWISE,
    .init = fms_init,
    .cpu_run = fms_cpu_run,
    .gpu_init = VQ_GPU_FN(fms_gpu_init),
    .gpu_run = VQ_GPU_FN(fms_gpu_run),
    .gpu_close = VQ_GPU_FN(fms_gpu_close),
    .finalize = fms_finalize,
};
