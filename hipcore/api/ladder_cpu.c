/* A ladder's pass on the CPU (ladder_cpu.h). */
#include <stdlib.h>
#include <string.h>

#include "base/threadpool.h"
#include "ladder_cpu.h"

/* Records of a frame kept at most: a few frames per rendition in flight
 * (each a few hundred bytes per rendition). */
#define PASS_SLOTS 64

static unsigned first_running(const bool *ended, unsigned n)
{
    unsigned i = 0;
    while (i < n && ended[i])
        i++;
    return i;
}

int vq_ladder_cpu_attach(VqLadderCpu *lc, VqContext *const *ctx,
                         const bool *ended, unsigned n, unsigned k,
                         VqRefCache **cache)
{
    unsigned first = first_running(ended, n);
    const VqFex *x = ctx[first]->sel.fexs.fex[k];
    VqThreadPool *rp = ctx[first]->run.pool;
    unsigned threads = rp ? vq_threadpool_size(rp) : 1;
    if (!lc->parts)
        lc->parts = threads < 2 ? 1 : 2 * threads > 64 ? 64 : 2 * threads;
    size_t bytes = x->desc->ladder_work_size(x, n, lc->parts);
    if (!bytes)
        return 0;
    if (threads > 1 && !lc->pool && vq_threadpool_open(&lc->pool, threads))
        lc->pool = NULL; /* the bands in turn, then */
    void *work = NULL;
    if (posix_memalign(&work, 64, bytes))
        return VQ_ENOMEM;
    if (vq_refcache_open(cache, n, vq_ladder_records_size(n, x->acc_size),
                         PASS_SLOTS)) {
        free(work);
        return VQ_ENOMEM;
    }
    lc->fex[k] = x;
    lc->work[k] = work;
    return 0;
}

/* The planes extractors read of a picture (its luma shifted down into a
 * buffer of the ladder's own where the format stores samples high). A
 * picture the renditions would refuse (a bad stride, a sample above the
 * bit depth) is not computed: their submits report it. */
static int frame_of(VqLadderCpu *lc, const VqFormat *fmt, unsigned slot,
                    const VqPicture *pic, VqFrame *f)
{
    VqErrBuf err;
    if (vq_frame_from_picture(f, fmt, pic, "ladder", &err) ||
        vq_frame_check_range(f, fmt, VQ_PLANE_Y, "ladder", &err))
        return -1;
    if (!fmt->msb_shift)
        return 0;
    size_t stride = (size_t)fmt->w[0] * 2, bytes = stride * fmt->h[0];
    if (lc->luma_bytes != bytes) {
        for (unsigned i = 0; i <= VQ_LADDER_MAX; i++) {
            free(lc->luma[i]);
            lc->luma[i] = NULL;
        }
        lc->luma_bytes = bytes;
    }
    if (!lc->luma[slot] && !(lc->luma[slot] = malloc(bytes)))
        return -1;
    vq_frame_convert_plane(fmt, f, 0, lc->luma[slot], stride);
    f->plane[0].data = lc->luma[slot];
    f->plane[0].stride = (ptrdiff_t)stride;
    return 0;
}

void vq_ladder_cpu_pass(VqLadderCpu *lc, VqContext *const *ctx,
                        const bool *ended, unsigned n,
                        VqRefCache *const *cache, const VqPicture *ref,
                        const VqPicture *const *dis)
{
    unsigned first = first_running(ended, n);
    if (first == n)
        return;
    const VqPipeline *p0 = &ctx[first]->run;
    unsigned index = p0->n_submitted + p0->held.n; /* the frame's */
    const VqFormat *fmt = &p0->fmt;
    VqFrame rf, df[VQ_LADDER_MAX];
    bool framed = false;
    for (unsigned k = 0; k < VQ_MAX_FEX; k++) {
        if (!lc->fex[k] || !cache[k])
            continue;
        VqLadderPass lp = { .ref = &rf, .n = n, .work = lc->work[k],
                            .parts = lc->parts, .pool = lc->pool };
        unsigned in = 0;
        for (unsigned i = 0; i < n; i++) {
            const VqPipeline *p = &ctx[i]->run;
            const VqFex *fex = ctx[i]->sel.fexs.fex[k];
            if (ended[i] || p->n_submitted + p->held.n != index ||
                fex->on_gpu || !vq_env_runs_on(&p->env, fex, index))
                continue;
            lp.dis[i] = &df[i];
            in++;
        }
        if (!in)
            continue;
        if (!framed) {
            if (frame_of(lc, fmt, VQ_LADDER_MAX, ref, &rf))
                return;
            for (unsigned i = 0; i < n; i++)
                if (!ended[i] && frame_of(lc, fmt, i, dis[i], &df[i]))
                    return;
            framed = true;
        }
        VqLadderRecords *rec = vq_refcache_begin(cache[k], index);
        if (!rec)
            continue;
        size_t acc_size = lc->fex[k]->acc_size;
        memset(rec, 0, vq_ladder_records_size(n, acc_size));
        rec->n = n;
        for (unsigned i = 0; i < n; i++) {
            rec->has[i] = lp.dis[i] != NULL;
            lp.acc[i] = vq_ladder_records_at(rec, i, acc_size);
        }
        int err = lc->fex[k]->desc->ladder_run(lc->fex[k], &lp);
        vq_refcache_end(cache[k], index, !err);
    }
}

void vq_ladder_cpu_close(VqLadderCpu *lc)
{
    vq_threadpool_close(&lc->pool);
    for (unsigned k = 0; k < VQ_MAX_FEX; k++) {
        free(lc->work[k]);
        lc->work[k] = NULL;
        lc->fex[k] = NULL;
    }
    for (unsigned i = 0; i <= VQ_LADDER_MAX; i++) {
        free(lc->luma[i]);
        lc->luma[i] = NULL;
    }
}
