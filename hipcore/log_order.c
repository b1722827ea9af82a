/*
 * The order of the outputs in the log (moved out of pipeline.c as it was).
 */
#include "context.h"

/*
 * libvmaf's log lists outputs in the order they were first written to its
 * collector. Without a thread pool (its tool's and filter's default) that
 * is: the extractors' outputs written with a frame's own extraction, by
 * extractor in the order they were selected (a model's extractors first
 * when the model is selected first), each in the order it writes them;
 * then the outputs written later (temporal ones such as integer motion2,
 * and those written at the end); then the models' outputs (vq_log_rank_models).
 * Ranks encode that order, so the log does not depend on which backend or
 * worker finished first.
 */
#define RANK_STAGE(s) ((uint64_t)(s) << 40)
#define RANK_OWNER(i) ((uint64_t)(i) << 20)

static uint64_t output_rank(const VqFex *fex, unsigned index)
{
    /* frames are finalized in order: index below n_finalized means a
     * value written after its own frame (temporal lag or flush) */
    unsigned stage = index < fex->n_finalized;
    unsigned made = 0;
    for (unsigned k = 0; k < fex->n_outputs; k++)
        made += fex->out_id[k] >= 0;
    return RANK_STAGE(stage) | RANK_OWNER(fex->order) | made;
}

/* Models' outputs after every extractor's: each model's main output in the
 * order the models were selected, then the others (bootstrap members,
 * bagging, stddev, interval), model by model, as libvmaf's tool writes
 * them when it pools the scores at the end. */
int vq_log_rank_models(VqContext *ctx)
{
    for (unsigned i = 0; i < ctx->n_model; i++) {
        const VqModel *m = ctx->model[i];
        for (unsigned k = 0; k < vq_model_output_count(m); k++) {
            uint64_t rank = k ? RANK_STAGE(3) | RANK_OWNER(i) | k
                              : RANK_STAGE(2) | RANK_OWNER(i);
            int id = vq_collector_series_ranked(&ctx->coll,
                                                vq_model_output_name(m, k),
                                                ctx->model_backend[i], rank);
            if (id < 0)
                return vq_fail(&ctx->err, id, "out of memory");
        }
    }
    return 0;
}

int vq_fex_emit(VqFex *fex, unsigned k, unsigned index, double value)
{
    if (k >= fex->n_outputs)
        return vq_fail(fex->err, VQ_EINVAL, "%s: output %u out of range",
                       fex->desc->name, k);
    if (fex->out_id[k] < 0) {
        int id = vq_collector_series_ranked(fex->coll, fex->out_name[k],
                                            fex->on_gpu ? "hip" : "cpu",
                                            output_rank(fex, index));
        if (id < 0)
            return vq_fail(fex->err, id, "out of memory");
        fex->out_id[k] = id;
    }
    int err = vq_collector_set(fex->coll, fex->out_id[k], index, value);
    return err ? vq_fail(fex->err, err, "out of memory") : 0;
}

int vq_fex_emit_aggregate(VqFex *fex, const char *name, double value)
{
    int err = vq_collector_set_aggregate(fex->coll, name, value);
    return err ? vq_fail(fex->err, err, "out of memory") : 0;
}
