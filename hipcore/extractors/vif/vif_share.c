/*
 * Integer VIF in a ladder (docs/LADDER.md): each frame's reference part,
 * per scale the filtered reference mean (mu1) and sigma1_sq of every row
 * and the reference's images of scales 1..3, is a product of the ladder's
 * cache (core/refcache.h), computed by the first rendition that needs it;
 * every rendition computes the rest from it with the split row functions
 * (vif_dsp.h), which give stat_row's and down_row's values, so each
 * rendition's sums are its pair run's. Frames too small for the split
 * functions (rows narrower than a filter read stale row buffers) are not
 * shared.
 */
#include "core/refcache.h"
#include "vif_priv.h"

#define SPLIT_MAX_PARTS 64
#define SPLIT_BAND_ROWS 16

typedef struct VifProduct {
    uint32_t *m1[VQ_VIF_SCALES];
    int32_t *s1[VQ_VIF_SCALES];
    uint16_t *img[VQ_VIF_SCALES]; /* scales 1..3 */
} VifProduct;

static void *take(uint8_t *base, size_t *off, size_t bytes)
{
    size_t at = *off;
    *off = (at + bytes + 63) & ~(size_t)63;
    return base ? base + at : NULL;
}

/* The product's arrays in base (NULL: just the size). */
static size_t product_layout(const VqVifDims *d, void *base, VifProduct *p)
{
    size_t off = 0;
    for (unsigned s = 0; s < VQ_VIF_SCALES; s++) {
        size_t px = (size_t)d->w[s] * d->h[s];
        p->m1[s] = take(base, &off, px * sizeof(uint32_t));
        p->s1[s] = take(base, &off, px * sizeof(int32_t));
        p->img[s] = s ? take(base, &off, px * sizeof(uint16_t)) : NULL;
    }
    return off;
}

size_t vif_ref_product_size(const VqFex *fex)
{
    const VifPriv *s = fex->priv;
    if (s->dims.w[0] < VQ_VIF_SPLIT_MIN_W || s->dims.h[VQ_VIF_SCALES - 1] < 2)
        return 0;
    VifProduct unused;
    return product_layout(&s->dims, NULL, &unused);
}

/* One scale of a pass, split into row bands (vq_fex_parallel). */
typedef struct SplitPass {
    const VifPriv *s;
    const VqVifParams *p;
    const VqPlane *ref, *dis;
    VifProduct prod;
    uint16_t *dis_img[VQ_VIF_SCALES]; /* the rendition's, scales 1..3 */
    unsigned scale, n;
    VqVifScaleAcc acc[SPLIT_MAX_PARTS];
} SplitPass;

/* n rows around `first` of an image of h rows, mirrored at its edges
 * (every scale has 2 rows at least here). */
static void rows_at(const uint8_t *base, ptrdiff_t stride, int first,
                    unsigned n, unsigned h, const void **out)
{
    for (unsigned k = 0; k < n; k++)
        out[k] = base + (ptrdiff_t)vq_vif_mirror(first + (int)k, (int)h) *
                            stride;
}

/* Scale s's image of the reference (k 0) or the distorted picture (1). */
static const uint8_t *image(const SplitPass *b, unsigned k, unsigned s,
                            ptrdiff_t *stride)
{
    if (s == 0) {
        const VqPlane *pl = k ? b->dis : b->ref;
        *stride = pl->stride;
        return pl->data;
    }
    *stride = (ptrdiff_t)(b->s->dims.w[s] * sizeof(uint16_t));
    return (const uint8_t *)(k ? b->dis_img[s] : b->prod.img[s]);
}

static void band_rows(const SplitPass *b, unsigned part, unsigned *y0,
                      unsigned *y1)
{
    unsigned h = b->s->dims.h[b->scale];
    *y0 = (unsigned)((uint64_t)h * part / b->n);
    *y1 = (unsigned)((uint64_t)h * (part + 1) / b->n);
}

/* What a band's rows share: its scale's geometry and rounding, its rows,
 * and the row buffers of the thread that runs it. */
typedef struct BandRows {
    const VqVifDims *d;
    const VqVifDsp *dsp;
    unsigned s, w, y0, y1;
    bool stat, down, u8;
    int half, half_down;
    VqVifVRound rnd;
    VqVifWork t;
} BandRows;

static void band_setup(const SplitPass *b, unsigned part, void *rows,
                       BandRows *r)
{
    r->d = &b->s->dims;
    r->dsp = &b->s->dsp;
    r->s = b->scale;
    r->w = r->d->w[r->s];
    vq_vif_row_layout(r->d, rows, &r->t);
    band_rows(b, part, &r->y0, &r->y1);
    r->stat = !(r->s == 0 && b->p->skip_scale0);
    r->down = r->s + 1 < VQ_VIF_SCALES;
    r->u8 = r->s == 0 && b->p->bpc == 8;
    r->half = VQ_VIF_HALF(r->s);
    r->half_down = r->down ? VQ_VIF_HALF(r->s + 1) : 0;
    r->rnd = vq_vif_vround(r->s, b->p->bpc);
}

/* Whether row i makes a row of the next scale (even rows). */
static bool makes_down(const BandRows *r, unsigned i)
{
    return r->down && !(i & 1) && i / 2 < r->d->h[r->s + 1];
}

static void ref_band(void *arg, unsigned part, void *rows)
{
    SplitPass *b = arg;
    BandRows r;
    band_setup(b, part, rows, &r);
    unsigned s = r.s, w = r.w, h = r.d->h[s];
    ptrdiff_t stride;
    const uint8_t *src = image(b, 0, s, &stride);
    const void *rr[VQ_VIF_MAX_TAPS];
    for (unsigned i = r.y0; i < r.y1; i++) {
        if (r.stat) {
            rows_at(src, stride, (int)i - r.half, 2 * r.half + 1, h, rr);
            r.dsp->stat_ref_row(s, r.u8, rr, w, r.rnd, &r.t,
                                b->prod.m1[s] + (size_t)i * w,
                                b->prod.s1[s] + (size_t)i * w);
        }
        if (makes_down(&r, i)) {
            rows_at(src, stride, (int)i - r.half_down, 2 * r.half_down + 1,
                    h, rr);
            r.dsp->down_one_row(s, r.u8, rr, w, r.rnd, &r.t,
                                b->prod.img[s + 1] +
                                    (size_t)(i / 2) * r.d->w[s + 1]);
        }
    }
}

static void dis_band(void *arg, unsigned part, void *rows)
{
    SplitPass *b = arg;
    BandRows r;
    band_setup(b, part, rows, &r);
    unsigned s = r.s, w = r.w, h = r.d->h[s];
    ptrdiff_t rstride, dstride;
    const uint8_t *rsrc = image(b, 0, s, &rstride);
    const uint8_t *dsrc = image(b, 1, s, &dstride);
    const void *rr[VQ_VIF_MAX_TAPS], *rd[VQ_VIF_MAX_TAPS];
    for (unsigned i = r.y0; i < r.y1; i++) {
        if (r.stat) {
            rows_at(rsrc, rstride, (int)i - r.half, 2 * r.half + 1, h, rr);
            rows_at(dsrc, dstride, (int)i - r.half, 2 * r.half + 1, h, rd);
            size_t o = (size_t)i * w;
            r.dsp->stat_dis_row(s, r.u8, rr, rd, w, r.rnd, &r.t,
                                b->prod.m1[s] + o);
            vq_vif_cpu_stat_sums(r.dsp, b->p, b->prod.s1[s] + o, r.t.s2,
                                 r.t.s12, w, &r.t, &b->acc[part]);
        }
        if (makes_down(&r, i)) {
            rows_at(dsrc, dstride, (int)i - r.half_down, 2 * r.half_down + 1,
                    h, rd);
            r.dsp->down_one_row(s, r.u8, rd, w, r.rnd, &r.t,
                                b->dis_img[s + 1] +
                                    (size_t)(i / 2) * r.d->w[s + 1]);
        }
    }
}

/* Every scale of a pass, in order (a scale reads the previous one's
 * images); the bands' sums added into acc in band order (NULL: none). */
static int run_pass(VqFex *fex, SplitPass *b, VqFexPartFn fn, VqVifAcc *acc)
{
    for (unsigned sc = 0; sc < VQ_VIF_SCALES; sc++) {
        b->scale = sc;
        b->n = vq_fex_bands(fex, b->s->dims.h[sc], SPLIT_BAND_ROWS,
                            SPLIT_MAX_PARTS);
        memset(b->acc, 0, sizeof(b->acc));
        int err = vq_fex_parallel(fex, b->n, fn, b);
        if (err)
            return vq_fail(fex->err, err, "vif: out of memory");
        for (unsigned k = 0; acc && k < b->n; k++) {
            acc->scale[sc].num_log += b->acc[k].num_log;
            acc->scale[sc].den_log += b->acc[k].den_log;
            acc->scale[sc].num_non_log += b->acc[k].num_non_log;
            acc->scale[sc].den_non_log += b->acc[k].den_non_log;
        }
    }
    return 0;
}

typedef struct RefArg {
    VqFex *fex;
    SplitPass *pass;
} RefArg;

static int compute_product(void *arg, void *product)
{
    RefArg *a = arg;
    product_layout(&a->pass->s->dims, product, &a->pass->prod);
    return run_pass(a->fex, a->pass, ref_band, NULL);
}

int vif_cpu_run_shared(VqFex *fex, const VqVifParams *p, const VqFrame *ref,
                       const VqFrame *dis, unsigned index, void *acc,
                       void *scratch)
{
    SplitPass pass, *b = &pass;
    b->s = fex->priv;
    b->p = p;
    b->ref = &ref->plane[0];
    b->dis = &dis->plane[0];
    VqVifWork t;
    vq_vif_work_layout(&b->s->dims, scratch, &t);
    for (unsigned sc = 0; sc < VQ_VIF_SCALES; sc++)
        b->dis_img[sc] = t.img[1][sc];
    RefArg ra = { fex, b };
    const void *product;
    int err = vq_refcache_get(fex->cache, fex->share_user, index,
                              compute_product, &ra, &product, fex->err);
    if (!err && product) {
        product_layout(&b->s->dims, (void *)product, &b->prod);
        err = run_pass(fex, b, dis_band, acc);
        vq_refcache_put(fex->cache, fex->share_user, index);
    }
    return err ? err : product ? 0 : 1;
}
