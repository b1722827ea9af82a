/* float_ms_ssim's GPU stage (host side). */
#include "float_ms_ssim_priv.h"

typedef struct FmsGpu {
    float *img[VQ_FMS_SCALES][2]; /* scales 1..4 */
    size_t pitch[VQ_FMS_SCALES];  /* bytes */
    double *part;                 /* per row and segment sums of one scale */
} FmsGpu;

void float_ms_ssim_gpu_close(VqFex *fex, VqGpu *gpu)
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

int float_ms_ssim_gpu_init(VqFex *fex, VqGpu *gpu)
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
        float_ms_ssim_gpu_close(fex, gpu);
    return err;
}

int float_ms_ssim_gpu_run(VqFex *fex, VqGpu *gpu, const VqDevFrame *ref,
                const VqDevFrame *dis, unsigned index, void *acc_dev)
{
    (void)index;
    const FmsPriv *s = fex->priv;
    const FmsGpu *g = fex->gpu_priv;
    VqStream st = vq_gpu_compute_stream(gpu);
    VqFloatSsimRow *rows = acc_dev;
    VqDevPlane r = ref->plane[0], d = dis->plane[0];
    unsigned src_bpc = ref->bpc;
    int err = 0;
    for (unsigned sc = 0; !err && sc < VQ_FMS_SCALES; sc++) {
        if (sc) {
            err = vq_fex_launch_check(
                fex, gpu,
                vq_float_ms_ssim_lpf_launch(st, &r, &d, src_bpc, g->img[sc][0],
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
                vq_float_ssim_map_launch(st, &r, &d, src_bpc, s->k, g->part));
        if (!err)
            err = vq_fex_launch_check(
                fex, gpu,
                vq_float_ssim_rows_launch(st, g->part, n_segs(s->w[sc]),
                                     s->h[sc] - (VQ_FSSIM_WIN - 1),
                                     rows + s->row_off[sc]));
    }
    return err;
}
