/* The GPU side of a run (gpu_run.h). */
#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "gpu/ref_stage.h"
#include "gpu_run.h"

/* Whether fex runs on this context's GPU: its kernels, or on the fake
 * device (tests) its CPU code, for extractors without frame-to-frame
 * state (a temporal one's CPU state would be shared with the fallback). */
bool vq_fex_has_gpu(const VqGpu *gpu, const VqFex *fex)
{
    if (vq_gpu_is_fake(gpu))
        return !(fex->desc->flags & VQ_FEX_TEMPORAL);
    return fex->desc->gpu_run != NULL;
}

void vq_fex_gpu_close(VqGpu *gpu, VqFex *fex)
{
    if (fex->gpu_ready && vq_gpu_is_fake(gpu)) {
        free(fex->gpu_priv); /* run_on_gpu's scratch */
        fex->gpu_priv = NULL;
    } else if (fex->gpu_ready && fex->desc->gpu_close) {
        fex->desc->gpu_close(fex, gpu);
    }
    fex->gpu_ready = false;
}

int vq_gpu_run_start(VqGpuRun *g, unsigned planes, unsigned slots,
                     size_t acc_size, VqThreadPool *pool, unsigned n_sets,
                     unsigned lane_cap)
{
    int err = vq_staging_open(&g->staging, g->gpu, g->env->fmt, planes, slots,
                              acc_size, pool, g->env->err);
    if (!err && n_sets > 1 && lane_cap >= 2)
        err = vq_staging_use_lanes(g->staging, n_sets);
    return err;
}

void vq_gpu_run_stop(VqGpuRun *g)
{
    if (g->gpu)
        vq_gpu_range_free(g->gpu, &g->range);
    if (g->staging)
        vq_staging_close(&g->staging);
    for (unsigned i = 0; i < g->env->fexs->n; i++)
        vq_fex_gpu_close(g->gpu, g->env->fexs->fex[i]);
    vq_verify_free(&g->verify);
}

void vq_gpu_run_free(VqGpuRun *g)
{
    vq_gpu_run_stop(g);
    free(g->dl);
    g->dl = NULL;
    g->dl_size = 0;
}

/* Reads back one slot's results (waiting for them) and finalizes them. */
int vq_gpu_collect_slot(VqGpuRun *g, VqSlot *slot)
{
    if (!slot->busy)
        return 0;
    if (slot->has_work) {
        double t = vq_now();
        int err = vq_gpu_event_sync(g->gpu, slot->done);
        g->t_wait += vq_now() - t;
        if (err)
            return err; /* still in flight: a fallback recomputes it */
        vq_staging_release(slot); /* lent planes: no longer read */
        if (vq_gpu_fault_drop(g->gpu, slot->index))
            memset(slot->acc_host, 0, g->staging->acc_size);
    }
    slot->busy = false;
    const VqFexList *fexs = g->env->fexs;
    for (unsigned i = 0; i < fexs->n; i++) {
        VqFex *fex = fexs->fex[i];
        if (!fex->on_gpu)
            continue;
        if (vq_env_runs_on(g->env, fex, slot->index)) {
            const void *acc = slot->acc_host + fex->acc_off;
            int err = slot->verify
                      ? vq_verify_finalize(&g->verify, g->env, g->staging, fex,
                                           slot, acc)
                      : fex->desc->finalize(fex, acc, slot->index);
            if (err)
                return err;
        }
        fex->n_finalized++;
    }
    return 0;
}

/* Busy slots, oldest first. */
unsigned vq_gpu_in_flight(const VqGpuRun *g, VqSlot **out)
{
    const VqStaging *st = g->staging;
    unsigned n = 0;
    for (unsigned k = 0; k < st->depth; k++) {
        VqSlot *slot = &st->slot[(g->next_slot + k) % st->depth];
        if (slot->busy)
            out[n++] = slot;
    }
    return n;
}

/* Whether every stored plane of both frames lies in pinned buffers of
 * vq_host_alloc (then uploaded without the host copy). */
static bool frames_pinned(const VqGpuRun *g, const VqFrame *r,
                          const VqFrame *d)
{
    const VqFormat *fmt = g->env->fmt;
    unsigned n_stored = fmt->semiplanar ? 2 : fmt->n_planes;
    if (!g->host->n || g->staging->mapped)
        return false;
    for (unsigned k = 0; k < 2; k++)
        for (unsigned p = 0; p < n_stored; p++) {
            const VqPlane *pl = &(k ? d : r)->plane[p];
            if (!fmt->sh[p])
                continue;
            size_t len = (size_t)pl->stride * (fmt->sh[p] - 1) +
                         vq_raw_row_bytes(fmt, p);
            if (!vq_host_bufs_pinned(g->host, pl->data, len))
                return false;
        }
    return true;
}

static unsigned hold_history(const VqGpuRun *g)
{
    return g->staging->depth - g->depth;
}

/* An extractor's kernels for one frame; on the fake device (tests without
 * a GPU) its CPU code on the slot's host-memory planes. */
static int run_on_gpu(VqGpuRun *g, VqFex *fex, VqSlot *slot, unsigned index)
{
    void *acc = slot->acc_dev + fex->acc_off;
    if (fex->gpu_shared_rec) {
        /* a ladder's stage computed the record (after the event this
         * slot's uploads waited for): copied on the extractor's stream */
        const void *rec = slot->shared ? vq_shared_ref_record(
                              slot->shared, fex->gpu_shared_rec - 1) : NULL;
        if (!rec)
            return vq_fail(g->env->err, VQ_EDEVICE, "%s: the ladder's "
                           "record of frame %u is missing (its staging "
                           "stopped)", fex->desc->name, index);
        vq_shared_ref_record_used(slot->shared);
        return vq_gpu_copy2d_device(g->gpu, vq_gpu_compute_stream(g->gpu),
                                    acc, fex->acc_size, rec, fex->acc_size,
                                    fex->acc_size, 1);
    }
    const void *prod = fex->gpu_shared_prod && slot->shared ?
        vq_shared_ref_product(slot->shared, fex->gpu_shared_prod - 1) : NULL;
    if (prod) {
        /* a ladder's stage computed the reference's part, as above; a
         * frame staged without it is computed whole */
        vq_shared_ref_product_used(slot->shared);
        return fex->desc->gpu_run_split(fex, g->gpu, &slot->view[0],
                                        &slot->view[1], index, prod, acc);
    }
    if (!vq_gpu_is_fake(g->gpu))
        return fex->desc->gpu_run(fex, g->gpu, &slot->view[0],
                                  &slot->view[1], index, acc);
    VqFrame f[2];
    memset(f, 0, sizeof(f));
    for (unsigned k = 0; k < 2; k++)
        for (unsigned p = 0; p < 3; p++) {
            const VqDevPlane *d = &slot->view[k].plane[p];
            f[k].plane[p] = (VqPlane){ d->data, (ptrdiff_t)d->pitch, d->w,
                                       d->h };
        }
    int err = vq_gpu_fail(g->gpu, 0, fex->desc->name); /* launch faults */
    if (!err && fex->scratch_size && !fex->gpu_priv &&
        !(fex->gpu_priv = aligned_alloc(64, (fex->scratch_size + 63) &
                                            ~(size_t)63)))
        err = vq_fail(g->env->err, VQ_ENOMEM, "out of memory");
    return err ? err : fex->desc->cpu_run(fex, &f[0], &f[1], index, acc,
                                          fex->gpu_priv);
}

int vq_gpu_submit(VqGpuRun *g, const VqFrame *ref, const VqFrame *dis,
                  unsigned index, bool device, VqStream producer,
                  VqReleaseFn release, void *opaque, bool *taken)
{
    const VqFexList *fexs = g->env->fexs;
    VqStaging *st = g->staging;
    VqSlot *slot = &st->slot[g->next_slot], *fl[VQ_MAX_SLOTS];
    /* At most cfg.depth frames in flight; the ring has more slots. */
    unsigned n_fl = vq_gpu_in_flight(g, fl);
    int err = 0;
    for (unsigned k = 0; !err && n_fl - k >= g->depth; k++)
        err = vq_gpu_collect_slot(g, fl[k]);
    if (!err)
        err = vq_gpu_collect_slot(g, slot);
    if (err)
        return err;
    vq_staging_drop_shared(slot); /* the frame it held is done */
    slot->index = index;
    slot->has_work = false;
    slot->held = false;
    for (unsigned i = 0; i < fexs->n; i++)
        if (fexs->fex[i]->on_gpu && vq_env_runs_on(g->env, fexs->fex[i], index))
            slot->has_work = true;
    slot->verify = slot->has_work && vq_verify_frame(&g->verify, index, 0);
    vq_gpu_set_frame(g->gpu, index);
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
            if (slot->verify && !g->verify.warned) {
                vq_log(g->env->log, VQ_LOG_LEVEL_WARNING, "verify: pictures "
                       "in device memory are not verified (no host copy)");
                g->verify.warned = true;
            }
            slot->verify = false;
        } else if (g->shared_ref) {
            err = vq_staging_upload_shared(st, slot, g->shared_ref, dis);
            g->shared_ref = NULL;
        } else if (frames_pinned(g, ref, dis)) {
            /* uploaded in place; a host copy only where verify needs one */
            if (vq_verify_frame(&g->verify, index, hold_history(g)))
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
        for (unsigned i = 0; !err && i < fexs->n; i++) {
            VqFex *fex = fexs->fex[i];
            if (!fex->on_gpu || !vq_env_runs_on(g->env, fex, index))
                continue;
            unsigned lane = fex->gpu_lane0 + fex->gpu_seq % fex->gpu_sets;
            if (st->lanes)
                vq_gpu_use_lane(g->gpu, (int)(lane % st->lanes));
            err = run_on_gpu(g, fex, slot, index);
            vq_gpu_use_lane(g->gpu, -1);
            fex->gpu_seq++;
        }
        if (!err && st->lanes)
            err = vq_staging_join(st);
        if (!err)
            err = vq_staging_finish(st, slot);
        g->t_copy += t1 - t0;
        g->t_enqueue += vq_now() - t1;
        g->n_frames++;
        if (err)
            return err;
    }
    slot->busy = true;
    g->next_slot = (g->next_slot + 1) % st->depth;
    return 0;
}

/* Host copies of device pictures for the extractors that run on the CPU:
 * each stored plane downloaded into g->dl (caller's layout). */
int vq_download_frames(VqGpuRun *g, VqStream producer,
                       const VqFrame *dref, const VqFrame *ddis,
                       VqFrame *href, VqFrame *hdis)
{
    const VqFormat *fmt = g->env->fmt;
    /* Rare path (an extractor without a GPU path): the host waits for the
     * producer instead of an event chain. */
    if (producer) {
        int err = vq_gpu_sync(g->gpu, producer);
        if (err)
            return err;
    }
    unsigned n_stored = fmt->semiplanar ? 2 : fmt->n_planes;
    size_t need = 0;
    for (unsigned p = 0; p < n_stored; p++)
        need += 2 * vq_raw_row_bytes(fmt, p) * fmt->sh[p];
    if (g->dl_size < need) {
        void *b = realloc(g->dl, need);
        if (!b)
            return vq_fail(g->env->err, VQ_ENOMEM, "out of memory");
        g->dl = b;
        g->dl_size = need;
    }
    const VqFrame in[2] = { *dref, *ddis }; /* the outputs may alias them */
    const VqFrame *src[2] = { &in[0], &in[1] };
    VqFrame *dst[2] = { href, hdis };
    VqStream up = vq_gpu_upload_stream(g->gpu);
    size_t off = 0;
    for (unsigned k = 0; k < 2; k++) {
        memset(dst[k], 0, sizeof(*dst[k]));
        for (unsigned p = 0; p < n_stored; p++) {
            size_t row = vq_raw_row_bytes(fmt, p);
            VqPlane *d = &dst[k]->plane[p];
            d->data = (uint8_t *)g->dl + off;
            d->stride = (ptrdiff_t)row;
            d->w = fmt->w[p];
            d->h = fmt->h[p];
            int err = vq_gpu_download2d(g->gpu, up, (uint8_t *)g->dl + off,
                                        row, src[k]->plane[p].data,
                                        (size_t)src[k]->plane[p].stride, row,
                                        fmt->sh[p]);
            if (err)
                return err;
            off += row * fmt->sh[p];
        }
    }
    return vq_gpu_sync(g->gpu, up);
}

