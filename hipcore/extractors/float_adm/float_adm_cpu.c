/*
 * float_adm, CPU path: one pass over each scale's band rows. Row i: the
 * dwt of ref and dis (the a bands go to the next scale's images), then
 * decouple and csf into a ring of three rows, the den terms of row i, and
 * the masked terms of row i - 1, whose threshold needs rows i - 2 .. i.
 */
#include <string.h>

#include "float_adm_priv.h"

/* csf rows kept per ring slot: csf and filter values of a and r, 3 bands */
enum { CA = 0, FA = 3, CR = 6, FR = 9, NCSF = 12 };

typedef struct FAdmWork {
    float *luma[2];        /* scale 0's input (ref, dis) */
    float *next[2][2];     /* [parity][ref/dis]: a bands, next scale's input */
    float *lo[2], *hi[2];  /* [ref/dis]: vertical dwt pass of a row */
    float *band[2][3];     /* [ref/dis][h, v, d]: this row's bands */
    float *ring[3][NCSF];  /* csf rows of band rows i % 3 */
} FAdmWork;

static void take(uint8_t *base, size_t *off, size_t floats, float **ptr)
{
    size_t at = *off;
    *off = (at + floats * sizeof(float) + 63) & ~(size_t)63;
    *ptr = base ? (float *)(void *)(base + at) : NULL;
}

static size_t layout(const FAdmPriv *s, void *scratch, FAdmWork *t)
{
    const VqFAdmDims *d = &s->dims;
    uint8_t *base = scratch;
    size_t off = 0, bw = d->w[0], iw = d->in_w[0];
    for (unsigned k = 0; k < 2; k++) {
        take(base, &off, iw * d->in_h[0], &t->luma[k]);
        for (unsigned p = 0; p < 2; p++)
            take(base, &off, bw * d->h[0], &t->next[p][k]);
        take(base, &off, iw, &t->lo[k]);
        take(base, &off, iw, &t->hi[k]);
        for (unsigned b = 0; b < 3; b++)
            take(base, &off, bw, &t->band[k][b]);
    }
    for (unsigned r = 0; r < 3; r++)
        for (unsigned q = 0; q < NCSF; q++)
            take(base, &off, bw, &t->ring[r][q]);
    return off;
}

size_t vq_fadm_cpu_scratch_size(const FAdmPriv *s)
{
    FAdmWork unused;
    return layout(s, NULL, &unused);
}

static void to_float(const VqPlane *p, unsigned bps, float scaler, float *dst)
{
    for (unsigned y = 0; y < p->h; y++) {
        const uint8_t *row = p->data + (ptrdiff_t)y * p->stride;
        float *o = dst + (size_t)y * p->w;
        if (bps == 1)
            for (unsigned x = 0; x < p->w; x++)
                o[x] = vq_fpix(row[x], scaler);
        else
            for (unsigned x = 0; x < p->w; x++)
                o[x] = vq_fpix(((const uint16_t *)(const void *)row)[x],
                               scaler);
    }
}

static const float dwt_lo[4] = { VQ_FADM_LO };
static const float dwt_hi[4] = { VQ_FADM_HI };

/* Band row i of one image (in_w x in_h floats): a into arow, h, v, d into
 * band[0..2] (NULL when only a is wanted). */
static void dwt_row(const float *src, unsigned in_w, unsigned in_h,
                    unsigned w, int i, float *restrict lo, float *restrict hi,
                    float *restrict arow, float *const band[3])
{
    const float *s0 = src + (size_t)vq_fadm_dwt_idx(i, 0, (int)in_h) * in_w;
    const float *s1 = src + (size_t)vq_fadm_dwt_idx(i, 1, (int)in_h) * in_w;
    const float *s2 = src + (size_t)vq_fadm_dwt_idx(i, 2, (int)in_h) * in_w;
    const float *s3 = src + (size_t)vq_fadm_dwt_idx(i, 3, (int)in_h) * in_w;
    for (unsigned j = 0; j < in_w; j++) {
        lo[j] = vq_fadm_dot4(dwt_lo, s0[j], s1[j], s2[j], s3[j]);
        hi[j] = vq_fadm_dot4(dwt_hi, s0[j], s1[j], s2[j], s3[j]);
    }
    for (unsigned j = 0; j < w; j++) {
        int j0 = vq_fadm_dwt_idx((int)j, 0, (int)in_w);
        int j1 = vq_fadm_dwt_idx((int)j, 1, (int)in_w);
        int j2 = vq_fadm_dwt_idx((int)j, 2, (int)in_w);
        int j3 = vq_fadm_dwt_idx((int)j, 3, (int)in_w);
        arow[j] = vq_fadm_dot4(dwt_lo, lo[j0], lo[j1], lo[j2], lo[j3]);
        if (!band)
            continue;
        band[1][j] = vq_fadm_dot4(dwt_hi, lo[j0], lo[j1], lo[j2], lo[j3]);
        band[0][j] = vq_fadm_dot4(dwt_lo, hi[j0], hi[j1], hi[j2], hi[j3]);
        band[2][j] = vq_fadm_dot4(dwt_hi, hi[j0], hi[j1], hi[j2], hi[j3]);
    }
}

/* Decouple and csf of one band row over the outer columns. */
static void csf_row(const VqFAdmDims *d, unsigned sc, float *const ref[3],
                    float *const dis[3], float *const out[NCSF])
{
    const VqFAdmRect *o = &d->outer[sc];
    const float *rf = d->rfactor[sc];
    for (int j = o->left; j < o->right; j++) {
        float ov[3] = { ref[0][j], ref[1][j], ref[2][j] };
        float tv[3] = { dis[0][j], dis[1][j], dis[2][j] };
        float r[3], a[3];
        vq_fadm_decouple(d, vq_fadm_rcp_tab, ov, tv, r, a);
        for (unsigned b = 0; b < 3; b++) {
            float ca = rf[b] * a[b], cr = rf[b] * r[b];
            out[CA + b][j] = ca;
            out[FA + b][j] = vq_fadm_csf_f(ca);
            out[CR + b][j] = cr;
            out[FR + b][j] = vq_fadm_csf_f(cr);
        }
    }
}

/* The masked terms of band row c (num: csf r against a's threshold; aim:
 * csf a against r's) into row sums rows[q * n]. */
static void cm_row(const VqFAdmDims *d, unsigned sc, int c,
                   float *(*ring)[NCSF], float *rows, unsigned n)
{
    const VqFAdmRect *in = &d->inner[sc];
    const int w = (int)d->w[sc], h = (int)d->h[sc];
    float *const *u = ring[vq_fadm_prev(c) % 3];
    float *const *m = ring[c % 3];
    float *const *l = ring[vq_fadm_next(c, h) % 3];
    float acc[6] = { 0 };
    for (int j = in->left; j < in->right; j++) {
        const int jl = vq_fadm_prev(j), jr = vq_fadm_next(j, w);
        float thr_num = 0.0, thr_aim = 0.0;
        if (!d->bypass_cm)
            for (unsigned b = 0; b < 3; b++) {
                thr_num += vq_fadm_thr_band(u[FA + b], m[FA + b], l[FA + b],
                                            m[CA + b][j], jl, j, jr);
                thr_aim += vq_fadm_thr_band(u[FR + b], m[FR + b], l[FR + b],
                                            m[CR + b][j], jl, j, jr);
            }
        for (unsigned b = 0; b < 3; b++) {
            acc[b] += vq_fadm_cm_term(d, m[CR + b][j], thr_num);
            acc[3 + b] += vq_fadm_cm_term(d, m[CA + b][j], thr_aim);
        }
    }
    unsigned i = (unsigned)(c - in->top);
    for (unsigned q = 0; q < 6; q++)
        rows[q * n + i] = acc[q];
}

static void den_row(const VqFAdmDims *d, unsigned sc, int i,
                    float *const ref[3], float *rows, unsigned n)
{
    const VqFAdmRect *in = &d->inner[sc];
    const float *rf = d->rfactor[sc];
    float acc[3] = { 0 };
    for (int j = in->left; j < in->right; j++)
        for (unsigned b = 0; b < 3; b++)
            acc[b] += vq_fadm_den_term(d, rf[b], ref[b][j]);
    unsigned k = (unsigned)(i - in->top);
    for (unsigned b = 0; b < 3; b++)
        rows[(VQ_FADM_DEN + b) * n + k] = acc[b];
}

static int in_rows(const VqFAdmRect *r, int i)
{
    return i >= r->top && i < r->bottom;
}

static void scale(const FAdmPriv *s, FAdmWork *t, unsigned sc,
                  const float *src_ref, const float *src_dis, float *rows)
{
    const VqFAdmDims *d = &s->dims;
    const unsigned w = d->w[sc], h = d->h[sc], n = d->rows[sc];
    const bool terms = !(sc == 0 && s->skip_scale0);
    float *next_ref = t->next[sc & 1][0], *next_dis = t->next[sc & 1][1];
    for (int i = 0; i < (int)h; i++) {
        dwt_row(src_ref, d->in_w[sc], d->in_h[sc], w, i, t->lo[0], t->hi[0],
                next_ref + (size_t)i * w, terms ? t->band[0] : NULL);
        dwt_row(src_dis, d->in_w[sc], d->in_h[sc], w, i, t->lo[1], t->hi[1],
                next_dis + (size_t)i * w, terms ? t->band[1] : NULL);
        if (!terms)
            continue;
        if (in_rows(&d->outer[sc], i))
            csf_row(d, sc, t->band[0], t->band[1], t->ring[i % 3]);
        if (in_rows(&d->inner[sc], i))
            den_row(d, sc, i, t->band[0], rows, n);
        if (i > 0 && in_rows(&d->inner[sc], i - 1))
            cm_row(d, sc, i - 1, t->ring, rows, n);
    }
    if (terms && in_rows(&d->inner[sc], (int)h - 1))
        cm_row(d, sc, (int)h - 1, t->ring, rows, n);
}

int vq_fadm_cpu_run(VqFex *fex, const VqFrame *ref, const VqFrame *dis,
                    unsigned index, void *acc, void *scratch)
{
    (void)index;
    const FAdmPriv *s = fex->priv;
    const VqFAdmDims *d = &s->dims;
    FAdmWork t;
    layout(s, scratch, &t);
    const float scaler = vq_fpix_scaler(fex->fmt.bpc);
    to_float(&ref->plane[0], fex->fmt.bytes_per_sample, scaler, t.luma[0]);
    to_float(&dis->plane[0], fex->fmt.bytes_per_sample, scaler, t.luma[1]);
    float *rows = acc;
    const float *src_ref = t.luma[0], *src_dis = t.luma[1];
    for (unsigned sc = 0; sc < VQ_FADM_SCALES; sc++) {
        scale(s, &t, sc, src_ref, src_dis, rows + d->off[sc]);
        src_ref = t.next[sc & 1][0];
        src_dis = t.next[sc & 1][1];
    }
    return 0;
}
