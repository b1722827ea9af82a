#include <stdatomic.h>
#include <stdlib.h>

#include "core/extractor.h"
#include "ref_stage.h"

struct VqSharedRef {
    VqRefStage *stage;
    VqSlot *slot;          /* the staging slot holding the picture */
    VqEvent ready;         /* its uploads and the stage's kernels done */
    uint8_t *prod;         /* device: the stage's products of the frame */
    atomic_uint users;     /* runs' slots (or submits) not done with it */
};

struct VqRefStage {
    VqStaging *st;         /* one picture per slot: the reference */
    VqSharedRef *ref;      /* one per slot */
    unsigned next;
    VqFex *fex[VQ_REF_STAGE_MAX_FEX]; /* the stage's own instances */
    size_t off[VQ_REF_STAGE_MAX_FEX]; /* their records in a slot's */
    unsigned n_fex;
    VqFex *pfex[VQ_REF_STAGE_MAX_FEX]; /* instances computing products */
    size_t poff[VQ_REF_STAGE_MAX_FEX]; /* their products in a slot's */
    unsigned n_pfex;
    atomic_uint_fast64_t staged, used, records, products;
};

/* The stage's instance of a renditions' extractor: the same descriptor,
 * options and (read-only) configuration, device state of its own on the
 * stage's GPU, errors into e. */
static int clone_fex(VqRefStage *rs, const VqFex *model, bool product,
                     VqErrBuf *e)
{
    VqFex *c = malloc(sizeof(*c));
    if (!c)
        return vq_fail(e, VQ_ENOMEM, "out of memory");
    *c = *model;
    c->gpu_ready = false;
    c->gpu_priv = NULL;
    c->gpu_seq = 0;
    c->gpu_lane0 = 0;
    c->err = e;
    c->cpu = NULL;
    c->share = NULL;
    c->cache = NULL;
    c->gpu_shared_rec = 0;
    c->gpu_shared_prod = 0;
    if (product)
        rs->pfex[rs->n_pfex++] = c;
    else
        rs->fex[rs->n_fex++] = c;
    int err = c->desc->gpu_init ? c->desc->gpu_init(c, rs->st->gpu) : 0;
    c->gpu_ready = !err;
    return err;
}

int vq_ref_stage_open(VqRefStage **prs, VqGpu *gpu, const VqFormat *fmt,
                      unsigned planes, unsigned depth,
                      const VqFex *const *fexs, unsigned n_fex,
                      const VqFex *const *prods, unsigned n_prod,
                      VqThreadPool *pool, VqErrBuf *e)
{
    VqRefStage *rs = calloc(1, sizeof(*rs));
    *prs = rs;
    if (!rs || !(rs->ref = calloc(depth, sizeof(*rs->ref))))
        return vq_fail(e, VQ_ENOMEM, "out of memory");
    if (n_fex > VQ_REF_STAGE_MAX_FEX || n_prod > VQ_REF_STAGE_MAX_FEX)
        return vq_fail(e, VQ_EINVAL, "too many extractors for a stage");
    atomic_init(&rs->staged, 0);
    atomic_init(&rs->used, 0);
    atomic_init(&rs->records, 0);
    atomic_init(&rs->products, 0);
    size_t acc = 0, prod = 0;
    for (unsigned k = 0; k < n_fex; k++) {
        rs->off[k] = acc;
        acc += (fexs[k]->acc_size + 255) & ~(size_t)255;
    }
    for (unsigned k = 0; k < n_prod; k++) {
        rs->poff[k] = prod;
        prod += (prods[k]->desc->gpu_ref_size(prods[k]) + 255) & ~(size_t)255;
    }
    int err = vq_staging_open_pics(&rs->st, gpu, fmt, planes, depth, acc, 1,
                                   pool, e);
    for (unsigned i = 0; !err && i < depth; i++) {
        rs->ref[i].stage = rs;
        rs->ref[i].slot = &rs->st->slot[i];
        atomic_init(&rs->ref[i].users, 0);
        err = vq_gpu_event_create(gpu, &rs->ref[i].ready);
        if (!err && prod)
            err = vq_gpu_malloc(gpu, (void **)&rs->ref[i].prod, prod,
                                "the ladder's reference products");
    }
    for (unsigned k = 0; !err && k < n_fex; k++)
        err = clone_fex(rs, fexs[k], false, e);
    for (unsigned k = 0; !err && k < n_prod; k++)
        err = clone_fex(rs, prods[k], true, e);
    return err;
}

void vq_ref_stage_stop_fex(VqRefStage *rs)
{
    for (unsigned i = 0; rs && rs->ref && rs->st && i < rs->st->depth; i++)
        if (rs->ref[i].ready)
            vq_gpu_event_sync(rs->st->gpu, rs->ref[i].ready);
    for (unsigned k = 0; rs && k < rs->n_fex + rs->n_pfex; k++) {
        VqFex *c = k < rs->n_fex ? rs->fex[k] : rs->pfex[k - rs->n_fex];
        if (c->gpu_ready && c->desc->gpu_close)
            c->desc->gpu_close(c, rs->st->gpu);
        free(c);
    }
    if (rs)
        rs->n_fex = rs->n_pfex = 0;
}

void vq_ref_stage_close(VqRefStage **prs)
{
    VqRefStage *rs = *prs;
    if (!rs)
        return;
    vq_ref_stage_stop_fex(rs);
    for (unsigned i = 0; rs->ref && rs->st && i < rs->st->depth; i++) {
        if (rs->ref[i].ready)
            vq_gpu_event_destroy(rs->st->gpu, rs->ref[i].ready);
        vq_gpu_free(rs->st->gpu, rs->ref[i].prod);
    }
    vq_staging_close(&rs->st); /* waits for the uploads */
    free(rs->ref);
    free(rs);
    *prs = NULL;
}

unsigned vq_ref_stage_fex_count(const VqRefStage *rs)
{
    return rs ? rs->n_fex : 0;
}

unsigned vq_ref_stage_product_count(const VqRefStage *rs)
{
    return rs ? rs->n_pfex : 0;
}

int vq_ref_stage_put(VqRefStage *rs, const VqFrame *ref, unsigned index,
                     unsigned users, VqSharedRef **out)
{
    VqSharedRef *r = &rs->ref[rs->next];
    VqGpu *gpu = rs->st->gpu;
    *out = NULL;
    if (atomic_load(&r->users)) {
        /* the stage's extractors must see every frame */
        if (rs->n_fex)
            return vq_fail(rs->fex[0]->err, VQ_EDEVICE, "the ladder's "
                           "reference ring is full at frame %u", index);
        return 0;
    }
    /* A run may have given its count back without waiting for the work
     * (a submit that did not take it): the copy into the pinned memory
     * and the records' clearing wait for it. */
    int err = vq_gpu_event_sync(gpu, r->ready);
    if (!err)
        err = vq_staging_upload(rs->st, r->slot, ref, NULL);
    /* the compute stream waits for the uploads (vq_staging_upload) */
    for (unsigned k = 0; !err && k < rs->n_fex; k++) {
        VqFex *c = rs->fex[k];
        err = c->desc->gpu_run(c, gpu, &r->slot->view[0], &r->slot->view[1],
                               index, r->slot->acc_dev + rs->off[k]);
        c->gpu_seq++;
    }
    for (unsigned k = 0; !err && k < rs->n_pfex; k++) {
        VqFex *c = rs->pfex[k];
        err = c->desc->gpu_ref_run(c, gpu, &r->slot->view[0], index,
                                   r->prod + rs->poff[k]);
    }
    if (!err)
        err = vq_gpu_event_record(gpu, r->ready, vq_gpu_compute_stream(gpu));
    if (err)
        return err;
    atomic_store(&r->users, users);
    atomic_fetch_add(&rs->staged, 1);
    rs->next = (rs->next + 1) % rs->st->depth;
    *out = r;
    return 0;
}

void vq_ref_stage_counts(const VqRefStage *rs, uint64_t *staged,
                         uint64_t *used, uint64_t *records,
                         uint64_t *products)
{
    *products = rs ? atomic_load(&rs->products) : 0;
    *staged = rs ? atomic_load(&rs->staged) : 0;
    *used = rs ? atomic_load(&rs->used) : 0;
    *records = rs ? atomic_load(&rs->records) : 0;
}

VqDevFrame vq_shared_ref_view(const VqSharedRef *r)
{
    return r->slot->view[0];
}

VqFrame vq_shared_ref_held(const VqSharedRef *r)
{
    VqFrame f;
    vq_staging_held_frame(r->stage->st, r->slot, 0, &f);
    return f;
}

VqEvent vq_shared_ref_event(const VqSharedRef *r)
{
    return r->ready;
}

const void *vq_shared_ref_record(const VqSharedRef *r, unsigned k)
{
    return k < r->stage->n_fex ? r->slot->acc_dev + r->stage->off[k] : NULL;
}

const void *vq_shared_ref_product(const VqSharedRef *r, unsigned k)
{
    return k < r->stage->n_pfex ? r->prod + r->stage->poff[k] : NULL;
}

void vq_shared_ref_product_used(VqSharedRef *r)
{
    atomic_fetch_add(&r->stage->products, 1);
}

void vq_shared_ref_took(VqSharedRef *r)
{
    atomic_fetch_add(&r->stage->used, 1);
}

void vq_shared_ref_release(VqSharedRef *r)
{
    atomic_fetch_sub(&r->users, 1);
}

void vq_shared_ref_record_used(VqSharedRef *r)
{
    atomic_fetch_add(&r->stage->records, 1);
}
