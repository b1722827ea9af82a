/* ciede's CPU stage. */
#include "ciede_priv.h"

int ciede_cpu_run(VqFex *fex, const VqFrame *ref, const VqFrame *dis,
                  unsigned index, void *acc, void *scratch)
{
    (void)index;
    const CiedePriv *s = fex->priv;
    const VqFormat *f = &fex->fmt;
    for (unsigned y = 0; y < f->h[0]; y++) {
        unsigned cy = y >> f->ss_y < f->h[1] ? y >> f->ss_y : f->h[1] - 1;
        const uint8_t *row[6];
        for (unsigned k = 0; k < 6; k++) {
            const VqPlane *p = &(k < 3 ? ref : dis)->plane[k % 3];
            row[k] = p->data + (ptrdiff_t)(k % 3 ? cy : y) * p->stride;
        }
        s->dsp.row(row, f->bytes_per_sample, f->w[0], f->ss_x, f->w[1], f->bpc,
               scratch, acc);
    }
    return 0;
}
