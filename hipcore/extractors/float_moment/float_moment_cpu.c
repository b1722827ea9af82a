/* float_moment's CPU stage. */
#include "float_moment_priv.h"

int float_moment_cpu_run(VqFex *fex, const VqFrame *ref,
                         const VqFrame *dis, unsigned index, void *acc,
                         void *scratch)
{
    (void)index;
    (void)scratch;
    VqFloatMomentAcc *a = acc;
    const FloatMomentPriv *s = fex->priv;
    vq_float_moment_sums_fn sums = fex->fmt.bytes_per_sample == 1 ? s->dsp.sums_u8
                                                             : s->dsp.sums_u16;
    for (unsigned k = 0; k < 2; k++) {
        const VqPlane *p = &(k ? dis : ref)->plane[0];
        sums(p->data, p->stride, p->w, p->h, &a->sum[k], &a->sq[k]);
    }
    return 0;
}
