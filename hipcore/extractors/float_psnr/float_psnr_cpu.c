/* float_psnr's CPU stage. */
#include "float_psnr_priv.h"

int float_psnr_cpu_run(VqFex *fex, const VqFrame *ref,
                       const VqFrame *dis, unsigned index, void *acc,
                       void *scratch)
{
    (void)index;
    (void)scratch;
    VqFloatPsnrAcc *a = acc;
    unsigned bps = fex->fmt.bytes_per_sample;
    const VqPlane *r = &ref->plane[0], *d = &dis->plane[0];
    if (fex->fmt.bpc <= FPSNR_EXACT_BPC) {
        const FloatPsnrPriv *s = fex->priv;
        vq_psnr_sse_fn sse = bps == 1 ? s->dsp.sse_u8 : s->dsp.sse_u16;
        a->sum = sse(r->data, r->stride, d->data, d->stride, r->w, r->h);
        return 0;
    }
    uint64_t sum = 0;
    for (unsigned y = 0; y < r->h; y++)
        for (unsigned x = 0; x < r->w; x++)
            sum += vq_float_psnr_term(vq_sample(r, bps, x, y),
                                      vq_sample(d, bps, x, y));
    a->sum = sum;
    return 0;
}
