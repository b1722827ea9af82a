/*
 * ssimulacra2 in a ladder (docs/LADDER.md): each frame's reference part,
 * per scale the reference's XYB planes and its blurred value and square
 * (VqS2Product), is a product of the ladder's cache (core/refcache.h),
 * computed by the first rendition that needs it; every rendition computes
 * the rest from it (the CPU path's VQ_S2_DIS_PART), with the same
 * operations on the same values as a pair run, so its record is its pair
 * run's.
 */
#include <string.h>

#include "core/refcache.h"
#include "ssimulacra2_priv.h"

static void *take(uint8_t *base, size_t *off, size_t floats)
{
    size_t at = *off;
    *off = (at + floats * sizeof(float) + 63) & ~(size_t)63;
    return base ? base + at : NULL;
}

size_t vq_s2_product_layout(const VqSsimulacra2Dims *d, void *base,
                            VqS2Product *p)
{
    size_t off = 0;
    memset(p, 0, sizeof(*p));
    for (unsigned sc = 0; sc < d->n_scales; sc++) {
        p->pitch[sc] = vq_s2_pitch(d->w[sc]);
        size_t floats = 3 * p->pitch[sc] * d->h[sc];
        p->xyb[sc] = take(base, &off, floats);
        p->mu1[sc] = take(base, &off, floats);
        p->s11[sc] = take(base, &off, floats);
    }
    return off;
}

size_t ssimulacra2_ref_product_size(const VqFex *fex)
{
    const S2Priv *s = fex->priv;
    if (!s->cpu_part)
        return 0;
    VqS2Product unused;
    return vq_s2_product_layout(&s->dims, NULL, &unused);
}

typedef struct RefArg {
    const S2Priv *s;
    const VqFormat *fmt;
    const VqFrame *ref;
    void *scratch;
} RefArg;

static int compute_product(void *arg, void *product)
{
    const RefArg *a = arg;
    VqS2Product p;
    vq_s2_product_layout(&a->s->dims, product, &p);
    a->s->cpu_part(&a->s->par, &a->s->dims, a->fmt, a->ref, a->ref,
                   a->scratch, NULL, VQ_S2_REF_PART, &p);
    return 0;
}

int ssimulacra2_cpu_run_shared(VqFex *fex, const VqFrame *ref,
                               const VqFrame *dis, unsigned index, void *acc,
                               void *scratch)
{
    const S2Priv *s = fex->priv;
    RefArg ra = { s, &fex->fmt, ref, scratch };
    const void *product;
    int err = vq_refcache_get(fex->cache, fex->share_user, index,
                              compute_product, &ra, &product, fex->err);
    if (err || !product)
        return err ? err : 1;
    VqS2Product p;
    vq_s2_product_layout(&s->dims, (void *)product, &p);
    s->cpu_part(&s->par, &s->dims, &fex->fmt, ref, dis, scratch, acc,
                VQ_S2_DIS_PART, &p);
    vq_refcache_put(fex->cache, fex->share_user, index);
    return 0;
}
