/*
 * Integer VIF, CPU path. Row by row: the vertical pass of the five filtered
 * statistics into row buffers, mirrored borders, the horizontal pass into
 * sigma rows, then the per-pixel terms (kernels/vif.h). All loops over
 * columns run on blocks of VIF_CHUNK columns with the tap loop outside, so
 * that the compiler vectorizes them; the sums are exact integers, so the
 * order does not change them.
 *
 * The next scale is computed only where it is kept: the vertical pass on
 * even rows, the horizontal pass on even columns.
 */
#include <string.h>

#include "vif_cpu.h"

static const uint16_t taps_0[] = { VQ_VIF_TAPS_0 };
static const uint16_t taps_1[] = { VQ_VIF_TAPS_1 };
static const uint16_t taps_2[] = { VQ_VIF_TAPS_2 };
static const uint16_t taps_3[] = { VQ_VIF_TAPS_3 };
static const uint16_t *const vif_taps[VQ_VIF_SCALES] = {
    taps_0, taps_1, taps_2, taps_3
};

#define VIF_CHUNK 64
#define VIF_PAD 8 /* the widest half filter: room for mirrored borders */

void vq_vif_dims(VqVifDims *d, unsigned w, unsigned h)
{
    for (unsigned s = 0; s < VQ_VIF_SCALES; s++) {
        d->w[s] = w;
        d->h[s] = h;
        w /= 2;
        h /= 2;
    }
}

/* Working memory of one frame, carved from the scratch buffer. Row buffers
 * with borders point at column 0 and have VIF_PAD elements on each side. */
typedef struct VifWork {
    uint16_t *img[2][VQ_VIF_SCALES]; /* [ref/dis][scale], scales 1..3 */
    uint32_t *v_mu1, *v_mu2, *v_xx, *v_yy, *v_xy;
    int32_t *s1, *s2, *s12;
    uint16_t *d_ref, *d_dis;
} VifWork;

static size_t take(uint8_t *base, size_t *off, size_t bytes, void **ptr)
{
    size_t at = *off;
    *off = (at + bytes + 63) & ~(size_t)63;
    if (base)
        *ptr = base + at;
    return at;
}

/* Lays the work buffers out in scratch (NULL: just the size). */
static size_t vif_layout(const VqVifDims *d, void *scratch, VifWork *wk)
{
    uint8_t *base = scratch;
    size_t off = 0, row = (size_t)d->w[0] + 2 * VIF_PAD;
    void *p = NULL;
    for (unsigned s = 1; s < VQ_VIF_SCALES; s++)
        for (unsigned k = 0; k < 2; k++) {
            take(base, &off, (size_t)d->w[s] * d->h[s] * sizeof(uint16_t), &p);
            if (base)
                wk->img[k][s] = p;
        }
    uint32_t **v[5] = { &wk->v_mu1, &wk->v_mu2, &wk->v_xx, &wk->v_yy,
                        &wk->v_xy };
    for (unsigned k = 0; k < 5; k++) {
        take(base, &off, row * sizeof(uint32_t), &p);
        if (base)
            *v[k] = (uint32_t *)p + VIF_PAD;
    }
    int32_t **sg[3] = { &wk->s1, &wk->s2, &wk->s12 };
    for (unsigned k = 0; k < 3; k++) {
        take(base, &off, (size_t)d->w[0] * sizeof(int32_t), &p);
        if (base)
            *sg[k] = p;
    }
    uint16_t **dr[2] = { &wk->d_ref, &wk->d_dis };
    for (unsigned k = 0; k < 2; k++) {
        take(base, &off, row * sizeof(uint16_t), &p);
        if (base)
            *dr[k] = (uint16_t *)p + VIF_PAD;
    }
    return off;
}

size_t vq_vif_cpu_scratch_size(const VqVifDims *d)
{
    return vif_layout(d, NULL, NULL);
}

/* Mirrored borders of a row buffer: p[-f] = p[f], p[w-1+f] = p[w-1-f]. */
static void pad32(uint32_t *p, unsigned w, unsigned half)
{
    for (unsigned f = 1; f <= half; f++) {
        p[-(int)f] = p[f];
        p[w - 1 + f] = p[w - 1 - f];
    }
}

static void pad16(uint16_t *p, unsigned w, unsigned half)
{
    for (unsigned f = 1; f <= half; f++) {
        p[-(int)f] = p[f];
        p[w - 1 + f] = p[w - 1 - f];
    }
}

static unsigned chunk_len(unsigned w, unsigned j0)
{
    return w - j0 < VIF_CHUNK ? w - j0 : VIF_CHUNK;
}

/* Vertical pass of the statistic on 8-bit rows: every sum fits 32 bits. */
static void vert_stat_u8(const uint8_t *const *rr, const uint8_t *const *rd,
                         const uint16_t *taps, unsigned n, unsigned w,
                         VqVifVRound rnd, VifWork *t)
{
    for (unsigned j0 = 0; j0 < w; j0 += VIF_CHUNK) {
        unsigned m = chunk_len(w, j0);
        uint32_t a1[VIF_CHUNK] = { 0 }, a2[VIF_CHUNK] = { 0 };
        uint32_t axx[VIF_CHUNK] = { 0 }, ayy[VIF_CHUNK] = { 0 };
        uint32_t axy[VIF_CHUNK] = { 0 };
        for (unsigned k = 0; k < n; k++) {
            const uint8_t *r = rr[k] + j0, *d = rd[k] + j0;
            uint32_t c = taps[k];
            for (unsigned j = 0; j < m; j++) {
                uint32_t cr = c * r[j], cd = c * d[j];
                a1[j] += cr;
                a2[j] += cd;
                axx[j] += cr * r[j];
                ayy[j] += cd * d[j];
                axy[j] += cr * d[j];
            }
        }
        for (unsigned j = 0; j < m; j++) {
            t->v_mu1[j0 + j] = (a1[j] + rnd.mu_add) >> rnd.mu_shift;
            t->v_mu2[j0 + j] = (a2[j] + rnd.mu_add) >> rnd.mu_shift;
            t->v_xx[j0 + j] = (uint32_t)((axx[j] + rnd.sq_add) >> rnd.sq_shift);
            t->v_yy[j0 + j] = (uint32_t)((ayy[j] + rnd.sq_add) >> rnd.sq_shift);
            t->v_xy[j0 + j] = (uint32_t)((axy[j] + rnd.sq_add) >> rnd.sq_shift);
        }
    }
}

/* Vertical pass on 16-bit rows: second moments need 64-bit sums. */
static void vert_stat_u16(const uint16_t *const *rr, const uint16_t *const *rd,
                          const uint16_t *taps, unsigned n, unsigned w,
                          VqVifVRound rnd, VifWork *t)
{
    for (unsigned j0 = 0; j0 < w; j0 += VIF_CHUNK) {
        unsigned m = chunk_len(w, j0);
        uint32_t a1[VIF_CHUNK] = { 0 }, a2[VIF_CHUNK] = { 0 };
        uint64_t axx[VIF_CHUNK] = { 0 }, ayy[VIF_CHUNK] = { 0 };
        uint64_t axy[VIF_CHUNK] = { 0 };
        for (unsigned k = 0; k < n; k++) {
            const uint16_t *r = rr[k] + j0, *d = rd[k] + j0;
            uint32_t c = taps[k];
            for (unsigned j = 0; j < m; j++) {
                uint32_t cr = c * r[j], cd = c * d[j];
                a1[j] += cr;
                a2[j] += cd;
                axx[j] += (uint64_t)cr * r[j];
                ayy[j] += (uint64_t)cd * d[j];
                axy[j] += (uint64_t)cr * d[j];
            }
        }
        for (unsigned j = 0; j < m; j++) {
            t->v_mu1[j0 + j] = (a1[j] + rnd.mu_add) >> rnd.mu_shift;
            t->v_mu2[j0 + j] = (a2[j] + rnd.mu_add) >> rnd.mu_shift;
            t->v_xx[j0 + j] = (uint32_t)((axx[j] + rnd.sq_add) >> rnd.sq_shift);
            t->v_yy[j0 + j] = (uint32_t)((ayy[j] + rnd.sq_add) >> rnd.sq_shift);
            t->v_xy[j0 + j] = (uint32_t)((axy[j] + rnd.sq_add) >> rnd.sq_shift);
        }
    }
}

/* Horizontal pass over the padded vertical rows, into sigma rows. */
static void horiz_stat(VifWork *t, const uint16_t *taps, unsigned n,
                       unsigned w)
{
    int half = (int)n / 2;
    for (unsigned j0 = 0; j0 < w; j0 += VIF_CHUNK) {
        unsigned m = chunk_len(w, j0);
        uint32_t a1[VIF_CHUNK] = { 0 }, a2[VIF_CHUNK] = { 0 };
        uint64_t axx[VIF_CHUNK] = { 0 }, ayy[VIF_CHUNK] = { 0 };
        uint64_t axy[VIF_CHUNK] = { 0 };
        for (unsigned k = 0; k < n; k++) {
            ptrdiff_t o = (ptrdiff_t)j0 + (int)k - half;
            const uint32_t *m1 = t->v_mu1 + o, *m2 = t->v_mu2 + o;
            const uint32_t *xx = t->v_xx + o, *yy = t->v_yy + o;
            const uint32_t *xy = t->v_xy + o;
            uint32_t c = taps[k];
            for (unsigned j = 0; j < m; j++) {
                a1[j] += c * m1[j];
                a2[j] += c * m2[j];
                axx[j] += (uint64_t)c * xx[j];
                ayy[j] += (uint64_t)c * yy[j];
                axy[j] += (uint64_t)c * xy[j];
            }
        }
        for (unsigned j = 0; j < m; j++) {
            t->s1[j0 + j] = vq_vif_sigma(axx[j], a1[j], a1[j]);
            t->s2[j0 + j] = vq_vif_sigma(ayy[j], a2[j], a2[j]);
            t->s12[j0 + j] = vq_vif_sigma(axy[j], a1[j], a2[j]);
        }
    }
}

static void stat_row(const VifWork *t, unsigned w, const VqVifParams *p,
                     VqVifScaleAcc *acc)
{
    VqVifScaleAcc a = *acc;
    for (unsigned j = 0; j < w; j++)
        vq_vif_pixel(p->log2_tab, t->s1[j], t->s2[j], t->s12[j],
                     p->gain_limit, &a);
    *acc = a;
}

/* Vertical pass of the next scale's filter (one even row). */
static void vert_down_u8(const uint8_t *const *rr, const uint8_t *const *rd,
                         const uint16_t *taps, unsigned n, unsigned w,
                         VqVifVRound rnd, VifWork *t)
{
    for (unsigned j0 = 0; j0 < w; j0 += VIF_CHUNK) {
        unsigned m = chunk_len(w, j0);
        uint32_t ar[VIF_CHUNK] = { 0 }, ad[VIF_CHUNK] = { 0 };
        for (unsigned k = 0; k < n; k++) {
            const uint8_t *r = rr[k] + j0, *d = rd[k] + j0;
            uint32_t c = taps[k];
            for (unsigned j = 0; j < m; j++) {
                ar[j] += c * r[j];
                ad[j] += c * d[j];
            }
        }
        for (unsigned j = 0; j < m; j++) {
            t->d_ref[j0 + j] = (uint16_t)((ar[j] + rnd.mu_add) >> rnd.mu_shift);
            t->d_dis[j0 + j] = (uint16_t)((ad[j] + rnd.mu_add) >> rnd.mu_shift);
        }
    }
}

static void vert_down_u16(const uint16_t *const *rr, const uint16_t *const *rd,
                          const uint16_t *taps, unsigned n, unsigned w,
                          VqVifVRound rnd, VifWork *t)
{
    for (unsigned j0 = 0; j0 < w; j0 += VIF_CHUNK) {
        unsigned m = chunk_len(w, j0);
        uint32_t ar[VIF_CHUNK] = { 0 }, ad[VIF_CHUNK] = { 0 };
        for (unsigned k = 0; k < n; k++) {
            const uint16_t *r = rr[k] + j0, *d = rd[k] + j0;
            uint32_t c = taps[k];
            for (unsigned j = 0; j < m; j++) {
                ar[j] += c * r[j];
                ad[j] += c * d[j];
            }
        }
        for (unsigned j = 0; j < m; j++) {
            t->d_ref[j0 + j] = (uint16_t)((ar[j] + rnd.mu_add) >> rnd.mu_shift);
            t->d_dis[j0 + j] = (uint16_t)((ad[j] + rnd.mu_add) >> rnd.mu_shift);
        }
    }
}

/* Horizontal pass of the next scale's filter at even columns of a padded
 * row: out[c] is the filtered sample at column 2c. */
static void horiz_down(const uint16_t *row, const uint16_t *taps, unsigned n,
                       unsigned w_out, uint16_t *out)
{
    int half = (int)n / 2;
    for (unsigned c0 = 0; c0 < w_out; c0 += VIF_CHUNK) {
        unsigned m = chunk_len(w_out, c0);
        uint32_t a[VIF_CHUNK] = { 0 };
        for (unsigned k = 0; k < n; k++) {
            const uint16_t *p = row + 2 * (ptrdiff_t)c0 + (int)k - half;
            uint32_t c = taps[k];
            for (unsigned j = 0; j < m; j++)
                a[j] += c * p[2 * j];
        }
        for (unsigned j = 0; j < m; j++)
            out[c0 + j] = (uint16_t)((a[j] + 32768) >> 16);
    }
}

/* Rows of one scale's images: scale 0 reads the planes (8 or 16 bits),
 * later scales the 16-bit images of the previous one. */
typedef struct VifSrc {
    const uint8_t *ref, *dis;
    ptrdiff_t ref_stride, dis_stride; /* bytes */
    bool u8;
} VifSrc;

static void gather_rows(const VifSrc *src, int first, unsigned n, unsigned h,
                        const void **rr, const void **rd)
{
    for (unsigned k = 0; k < n; k++) {
        ptrdiff_t y = vq_vif_mirror(first + (int)k, (int)h);
        rr[k] = src->ref + y * src->ref_stride;
        rd[k] = src->dis + y * src->dis_stride;
    }
}

static void vif_scale(const VqVifParams *p, const VqVifDims *d, unsigned s,
                      const VifSrc *src, VifWork *t, VqVifScaleAcc *acc)
{
    unsigned w = d->w[s], h = d->h[s];
    bool stat = !(s == 0 && p->skip_scale0);
    bool down = s + 1 < VQ_VIF_SCALES;
    unsigned n = 2 * VQ_VIF_HALF(s) + 1;
    unsigned nd = down ? 2 * VQ_VIF_HALF(s + 1) + 1 : 0;
    VqVifVRound rnd = vq_vif_vround(s, p->bpc);
    const void *rr[17], *rd[17];
    for (unsigned i = 0; i < h; i++) {
        if (stat) {
            gather_rows(src, (int)i - (int)n / 2, n, h, rr, rd);
            if (src->u8)
                vert_stat_u8((const uint8_t *const *)rr,
                             (const uint8_t *const *)rd, vif_taps[s], n, w,
                             rnd, t);
            else
                vert_stat_u16((const uint16_t *const *)rr,
                              (const uint16_t *const *)rd, vif_taps[s], n, w,
                              rnd, t);
            pad32(t->v_mu1, w, n / 2);
            pad32(t->v_mu2, w, n / 2);
            pad32(t->v_xx, w, n / 2);
            pad32(t->v_yy, w, n / 2);
            pad32(t->v_xy, w, n / 2);
            horiz_stat(t, vif_taps[s], n, w);
            stat_row(t, w, p, acc);
        }
        if (down && !(i & 1) && i / 2 < d->h[s + 1]) {
            gather_rows(src, (int)i - (int)nd / 2, nd, h, rr, rd);
            if (src->u8)
                vert_down_u8((const uint8_t *const *)rr,
                             (const uint8_t *const *)rd, vif_taps[s + 1], nd,
                             w, rnd, t);
            else
                vert_down_u16((const uint16_t *const *)rr,
                              (const uint16_t *const *)rd, vif_taps[s + 1], nd,
                              w, rnd, t);
            pad16(t->d_ref, w, nd / 2);
            pad16(t->d_dis, w, nd / 2);
            size_t o = (size_t)(i / 2) * d->w[s + 1];
            horiz_down(t->d_ref, vif_taps[s + 1], nd, d->w[s + 1],
                       t->img[0][s + 1] + o);
            horiz_down(t->d_dis, vif_taps[s + 1], nd, d->w[s + 1],
                       t->img[1][s + 1] + o);
        }
    }
}

void vq_vif_cpu_frame(const VqVifParams *p, const VqVifDims *d,
                      const VqPlane *ref, const VqPlane *dis, void *scratch,
                      VqVifAcc *acc)
{
    VifWork t;
    vif_layout(d, scratch, &t);
    for (unsigned s = 0; s < VQ_VIF_SCALES; s++) {
        VifSrc src;
        if (s == 0) {
            src.ref = ref->data;
            src.dis = dis->data;
            src.ref_stride = ref->stride;
            src.dis_stride = dis->stride;
            src.u8 = p->bpc == 8;
        } else {
            src.ref = (const uint8_t *)t.img[0][s];
            src.dis = (const uint8_t *)t.img[1][s];
            src.ref_stride = (ptrdiff_t)(d->w[s] * sizeof(uint16_t));
            src.dis_stride = src.ref_stride;
            src.u8 = false;
        }
        vif_scale(p, d, s, &src, &t, &acc->scale[s]);
    }
}
