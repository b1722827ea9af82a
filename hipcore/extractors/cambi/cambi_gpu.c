/*
 * CAMBI's GPU path: device buffers and launch tables made once at init;
 * per frame, on the compute stream and without host synchronisation, per
 * image the check, preprocessing, mask and scale launches, then one
 * c-value launch for all scales of all images, the heatmaps and the three
 * pooling levels, which write the record's exact top-k sums.
 */
#include <stdlib.h>
#include <string.h>

#include "../common/gpu_fn.h"
#include "cambi_priv.h"

typedef struct CambiGpuImage {
    int *xmap, *ymap;
    uint16_t *pre, *img[VQ_CAMBI_SCALES];
    uint8_t *mask;
    float *cvals[VQ_CAMBI_SCALES];
    void *img_buf, *cval_buf;
} CambiGpuImage;

typedef struct CambiGpu {
    CambiGpuImage im[2];
    float *recip;
    VqCambiPoolWork *work;
    VqCambiJobs jobs;
    VqCambiPoolJobs pool;
    /* a ladder's split: each image's jobs alone (blocks from 0), its
     * pooling jobs from pool_at[i] in work */
    VqCambiJobs img_jobs[2];
    VqCambiPoolJobs img_pool[2];
    unsigned pool_at[2];
} CambiGpu;

void cambi_gpu_close(VqFex *fex, VqGpu *gpu)
{
    CambiGpu *g = fex->gpu_priv;
    if (!g)
        return;
    for (unsigned i = 0; i < 2; i++) {
        CambiGpuImage *d = &g->im[i];
        vq_gpu_free(gpu, d->xmap);
        vq_gpu_free(gpu, d->ymap);
        vq_gpu_free(gpu, d->pre);
        vq_gpu_free(gpu, d->mask);
        vq_gpu_free(gpu, d->img_buf);
        vq_gpu_free(gpu, d->cval_buf);
    }
    vq_gpu_free(gpu, g->recip);
    vq_gpu_free(gpu, g->work);
    free(g);
    fex->gpu_priv = NULL;
}

static int upload(VqGpu *gpu, void **dev, const void *host, size_t size,
                  const char *what)
{
    int err = vq_gpu_malloc(gpu, dev, size, what);
    if (!err)
        err = vq_gpu_upload2d(gpu, vq_gpu_compute_stream(gpu), *dev, size,
                              host, size, size, 1);
    return err;
}

/* Rows per c-value block: about four windows, so that the rows a segment
 * reads before its first output (2 pad) stay a small share. */
static unsigned segment_rows(unsigned pad)
{
    unsigned r = 4 * (2 * pad + 1);
    return r < 16 ? 16 : r > 256 ? 256 : r;
}

static int image_init(const CambiPriv *s, unsigned i, CambiGpu *g,
                      VqGpu *gpu)
{
    const CambiImage *im = &s->img[i];
    CambiGpuImage *d = &g->im[i];
    size_t pix = (size_t)im->w * im->h;
    int err = 0;
    if (im->xmap) {
        err = upload(gpu, (void **)&d->xmap, im->xmap, im->w * sizeof(int),
                     "cambi map");
        if (!err)
            err = upload(gpu, (void **)&d->ymap, im->ymap, im->h * sizeof(int),
                         "cambi map");
    }
    if (!err)
        err = vq_gpu_malloc(gpu, (void **)&d->pre, pix * 2, "cambi picture");
    if (!err)
        err = vq_gpu_malloc(gpu, (void **)&d->mask, pix, "cambi mask");
    size_t n_scaled = 0;
    for (unsigned k = 0; k < VQ_CAMBI_SCALES; k++)
        n_scaled += (size_t)im->sw[k] * im->sh[k];
    if (!err)
        err = vq_gpu_malloc(gpu, &d->img_buf, n_scaled * 2, "cambi scales");
    if (!err)
        err = vq_gpu_malloc(gpu, &d->cval_buf, n_scaled * sizeof(float),
                            "cambi c-values");
    if (err)
        return err;
    size_t at = 0;
    g->pool_at[i] = g->pool.n;
    for (unsigned k = 0; k < VQ_CAMBI_SCALES; k++) {
        const unsigned w = im->sw[k], h = im->sh[k];
        d->img[k] = (uint16_t *)d->img_buf + at;
        d->cvals[k] = (float *)d->cval_buf + at;
        at += (size_t)w * h;

        VqCambiScaleJob *j = &g->jobs.job[g->jobs.n++];
        j->img = d->img[k];
        j->mask = d->mask;
        j->cvals = d->cvals[k];
        j->img_pitch = w;
        j->mask_pitch = im->w;
        j->mask_shift = im->mask_shift[k];
        j->w = w;
        j->h = h;
        j->pad = im->pad;
        j->seg_rows = segment_rows(im->pad);
        j->blocks_x = (w + 63) / 64;
        j->first_block = g->jobs.n_blocks;
        g->jobs.n_blocks += j->blocks_x * ((h + j->seg_rows - 1) / j->seg_rows);

        VqCambiPoolJob *p = &g->pool.job[g->pool.n++];
        p->cvals = d->cvals[k];
        p->n = (uint64_t)w * h;
        p->k = im->k[k];
        p->slot = i * VQ_CAMBI_SCALES + k;

        VqCambiScaleJob *ij = &g->img_jobs[i].job[g->img_jobs[i].n++];
        *ij = *j;
        ij->first_block = g->img_jobs[i].n_blocks;
        g->img_jobs[i].n_blocks += j->blocks_x *
                                   ((h + j->seg_rows - 1) / j->seg_rows);
        g->img_pool[i].job[g->img_pool[i].n++] = *p;
    }
    return 0;
}

int cambi_gpu_init(VqFex *fex, VqGpu *gpu)
{
    const CambiPriv *s = fex->priv;
    CambiGpu *g = calloc(1, sizeof(*g));
    if (!g)
        return vq_fail(fex->err, VQ_ENOMEM, "cambi: out of memory");
    fex->gpu_priv = g;
    int err = upload(gpu, (void **)&g->recip, s->recip, sizeof(s->recip),
                     "cambi reciprocals");
    for (unsigned i = 0; !err && i < s->n_images; i++)
        err = image_init(s, i, g, gpu);
    if (!err)
        err = vq_gpu_malloc(gpu, (void **)&g->work,
                            g->pool.n * sizeof(VqCambiPoolWork),
                            "cambi pooling");
    if (!err)
        err = vq_gpu_sync(gpu, vq_gpu_compute_stream(gpu));
    if (err)
        cambi_gpu_close(fex, gpu);
    return err;
}

static int image_run(VqFex *fex, VqGpu *gpu, unsigned i, const VqDevFrame *f,
                     VqCambiAcc *acc)
{
    const CambiPriv *s = fex->priv;
    const CambiGpu *g = fex->gpu_priv;
    const CambiImage *im = &s->img[i];
    const CambiGpuImage *d = &g->im[i];
    VqStream st = vq_gpu_compute_stream(gpu);
    int rc = 0;
    if (f->bpc == 10 || f->bpc == 12)
        rc = vq_cambi_check_launch(st, &f->plane[0], f->bpc, &acc->n_bad[i]);
    if (!rc)
        rc = vq_cambi_pre_launch(st, &f->plane[0], f->bpc, d->xmap, d->ymap,
                                 im->w, im->h, s->anti_dither, d->pre, im->w);
    if (!rc)
        rc = vq_cambi_mask_launch(st, d->pre, im->w, im->w, im->h,
                                  im->mask_index, d->mask, im->w);
    const uint16_t *in = d->pre;
    unsigned in_pitch = im->w;
    for (unsigned k = 0; !rc && k < VQ_CAMBI_SCALES; k++) {
        rc = vq_cambi_scale_launch(st, in, in_pitch, k || s->speedup,
                                   d->img[k], im->sw[k], im->sw[k], im->sh[k]);
        in = d->img[k];
        in_pitch = im->sw[k];
    }
    return vq_fex_launch_check(fex, gpu, rc);
}

/* After the images' preprocessing: the c-values of the scale jobs, the
 * distorted image's heatmaps (with_heat), the pooling jobs into acc. */
static int cvalues_pool(VqFex *fex, VqGpu *gpu, const VqCambiJobs *jobs,
                        bool with_heat, const VqCambiPoolJobs *pool,
                        VqCambiPoolWork *work, VqCambiAcc *acc)
{
    const CambiPriv *s = fex->priv;
    const CambiGpu *g = fex->gpu_priv;
    VqStream st = vq_gpu_compute_stream(gpu);
    int rc = vq_cambi_cvalues_launch(st, jobs, &s->luts, g->recip);
    uint16_t *heat = (uint16_t *)(void *)(acc + 1);
    for (unsigned k = 0; !rc && with_heat && s->heatmaps_path[0] &&
                         k < VQ_CAMBI_SCALES; k++) {
        uint64_t n = (uint64_t)s->img[0].sw[k] * s->img[0].sh[k];
        rc = vq_cambi_heatmap_launch(st, g->im[0].cvals[k], n, s->heat_scale,
                                     heat);
        heat += n;
    }
    for (unsigned level = 1; !rc && level <= 3; level++)
        rc = vq_cambi_pool_launch(st, pool, level, work, acc);
    return vq_fex_launch_check(fex, gpu, rc);
}

/* Image i alone (a ladder's split), its pooling into acc's slots of
 * image i. */
static int image_alone(VqFex *fex, VqGpu *gpu, unsigned i,
                       const VqDevFrame *f, VqCambiAcc *acc)
{
    CambiGpu *g = fex->gpu_priv;
    VqCambiPoolWork *work = g->work + g->pool_at[i];
    int err = vq_gpu_memset(gpu, vq_gpu_compute_stream(gpu), work, 0,
                            g->img_pool[i].n * sizeof(VqCambiPoolWork));
    if (!err)
        err = image_run(fex, gpu, i, f, acc);
    return err ? err : cvalues_pool(fex, gpu, &g->img_jobs[i], i == 0,
                                    &g->img_pool[i], work, acc);
}

size_t cambi_gpu_ref_size(const VqFex *fex)
{
    const CambiPriv *s = fex->priv;
    return s->full_ref ? sizeof(VqCambiAcc) : 0;
}

int cambi_gpu_ref_run(VqFex *fex, VqGpu *gpu, const VqDevFrame *ref,
                      unsigned index, void *prod)
{
    (void)index;
    /* the reference's half of a record (its check count is a sum) */
    int err = vq_gpu_memset(gpu, vq_gpu_compute_stream(gpu), prod, 0,
                            sizeof(VqCambiAcc));
    return err ? err : image_alone(fex, gpu, 1, ref, prod);
}

int cambi_gpu_run_split(VqFex *fex, VqGpu *gpu, const VqDevFrame *ref,
                        const VqDevFrame *dis, unsigned index,
                        const void *prod, void *acc_dev)
{
    (void)ref;
    (void)index;
    VqCambiAcc *acc = acc_dev;
    const VqCambiAcc *r = prod;
    VqStream st = vq_gpu_compute_stream(gpu);
    int err = image_alone(fex, gpu, 0, dis, acc);
    if (!err)
        err = vq_gpu_copy2d_device(gpu, st, acc->topk_sum[1],
                                   sizeof(acc->topk_sum[1]), r->topk_sum[1],
                                   sizeof(r->topk_sum[1]),
                                   sizeof(r->topk_sum[1]), 1);
    if (!err)
        err = vq_gpu_copy2d_device(gpu, st, &acc->n_bad[1],
                                   sizeof(acc->n_bad[1]), &r->n_bad[1],
                                   sizeof(r->n_bad[1]), sizeof(r->n_bad[1]),
                                   1);
    return err;
}

int cambi_gpu_run(VqFex *fex, VqGpu *gpu, const VqDevFrame *ref,
                  const VqDevFrame *dis, unsigned index, void *acc_dev)
{
    (void)index;
    const CambiPriv *s = fex->priv;
    CambiGpu *g = fex->gpu_priv;
    VqStream st = vq_gpu_compute_stream(gpu);
    VqCambiAcc *acc = acc_dev;
    int err = vq_gpu_memset(gpu, st, g->work, 0,
                            g->pool.n * sizeof(VqCambiPoolWork));
    if (!err)
        err = image_run(fex, gpu, 0, dis, acc);
    if (!err && s->full_ref)
        err = image_run(fex, gpu, 1, ref, acc);
    return err ? err : cvalues_pool(fex, gpu, &g->jobs, true, &g->pool,
                                    g->work, acc);
}
