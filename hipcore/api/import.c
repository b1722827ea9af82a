/*
 * Import mode (vqhip.h: vq_import_*): a context whose collector is filled
 * with values computed by other runs (a title's segments), so that the
 * log writers, pooling and percentiles work on them unchanged. Pooled
 * values are always computed here, from every imported frame: parts never
 * carry pooled values.
 *
 * vq_segment_context: the frames a segment decodes around itself.
 */
#include <string.h>

#include "context.h"

int vq_segment_context(const VqContext *ctx, unsigned *before, unsigned *after)
{
    if (!ctx || !before || !after)
        return VQ_EINVAL;
    if (!ctx->run.prepared)
        return VQ_ESTATE;
    *before = *after = 0;
    const VqFexList *fexs = &ctx->sel.fexs;
    for (unsigned i = 0; i < fexs->n; i++) {
        const VqFex *fex = fexs->fex[i];
        if (!(fex->desc->flags & VQ_FEX_TEMPORAL))
            continue;
        /* A temporal extractor's values of frame j depend on frames
         * j - 2 lag .. j + lag at most (lag: the frames compared, 1 or 2;
         * the moving average of motion3 reaches one comparison further
         * back; a previous frame is needed even with lag 0). Every
         * temporal extractor's derivation is in docs/SCALE.md; the
         * segment tests check it. */
        unsigned lag = fex->lag, b = 2 * (lag ? lag : 1);
        if (b > *before)
            *before = b;
        if (lag > *after)
            *after = lag;
    }
    return 0;
}

static const char *backend_string(const char *b)
{
    static const char *const known[] = { "cpu", "hip", "hip+cpu" };
    for (unsigned i = 0; b && i < 3; i++)
        if (!strcmp(b, known[i]))
            return known[i];
    return NULL;
}

int vq_import_begin(VqContext *ctx, const VqPicture *geometry,
                    const VqImportRun *run)
{
    if (!ctx || !geometry || !run)
        return VQ_EINVAL;
    if (ctx->run.prepared || ctx->import.on)
        return vq_fail(&ctx->err, VQ_ESTATE, "vq_import_begin: the run has "
                       "already started");
    if (ctx->run.cfg.backend != VQ_BACKEND_CPU)
        return vq_fail(&ctx->err, VQ_EINVAL, "vq_import_begin: open the "
                       "context with the CPU backend (the runs' choice is "
                       "VqImportRun.backend_choice)");
    const char *backend = backend_string(run->backend);
    if (!backend || !run->n_frames)
        return vq_fail(&ctx->err, VQ_EINVAL, "vq_import_begin: backend '%s' "
                       "(cpu, hip, hip+cpu), %u frames", run->backend
                       ? run->backend : "", run->n_frames);
    int err = vq_configure(ctx, geometry);
    if (err)
        return err;
    /* The outputs come in the runs' log order (vq_import_output): the
     * series the set-up ranked (the models') are made again. */
    VqCollector *c = &ctx->sel.coll;
    unsigned n_subsample = c->n_subsample;
    vq_collector_free(c);
    c->n_subsample = n_subsample;
    ctx->run.cfg.backend = run->backend_choice;
    snprintf(ctx->run.backend_name, sizeof(ctx->run.backend_name), "%s",
             backend);
    snprintf(ctx->import.device, sizeof(ctx->import.device), "%s",
             run->device ? run->device : "");
    ctx->run.times.start = 0;
    ctx->run.times.end = run->seconds > 0 ? run->seconds : 0;
    ctx->import.on = true;
    ctx->import.n_frames = run->n_frames;
    return 0;
}

int vq_import_output(VqContext *ctx, const char *name, const char *backend)
{
    if (!ctx || !name)
        return VQ_EINVAL;
    if (!ctx->import.on || ctx->import.frames_begun || ctx->import.ended)
        return vq_fail(&ctx->err, VQ_ESTATE, "vq_import_output: after "
                       "vq_import_begin, before the first frame");
    const char *b = backend_string(backend);
    if (!b)
        return vq_fail(&ctx->err, VQ_EINVAL, "output '%s': backend '%s' "
                       "(cpu, hip, hip+cpu)", name, backend ? backend : "");
    VqCollector *c = &ctx->sel.coll;
    if (vq_collector_find(c, name) >= 0)
        return vq_fail(&ctx->err, VQ_EINVAL, "output '%s' imported twice", name);
    int id = vq_collector_series_ranked(c, name, b, c->n);
    return id < 0 ? vq_fail(&ctx->err, id, "out of memory") : 0;
}

int vq_import_frame(VqContext *ctx, unsigned index, unsigned n,
                    const VqScore *scores)
{
    if (!ctx || (n && !scores))
        return VQ_EINVAL;
    if (!ctx->import.on || ctx->import.ended)
        return vq_fail(&ctx->err, VQ_ESTATE, "vq_import_frame: after "
                       "vq_import_begin, before vq_import_end");
    VqCollector *c = &ctx->sel.coll;
    if (index >= ctx->import.n_frames)
        return vq_fail(&ctx->err, VQ_EINVAL, "frame %u: the title has %u "
                       "frames", index, ctx->import.n_frames);
    if (!vq_collector_scored(c, index))
        return vq_fail(&ctx->err, VQ_EINVAL, "frame %u is not scored "
                       "(n_subsample %u)", index, c->n_subsample);
    ctx->import.frames_begun = true;
    for (unsigned k = 0; k < n; k++) {
        int id = vq_collector_find(c, scores[k].name ? scores[k].name : "");
        double v;
        if (id < 0)
            return vq_fail(&ctx->err, VQ_EINVAL, "frame %u: '%s' is not an "
                           "imported output", index,
                           scores[k].name ? scores[k].name : "");
        if (vq_collector_get(c, id, index, &v))
            return vq_fail(&ctx->err, VQ_EINVAL, "frame %u: '%s' imported "
                           "twice", index, scores[k].name);
        int err = vq_collector_set(c, id, index, scores[k].value);
        if (err)
            return vq_fail(&ctx->err, err, "out of memory");
    }
    return 0;
}

int vq_import_end(VqContext *ctx)
{
    if (!ctx)
        return VQ_EINVAL;
    if (!ctx->import.on || ctx->import.ended)
        return vq_fail(&ctx->err, VQ_ESTATE, "vq_import_end: after "
                       "vq_import_begin, once");
    const VqCollector *c = &ctx->sel.coll;
    unsigned n = ctx->import.n_frames, scored = 0;
    for (unsigned i = 0; i < n; i++) {
        if (!vq_collector_scored(c, i))
            continue;
        for (unsigned j = 0; j < c->n; j++) {
            double v;
            if (!vq_collector_get(c, (int)j, i, &v))
                return vq_fail(&ctx->err, VQ_EINVAL, "frame %u has no value "
                               "for '%s'", i, c->series[j].name);
        }
        scored++;
    }
    /* The aggregates, from the sums vq_import_sums added (the run's flush
     * computes them from its own). */
    const VqFexList *fexs = &ctx->sel.fexs;
    for (unsigned j = 0; j < fexs->n; j++) {
        VqFex *fex = fexs->fex[j];
        uint64_t v[VQ_FEX_MAX_SUMS];
        if (fex->desc->sums && fex->desc->sums(fex, v)) {
            int err = fex->desc->aggregate(fex);
            if (err)
                return vq_fail(&ctx->err, err, "%s: its aggregates",
                               fex->desc->name);
        }
    }
    VqPipeline *p = &ctx->run;
    p->n_submitted = p->n_ready = p->n_delivered = n;
    p->flushed = true;
    ctx->n_received_scored = scored;
    ctx->import.ended = true;
    return 0;
}
