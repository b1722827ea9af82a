/* psnr_hvs's CPU stage. */
#include "psnr_hvs_priv.h"

int psnr_hvs_cpu_run(VqFex *fex, const VqFrame *ref, const VqFrame *dis,
                     unsigned index, void *acc, void *scratch)
{
    (void)index;
    (void)scratch;
    const PsnrHvsPriv *s = fex->priv;
    VqPsnrHvsAcc *a = acc;
    for (unsigned p = 0; p < 3; p++)
        a->sum[p] = s->dsp.plane(ref->plane[p].data, ref->plane[p].stride,
                                 dis->plane[p].data, dis->plane[p].stride,
                                 fex->fmt.bytes_per_sample, s->bx[p], s->by[p],
                                 &s->tab[p]);
    return 0;
}
