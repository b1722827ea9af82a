/* vq_set_next_frame_number: the caller's frame numbers for the logs. A
 * run keeps one segment per call: pairs from `index` on are numbered from
 * `number` on. */
#include <stdlib.h>

#include "context.h"

int vq_set_next_frame_number(VqContext *ctx, unsigned n)
{
    if (!ctx)
        return VQ_EINVAL;
    ctx->fnum.pending = true;
    ctx->fnum.next = n;
    return 0;
}

int vq_frame_numbers_accepted(VqContext *ctx, unsigned index)
{
    VqFrameNumbers *f = &ctx->fnum;
    if (!f->pending)
        return 0;
    f->pending = false;
    if (f->n && f->seg[f->n - 1].index == index) {
        f->seg[f->n - 1].number = f->next; /* set twice before one pair */
        return 0;
    }
    if (f->n == f->cap) {
        unsigned cap = f->cap ? 2 * f->cap : 8;
        void *s = realloc(f->seg, cap * sizeof(*f->seg));
        if (!s)
            return vq_fail(&ctx->err, VQ_ENOMEM, "out of memory");
        f->seg = s;
        f->cap = cap;
    }
    f->seg[f->n].index = index;
    f->seg[f->n].number = f->next;
    f->n++;
    return 0;
}

unsigned vq_log_frame_number(const VqContext *ctx, unsigned index)
{
    const VqFrameNumbers *f = &ctx->fnum;
    /* segments are in index order: the last one at or before index */
    unsigned lo = 0, hi = f->n;
    while (lo < hi) {
        unsigned mid = lo + (hi - lo) / 2;
        if (f->seg[mid].index <= index)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (!lo)
        return index;
    return f->seg[lo - 1].number + (index - f->seg[lo - 1].index);
}

void vq_frame_numbers_free(VqContext *ctx)
{
    free(ctx->fnum.seg);
    ctx->fnum.seg = NULL;
    ctx->fnum.n = ctx->fnum.cap = 0;
}
