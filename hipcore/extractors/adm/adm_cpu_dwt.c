/*
 * Integer ADM, CPU path: the two DWT passes of one output row, for either
 * picture or both (see adm_cpu.c), through the DSP table's row passes
 * (adm_dsp.h).
 */
#include "adm_priv.h"

static void pad_row(int32_t *t, int n)
{
    t[-1] = t[1];
    t[n] = t[n - 1];
    t[n + 1] = t[n - 2];
}

static void pad_row16(int16_t *t, int n)
{
    t[-1] = t[1];
    t[n] = t[n - 1];
    t[n + 1] = t[n - 2];
}

static const void *in_row(const AdmInput *in, int img, int y)
{
    return in->data[img] + (ptrdiff_t)y * in->stride[img];
}

void vq_adm_dwt_row(const AdmPriv *s, const VqAdmScale *sc, const AdmInput *in,
                    int i, int with_hvd, int c0, int c1, int32_t *a_out[2],
                    AdmRows *r, unsigned imgs)
{
    int y[4];
    for (int t = 0; t < 4; t++)
        y[t] = vq_adm_mirror(2 * i - 1 + t, sc->in_h);
    int n = sc->in_w;
    const VqAdmDsp *d = &s->dsp;
    for (int img = 0; img < 2; img++) {
        if (!(imgs >> img & 1))
            continue;
        int32_t *lo = r->lo[img], *hi = r->hi[img];
        int32_t **band = r->band[img];
        if (sc->scale == 0) {
            /* int16 values: the same buffers, reinterpreted */
            int16_t *lo16 = (int16_t *)(void *)lo, *hi16 = (int16_t *)(void *)hi;
            if (in->bytes == 1)
                d->dwt_vert0_u8(in_row(in, img, y[0]), in_row(in, img, y[1]),
                                in_row(in, img, y[2]), in_row(in, img, y[3]),
                                n, s->p.bpc, with_hvd, lo16, hi16);
            else
                d->dwt_vert0_u16(in_row(in, img, y[0]), in_row(in, img, y[1]),
                                 in_row(in, img, y[2]), in_row(in, img, y[3]),
                                 n, s->p.bpc, with_hvd, lo16, hi16);
            pad_row16(lo16, n);
            if (with_hvd)
                pad_row16(hi16, n);
            if (a_out[img])
                d->dwt_horiz0_lo(lo16, 0, sc->w, a_out[img]);
            if (with_hvd) {
                d->dwt_horiz0_hi(lo16, c0, c1, band[VQ_ADM_V]);
                d->dwt_horiz0_lo(hi16, c0, c1, band[VQ_ADM_H]);
                d->dwt_horiz0_hi(hi16, c0, c1, band[VQ_ADM_D]);
            }
            continue;
        }
        d->dwt_vert(in_row(in, img, y[0]), in_row(in, img, y[1]),
                    in_row(in, img, y[2]), in_row(in, img, y[3]), n,
                    vq_adm_dwt_vshift(sc->scale), with_hvd, lo, hi);
        pad_row(lo, n);
        if (with_hvd)
            pad_row(hi, n);
        int sh = vq_adm_dwt_hshift(sc->scale);
        if (a_out[img])
            d->dwt_horiz_lo(lo, 0, sc->w, sh, a_out[img]);
        if (with_hvd) {
            d->dwt_horiz_hi(lo, c0, c1, sh, band[VQ_ADM_V]);
            d->dwt_horiz_lo(hi, c0, c1, sh, band[VQ_ADM_H]);
            d->dwt_horiz_hi(hi, c0, c1, sh, band[VQ_ADM_D]);
        }
    }
}
