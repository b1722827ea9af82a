/*
 * speed_chroma's CPU stage. In a ladder (docs/LADDER.md) the reference's
 * results of both chroma planes (their blocks' variances and entropies)
 * are a product of the ladder's cache (core/refcache.h), computed by the
 * first rendition that needs the frame and read by the others, so each
 * rendition computes its distorted picture's results alone; the same
 * function on the same planes gives the same values.
 */
#include "core/refcache.h"
#include "speed_chroma_priv.h"

static VqSpeedSrc host_src(const VqPlane *p, const VqFormat *fmt)
{
    VqSpeedSrc src = {
        .cur = p->data, .cur_pitch = (size_t)p->stride,
        .bytes = (int32_t)fmt->bytes_per_sample,
        .scaler = (float)(1u << (fmt->bpc - 8)),
    };
    return src;
}

/* The product: the two planes' singular flags (bytes), then per plane its
 * variances and entropies (nb floats each). */
#define PRODUCT_HEAD 64

size_t speed_chroma_ref_product_size(const VqFex *fex)
{
    const ChromaPriv *s = fex->priv;
    return PRODUCT_HEAD + 4 * (size_t)s->sp.g.nb * sizeof(float);
}

static VqSpeedResult product_result(const ChromaPriv *s, void *product, int c)
{
    const size_t nb = (size_t)s->sp.g.nb;
    float *f = (float *)(void *)((char *)product + PRODUCT_HEAD) +
               (size_t)(c - 1) * 2 * nb;
    VqSpeedResult r = { f, f + nb, ((uint8_t *)product)[c - 1] != 0 };
    return r;
}

typedef struct RefArg {
    const ChromaPriv *s;
    const VqFrame *ref;
    const VqFormat *fmt;
    void *scratch;
} RefArg;

static int compute_product(void *arg, void *product)
{
    const RefArg *a = arg;
    for (int c = 1; c <= 2; c++) {
        VqSpeedResult rr = product_result(a->s, product, c);
        VqSpeedSrc sr = host_src(&a->ref->plane[c], a->fmt);
        vq_speed_cpu_image(&a->s->sp, &sr, &rr, a->scratch);
        ((uint8_t *)product)[c - 1] = rr.singular;
    }
    return 0;
}

int speed_chroma_cpu_run(VqFex *fex, const VqFrame *ref, const VqFrame *dis,
                   unsigned index, void *acc, void *scratch)
{
    const ChromaPriv *s = fex->priv;
    const size_t nb = (size_t)s->sp.g.nb;
    float *res_buf = (float *)((char *)scratch + s->img_scratch);
    VqSpeedResult rr = { res_buf, res_buf + nb, false };
    VqSpeedResult rd = { res_buf + 2 * nb, res_buf + 3 * nb, false };
    const void *product = NULL;
    if (fex->cache) {
        RefArg ra = { s, ref, &fex->fmt, scratch };
        int err = vq_refcache_get(fex->cache, fex->share_user, index,
                                  compute_product, &ra, &product, fex->err);
        if (err)
            return err;
    }
    for (int c = 1; c <= 2; c++) {
        VqSpeedSrc sd = host_src(&dis->plane[c], &fex->fmt);
        if (product) {
            rr = product_result(s, (void *)product, c);
        } else {
            VqSpeedSrc sr = host_src(&ref->plane[c], &fex->fmt);
            vq_speed_cpu_image(&s->sp, &sr, &rr, scratch);
        }
        vq_speed_cpu_image(&s->sp, &sd, &rd, scratch);
        vq_speed_cpu_pair(&s->sp, &rr, &rd,
                          (char *)acc + (size_t)(c - 1) * pair_bytes(s));
    }
    if (product)
        vq_refcache_put(fex->cache, fex->share_user, index);
    return 0;
}
