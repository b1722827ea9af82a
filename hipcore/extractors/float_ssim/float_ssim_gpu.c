/* float_ssim's GPU stage (host side). */
#include "float_ssim_priv.h"

typedef struct FssimGpu {
    float *img[2];   /* decimated images, factor > 1 */
    size_t pitch;    /* bytes */
    double *part;    /* per row and segment sums */
} FssimGpu;

void float_ssim_gpu_close(VqFex *fex, VqGpu *gpu)
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

int float_ssim_gpu_init(VqFex *fex, VqGpu *gpu)
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
        float_ssim_gpu_close(fex, gpu);
    return err;
}

int float_ssim_gpu_run(VqFex *fex, VqGpu *gpu, const VqDevFrame *ref,
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
            vq_float_ssim_box_launch(st, &r, &d, ref->bpc, s->factor, g->img[0],
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
            fex, gpu, vq_float_ssim_map_launch(st, &r, &d, src_bpc, s->k, g->part));
    if (!err)
        err = vq_fex_launch_check(
            fex, gpu, vq_float_ssim_rows_launch(st, g->part, n_segs(s->dw),
                                           s->dh - (VQ_FSSIM_WIN - 1),
                                           acc_dev));
    return err;
}
