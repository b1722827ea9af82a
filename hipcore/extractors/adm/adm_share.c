/*
 * Integer ADM in a ladder (docs/LADDER.md): each frame's reference part,
 * per scale the reference's detail bands, its approximation planes and its
 * denominator sums, is a product of the ladder's cache (core/refcache.h),
 * computed by the first rendition that needs it; every rendition computes
 * the rest (the distorted picture's DWT, decoupling, CSF, masking) from it
 * with the same row functions as a pair run, so its sums are its pair
 * run's. Frames with a scale narrower than 4 columns or rows are not
 * shared (row buffers' borders read stale values there).
 */
#include <stdlib.h>
#include <string.h>

#include "core/refcache.h"
#include "adm_priv.h"

#define SPLIT_MAX_PARTS 64
#define SPLIT_BAND_ROWS 24

static void *take(uint8_t *base, size_t *off, size_t bytes)
{
    size_t at = *off;
    *off = (at + bytes + 63) & ~(size_t)63;
    return base ? base + at : NULL;
}

/* The product's arrays in base (NULL: just the size). */
static size_t product_layout(const AdmPriv *s, void *base, AdmProduct *p)
{
    size_t off = 0;
    p->den = take(base, &off, sizeof(VqAdmAcc));
    for (int k = 0; k < 4; k++) {
        const VqAdmScale *sc = &s->p.sc[k];
        size_t px = (size_t)sc->w * (size_t)sc->h;
        for (int b = 0; b < 3; b++)
            p->band[k][b] = take(base, &off, px * sizeof(int32_t));
        if (k < 3)
            p->approx[k] = take(base, &off, s->plane_stride[k] *
                                                (size_t)sc->h *
                                                sizeof(int32_t));
    }
    return off;
}

size_t adm_ref_product_size(const VqFex *fex)
{
    const AdmPriv *s = fex->priv;
    for (int k = 0; k < 4; k++)
        if (s->p.sc[k].in_w < 4 || s->p.sc[k].in_h < 4 || s->p.sc[k].w < 4)
            return 0;
    AdmProduct unused;
    return product_layout(s, NULL, &unused);
}

typedef struct SplitPass {
    const AdmPriv *s;
    const VqPlane *ref, *dis;
    void *planes; /* the rendition's scratch: its distorted approximations */
    AdmProduct prod;
    int scale, n;
    VqAdmAcc acc[SPLIT_MAX_PARTS];
} SplitPass;

static void band_rows(const SplitPass *b, unsigned part, int *y0, int *y1)
{
    int h = b->s->p.sc[b->scale].h;
    *y0 = (int)((int64_t)h * part / b->n);
    *y1 = (int)((int64_t)h * (part + 1) / b->n);
}

static void ref_band(void *arg, unsigned part, void *rows)
{
    SplitPass *b = arg;
    int y0, y1;
    band_rows(b, part, &y0, &y1);
    vq_adm_cpu_ref_rows(b->s, b->scale, b->ref, &b->prod, rows, y0, y1,
                        &b->acc[part]);
}

static void dis_band(void *arg, unsigned part, void *rows)
{
    SplitPass *b = arg;
    int y0, y1;
    band_rows(b, part, &y0, &y1);
    vq_adm_cpu_scale_rows_with(b->s, b->scale, b->ref, b->dis, b->planes,
                               rows, y0, y1, &b->acc[part], &b->prod);
}

/* Every scale of a pass in order (a scale reads the previous one's
 * approximation); the bands' sums added into acc in band order. */
static int run_pass(VqFex *fex, SplitPass *b, VqFexPartFn fn, VqAdmAcc *acc)
{
    for (int k = 0; k < 4; k++) {
        b->scale = k;
        b->n = (int)vq_fex_bands(fex, (unsigned)b->s->p.sc[k].h,
                                 SPLIT_BAND_ROWS, SPLIT_MAX_PARTS);
        memset(b->acc, 0, sizeof(b->acc));
        int err = vq_fex_parallel(fex, (unsigned)b->n, fn, b);
        if (err)
            return vq_fail(fex->err, err, "adm: out of memory");
        /* integer sums: the same in any order; added in band order */
        for (int part = 0; part < b->n; part++)
            vq_adm_add_acc(acc, &b->acc[part]);
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
    product_layout(a->pass->s, product, &a->pass->prod);
    memset(a->pass->prod.den, 0, sizeof(VqAdmAcc));
    return run_pass(a->fex, a->pass, ref_band, a->pass->prod.den);
}

int adm_cpu_run_shared(VqFex *fex, const VqFrame *ref, const VqFrame *dis,
                       unsigned index, void *acc, void *scratch)
{
    SplitPass *b = malloc(sizeof(*b));
    if (!b)
        return vq_fail(fex->err, VQ_ENOMEM, "adm: out of memory");
    b->s = fex->priv;
    b->ref = &ref->plane[0];
    b->dis = &dis->plane[0];
    b->planes = scratch;
    RefArg ra = { fex, b };
    const void *product;
    int err = vq_refcache_get(fex->cache, fex->share_user, index,
                              compute_product, &ra, &product, fex->err);
    if (!err && product) {
        product_layout(b->s, (void *)product, &b->prod);
        VqAdmAcc *out = acc;
        const VqAdmAcc *den = b->prod.den;
        for (int k = 0; k < 4; k++)
            for (int q = 0; q < 3; q++)
                out->den[k][q] += den->den[k][q];
        err = run_pass(fex, b, dis_band, acc);
        vq_refcache_put(fex->cache, fex->share_user, index);
    }
    free(b);
    return err ? err : product ? 0 : 1;
}
