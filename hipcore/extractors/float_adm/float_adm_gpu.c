/*
 * float_adm, GPU path (kernels/float_adm/float_adm.hip): per scale the dwt
 * of ref and dis into that scale's eight band images, then decouple, csf
 * and the terms into that scale's nine term images; then one launch of the
 * row sums, which land in the record.
 */
#include <stdlib.h>

#include "float_adm_priv.h"

typedef struct FAdmGpu {
    float *band[VQ_FADM_SCALES][8]; /* ref a, h, v, d, dis a, h, v, d */
    size_t pitch[VQ_FADM_SCALES];
    float *work[12];                /* csf images, scale 0's size */
    uint16_t *rcp_tab;
    float *terms;                   /* the term images, one allocation */
    VqFloatAdmTermImages ti;
} FAdmGpu;

void vq_float_adm_gpu_close(VqFex *fex, VqGpu *gpu)
{
    FAdmGpu *g = fex->gpu_priv;
    if (!g)
        return;
    for (unsigned sc = 0; sc < VQ_FADM_SCALES; sc++)
        for (unsigned k = 0; k < 8; k++)
            vq_gpu_free(gpu, g->band[sc][k]);
    for (unsigned k = 0; k < 12; k++)
        vq_gpu_free(gpu, g->work[k]);
    vq_gpu_free(gpu, g->rcp_tab);
    vq_gpu_free(gpu, g->terms);
    free(g);
    fex->gpu_priv = NULL;
}

int vq_float_adm_gpu_init(VqFex *fex, VqGpu *gpu)
{
    const FAdmPriv *s = fex->priv;
    const VqFloatAdmDims *d = &s->dims;
    FAdmGpu *g = calloc(1, sizeof(*g));
    if (!g)
        return vq_fail(fex->err, VQ_ENOMEM, "float_adm: out of memory");
    fex->gpu_priv = g;
    int err = 0;
    for (unsigned sc = 0; !err && sc < VQ_FADM_SCALES; sc++)
        for (unsigned k = 0; !err && k < 8; k++)
            err = vq_gpu_malloc_pitch(gpu, (void **)&g->band[sc][k],
                                      &g->pitch[sc], d->w[sc] * sizeof(float),
                                      d->h[sc], "float_adm: bands");
    /* the csf images take each scale's band pitch: sized for scale 0's,
     * the largest */
    for (unsigned k = 0; !err && k < 12; k++)
        err = vq_gpu_malloc(gpu, (void **)&g->work[k], g->pitch[0] * d->h[0],
                            "float_adm: csf images");
    /* nine images of each scale's inner rectangle, rows of whole 128-byte
     * lines */
    size_t n_terms = 0;
    for (unsigned sc = 0; sc < VQ_FADM_SCALES; sc++) {
        const VqFloatAdmRect *in = &d->inner[sc];
        size_t w = in->right > in->left ? (size_t)(in->right - in->left) : 0;
        g->ti.pitch[sc] = (w + 31) & ~(size_t)31;
        n_terms += VQ_FADM_NQ * g->ti.pitch[sc] * d->rows[sc];
    }
    if (!err)
        err = vq_gpu_malloc(gpu, (void **)&g->terms,
                            (n_terms ? n_terms : 1) * sizeof(float),
                            "float_adm: term images");
    if (!err) {
        float *f = g->terms;
        for (unsigned sc = 0; sc < VQ_FADM_SCALES; sc++)
            for (unsigned q = 0; q < VQ_FADM_NQ; q++) {
                g->ti.img[sc][q] = f;
                f += g->ti.pitch[sc] * d->rows[sc];
            }
    }
    size_t tab = VQ_FADM_RCP_SIZE * sizeof(uint16_t);
    VqStream st = vq_gpu_compute_stream(gpu);
    if (!err)
        err = vq_gpu_malloc(gpu, (void **)&g->rcp_tab, tab,
                            "float_adm: reciprocal table");
    if (!err)
        err = vq_gpu_upload2d(gpu, st, g->rcp_tab, tab, vq_float_adm_rcp_tab, tab,
                              tab, 1);
    if (!err)
        err = vq_gpu_sync(gpu, st);
    if (err)
        vq_float_adm_gpu_close(fex, gpu);
    return err;
}

int vq_float_adm_gpu_run(VqFex *fex, VqGpu *gpu, const VqDevFrame *ref,
                    const VqDevFrame *dis, unsigned index, void *acc_dev)
{
    (void)index;
    const FAdmPriv *s = fex->priv;
    const FAdmGpu *g = fex->gpu_priv;
    const VqFloatAdmDims *d = &s->dims;
    VqStream st = vq_gpu_compute_stream(gpu);
    float *rows = acc_dev;
    VqDevPlane r = ref->plane[0], t = dis->plane[0];
    unsigned bpc = ref->bpc;
    int rc = 0;
    for (unsigned sc = 0; !rc && sc < VQ_FADM_SCALES; sc++) {
        /* the bands and the csf images of a scale share one pitch */
        size_t pitch = g->pitch[sc];
        float *work[12];
        for (unsigned k = 0; k < 12; k++)
            work[k] = g->work[k];
        rc = vq_float_adm_dwt_launch(st, &r, &t, bpc, d, sc, g->band[sc], pitch);
        if (!rc && !(sc == 0 && s->skip_scale0))
            rc = vq_float_adm_terms_launch(st, g->band[sc], pitch,
                                      d, sc, g->rcp_tab, work,
                                      g->ti.img[sc], g->ti.pitch[sc]);
        VqDevPlane a_ref = { g->band[sc][0], pitch, d->w[sc], d->h[sc] };
        VqDevPlane a_dis = { g->band[sc][4], pitch, d->w[sc], d->h[sc] };
        r = a_ref;
        t = a_dis;
        bpc = 0;
    }
    if (!rc)
        rc = vq_float_adm_row_sums_launch(st, d, s->skip_scale0 ? 1 : 0, &g->ti,
                                     rows);
    return vq_fex_launch_check(fex, gpu, rc);
}
