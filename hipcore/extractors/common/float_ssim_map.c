/*
 * libvmaf's float SSIM on the CPU: one scale's map, streamed row by row.
 * Each input row is filtered horizontally into a ring of 11 rows per
 * statistic; once 11 rows are there, the vertical pass gives one map row,
 * whose pixels are summed per segment (kernels/float_ssim/float_ssim.h).
 */
#include <string.h>

#include "float_ssim_map.h"

/* ---- the map ---- */

void vq_float_ssim_load_row(const VqFloatSsimSrc *src, unsigned y, float *dst)
{
    const uint8_t *row = src->data + (ptrdiff_t)y * src->stride;
    unsigned w = src->w;
    if (src->bpc == 0) {
        memcpy(dst, row, (size_t)w * sizeof(float));
    } else if (src->bpc == 8) {
        for (unsigned x = 0; x < w; x++)
            dst[x] = (float)row[x];
    } else {
        /* picture_copy_hbd: (float)v / 2^(bpc-8), exact */
        const uint16_t *r16 = (const uint16_t *)(const void *)row;
        float scaler = (float)(1u << (src->bpc - 8));
        for (unsigned x = 0; x < w; x++)
            dst[x] = (float)r16[x] / scaler;
    }
}

enum { ST_MR, ST_MD, ST_RR, ST_DD, ST_RD, ST_N };

typedef struct MapWork {
    float *in[ST_N];                  /* w: the row and its products */
    float *ring[ST_N][VQ_FSSIM_WIN];  /* n: horizontal pass */
    float *v[ST_N];                   /* n: vertical pass */
    double *l, *c, *s;                /* n */
} MapWork;

static void take(uint8_t *base, size_t *off, size_t bytes, void **ptr)
{
    size_t at = *off;
    *off = (at + bytes + 63) & ~(size_t)63;
    *ptr = base ? base + at : NULL;
}

static size_t map_layout(unsigned w, void *scratch, MapWork *wk)
{
    uint8_t *base = scratch;
    size_t off = 0, n = w - (VQ_FSSIM_WIN - 1);
    void *p;
    for (unsigned m = 0; m < ST_N; m++) {
        take(base, &off, (size_t)w * sizeof(float), &p);
        if (base)
            wk->in[m] = p;
        for (unsigned k = 0; k < VQ_FSSIM_WIN; k++) {
            take(base, &off, n * sizeof(float), &p);
            if (base)
                wk->ring[m][k] = p;
        }
        take(base, &off, n * sizeof(float), &p);
        if (base)
            wk->v[m] = p;
    }
    for (unsigned k = 0; k < 3; k++) {
        take(base, &off, n * sizeof(double), &p);
        if (base) /* wk may be NULL without base: no member address then */
            *(k == 0 ? &wk->l : k == 1 ? &wk->c : &wk->s) = p;
    }
    return off;
}

size_t vq_float_ssim_map_scratch(unsigned w)
{
    return map_layout(w, NULL, NULL);
}

/* One map row's sums, in the order of kernels/float_ssim/float_ssim.h. */
static void row_sums(const double *l, const double *c, const double *s,
                     unsigned n, VqFloatSsimRow *out)
{
    double rs = 0.0, rl = 0.0, rc = 0.0, rv = 0.0;
    for (unsigned x0 = 0; x0 < n; x0 += VQ_FSSIM_SEG) {
        unsigned x1 = n - x0 < VQ_FSSIM_SEG ? n : x0 + VQ_FSSIM_SEG;
        double ss = 0.0, sl = 0.0, sc = 0.0, sv = 0.0;
        for (unsigned x = x0; x < x1; x++) {
            ss += l[x] * c[x] * s[x];
            sl += l[x];
            sc += c[x];
            sv += s[x];
        }
        rs += ss;
        rl += sl;
        rc += sc;
        rv += sv;
    }
    out->ssim = rs;
    out->l = rl;
    out->c = rc;
    out->s = rv;
}

void vq_float_ssim_cpu_map(const VqFloatSsimDsp *dsp, const VqFloatSsimSrc *ref,
                      const VqFloatSsimSrc *dis, VqFloatSsimConsts k, void *scratch,
                      VqFloatSsimRow *rows)
{
    MapWork wk;
    map_layout(ref->w, scratch, &wk);
    unsigned w = ref->w, h = ref->h, n = w - (VQ_FSSIM_WIN - 1);
    for (unsigned y = 0; y < h; y++) {
        float *r = wk.in[ST_MR], *d = wk.in[ST_MD];
        float *rr = wk.in[ST_RR], *dd = wk.in[ST_DD], *rd = wk.in[ST_RD];
        vq_float_ssim_load_row(ref, y, r);
        vq_float_ssim_load_row(dis, y, d);
        for (unsigned x = 0; x < w; x++) {
            rr[x] = r[x] * r[x];
            dd[x] = d[x] * d[x];
            rd[x] = r[x] * d[x];
        }
        unsigned slot = y % VQ_FSSIM_WIN;
        for (unsigned m = 0; m < ST_N; m++)
            dsp->hconv(wk.in[m], n, wk.ring[m][slot]);
        if (y < VQ_FSSIM_WIN - 1)
            continue;
        unsigned oy = y - (VQ_FSSIM_WIN - 1);
        for (unsigned m = 0; m < ST_N; m++) {
            const float *win[VQ_FSSIM_WIN];
            for (unsigned v = 0; v < VQ_FSSIM_WIN; v++)
                win[v] = wk.ring[m][(oy + v) % VQ_FSSIM_WIN];
            dsp->vconv(win, n, wk.v[m]);
        }
        dsp->pixels((const float *const *)wk.v, n, k, wk.l, wk.c, wk.s);
        row_sums(wk.l, wk.c, wk.s, n, &rows[oy]);
    }
}

/* ---- float_ssim's decimation ---- */

size_t vq_float_ssim_box_scratch(unsigned w, unsigned ow)
{
    return (((size_t)w * sizeof(float) + 63) & ~(size_t)63) +
           (size_t)ow * sizeof(double);
}

/* libvmaf's _iqa_decimate with a factor x factor box of (float)(1/f^2):
 * output (x, y) is the double sum, rows then columns, of the float products
 * of the samples at x*f + u, y*f + v (u, v from -(f/2) to f/2 - 1 when f is
 * even, to f/2 when odd; mirrored), rounded to float. */
void vq_float_ssim_cpu_box(const VqFloatSsimSrc *src, unsigned factor, float *dst,
                      unsigned ow, unsigned oh, void *scratch)
{
    float *row = scratch;
    double *acc = (double *)(void *)((uint8_t *)scratch +
        (((size_t)src->w * sizeof(float) + 63) & ~(size_t)63));
    int f = (int)factor, lo = -(f / 2), hi = f / 2 - (f % 2 == 0);
    int w = (int)src->w, h = (int)src->h;
    float kv = 1.0f / (float)(f * f);
    for (unsigned oy = 0; oy < oh; oy++) {
        for (unsigned ox = 0; ox < ow; ox++)
            acc[ox] = 0.0;
        for (int v = lo; v <= hi; v++) {
            vq_float_ssim_load_row(src, (unsigned)vq_float_ssim_mirror((int)oy * f + v, h),
                              row);
            for (unsigned ox = 0; ox < ow; ox++)
                for (int u = lo; u <= hi; u++)
                    acc[ox] += (double)(row[vq_float_ssim_mirror((int)ox * f + u, w)] * kv);
        }
        for (unsigned ox = 0; ox < ow; ox++)
            dst[(size_t)oy * ow + ox] = (float)acc[ox];
    }
}

void vq_float_ssim_means(const VqFloatSsimRow *rows, unsigned mw, unsigned mh,
                    float *ssim, float *l, float *c, float *s)
{
    double ts = 0.0, tl = 0.0, tc = 0.0, tv = 0.0;
    for (unsigned y = 0; y < mh; y++) {
        ts += rows[y].ssim;
        tl += rows[y].l;
        tc += rows[y].c;
        tv += rows[y].s;
    }
    double n = (double)(int)(mw * mh);
    *ssim = (float)(ts / n);
    *l = (float)(tl / n);
    *c = (float)(tc / n);
    *s = (float)(tv / n);
}
