/*
 * psnr_hvs, GPU path: per plane, device buffers for the block terms, their
 * estimates and the summaries of the exact float sum (kernels/psnr_hvs/),
 * allocated once for the frame size; per frame one launcher call that
 * fills the record's three float sums on the compute stream.
 */
#include <stdlib.h>

#include "psnr_hvs_priv.h"

typedef struct HvsGpu {
    VqHvsArgs args;
    VqHvsTables *tab; /* device copy of the three planes' tables */
} HvsGpu;

void vq_psnr_hvs_gpu_close(VqFex *fex, VqGpu *gpu)
{
    HvsGpu *g = fex->gpu_priv;
    if (!g)
        return;
    for (int k = 0; k < 3; k++) {
        VqHvsPlaneDev *p = &g->args.p[k];
        vq_gpu_free(gpu, p->terms);
        vq_gpu_free(gpu, p->chunk_sum);
        vq_gpu_free(gpu, p->chunk_st);
        vq_gpu_free(gpu, p->chunk_base);
        vq_gpu_free(gpu, p->group_st);
        vq_gpu_free(gpu, p->group_base);
    }
    vq_gpu_free(gpu, g->tab);
    free(g);
    fex->gpu_priv = NULL;
}

int vq_psnr_hvs_gpu_init(VqFex *fex, VqGpu *gpu)
{
    const PsnrHvsPriv *s = fex->priv;
    HvsGpu *g = calloc(1, sizeof(*g));
    if (!g)
        return vq_fail(fex->err, VQ_ENOMEM, "out of memory");
    fex->gpu_priv = g;
    VqStream st = vq_gpu_compute_stream(gpu);
    int err = vq_gpu_malloc(gpu, (void **)&g->tab, sizeof(s->tab),
                            "psnr_hvs tables");
    if (!err)
        err = vq_gpu_upload2d(gpu, st, g->tab, sizeof(s->tab), s->tab,
                              sizeof(s->tab), sizeof(s->tab), 1);
    if (!err)
        err = vq_gpu_sync(gpu, st); /* s->tab is pageable memory */
    for (int k = 0; k < 3 && !err; k++) {
        VqHvsPlaneDev *p = &g->args.p[k];
        p->bx = s->bx[k];
        p->by = s->by[k];
        p->tab = g->tab + k;
        size_t n = (size_t)p->bx * p->by;
        size_t ng = (n + VQ_HVS_GROUP - 1) / VQ_HVS_GROUP;
        err = vq_gpu_malloc(gpu, (void **)&p->terms,
                            n * VQ_HVS_CHUNK * sizeof(float), "psnr_hvs terms");
        if (!err)
            err = vq_gpu_malloc(gpu, (void **)&p->chunk_sum, n * sizeof(double),
                                "psnr_hvs estimates");
        if (!err)
            err = vq_gpu_malloc(gpu, (void **)&p->chunk_st,
                                n * VQ_HVS_CAND * sizeof(VqHvsStep),
                                "psnr_hvs summaries");
        if (!err)
            err = vq_gpu_malloc(gpu, (void **)&p->chunk_base, n * sizeof(int),
                                "psnr_hvs summaries");
        if (!err)
            err = vq_gpu_malloc(gpu, (void **)&p->group_st,
                                ng * VQ_HVS_CAND * sizeof(VqHvsStep),
                                "psnr_hvs summaries");
        if (!err)
            err = vq_gpu_malloc(gpu, (void **)&p->group_base, ng * sizeof(int),
                                "psnr_hvs summaries");
    }
    if (err)
        vq_psnr_hvs_gpu_close(fex, gpu);
    return err;
}

int vq_psnr_hvs_gpu_run(VqFex *fex, VqGpu *gpu, const VqDevFrame *ref,
                        const VqDevFrame *dis, unsigned index, void *acc_dev)
{
    (void)index;
    HvsGpu *g = fex->gpu_priv;
    for (int k = 0; k < 3; k++) {
        g->args.ref[k] = ref->plane[k];
        g->args.dis[k] = dis->plane[k];
    }
    VqPsnrHvsAcc *a = acc_dev;
    return vq_fex_launch_check(
        fex, gpu, vq_psnr_hvs_launch(vq_gpu_compute_stream(gpu), &g->args,
                                     ref->bpc, a->sum));
}
