/*
 * Integer ADM, CPU path: the two DWT passes of one output row, for both
 * pictures (see adm_cpu.c).
 */
#include "adm_cpu.h"

static void pad_row(int32_t *t, int n)
{
    t[-1] = t[1];
    t[n] = t[n - 1];
    t[n + 1] = t[n - 2];
}

#define VERT0(name, T)                                                          \
    static void name(const T *restrict r0, const T *restrict r1,                \
                     const T *restrict r2, const T *restrict r3, int n,         \
                     int bpc, int with_hi, int32_t *restrict lo,                \
                     int32_t *restrict hi)                                      \
    {                                                                           \
        if (with_hi) {                                                          \
            for (int x = 0; x < n; x++) {                                       \
                lo[x] = vq_adm_dwt0_vlo(r0[x], r1[x], r2[x], r3[x], bpc);       \
                hi[x] = vq_adm_dwt0_vhi(r0[x], r1[x], r2[x], r3[x], bpc);       \
            }                                                                   \
        } else {                                                                \
            for (int x = 0; x < n; x++)                                         \
                lo[x] = vq_adm_dwt0_vlo(r0[x], r1[x], r2[x], r3[x], bpc);       \
        }                                                                       \
    }
VERT0(vert0_u8, uint8_t)
VERT0(vert0_u16, uint16_t)

static void vert123(const int32_t *restrict r0, const int32_t *restrict r1,
                    const int32_t *restrict r2, const int32_t *restrict r3,
                    int n, int shift, int with_hi, int32_t *restrict lo,
                    int32_t *restrict hi)
{
    for (int x = 0; x < n; x++)
        lo[x] = vq_adm_dwt_lo(r0[x], r1[x], r2[x], r3[x], shift);
    if (with_hi)
        for (int x = 0; x < n; x++)
            hi[x] = vq_adm_dwt_hi(r0[x], r1[x], r2[x], r3[x], shift);
}

static void horiz0_lo(const int32_t *restrict t, int j0, int j1,
                      int32_t *restrict out)
{
    for (int j = j0; j < j1; j++)
        out[j] = vq_adm_dwt0_hlo(t[2 * j - 1], t[2 * j], t[2 * j + 1],
                                 t[2 * j + 2]);
}

static void horiz0_hi(const int32_t *restrict t, int j0, int j1,
                      int32_t *restrict out)
{
    for (int j = j0; j < j1; j++)
        out[j] = vq_adm_dwt0_hhi(t[2 * j - 1], t[2 * j], t[2 * j + 1],
                                 t[2 * j + 2]);
}

static void horiz123_lo(const int32_t *restrict t, int j0, int j1, int shift,
                        int32_t *restrict out)
{
    for (int j = j0; j < j1; j++)
        out[j] = vq_adm_dwt_lo(t[2 * j - 1], t[2 * j], t[2 * j + 1],
                               t[2 * j + 2], shift);
}

static void horiz123_hi(const int32_t *restrict t, int j0, int j1, int shift,
                        int32_t *restrict out)
{
    for (int j = j0; j < j1; j++)
        out[j] = vq_adm_dwt_hi(t[2 * j - 1], t[2 * j], t[2 * j + 1],
                               t[2 * j + 2], shift);
}


static const void *in_row(const AdmInput *in, int img, int y)
{
    return in->data[img] + (ptrdiff_t)y * in->stride[img];
}

void vq_adm_dwt_row(const AdmPriv *s, const VqAdmScale *sc, const AdmInput *in,
                    int i, int with_hvd, int c0, int c1, int32_t *a_out[2],
                    AdmRows *r)
{
    int y[4];
    for (int t = 0; t < 4; t++)
        y[t] = vq_adm_mirror(2 * i - 1 + t, sc->in_h);
    int n = sc->in_w;
    for (int img = 0; img < 2; img++) {
        int32_t *lo = r->lo[img], *hi = r->hi[img];
        if (in->bytes == 1)
            vert0_u8(in_row(in, img, y[0]), in_row(in, img, y[1]),
                     in_row(in, img, y[2]), in_row(in, img, y[3]), n,
                     s->p.bpc, with_hvd, lo, hi);
        else if (in->bytes == 2)
            vert0_u16(in_row(in, img, y[0]), in_row(in, img, y[1]),
                      in_row(in, img, y[2]), in_row(in, img, y[3]), n,
                      s->p.bpc, with_hvd, lo, hi);
        else
            vert123(in_row(in, img, y[0]), in_row(in, img, y[1]),
                    in_row(in, img, y[2]), in_row(in, img, y[3]), n,
                    vq_adm_dwt_vshift(sc->scale), with_hvd, lo, hi);
        pad_row(lo, n);
        if (with_hvd)
            pad_row(hi, n);
        int32_t **band = r->band[img];
        if (sc->scale == 0) {
            if (a_out[img])
                horiz0_lo(lo, 0, sc->w, a_out[img]);
            if (with_hvd) {
                horiz0_hi(lo, c0, c1, band[VQ_ADM_V]);
                horiz0_lo(hi, c0, c1, band[VQ_ADM_H]);
                horiz0_hi(hi, c0, c1, band[VQ_ADM_D]);
            }
        } else {
            int sh = vq_adm_dwt_hshift(sc->scale);
            if (a_out[img])
                horiz123_lo(lo, 0, sc->w, sh, a_out[img]);
            if (with_hvd) {
                horiz123_hi(lo, c0, c1, sh, band[VQ_ADM_V]);
                horiz123_lo(hi, c0, c1, sh, band[VQ_ADM_H]);
                horiz123_hi(hi, c0, c1, sh, band[VQ_ADM_D]);
            }
        }
    }
}

