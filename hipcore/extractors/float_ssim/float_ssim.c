/*
 * float_ssim (libvmaf's float_ssim.c): SSIM of the luma plane with libvmaf's
 * iqa code, on samples scaled to the 8-bit range, after libvmaf's automatic
 * decimation (scale = round(min(w, h) / 256), at least 1) or the one the
 * scale option sets. float_ssim, and with enable_lcs float_ssim_l, _c, _s;
 * enable_db writes float_ssim as -10 log10(1 - ssim), clip_db caps that.
 * The record holds the map's row sums (kernels/float_ssim/float_ssim.h),
 * the same on both backends; one finalize forms the means.
 */
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>

#include "../../../kernels/float_ssim/float_ssim.h"
#include "../common/gpu_fn.h"
#include "fssim_cpu.h"

typedef struct FssimPriv {
    bool enable_lcs, enable_db, clip_db;
    int scale;
    /* derived in init */
    unsigned factor;        /* decimation factor, 1 = none */
    unsigned dw, dh;        /* the decimated (scored) size */
    double max_db;
    VqFssimConsts k;
    VqFssimDsp dsp;
    size_t img_bytes;       /* one decimated image in scratch */
} FssimPriv;

static const VqOption fssim_options[] = {
    { .name = "enable_lcs",
      .help = "also write float_ssim_l, float_ssim_c, float_ssim_s "
              "(mean luminance, contrast, structure terms)",
      .offset = offsetof(FssimPriv, enable_lcs), .type = VQ_OPT_BOOL,
      .def.b = false },
    { .name = "enable_db", .help = "write float_ssim as dB: -10 log10(1 - ssim)",
      .offset = offsetof(FssimPriv, enable_db), .type = VQ_OPT_BOOL,
      .def.b = false },
    { .name = "clip_db",
      .help = "with enable_db, cap at ceil(10 log10(peak^2 * 2 w h))",
      .offset = offsetof(FssimPriv, clip_db), .type = VQ_OPT_BOOL,
      .def.b = false },
    /* range and meaning as libvmaf's */
    { .name = "scale",
      .help = "decimation factor: 0 = auto (round(min(w, h) / 256)), "
              "1 = none, 2..10",
      .offset = offsetof(FssimPriv, scale), .type = VQ_OPT_INT,
      .def.i = 0, .min = 0, .max = 10 },
    { 0 }
};

enum { OUT_SSIM, OUT_L, OUT_C, OUT_S };
static const char *const fssim_outputs[] = {
    "float_ssim", "float_ssim_l", "float_ssim_c", "float_ssim_s", NULL
};

/* libvmaf's iqa _round() of a non-negative float: halves round up. */
static int iqa_round(float a)
{
    int i = (int)a;
    return a - (float)i >= 0.5f ? i + 1 : i;
}

/* The decimated size of libvmaf's _iqa_decimate. */
static unsigned decimated(unsigned n, unsigned factor)
{
    return factor > 1 ? n / factor + (n & 1) : n;
}

static int fssim_init(VqFex *fex, const VqFormat *fmt)
{
    FssimPriv *s = fex->priv;
    unsigned w = fmt->w[0], h = fmt->h[0];
    if (s->scale > 0) {
        s->factor = (unsigned)s->scale;
    } else {
        int f = iqa_round((float)(w < h ? w : h) / 256.0f);
        s->factor = f > 1 ? (unsigned)f : 1;
    }
    s->dw = decimated(w, s->factor);
    s->dh = decimated(h, s->factor);
    if (s->dw < VQ_FSSIM_WIN || s->dh < VQ_FSSIM_WIN)
        return vq_fail(fex->err, VQ_EUNSUPPORTED,
                       "float_ssim: a %ux%u frame is too small: after "
                       "decimation by %u it is %ux%u, and SSIM's 11x11 window "
                       "needs at least 11x11 (libvmaf computes garbage there)",
                       w, h, s->factor, s->dw, s->dh);
    if (s->clip_db) {
        /* libvmaf: peak * peak in unsigned, w * h in unsigned */
        unsigned peak = (1u << fmt->bpc) - 1;
        double mse = 0.5 / (w * h);
        s->max_db = ceil(10. * log10(peak * peak / mse));
    } else {
        s->max_db = INFINITY;
    }
    s->k = vq_fssim_consts();
    vq_fssim_dsp_init(&s->dsp, vq_cpu_flags());
    fex->planes = VQ_PLANE_Y;
    fex->acc_size = (size_t)(s->dh - (VQ_FSSIM_WIN - 1)) * sizeof(VqFssimRow);
    size_t scratch = vq_fssim_map_scratch(s->dw);
    s->img_bytes = 0;
    if (s->factor > 1) {
        s->img_bytes = ((size_t)s->dw * s->dh * sizeof(float) + 63) & ~(size_t)63;
        size_t box = vq_fssim_box_scratch(w, s->dw);
        scratch = 2 * s->img_bytes + (box > scratch ? box : scratch);
    }
    fex->scratch_size = scratch;
    return 0;
}

static VqFssimSrc plane_src(const VqPlane *p, unsigned bpc)
{
    VqFssimSrc src = { p->data, p->stride, p->w, p->h, bpc };
    return src;
}

static int fssim_cpu_run(VqFex *fex, const VqFrame *ref, const VqFrame *dis,
                         unsigned index, void *acc, void *scratch)
{
    (void)index;
    const FssimPriv *s = fex->priv;
    VqFssimSrc r = plane_src(&ref->plane[0], fex->fmt.bpc);
    VqFssimSrc d = plane_src(&dis->plane[0], fex->fmt.bpc);
    uint8_t *work = scratch;
    if (s->factor > 1) {
        float *ir = scratch, *id = (float *)(void *)(work + s->img_bytes);
        work += 2 * s->img_bytes;
        vq_fssim_cpu_box(&r, s->factor, ir, s->dw, s->dh, work);
        vq_fssim_cpu_box(&d, s->factor, id, s->dw, s->dh, work);
        VqFssimSrc fr = { (const uint8_t *)ir, (ptrdiff_t)(s->dw * sizeof(float)),
                          s->dw, s->dh, 0 };
        VqFssimSrc fd = fr;
        fd.data = (const uint8_t *)id;
        r = fr;
        d = fd;
    }
    vq_fssim_cpu_map(&s->dsp, &r, &d, s->k, work, acc);
    return 0;
}

#if defined(VQ_HAVE_HIP)
typedef struct FssimGpu {
    float *img[2];   /* decimated images, factor > 1 */
    size_t pitch;    /* bytes */
    double *part;    /* per row and segment sums */
} FssimGpu;

static void fssim_gpu_close(VqFex *fex, VqGpu *gpu)
{
    FssimGpu *g = fex->gpu_priv;
    if (!g)
        return;
    vq_gpu_free(gpu, g->img[0]);
    vq_gpu_free(gpu, g->img[1]);
    vq_gpu_free(gpu, g->part);
    free(g);
    fex->gpu_priv = NULL;
}

static unsigned n_segs(unsigned w)
{
    return (w - (VQ_FSSIM_WIN - 1) + VQ_FSSIM_SEG - 1) / VQ_FSSIM_SEG;
}

static int fssim_gpu_init(VqFex *fex, VqGpu *gpu)
{
    const FssimPriv *s = fex->priv;
    FssimGpu *g = calloc(1, sizeof(*g));
    if (!g)
        return vq_fail(fex->err, VQ_ENOMEM, "out of memory");
    fex->gpu_priv = g;
    size_t rows = s->dh - (VQ_FSSIM_WIN - 1);
    int err = vq_gpu_malloc(gpu, (void **)&g->part,
                            rows * n_segs(s->dw) * VQ_FSSIM_COMPS * sizeof(double),
                            "float_ssim partial sums");
    for (unsigned k = 0; !err && s->factor > 1 && k < 2; k++)
        err = vq_gpu_malloc_pitch(gpu, (void **)&g->img[k], &g->pitch,
                                  s->dw * sizeof(float), s->dh,
                                  "float_ssim decimated images");
    if (err)
        fssim_gpu_close(fex, gpu);
    return err;
}

static int fssim_gpu_run(VqFex *fex, VqGpu *gpu, const VqDevFrame *ref,
                         const VqDevFrame *dis, unsigned index, void *acc_dev)
{
    (void)index;
    const FssimPriv *s = fex->priv;
    const FssimGpu *g = fex->gpu_priv;
    VqStream st = vq_gpu_compute_stream(gpu);
    VqDevPlane r = ref->plane[0], d = dis->plane[0];
    unsigned src_bpc = ref->bpc;
    int err = 0;
    if (s->factor > 1) {
        err = vq_fex_launch_check(
            fex, gpu,
            vq_fssim_box_launch(st, &r, &d, ref->bpc, s->factor, g->img[0],
                                g->img[1], g->pitch, s->dw, s->dh));
        r.data = g->img[0];
        d.data = g->img[1];
        r.pitch = d.pitch = g->pitch;
        r.w = d.w = s->dw;
        r.h = d.h = s->dh;
        src_bpc = 0;
    }
    if (!err)
        err = vq_fex_launch_check(
            fex, gpu, vq_fssim_map_launch(st, &r, &d, src_bpc, s->k, g->part));
    if (!err)
        err = vq_fex_launch_check(
            fex, gpu, vq_fssim_rows_launch(st, g->part, n_segs(s->dw),
                                           s->dh - (VQ_FSSIM_WIN - 1),
                                           acc_dev));
    return err;
}
#endif

static int fssim_finalize(VqFex *fex, const void *acc, unsigned index)
{
    const FssimPriv *s = fex->priv;
    float ssim, l, c, sv;
    vq_fssim_means(acc, s->dw - (VQ_FSSIM_WIN - 1), s->dh - (VQ_FSSIM_WIN - 1),
                   &ssim, &l, &c, &sv);
    double score = ssim;
    if (s->enable_db) {
        double db = -10. * log10(1 - score);
        score = db < s->max_db ? db : s->max_db; /* libvmaf's MIN() */
    }
    int err = vq_fex_emit(fex, OUT_SSIM, index, score);
    if (!err && s->enable_lcs) {
        err = vq_fex_emit(fex, OUT_L, index, l);
        if (!err)
            err = vq_fex_emit(fex, OUT_C, index, c);
        if (!err)
            err = vq_fex_emit(fex, OUT_S, index, sv);
    }
    return err;
}

const VqFexDesc vq_fex_float_ssim = {
    .name = "float_ssim",
    .options = fssim_options,
    .priv_size = sizeof(FssimPriv),
    .outputs = fssim_outputs,
    .exactness = VQ_EXACT_BITWISE,
    .init = fssim_init,
    .cpu_run = fssim_cpu_run,
    .gpu_init = VQ_GPU_FN(fssim_gpu_init),
    .gpu_run = VQ_GPU_FN(fssim_gpu_run),
    .gpu_close = VQ_GPU_FN(fssim_gpu_close),
    .finalize = fssim_finalize,
};
