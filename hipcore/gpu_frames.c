/*
 * The GPU side of the frame flow: staging slots filled and enqueued
 * (submit), read back and finalized in frame order (collect), with the
 * verify= checks and the host copies a fallback recomputes from. The fake
 * device of builds without a HIP platform runs extractors' CPU code here.
 */
#include <stdlib.h>
#include <string.h>

#include "context.h"

/* Whether fex runs on this context's GPU: its kernels, or on the fake
 * device (tests) its CPU code, for extractors without frame-to-frame
 * state (a temporal one's CPU state would be shared with the fallback). */
bool vq_fex_has_gpu(const VqContext *ctx, const VqFex *fex)
{
    if (vq_gpu_is_fake(ctx->gpu))
        return !(fex->desc->flags & VQ_FEX_TEMPORAL);
    return fex->desc->gpu_run != NULL;
}

void vq_fex_gpu_close(VqContext *ctx, VqFex *fex)
{
    if (fex->gpu_ready && vq_gpu_is_fake(ctx->gpu)) {
        free(fex->gpu_priv); /* run_on_gpu's scratch */
        fex->gpu_priv = NULL;
    } else if (fex->gpu_ready && fex->desc->gpu_close) {
        fex->desc->gpu_close(fex, ctx->gpu);
    }
    fex->gpu_ready = false;
}


/* Reads back one slot's results (waiting for them) and finalizes them. */
int vq_gpu_collect_slot(VqContext *ctx, VqSlot *slot)
{
    if (!slot->busy)
        return 0;
    if (slot->has_work) {
        double t = vq_now();
        int err = vq_gpu_event_sync(ctx->gpu, slot->done);
        ctx->t_wait += vq_now() - t;
        if (err)
            return err; /* still in flight: a fallback recomputes it */
        vq_staging_release(slot); /* lent planes: no longer read */
        if (vq_gpu_fault_drop(ctx->gpu, slot->index))
            memset(slot->acc_host, 0, ctx->staging->acc_size);
    }
    slot->busy = false;
    for (unsigned i = 0; i < ctx->n_fex; i++) {
        VqFex *fex = ctx->fex[i];
        if (!fex->on_gpu)
            continue;
        if (vq_fex_runs_on(ctx, fex, slot->index)) {
            const void *acc = slot->acc_host + fex->acc_off;
            int err = slot->verify ? vq_verify_finalize(ctx, fex, slot, acc)
                                   : fex->desc->finalize(fex, acc, slot->index);
            if (err)
                return err;
        }
        fex->n_finalized++;
    }
    return 0;
}

/* Busy slots, oldest first. */
unsigned vq_gpu_in_flight(const VqContext *ctx, VqSlot **out)
{
    const VqStaging *st = ctx->staging;
    unsigned n = 0;
    for (unsigned k = 0; k < st->depth; k++) {
        VqSlot *slot = &st->slot[(ctx->next_slot + k) % st->depth];
        if (slot->busy)
            out[n++] = slot;
    }
    return n;
}

VqSlot *vq_held_slot(VqContext *ctx, unsigned index)
{
    for (unsigned k = 0; ctx->staging && k < ctx->staging->depth; k++) {
        VqSlot *slot = &ctx->staging->slot[k];
        if (slot->held && slot->index == index)
            return slot;
    }
    return NULL;
}


/* Whether every stored plane of both frames lies in pinned buffers of
 * vq_host_alloc (then uploaded without the host copy). */
static bool frames_pinned(const VqContext *ctx, const VqFrame *r,
                          const VqFrame *d)
{
    const VqFormat *fmt = &ctx->fmt;
    unsigned n_stored = fmt->semiplanar ? 2 : fmt->n_planes;
    if (!ctx->n_host_buf || ctx->staging->mapped)
        return false;
    for (unsigned k = 0; k < 2; k++)
        for (unsigned p = 0; p < n_stored; p++) {
            const VqPlane *pl = &(k ? d : r)->plane[p];
            if (!fmt->sh[p])
                continue;
            size_t len = (size_t)pl->stride * (fmt->sh[p] - 1) +
                         vq_raw_row_bytes(fmt, p);
            if (!vq_in_host_buf(ctx, pl->data, len))
                return false;
        }
    return true;
}

/* Whether frame index + ahead is verified (ahead > 0: whether one of the
 * next `ahead` frames is, whose temporal extractors need this one). */
static bool verify_frame(const VqContext *ctx, unsigned index, unsigned ahead)
{
    unsigned n = ctx->cfg.verify;
    for (unsigned a = 0; n && a <= ahead; a++)
        if ((index + a) % n == 0)
            return true;
    return false;
}

static unsigned hold_history(const VqContext *ctx)
{
    return ctx->staging->depth - ctx->cfg.depth;
}

/* An extractor's kernels for one frame; on the fake device (tests without
 * a GPU) its CPU code on the slot's host-memory planes. */
static int run_on_gpu(VqContext *ctx, VqFex *fex, VqSlot *slot,
                      unsigned index)
{
    void *acc = slot->acc_dev + fex->acc_off;
    if (!vq_gpu_is_fake(ctx->gpu))
        return fex->desc->gpu_run(fex, ctx->gpu, &slot->view[0],
                                  &slot->view[1], index, acc);
    VqFrame f[2];
    memset(f, 0, sizeof(f));
    for (unsigned k = 0; k < 2; k++)
        for (unsigned p = 0; p < 3; p++) {
            const VqDevPlane *d = &slot->view[k].plane[p];
            f[k].plane[p] = (VqPlane){ d->data, (ptrdiff_t)d->pitch, d->w,
                                       d->h };
        }
    int err = vq_gpu_fail(ctx->gpu, 0, fex->desc->name); /* launch faults */
    if (!err && fex->scratch_size && !fex->gpu_priv &&
        !(fex->gpu_priv = aligned_alloc(64, (fex->scratch_size + 63) &
                                            ~(size_t)63)))
        err = vq_fail(&ctx->err, VQ_ENOMEM, "out of memory");
    return err ? err : fex->desc->cpu_run(fex, &f[0], &f[1], index, acc,
                                          fex->gpu_priv);
}

int vq_gpu_submit(VqContext *ctx, const VqFrame *ref, const VqFrame *dis,
                  unsigned index, bool device, VqStream producer,
                  VqReleaseFn release, void *opaque, bool *taken)
{
    VqStaging *st = ctx->staging;
    VqSlot *slot = &st->slot[ctx->next_slot], *fl[VQ_MAX_SLOTS];
    /* At most cfg.depth frames in flight; the ring has more slots. */
    unsigned n_fl = vq_gpu_in_flight(ctx, fl);
    int err = 0;
    for (unsigned k = 0; !err && n_fl - k >= ctx->cfg.depth; k++)
        err = vq_gpu_collect_slot(ctx, fl[k]);
    if (!err)
        err = vq_gpu_collect_slot(ctx, slot);
    if (err)
        return err;
    slot->index = index;
    slot->has_work = false;
    slot->held = false;
    for (unsigned i = 0; i < ctx->n_fex; i++)
        if (ctx->fex[i]->on_gpu && vq_fex_runs_on(ctx, ctx->fex[i], index))
            slot->has_work = true;
    slot->verify = slot->has_work && verify_frame(ctx, index, 0);
    vq_gpu_set_frame(ctx->gpu, index);
    if (slot->has_work) {
        double t0 = vq_now();
        if (device) {
            if (release) {
                err = vq_staging_lend_device(st, slot, ref, dis, producer,
                                             release, opaque);
                *taken = true;
            } else {
                err = vq_staging_upload_device(st, slot, ref, dis, producer);
            }
            if (slot->verify && !ctx->verify_warned) {
                vq_log(ctx, VQ_LOG_LEVEL_WARNING, "verify: pictures in device "
                       "memory are not verified (no host copy)");
                ctx->verify_warned = true;
            }
            slot->verify = false;
        } else if (frames_pinned(ctx, ref, dis)) {
            /* uploaded in place; a host copy only where verify needs one */
            if (verify_frame(ctx, index, hold_history(ctx)))
                vq_staging_hold(st, slot, ref, dis);
            err = vq_staging_upload_pinned(st, slot, ref, dis);
        } else {
            err = vq_staging_upload(st, slot, ref, dis);
        }
        double t1 = vq_now();
        if (!err && st->lanes)
            err = vq_staging_fork(st, slot);
        /* Each set of an extractor's device state has one lane, the same
         * on every frame, so the frames of a set run in frame order. */
        for (unsigned i = 0; !err && i < ctx->n_fex; i++) {
            VqFex *fex = ctx->fex[i];
            if (!fex->on_gpu || !vq_fex_runs_on(ctx, fex, index))
                continue;
            unsigned lane = fex->gpu_lane0 + fex->gpu_seq % fex->gpu_sets;
            if (st->lanes)
                vq_gpu_use_lane(ctx->gpu, (int)(lane % st->lanes));
            err = run_on_gpu(ctx, fex, slot, index);
            vq_gpu_use_lane(ctx->gpu, -1);
            fex->gpu_seq++;
        }
        if (!err && st->lanes)
            err = vq_staging_join(st);
        if (!err)
            err = vq_staging_finish(st, slot);
        ctx->t_copy += t1 - t0;
        ctx->t_enqueue += vq_now() - t1;
        ctx->n_gpu_frames++;
        if (err)
            return err;
    }
    slot->busy = true;
    ctx->next_slot = (ctx->next_slot + 1) % st->depth;
    return 0;
}

/* Host copies of device pictures for the extractors that run on the CPU:
 * each stored plane downloaded into ctx->dl (caller's layout). */
int vq_download_frames(VqContext *ctx, VqStream producer,
                       const VqFrame *dref, const VqFrame *ddis,
                       VqFrame *href, VqFrame *hdis)
{
    const VqFormat *fmt = &ctx->fmt;
    /* Rare path (an extractor without a GPU path): the host waits for the
     * producer instead of an event chain. */
    if (producer) {
        int err = vq_gpu_sync(ctx->gpu, producer);
        if (err)
            return err;
    }
    unsigned n_stored = fmt->semiplanar ? 2 : fmt->n_planes;
    size_t need = 0;
    for (unsigned p = 0; p < n_stored; p++)
        need += 2 * vq_raw_row_bytes(fmt, p) * fmt->sh[p];
    if (ctx->dl_size < need) {
        void *b = realloc(ctx->dl, need);
        if (!b)
            return vq_fail(&ctx->err, VQ_ENOMEM, "out of memory");
        ctx->dl = b;
        ctx->dl_size = need;
    }
    const VqFrame in[2] = { *dref, *ddis }; /* the outputs may alias them */
    const VqFrame *src[2] = { &in[0], &in[1] };
    VqFrame *dst[2] = { href, hdis };
    VqStream up = vq_gpu_upload_stream(ctx->gpu);
    size_t off = 0;
    for (unsigned k = 0; k < 2; k++) {
        memset(dst[k], 0, sizeof(*dst[k]));
        for (unsigned p = 0; p < n_stored; p++) {
            size_t row = vq_raw_row_bytes(fmt, p);
            VqPlane *d = &dst[k]->plane[p];
            d->data = (uint8_t *)ctx->dl + off;
            d->stride = (ptrdiff_t)row;
            d->w = fmt->w[p];
            d->h = fmt->h[p];
            int err = vq_gpu_download2d(ctx->gpu, up, (uint8_t *)ctx->dl + off,
                                        row, src[k]->plane[p].data,
                                        (size_t)src[k]->plane[p].stride, row,
                                        fmt->sh[p]);
            if (err)
                return err;
            off += row * fmt->sh[p];
        }
    }
    return vq_gpu_sync(ctx->gpu, up);
}

