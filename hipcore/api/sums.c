/*
 * Aggregate sums (vqhip.h: vq_sums, vq_import_sums): the integer state
 * behind an extractor's aggregates, read after a run and added in import
 * mode, so that merged segments give the single run's aggregates exactly
 * (integer sums add exactly, in any order).
 */
#include <string.h>

#include "context.h"

_Static_assert(VQ_SUMS_MAX == VQ_FEX_MAX_SUMS, "one bound for both sides");

/* The i-th extractor with sums (in selection order, as the aggregates),
 * its sums in v; NULL when there are fewer. */
static VqFex *fex_with_sums(const VqContext *ctx, unsigned i, uint64_t *v,
                            unsigned *n)
{
    const VqFexList *fexs = &ctx->sel.fexs;
    for (unsigned j = 0; j < fexs->n; j++) {
        VqFex *fex = fexs->fex[j];
        if (!fex->desc->sums || !(*n = fex->desc->sums(fex, v)))
            continue;
        if (!i--)
            return fex;
    }
    return NULL;
}

unsigned vq_sums_count(const VqContext *ctx)
{
    uint64_t v[VQ_SUMS_MAX];
    unsigned n = 0, count = 0;
    while (ctx && fex_with_sums(ctx, count, v, &n))
        count++;
    return count;
}

int vq_sums(const VqContext *ctx, unsigned i, VqSums *out)
{
    if (!ctx || !out)
        return VQ_EINVAL;
    memset(out, 0, sizeof(*out));
    VqFex *fex = fex_with_sums(ctx, i, out->v, &out->n);
    if (!fex)
        return VQ_EINVAL;
    out->name = fex->desc->name;
    return 0;
}

int vq_import_sums(VqContext *ctx, unsigned i, const VqSums *in)
{
    if (!ctx || !in)
        return VQ_EINVAL;
    if (!ctx->import.on || ctx->import.ended)
        return vq_fail(&ctx->err, VQ_ESTATE, "vq_import_sums: after "
                       "vq_import_begin, before vq_import_end");
    uint64_t v[VQ_SUMS_MAX];
    unsigned n = 0;
    VqFex *fex = fex_with_sums(ctx, i, v, &n);
    if (!fex || !in->name || strcmp(in->name, fex->desc->name) || in->n != n)
        return vq_fail(&ctx->err, VQ_EINVAL, "sums %u ('%s', %u values) are "
                       "not this configuration's (%s, %u values)", i,
                       in->name ? in->name : "", in->n,
                       fex ? fex->desc->name : "none", fex ? n : 0);
    fex->desc->add_sums(fex, in->v);
    return 0;
}
