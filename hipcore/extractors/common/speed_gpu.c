/*
 * SpEED's GPU driver: device scratch for n images, the prescale tables, and
 * the launches of one frame on the compute stream (kernels/speed/speed.hip).
 * Frames run in stream order, so one scratch serves every frame.
 */
#include <string.h>

#include "speed_engine.h"

#define ALIGN64(n) (((n) + 63) & ~(size_t)63)

int vq_speed_dev_init(VqSpeedDev *d, VqGpu *gpu, const VqSpeed *sp,
                      unsigned n_images, const char *who)
{
    memset(d, 0, sizeof(*d));
    const size_t img = ALIGN64(sp->img_floats);
    const size_t per_image = 2 * img + 2 * VQ_SPEED_VEC_STRIDE +
                             3 * VQ_SPEED_MAT_STRIDE;
    int err = vq_gpu_malloc(gpu, &d->buf, sizeof(float) * per_image * n_images,
                            who);
    if (err)
        return err;
    float *f = d->buf;
    d->scr.img_stride = img;
    d->scr.x0 = f;
    f += img * n_images;
    d->scr.t = f;
    f += img * n_images;
    d->scr.means = f;
    f += (size_t)VQ_SPEED_VEC_STRIDE * n_images;
    d->scr.eig = f;
    f += (size_t)VQ_SPEED_VEC_STRIDE * n_images;
    d->scr.cov = f;
    f += (size_t)VQ_SPEED_MAT_STRIDE * n_images;
    d->scr.p = f;
    f += (size_t)VQ_SPEED_MAT_STRIDE * n_images;
    d->scr.r = f;
    if (sp->g.method == VQ_SPEED_SCALE_NONE)
        return 0;
    const size_t rb = sizeof(VqSpeedAxis) * (size_t)sp->g.sh;
    const size_t cb = sizeof(VqSpeedAxis) * (size_t)sp->g.sw;
    VqStream s = vq_gpu_compute_stream(gpu);
    err = vq_gpu_malloc(gpu, (void **)&d->rows, rb, who);
    if (!err)
        err = vq_gpu_malloc(gpu, (void **)&d->cols, cb, who);
    if (!err)
        err = vq_gpu_upload2d(gpu, s, d->rows, rb, sp->rows, rb, rb, 1);
    if (!err)
        err = vq_gpu_upload2d(gpu, s, d->cols, cb, sp->cols, cb, cb, 1);
    /* the tables are pageable host memory: finish before returning */
    if (!err)
        err = vq_gpu_sync(gpu, s);
    return err;
}

void vq_speed_dev_free(VqSpeedDev *d, VqGpu *gpu)
{
    vq_gpu_free(gpu, d->buf);
    vq_gpu_free(gpu, d->rows);
    vq_gpu_free(gpu, d->cols);
    memset(d, 0, sizeof(*d));
}

int vq_speed_dev_run(const VqSpeedDev *d, VqGpu *gpu, const VqSpeed *sp,
                     const VqSpeedDevImages *img, unsigned n_pairs,
                     const unsigned *ref_img, const unsigned *dis_img,
                     void *rec_dev)
{
    VqStream s = vq_gpu_compute_stream(gpu);
    int rc = vq_speed_estimate_launch(s, &sp->g, img, d->rows, d->cols, &d->scr);
    if (!rc)
        rc = vq_speed_terms_launch(s, &sp->g, &d->scr, n_pairs, ref_img,
                                   dis_img, sp->base_entropy,
                                   sp->weight_var_mode, rec_dev);
    return rc;
}
