/* float_ssim's CPU stage. */
#include "float_ssim_priv.h"

static VqFloatSsimSrc plane_src(const VqPlane *p, unsigned bpc)
{
    VqFloatSsimSrc src = { p->data, p->stride, p->w, p->h, bpc };
    return src;
}

int float_ssim_cpu_run(VqFex *fex, const VqFrame *ref, const VqFrame *dis,
                  unsigned index, void *acc, void *scratch)
{
    (void)index;
    const FssimPriv *s = fex->priv;
    VqFloatSsimSrc r = plane_src(&ref->plane[0], fex->fmt.bpc);
    VqFloatSsimSrc d = plane_src(&dis->plane[0], fex->fmt.bpc);
    uint8_t *work = scratch;
    if (s->factor > 1) {
        float *ir = scratch, *id = (float *)(void *)(work + s->img_bytes);
        work += 2 * s->img_bytes;
        vq_float_ssim_cpu_box(&r, s->factor, ir, s->dw, s->dh, work);
        vq_float_ssim_cpu_box(&d, s->factor, id, s->dw, s->dh, work);
        VqFloatSsimSrc fr = { (const uint8_t *)ir, (ptrdiff_t)(s->dw * sizeof(float)),
                          s->dw, s->dh, 0 };
        VqFloatSsimSrc fd = fr;
        fd.data = (const uint8_t *)id;
        r = fr;
        d = fd;
    }
    vq_float_ssim_cpu_map(&s->dsp, &r, &d, s->k, work, acc);
    return 0;
}
