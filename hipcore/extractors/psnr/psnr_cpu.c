/* psnr's CPU stage. */
#include "psnr_priv.h"

int psnr_cpu_run(VqFex *fex, const VqFrame *ref, const VqFrame *dis,
                 unsigned index, void *acc, void *scratch)
{
    (void)index;
    (void)scratch;
    const PsnrPriv *s = fex->priv;
    VqPsnrAcc *a = acc;
    vq_psnr_sse_fn sse = fex->fmt.bytes_per_sample == 1 ? s->dsp.sse_u8
                                                        : s->dsp.sse_u16;
    for (unsigned p = 0; p < s->n_planes; p++) {
        const VqPlane *r = &ref->plane[p], *d = &dis->plane[p];
        a->sse[p] = sse(r->data, r->stride, d->data, d->stride, r->w, r->h);
    }
    return 0;
}
