/*
 * float_vif, CPU path: per scale, row by row, the vertical pass of the five
 * filtered quantities (vectorized across columns, each column's taps added
 * in order), the mirrored borders, the horizontal pass, the per-pixel terms
 * (vq_float_vif_terms) and the row sums, left to right. Scale s + 1 is made from
 * scale s at even rows and columns with scale s + 1's filter.
 */
#include <string.h>

#include "float_vif_priv.h"
#include "../common/float_plane.h"

enum { Q_MU1, Q_MU2, Q_XX, Q_YY, Q_XY, NQ };

typedef struct FVifWork {
    float *img[2][VQ_FVIF_SCALES]; /* [ref/dis][scale] */
    float *orig[2];                /* the luma before vif_prescale */
    float *v[NQ];                  /* vertical pass, r columns each side */
    float *hp[NQ];                 /* horizontal pass */
    float *num, *den;              /* one row's terms */
} FVifWork;

static size_t take(uint8_t *base, size_t *off, size_t floats, float **ptr)
{
    size_t at = *off;
    *off = (at + floats * sizeof(float) + 63) & ~(size_t)63;
    *ptr = base ? (float *)(void *)(base + at) : NULL;
    return *off;
}

/* Lays the work buffers out in scratch (NULL: just the size). */
static size_t layout(const FVifPriv *s, void *scratch, FVifWork *wk)
{
    const VqFloatVifDims *d = &s->dims;
    uint8_t *base = scratch;
    size_t off = 0;
    int rmax = 0;
    for (unsigned sc = 0; sc < VQ_FVIF_SCALES; sc++)
        rmax = d->fw[sc] / 2 > rmax ? d->fw[sc] / 2 : rmax;
    for (unsigned k = 0; k < 2; k++) {
        for (unsigned sc = 0; sc < VQ_FVIF_SCALES; sc++)
            take(base, &off, (size_t)d->w[sc] * d->h[sc], &wk->img[k][sc]);
        if (s->resized)
            take(base, &off, (size_t)s->src_w * s->src_h, &wk->orig[k]);
    }
    /* rows of the widest source: scale 0, or the luma before resizing */
    size_t row = d->w[0] > s->src_w ? d->w[0] : s->src_w;
    for (unsigned q = 0; q < NQ; q++) {
        take(base, &off, row + 2 * (size_t)rmax, &wk->v[q]);
        take(base, &off, row, &wk->hp[q]);
    }
    take(base, &off, row, &wk->num);
    take(base, &off, row, &wk->den);
    return off;
}

size_t vq_float_vif_cpu_scratch_size(const FVifPriv *s)
{
    FVifWork unused;
    return layout(s, NULL, &unused);
}

static void resize(const FVifPriv *s, const float *src, float *dst)
{
    const VqFResizeMethod m = (VqFResizeMethod)s->prescale_method;
    for (unsigned y = 0; y < s->dims.h[0]; y++)
        for (unsigned x = 0; x < s->dims.w[0]; x++)
            dst[(size_t)y * s->dims.w[0] + x] = vq_fresize_pixel(
                m, src, (ptrdiff_t)s->src_w, &s->tab_x[x], &s->tab_y[y]);
}

/* The source rows of output row i's taps (mirrored). */
static void tap_rows(const float *img, unsigned w, unsigned h, int i, int n,
                     const float **rows)
{
    for (int k = 0; k < n; k++)
        rows[k] = img + (size_t)vq_fconv_mirror(i - n / 2 + k, (int)h) * w;
}

/* r = n / 2 mirrored values on either side of a vertical-pass row. */
static void mirror_edges(float *v, unsigned w, int r)
{
    for (int m = 1; m <= r; m++) {
        v[-m] = v[m];
        v[w - 1 + m] = v[w - 1 - m];
    }
}

/* Scale sc's statistics: the row sums into rows_num and rows_den. */
static void stats(const FVifPriv *s, const FVifWork *t, unsigned sc,
                  float *rows_num, float *rows_den)
{
    const VqFloatVifDims *d = &s->dims;
    const unsigned w = d->w[sc], h = d->h[sc];
    const int n = d->fw[sc];
    const int r = n / 2;
    const VqFloatVifDsp *fn = &s->dsp;
    const float *ra[VQ_FVIF_MAX_TAPS], *rb[VQ_FVIF_MAX_TAPS];
    float *v[NQ];
    for (unsigned q = 0; q < NQ; q++)
        v[q] = t->v[q] + r;
    for (unsigned i = 0; i < h; i++) {
        tap_rows(t->img[0][sc], w, h, (int)i, n, ra);
        tap_rows(t->img[1][sc], w, h, (int)i, n, rb);
        fn->vert(ra, rb, d->taps[sc], n, w, NQ, v);
        for (unsigned q = 0; q < NQ; q++) {
            mirror_edges(v[q], w, r);
            fn->horiz(v[q], w, d->taps[sc], n, t->hp[q]);
        }
        fn->stats(&s->c, s->nsq_up, t->hp[Q_MU1], t->hp[Q_MU2], t->hp[Q_XX],
                  t->hp[Q_YY], t->hp[Q_XY], w, t->num, t->den);
        float an = 0.0f, ad = 0.0f;
        for (unsigned j = 0; j < w; j++) {
            an += t->num[j];
            ad += t->den[j];
        }
        rows_num[i] = an;
        rows_den[i] = ad;
    }
}

/* Scale sc (> 0) from scale sc - 1: filtered with scale sc's taps at even
 * rows and columns. */
static void down(const FVifPriv *s, const FVifWork *t, unsigned sc)
{
    const VqFloatVifDims *d = &s->dims;
    const unsigned sw = d->w[sc - 1], sh = d->h[sc - 1];
    const int n = d->fw[sc];
    const int r = n / 2;
    const float *ra[VQ_FVIF_MAX_TAPS], *rb[VQ_FVIF_MAX_TAPS];
    float *v[NQ];
    for (unsigned q = 0; q < NQ; q++)
        v[q] = t->v[q] + r;
    for (unsigned i = 0; i < d->h[sc]; i++) {
        tap_rows(t->img[0][sc - 1], sw, sh, (int)(2 * i), n, ra);
        tap_rows(t->img[1][sc - 1], sw, sh, (int)(2 * i), n, rb);
        s->dsp.vert(ra, rb, d->taps[sc], n, sw, 2, v);
        for (unsigned k = 0; k < 2; k++) {
            mirror_edges(v[k], sw, r);
            float *o = t->img[k][sc] + (size_t)i * d->w[sc];
            for (unsigned j = 0; j < d->w[sc]; j++)
                o[j] = vq_fconv_dot(d->taps[sc], n, v[k] + 2 * j - r, 1);
        }
    }
}

int vq_float_vif_cpu_run(VqFex *fex, const VqFrame *ref, const VqFrame *dis,
                    unsigned index, void *acc, void *scratch)
{
    (void)index;
    const FVifPriv *s = fex->priv;
    const VqFloatVifDims *d = &s->dims;
    FVifWork t;
    layout(s, scratch, &t);
    const float scale = vq_fpix_scale(fex->fmt.bpc);
    const unsigned bps = fex->fmt.bytes_per_sample;
    const VqPlane *pl[2] = { &ref->plane[0], &dis->plane[0] };
    for (unsigned k = 0; k < 2; k++) {
        if (!s->resized) {
            vq_plane_to_float(pl[k], bps, scale, t.img[k][0]);
            continue;
        }
        vq_plane_to_float(pl[k], bps, scale, t.orig[k]);
        resize(s, t.orig[k], t.img[k][0]);
    }
    float *rows = acc;
    for (unsigned sc = 0; sc < VQ_FVIF_SCALES; sc++) {
        if (sc > 0)
            down(s, &t, sc);
        if (sc > 0 || !s->skip_scale0)
            stats(s, &t, sc, rows + d->off_num[sc], rows + d->off_den[sc]);
    }
    return 0;
}
