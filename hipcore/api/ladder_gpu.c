#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "ladder_gpu.h"

/* A ring deeper than any rendition's staging: a rendition gives a picture
 * back when its slot is reused, `depth` frames later, so the ring slot
 * the next frame needs is free again (run/gpu_run.c). */
#define RING_SLACK 2

/* Device memory a ring may hold in reference products (a 1080p
 * ssimulacra2 product is about 100 MB a slot): an extractor whose slots
 * would take more is not split. */
#define RING_PRODUCT_BYTES ((size_t)1 << 30)

static unsigned first_running(const bool *ended, unsigned n)
{
    unsigned i = 0;
    while (i < n && ended[i])
        i++;
    return i;
}

static const VqStaging *staging_of(VqContext *ctx)
{
    const VqPipeline *p = &ctx->run;
    return p->gpu && !p->fallback.fell_back ? p->gpu_run.staging : NULL;
}

void vq_ladder_gpu_attach(VqLadderGpu *lg, VqContext *const *ctx,
                          const bool *ended, unsigned n)
{
    const VqStaging *s0 = NULL;
    const VqPipeline *p0 = NULL;
    unsigned running = 0, depth = 0;
    for (unsigned i = 0; i < n; i++) {
        if (ended[i])
            continue;
        const VqStaging *st = staging_of(ctx[i]);
        if (!st)
            return;
        if (!s0) {
            s0 = st;
            p0 = &ctx[i]->run;
        }
        /* one device, the same planes in the same layout */
        if (ctx[i]->run.cfg.device != p0->cfg.device ||
            st->planes != s0->planes || st->mapped != s0->mapped ||
            st->fmt.w[0] != s0->fmt.w[0] || st->fmt.h[0] != s0->fmt.h[0] ||
            st->fmt.layout != s0->fmt.layout || st->fmt.bpc != s0->fmt.bpc)
            return;
        depth = st->depth > depth ? st->depth : depth;
        running++;
    }
    /* VQHIP_LADDER_STAGE=0: each rendition uploads the reference (to
     * measure what staging it once saves) */
    const char *env = getenv("VQHIP_LADDER_STAGE");
    if (running < 2 || (env && !strcmp(env, "0")))
        return;
    /* the extractors whose record depends on the reference alone, on the
     * GPU in every running rendition: computed by the stage */
    /* and the reference's part of those that split their frames (VQHIP_
     * LADDER_SPLIT=0: not split, to measure it) */
    const char *split_env = getenv("VQHIP_LADDER_SPLIT");
    bool split = !(split_env && !strcmp(split_env, "0"));
    const VqFex *fx[VQ_REF_STAGE_MAX_FEX], *px[VQ_REF_STAGE_MAX_FEX];
    unsigned at[VQ_REF_STAGE_MAX_FEX], n_fx = 0;
    unsigned pat[VQ_REF_STAGE_MAX_FEX], n_px = 0;
    const VqFexList *f0 = &ctx[first_running(ended, n)]->sel.fexs;
    for (unsigned k = 0; k < f0->n; k++) {
        const VqFex *x = f0->fex[k];
        const VqFexDesc *d = x->desc;
        bool all = d->gpu_run && !vq_gpu_is_fake(p0->gpu);
        size_t prod = split && d->gpu_ref_size ? d->gpu_ref_size(x) : 0;
        for (unsigned i = 0; all && i < n; i++)
            all = ended[i] || ctx[i]->sel.fexs.fex[k]->on_gpu;
        if (all && (d->flags & VQ_FEX_REF_SHARED) &&
            n_fx < VQ_REF_STAGE_MAX_FEX) {
            at[n_fx] = k;
            fx[n_fx++] = x;
        } else if (all && prod &&
                   (depth + RING_SLACK) * prod <= RING_PRODUCT_BYTES &&
                   n_px < VQ_REF_STAGE_MAX_FEX) {
            pat[n_px] = k;
            px[n_px++] = x;
        }
    }
    if (vq_gpu_open(&lg->gpu, p0->cfg.device, p0->cfg.use_current_context,
                    &lg->err) ||
        vq_ref_stage_open(&lg->stage, lg->gpu, &s0->fmt, s0->planes,
                          depth + RING_SLACK, fx, n_fx, px, n_px, p0->pool,
                          &lg->err)) {
        vq_ladder_gpu_close(lg);
        return;
    }
    for (unsigned i = 0; i < n; i++) {
        if (ended[i])
            continue;
        for (unsigned j = 0; j < n_fx; j++)
            ctx[i]->sel.fexs.fex[at[j]]->gpu_shared_rec = j + 1;
        for (unsigned j = 0; j < n_px; j++)
            ctx[i]->sel.fexs.fex[pat[j]]->gpu_shared_prod = j + 1;
    }
}

void vq_ladder_gpu_stage(VqLadderGpu *lg, VqContext *const *ctx,
                         const bool *ended, unsigned n, const VqPicture *ref)
{
    if (!lg->stage || lg->off)
        return;
    unsigned running = 0, first = n;
    for (unsigned i = 0; i < n; i++)
        if (!ended[i] && staging_of(ctx[i])) {
            running++;
            first = first < n ? first : i;
        }
    VqFrame r;
    /* a picture the renditions refuse is refused by each with its reason;
     * the stage's extractors follow every frame to the last rendition */
    if (running < (vq_ref_stage_fex_count(lg->stage) ? 1u : 2u) ||
        vq_frame_from_picture(&r, &ctx[first]->run.fmt, ref, "reference",
                              &lg->err))
        return;
    VqSharedRef *sr = NULL;
    double t = vq_now();
    int err = vq_gpu_bind(lg->gpu);
    unsigned index = ctx[first]->run.n_submitted;
    vq_gpu_set_frame(lg->gpu, index); /* VQHIP_FAULT counts its frames */
    if (!err)
        err = vq_ref_stage_put(lg->stage, &r, index, running, &sr);
    lg->t_stage += vq_now() - t;
    if (err) {
        /* the device's trouble is the renditions' to report; the ring
         * stays until they closed (their slots may hold pictures) */
        lg->off = true;
        vq_gpu_mark_dead(lg->gpu); /* nothing waits on it again */
        return;
    }
    for (unsigned i = 0; sr && i < n; i++)
        if (!ended[i] && staging_of(ctx[i]))
            ctx[i]->run.gpu_run.shared_ref = sr;
}

void vq_ladder_gpu_unused(VqLadderGpu *lg, VqContext *const *ctx, unsigned n)
{
    for (unsigned i = 0; lg->stage && i < n; i++) {
        VqGpuRun *g = &ctx[i]->run.gpu_run;
        if (g->shared_ref) {
            vq_shared_ref_release(g->shared_ref);
            g->shared_ref = NULL;
        }
    }
}

void vq_ladder_gpu_stop(VqLadderGpu *lg)
{
    vq_ref_stage_stop_fex(lg->stage);
}

void vq_ladder_gpu_close(VqLadderGpu *lg)
{
    const char *stats = getenv("VQHIP_STATS");
    uint64_t staged, used, records, products;
    vq_ref_stage_counts(lg->stage, &staged, &used, &records, &products);
    if (stats && *stats && strcmp(stats, "0") && staged)
        fprintf(stderr, "vqhip stats: ladder: %llu reference pictures staged "
                "once (%.3f ms each), read by %llu renditions' frames; "
                "%llu records and %llu reference parts computed there\n",
                (unsigned long long)staged, 1e3 * lg->t_stage / staged,
                (unsigned long long)used, (unsigned long long)records,
                (unsigned long long)products);
    vq_ref_stage_close(&lg->stage);
    vq_gpu_close(&lg->gpu);
    lg->off = false;
}
