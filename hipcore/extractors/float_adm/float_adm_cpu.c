/*
 * float_adm, CPU path: one pass over each scale's band rows. Row i: the
 * dwt of ref and dis (the a bands go to the next scale's images), then
 * decouple and csf into a ring of three rows, the den terms of row i, and
 * the masked terms of row i - 1, whose threshold needs rows i - 2 .. i.
 */
#include <string.h>

#include "float_adm_priv.h"
#include "../common/float_plane.h"

/* csf rows kept per ring slot: csf and filter values of a and r, 3 bands */
enum { CA = 0, FA = 3, CR = 6, FR = 9, NCSF = 12 };

typedef struct FAdmWork {
    float *luma[2];        /* scale 0's input (ref, dis) */
    float *next[2][2];     /* [parity][ref/dis]: a bands, next scale's input */
    float *lo[2], *hi[2];  /* [ref/dis]: vertical dwt pass of a row */
    float *eo;             /* that pass split into even and odd columns */
    float *band[2][3];     /* [ref/dis][h, v, d]: this row's bands */
    float *ring[3][NCSF];  /* csf rows of band rows i % 3 */
    float *term[VQ_FADM_NQ]; /* one row's terms, by column */
} FAdmWork;

static void take(uint8_t *base, size_t *off, size_t floats, float **ptr)
{
    size_t at = *off;
    *off = (at + floats * sizeof(float) + 63) & ~(size_t)63;
    *ptr = base ? (float *)(void *)(base + at) : NULL;
}

static size_t layout(const FAdmPriv *s, void *scratch, FAdmWork *t)
{
    const VqFloatAdmDims *d = &s->dims;
    uint8_t *base = scratch;
    size_t off = 0, bw = d->w[0], iw = d->in_w[0];
    for (unsigned k = 0; k < 2; k++) {
        take(base, &off, iw * d->in_h[0], &t->luma[k]);
        for (unsigned p = 0; p < 2; p++)
            take(base, &off, bw * d->h[0], &t->next[p][k]);
        take(base, &off, iw, &t->lo[k]);
        if (!k)
            take(base, &off, iw + 2, &t->eo);
        take(base, &off, iw, &t->hi[k]);
        for (unsigned b = 0; b < 3; b++)
            take(base, &off, bw, &t->band[k][b]);
    }
    for (unsigned r = 0; r < 3; r++)
        for (unsigned q = 0; q < NCSF; q++)
            take(base, &off, bw, &t->ring[r][q]);
    for (unsigned q = 0; q < VQ_FADM_NQ; q++)
        take(base, &off, bw, &t->term[q]);
    return off;
}

size_t vq_float_adm_cpu_scratch_size(const FAdmPriv *s)
{
    FAdmWork unused;
    return layout(s, NULL, &unused);
}

static const float dwt_lo[4] = { VQ_FADM_LO };
static const float dwt_hi[4] = { VQ_FADM_HI };

/* Band row i of one image (in_w x in_h floats): a into arow, h, v, d into
 * band[0..2] (NULL when only a is wanted). lo and hi take the vertical
 * pass; eo (in_w + 2 floats) its values split into even and odd columns,
 * so that the inner outputs read their four taps contiguously. */
static void dwt_row(const float *src, unsigned in_w, unsigned in_h,
                    unsigned w, int i, float *restrict lo, float *restrict hi,
                    float *restrict eo, float *restrict arow,
                    float *const band[3])
{
    const float *s0 = src + (size_t)vq_float_adm_dwt_idx(i, 0, (int)in_h) * in_w;
    const float *s1 = src + (size_t)vq_float_adm_dwt_idx(i, 1, (int)in_h) * in_w;
    const float *s2 = src + (size_t)vq_float_adm_dwt_idx(i, 2, (int)in_h) * in_w;
    const float *s3 = src + (size_t)vq_float_adm_dwt_idx(i, 3, (int)in_h) * in_w;
    for (unsigned j = 0; j < in_w; j++) {
        lo[j] = vq_float_adm_dot4(dwt_lo, s0[j], s1[j], s2[j], s3[j]);
        hi[j] = vq_float_adm_dot4(dwt_hi, s0[j], s1[j], s2[j], s3[j]);
    }
    /* inner outputs: taps 2j - 1 .. 2j + 2 all inside the row */
    const unsigned a = 1, b = in_w >= 3 ? (in_w - 3) / 2 + 1 : 1;
    const unsigned half = (in_w + 1) / 2;
    for (unsigned pass = 0; pass < 2; pass++) {
        const float *v = pass ? hi : lo;
        float *restrict ev = eo, *restrict od = eo + half;
        for (unsigned m = 0; m < in_w / 2; m++) {
            ev[m] = v[2 * m];
            od[m] = v[2 * m + 1];
        }
        if (in_w & 1)
            ev[in_w / 2] = v[in_w - 1];
        /* lo: a (lo taps) and v (hi taps); hi: h (lo taps) and d (hi taps) */
        float *restrict out_l = pass ? (band ? band[0] : NULL) : arow;
        float *restrict out_h = pass ? (band ? band[2] : NULL)
                                     : (band ? band[1] : NULL);
        if (!out_l)
            break;
        for (unsigned j = a; j < b && j < w; j++)
            out_l[j] = vq_float_adm_dot4(dwt_lo, od[j - 1], ev[j], od[j], ev[j + 1]);
        for (unsigned j = a; out_h && j < b && j < w; j++)
            out_h[j] = vq_float_adm_dot4(dwt_hi, od[j - 1], ev[j], od[j], ev[j + 1]);
    }
    for (unsigned j = 0; j < w; j++) {
        if (j >= a && j < b)
            continue;
        int j0 = vq_float_adm_dwt_idx((int)j, 0, (int)in_w);
        int j1 = vq_float_adm_dwt_idx((int)j, 1, (int)in_w);
        int j2 = vq_float_adm_dwt_idx((int)j, 2, (int)in_w);
        int j3 = vq_float_adm_dwt_idx((int)j, 3, (int)in_w);
        arow[j] = vq_float_adm_dot4(dwt_lo, lo[j0], lo[j1], lo[j2], lo[j3]);
        if (!band)
            continue;
        band[1][j] = vq_float_adm_dot4(dwt_hi, lo[j0], lo[j1], lo[j2], lo[j3]);
        band[0][j] = vq_float_adm_dot4(dwt_lo, hi[j0], hi[j1], hi[j2], hi[j3]);
        band[2][j] = vq_float_adm_dot4(dwt_hi, hi[j0], hi[j1], hi[j2], hi[j3]);
    }
}

/* Row sums, in column order, of n quantities' terms over [j0, j1). */
static void sum_terms(float *const *term, unsigned nq, int j0, int j1,
                      float *sums)
{
    float acc[6] = { 0 };
    for (int j = j0; j < j1; j++)
        for (unsigned q = 0; q < nq; q++)
            acc[q] += term[q][j];
    for (unsigned q = 0; q < nq; q++)
        sums[q] = acc[q];
}

/* The masked terms of band row c (num: csf r against a's threshold; aim:
 * csf a against r's) into row sums rows[q * n]. */
static void cm_row(const FAdmPriv *s, FAdmWork *t, unsigned sc, int c,
                   float *rows, unsigned n)
{
    const VqFloatAdmDims *d = &s->dims;
    const VqFloatAdmRect *in = &d->inner[sc];
    const int w = (int)d->w[sc], h = (int)d->h[sc];
    float *const *u = t->ring[vq_float_adm_prev(c) % 3];
    float *const *m = t->ring[c % 3];
    float *const *l = t->ring[vq_float_adm_next(c, h) % 3];
    /* columns 0 and w - 1 mirror their neighbours; the others are inner */
    const int a = in->left > 1 ? in->left : 1;
    const int b = in->right < w - 1 ? in->right : w - 1;
    for (int j = in->left; j < in->right; j++) {
        if (j >= a && j < b)
            continue;
        const int jl = vq_float_adm_prev(j), jr = vq_float_adm_next(j, w);
        float tn = 0.0, ta = 0.0;
        for (unsigned k = 0; k < 3 && !d->bypass_cm; k++) {
            tn += vq_float_adm_thr_band(u[FA + k], m[FA + k], l[FA + k],
                                   m[CA + k][j], jl, j, jr);
            ta += vq_float_adm_thr_band(u[FR + k], m[FR + k], l[FR + k],
                                   m[CR + k][j], jl, j, jr);
        }
        for (unsigned k = 0; k < 3; k++) {
            t->term[k][j] = vq_float_adm_cm_term(d, m[CR + k][j], tn);
            t->term[3 + k][j] = vq_float_adm_cm_term(d, m[CA + k][j], ta);
        }
    }
    if (a < b)
        s->dsp.cm_row(d, u, m, l, a, b, t->term);
    float sums[6];
    sum_terms(t->term, 6, in->left, in->right, sums);
    unsigned i = (unsigned)(c - in->top);
    for (unsigned q = 0; q < 6; q++)
        rows[q * n + i] = sums[q];
}

static void den_row(const FAdmPriv *s, FAdmWork *t, unsigned sc, int i,
                    float *rows, unsigned n)
{
    const VqFloatAdmDims *d = &s->dims;
    const VqFloatAdmRect *in = &d->inner[sc];
    float *const *term = t->term + VQ_FADM_DEN;
    s->dsp.den_row(d, d->rfactor[sc], t->band[0], in->left, in->right, term);
    float sums[3];
    sum_terms(term, 3, in->left, in->right, sums);
    unsigned k = (unsigned)(i - in->top);
    for (unsigned q = 0; q < 3; q++)
        rows[(VQ_FADM_DEN + q) * n + k] = sums[q];
}

static int in_rows(const VqFloatAdmRect *r, int i)
{
    return i >= r->top && i < r->bottom;
}

static void one_scale(const FAdmPriv *s, FAdmWork *t, unsigned sc,
                  const float *src_ref, const float *src_dis, float *rows)
{
    const VqFloatAdmDims *d = &s->dims;
    const unsigned w = d->w[sc], h = d->h[sc], n = d->rows[sc];
    const bool terms = !(sc == 0 && s->skip_scale0);
    float *next_ref = t->next[sc & 1][0], *next_dis = t->next[sc & 1][1];
    for (int i = 0; i < (int)h; i++) {
        dwt_row(src_ref, d->in_w[sc], d->in_h[sc], w, i, t->lo[0], t->hi[0],
                t->eo, next_ref + (size_t)i * w, terms ? t->band[0] : NULL);
        dwt_row(src_dis, d->in_w[sc], d->in_h[sc], w, i, t->lo[1], t->hi[1],
                t->eo, next_dis + (size_t)i * w, terms ? t->band[1] : NULL);
        if (!terms)
            continue;
        if (in_rows(&d->outer[sc], i))
            s->dsp.csf_row(d, d->rfactor[sc], vq_float_adm_rcp_tab, t->band[0],
                           t->band[1], t->ring[i % 3], d->outer[sc].left,
                           d->outer[sc].right);
        if (in_rows(&d->inner[sc], i))
            den_row(s, t, sc, i, rows, n);
        if (i > 0 && in_rows(&d->inner[sc], i - 1))
            cm_row(s, t, sc, i - 1, rows, n);
    }
    if (terms && in_rows(&d->inner[sc], (int)h - 1))
        cm_row(s, t, sc, (int)h - 1, rows, n);
}

int vq_float_adm_cpu_run(VqFex *fex, const VqFrame *ref, const VqFrame *dis,
                    unsigned index, void *acc, void *scratch)
{
    (void)index;
    const FAdmPriv *s = fex->priv;
    const VqFloatAdmDims *d = &s->dims;
    FAdmWork t;
    layout(s, scratch, &t);
    const float scale = vq_fpix_scale(fex->fmt.bpc);
    unsigned bps = fex->fmt.bytes_per_sample;
    vq_plane_to_float(&ref->plane[0], bps, scale, t.luma[0]);
    vq_plane_to_float(&dis->plane[0], bps, scale, t.luma[1]);
    float *rows = acc;
    const float *src_ref = t.luma[0], *src_dis = t.luma[1];
    for (unsigned sc = 0; sc < VQ_FADM_SCALES; sc++) {
        one_scale(s, &t, sc, src_ref, src_dis, rows + d->off[sc]);
        src_ref = t.next[sc & 1][0];
        src_dis = t.next[sc & 1][1];
    }
    return 0;
}
