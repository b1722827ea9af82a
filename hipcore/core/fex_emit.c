/*
 * What extractors write (extractor.h's vq_fex_emit): their outputs, ranked
 * in the log's order (fex.h: VQ_RANK_*), into the run's collector.
 */
#include "fex.h"

static uint64_t output_rank(const VqFex *fex, unsigned index)
{
    /* frames are finalized in order: index below n_finalized means a
     * value written after its own frame (temporal lag or flush) */
    unsigned stage = index < fex->n_finalized;
    unsigned made = 0;
    for (unsigned k = 0; k < fex->n_outputs; k++)
        made += fex->out_id[k] >= 0;
    return VQ_RANK_STAGE(stage) | VQ_RANK_OWNER(fex->order) | made;
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
