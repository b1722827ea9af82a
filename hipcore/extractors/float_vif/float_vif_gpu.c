/*
 * float_vif, GPU path (kernels/float_vif/float_vif.hip): per frame, the
 * resized scale 0 when vif_prescale asks for it, then per scale the down
 * kernel (scales 1..3) and the terms kernel into that scale's term images,
 * then one launch of the row sums, which land in the record.
 */
#include <stdlib.h>

#include "float_vif_priv.h"

typedef struct FVifGpu {
    float *img[2][VQ_FVIF_SCALES]; /* [ref/dis][scale]; scale 0 if resized */
    size_t pitch[VQ_FVIF_SCALES];
    float *tmp;                     /* the luma as floats (vif_prescale) */
    size_t tmp_pitch;
    VqFResizeTap *tab;              /* x then y entries (vif_prescale) */
    float *terms;                   /* the term images, one allocation */
    VqFloatVifTermImages ti;
} FVifGpu;

void vq_float_vif_gpu_close(VqFex *fex, VqGpu *gpu)
{
    FVifGpu *g = fex->gpu_priv;
    if (!g)
        return;
    for (unsigned sc = 0; sc < VQ_FVIF_SCALES; sc++) {
        vq_gpu_free(gpu, g->img[0][sc]);
        vq_gpu_free(gpu, g->img[1][sc]);
    }
    vq_gpu_free(gpu, g->tmp);
    vq_gpu_free(gpu, g->tab);
    vq_gpu_free(gpu, g->terms);
    free(g);
    fex->gpu_priv = NULL;
}

int vq_float_vif_gpu_init(VqFex *fex, VqGpu *gpu)
{
    const FVifPriv *s = fex->priv;
    const VqFloatVifDims *d = &s->dims;
    FVifGpu *g = calloc(1, sizeof(*g));
    if (!g)
        return vq_fail(fex->err, VQ_ENOMEM, "float_vif: out of memory");
    fex->gpu_priv = g;
    int err = 0;
    for (unsigned sc = s->resized ? 0 : 1; !err && sc < VQ_FVIF_SCALES; sc++)
        for (unsigned k = 0; !err && k < 2; k++)
            err = vq_gpu_malloc_pitch(gpu, (void **)&g->img[k][sc],
                                      &g->pitch[sc], d->w[sc] * sizeof(float),
                                      d->h[sc], "float_vif: scale images");
    /* num and den images per scale, rows of whole 128-byte lines */
    size_t n_terms = 0;
    for (unsigned sc = 0; sc < VQ_FVIF_SCALES; sc++) {
        g->ti.pitch[sc] = (d->w[sc] + 31) & ~(size_t)31;
        n_terms += 2 * g->ti.pitch[sc] * d->h[sc];
    }
    if (!err)
        err = vq_gpu_malloc(gpu, (void **)&g->terms, n_terms * sizeof(float),
                            "float_vif: term images");
    if (!err) {
        float *f = g->terms;
        for (unsigned sc = 0; sc < VQ_FVIF_SCALES; sc++) {
            g->ti.num[sc] = f;
            f += g->ti.pitch[sc] * d->h[sc];
            g->ti.den[sc] = f;
            f += g->ti.pitch[sc] * d->h[sc];
        }
    }
    VqStream st = vq_gpu_compute_stream(gpu);
    if (!err && s->resized) {
        size_t n = (d->w[0] + d->h[0]) * sizeof(VqFResizeTap);
        err = vq_gpu_malloc_pitch(gpu, (void **)&g->tmp, &g->tmp_pitch,
                                  s->src_w * sizeof(float), s->src_h,
                                  "float_vif: prescale input");
        if (!err)
            err = vq_gpu_malloc(gpu, (void **)&g->tab, n,
                                "float_vif: prescale tables");
        if (!err)
            err = vq_gpu_upload2d(gpu, st, g->tab, n, s->tab_x, n, n, 1);
        if (!err)
            err = vq_gpu_sync(gpu, st);
    }
    if (err)
        vq_float_vif_gpu_close(fex, gpu);
    return err;
}

static VqDevPlane image(const FVifGpu *g, const VqFloatVifDims *d, unsigned k,
                        unsigned sc)
{
    VqDevPlane p = { g->img[k][sc], g->pitch[sc], d->w[sc], d->h[sc] };
    return p;
}

int vq_float_vif_gpu_run(VqFex *fex, VqGpu *gpu, const VqDevFrame *ref,
                    const VqDevFrame *dis, unsigned index, void *acc_dev)
{
    (void)index;
    const FVifPriv *s = fex->priv;
    const FVifGpu *g = fex->gpu_priv;
    const VqFloatVifDims *d = &s->dims;
    VqStream st = vq_gpu_compute_stream(gpu);
    float *rows = acc_dev;
    int rc = 0;
    if (s->resized) {
        const VqDevPlane *src[2] = { &ref->plane[0], &dis->plane[0] };
        for (unsigned k = 0; !rc && k < 2; k++)
            rc = vq_float_vif_prescale_launch(
                st, src[k], ref->bpc, g->tmp, g->tmp_pitch,
                s->prescale_method, g->tab, g->tab + d->w[0], g->img[k][0],
                g->pitch[0], d->w[0], d->h[0]);
    }
    /* scale 0: the planes themselves, or their resized floats (bpc 0) */
    VqDevPlane r = ref->plane[0], t = dis->plane[0];
    unsigned bpc = ref->bpc;
    if (s->resized) {
        r = image(g, d, 0, 0);
        t = image(g, d, 1, 0);
        bpc = 0;
    }
    for (unsigned sc = 0; !rc && sc < VQ_FVIF_SCALES; sc++) {
        if (sc > 0) {
            rc = vq_float_vif_down_launch(st, &r, &t, bpc, d, sc, g->img[0][sc],
                                     g->img[1][sc], g->pitch[sc]);
            r = image(g, d, 0, sc);
            t = image(g, d, 1, sc);
            bpc = 0;
        }
        if (!rc && (sc > 0 || !s->skip_scale0))
            rc = vq_float_vif_terms_launch(st, &r, &t, bpc, d, sc, &s->c,
                                      g->ti.num[sc], g->ti.den[sc],
                                      g->ti.pitch[sc]);
    }
    if (!rc)
        rc = vq_float_vif_row_sums_launch(st, d, s->skip_scale0 ? 1 : 0, &g->ti,
                                     rows);
    return vq_fex_launch_check(fex, gpu, rc);
}
