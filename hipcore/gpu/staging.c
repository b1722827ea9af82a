#include <stdlib.h>
#include <string.h>

#include "../../kernels/convert.h"
#include "ref_stage.h"
#include "staging.h"
#include "stream_copy.h"

/* Planes of the caller's layout ("stored" planes: a semi-planar picture has
 * two) that hold samples of the planes in `planes`. Staged at their stored
 * size (FFmpeg's rounded-up chroma: an extractor may read the column/row
 * that the scored size drops); the views keep the scored size. */
static bool stored_needed(const VqStaging *st, unsigned sp)
{
    const VqFormat *fmt = &st->fmt;
    if (sp >= fmt->n_planes || (fmt->semiplanar && sp == 2))
        return false;
    unsigned mask = fmt->semiplanar && sp == 1 ? VQ_PLANE_U | VQ_PLANE_V
                                               : 1u << sp;
    return (st->planes & mask) && fmt->sw[sp] && fmt->sh[sp];
}

/* The kernels read the slot's own planes again (after lent or shared
 * ones). */
static void own_views(VqSlot *slot)
{
    vq_staging_drop_shared(slot);
    slot->view[0] = slot->own[0];
    slot->view[1] = slot->own[1];
}

/* Whether stored plane sp is uploaded into a raw buffer and converted, or
 * straight into the planar device plane. */
static bool stored_converts(const VqFormat *fmt, unsigned sp)
{
    return fmt->msb_shift || (sp && fmt->semiplanar);
}

void vq_staging_close(VqStaging **pst)
{
    VqStaging *st = *pst;
    if (!st)
        return;
    vq_stream_copy_user(-1);
    if (st->slot) {
        for (unsigned i = 0; i < st->depth; i++) {
            VqSlot *s = &st->slot[i];
            if (s->done)
                vq_gpu_event_sync(st->gpu, s->done);
            vq_staging_release(s);
            vq_staging_drop_shared(s);
            vq_gpu_host_free(st->gpu, s->host);
            vq_gpu_host_free(st->gpu, s->acc_host);
            vq_gpu_free(st->gpu, s->acc_dev);
            for (unsigned k = 0; k < 2; k++) {
                for (unsigned p = 0; p < 3; p++)
                    vq_gpu_free(st->gpu, s->dev[k][p]);
                for (unsigned p = 0; p < 2; p++)
                    vq_gpu_free(st->gpu, s->raw[k][p]);
            }
            vq_gpu_event_destroy(st->gpu, s->uploaded);
            vq_gpu_event_destroy(st->gpu, s->done);
            vq_gpu_event_destroy(st->gpu, s->produced);
        }
        free(st->slot);
    }
    for (unsigned i = 0; i < st->lanes; i++)
        vq_gpu_event_destroy(st->gpu, st->joined[i]);
    free(st);
    *pst = NULL;
}

/* VQHIP_PITCH_JUNK=1 (parity runs): device planes start as junk, so a
 * kernel that reads a row's pitch padding meets it (uploads write only the
 * visible rows). 0xA5 samples are above every 10/12-bit maximum. */
static int junk_fill(VqStaging *st, void *dev, size_t pitch, unsigned rows)
{
    if (!st->junk)
        return 0;
    int err = vq_gpu_memset(st->gpu, vq_gpu_upload_stream(st->gpu), dev, 0xA5,
                            pitch * (rows ? rows : 1));
    return err ? err : vq_gpu_sync(st->gpu, vq_gpu_upload_stream(st->gpu));
}

static int slot_open(VqStaging *st, VqSlot *s)
{
    const VqFormat *fmt = &st->fmt;
    size_t total = 0;
    for (unsigned k = 0; k < st->pics; k++) {
        for (unsigned sp = 0; sp < fmt->n_planes; sp++) {
            if (!stored_needed(st, sp))
                continue;
            /* Read in place by kernels when mapped: rows aligned as a
             * device allocation's would be. */
            size_t row = vq_raw_row_bytes(fmt, sp);
            s->host_pitch[k][sp] = st->mapped ? (row + 255) & ~(size_t)255 : row;
            s->host_off[k][sp] = total;
            total += (s->host_pitch[k][sp] * fmt->sh[sp] + 255) & ~(size_t)255;
        }
    }
    int err = st->mapped
        ? vq_gpu_host_alloc_mapped(st->gpu, (void **)&s->host,
                                   (void **)&s->host_dev, total,
                                   "mapped staging allocation")
        : vq_gpu_host_alloc(st->gpu, (void **)&s->host, total,
                            "pinned staging allocation");
    for (unsigned k = 0; k < st->pics && !err; k++) {
        s->view[k].bpc = fmt->bpc;
        for (unsigned p = 0; p < fmt->n_planes && !err; p++) {
            if (!(st->planes & (1u << p)))
                continue;
            size_t pitch = 0;
            if (st->mapped && !stored_converts(fmt, p)) {
                /* the kernels read the staged plane itself */
                s->view[k].plane[p].data = s->host_dev + s->host_off[k][p];
                s->view[k].plane[p].pitch = s->host_pitch[k][p];
                s->view[k].plane[p].w = fmt->w[p];
                s->view[k].plane[p].h = fmt->h[p];
                continue;
            }
            err = vq_gpu_malloc_pitch(st->gpu, &s->dev[k][p], &pitch,
                                      (size_t)fmt->sw[p] * fmt->bytes_per_sample,
                                      fmt->sh[p], "device plane allocation");
            if (!err)
                err = junk_fill(st, s->dev[k][p], pitch, fmt->sh[p]);
            s->view[k].plane[p].data = s->dev[k][p];
            s->view[k].plane[p].pitch = pitch;
            s->view[k].plane[p].w = fmt->w[p];
            s->view[k].plane[p].h = fmt->h[p];
        }
        for (unsigned sp = 0; sp < 2 && !err && !st->mapped; sp++)
            if (stored_needed(st, sp) && stored_converts(fmt, sp))
                err = vq_gpu_malloc_pitch(st->gpu, &s->raw[k][sp],
                                          &s->raw_pitch[k][sp],
                                          vq_raw_row_bytes(fmt, sp), fmt->sh[sp],
                                          "device plane allocation") ||
                      junk_fill(st, s->raw[k][sp], s->raw_pitch[k][sp],
                                fmt->sh[sp]);
    }
    s->own[0] = s->view[0];
    s->own[1] = s->view[1];
    if (!err)
        err = vq_gpu_host_alloc(st->gpu, (void **)&s->acc_host, st->acc_size,
                                "pinned result allocation");
    if (!err)
        err = vq_gpu_malloc(st->gpu, (void **)&s->acc_dev, st->acc_size,
                            "device result allocation");
    if (!err)
        err = vq_gpu_event_create(st->gpu, &s->uploaded);
    if (!err)
        err = vq_gpu_event_create(st->gpu, &s->done);
    if (!err)
        err = vq_gpu_event_create(st->gpu, &s->produced);
    return err;
}

int vq_staging_open(VqStaging **pst, VqGpu *gpu, const VqFormat *fmt,
                    unsigned planes, unsigned depth, size_t acc_size,
                    VqThreadPool *pool, VqErrBuf *e)
{
    return vq_staging_open_pics(pst, gpu, fmt, planes, depth, acc_size, 2,
                                pool, e);
}

int vq_staging_open_pics(VqStaging **pst, VqGpu *gpu, const VqFormat *fmt,
                         unsigned planes, unsigned depth, size_t acc_size,
                         unsigned pics, VqThreadPool *pool, VqErrBuf *e)
{
    VqStaging *st = calloc(1, sizeof(*st));
    *pst = st;
    if (!st)
        return vq_fail(e, VQ_ENOMEM, "out of memory");
    vq_stream_copy_user(1);
    st->gpu = gpu;
    st->fmt = *fmt;
    st->planes = planes;
    st->depth = depth;
    st->pics = pics == 1 ? 1 : 2;
    st->acc_size = acc_size ? acc_size : 8;
    st->pool = pool;
    const char *zc = getenv("VQHIP_ZERO_COPY");
    st->mapped = zc && *zc ? zc[0] == '1' : vq_gpu_integrated(gpu);
    const char *junk = getenv("VQHIP_PITCH_JUNK");
    st->junk = junk && !strcmp(junk, "1");
    st->slot = calloc(depth, sizeof(*st->slot));
    if (!st->slot)
        return vq_fail(e, VQ_ENOMEM, "out of memory");
    for (unsigned i = 0; i < depth; i++) {
        int err = slot_open(st, &st->slot[i]);
        if (err)
            return err;
    }
    return 0;
}

/* Makes the planar device planes of stored plane sp of picture k from
 * `src` (device memory, the caller's layout): a copy, or conversion
 * kernels. */
static int stored_to_planar(VqStaging *st, VqSlot *slot, unsigned k,
                            unsigned sp, const void *src, size_t pitch,
                            VqStream up)
{
    const VqFormat *fmt = &st->fmt;
    unsigned bps = fmt->bytes_per_sample;
    if (!stored_converts(fmt, sp))
        return vq_gpu_copy2d_device(st->gpu, up,
                                    (void *)slot->view[k].plane[sp].data,
                                    slot->view[k].plane[sp].pitch, src, pitch,
                                    (size_t)fmt->sw[sp] * bps, fmt->sh[sp]);
    bool semi = sp && fmt->semiplanar;
    for (unsigned c = 0; c < (semi ? 2u : 1u); c++) {
        unsigned p = sp + c;
        if (!(st->planes & (1u << p)))
            continue;
        /* without a HIP platform: fake_gpu.c's host loop (fake device) */
        int err = vq_gpu_fail(st->gpu,
            vq_convert_plane_launch(up, src, pitch, semi ? 2 : 1, c,
                                    fmt->msb_shift, bps,
                                    (void *)slot->view[k].plane[p].data,
                                    slot->view[k].plane[p].pitch, fmt->sw[p],
                                    fmt->sh[p]),
            "plane conversion");
        if (err)
            return err;
    }
    return 0;
}

/* After the planes' uploads: the accumulators are cleared on the upload
 * stream (the slot's last download finished before it was reused), then
 * `uploaded` is recorded; without lanes the compute stream waits for it. */
static int uploads_queued(VqStaging *st, VqSlot *slot, VqStream up)
{
    int err = vq_gpu_memset(st->gpu, up, slot->acc_dev, 0, st->acc_size);
    if (!err)
        err = vq_gpu_event_record(st->gpu, slot->uploaded, up);
    if (!err && !st->lanes)
        err = vq_gpu_event_wait(st->gpu, vq_gpu_compute_stream(st->gpu),
                                slot->uploaded);
    return err;
}

unsigned vq_staging_lane_cap(void)
{
    const char *env = getenv("VQHIP_LANES");
    int cap = env && *env ? atoi(env) : VQ_GPU_MAX_LANES;
    if (cap < 2)
        return 0;
    return cap > VQ_GPU_MAX_LANES ? VQ_GPU_MAX_LANES : (unsigned)cap;
}

int vq_staging_use_lanes(VqStaging *st, unsigned n)
{
    unsigned cap = vq_staging_lane_cap();
    if (cap < 2)
        return 0;
    if (n > cap)
        n = cap;
    /* Lanes do not wait for the compute stream: what the extractors' setup
     * left on it (clearing their buffers) completes first. */
    int err = vq_gpu_sync(st->gpu, vq_gpu_compute_stream(st->gpu));
    if (err)
        return err;
    int got = vq_gpu_lanes(st->gpu, n);
    if (got < 0)
        return got;
    for (unsigned i = st->lanes; i < (unsigned)got; i++) {
        err = vq_gpu_event_create(st->gpu, &st->joined[i]);
        if (err)
            return err;
        st->lanes = i + 1;
    }
    return 0;
}

int vq_staging_fork(VqStaging *st, VqSlot *slot)
{
    for (unsigned i = 0; i < st->lanes; i++) {
        int err = vq_gpu_event_wait(st->gpu, vq_gpu_lane_stream(st->gpu, i),
                                    slot->uploaded);
        if (err)
            return err;
    }
    return 0;
}

/* One event per lane serves every frame: a wait applies to the record made
 * just before it. */
int vq_staging_join(VqStaging *st)
{
    VqStream cs = vq_gpu_compute_stream(st->gpu);
    for (unsigned i = 0; i < st->lanes; i++) {
        int err = vq_gpu_event_record(st->gpu, st->joined[i],
                                      vq_gpu_lane_stream(st->gpu, i));
        if (!err)
            err = vq_gpu_event_wait(st->gpu, cs, st->joined[i]);
        if (err)
            return err;
    }
    return 0;
}

/* Uploads stored plane sp of picture k from host memory (pinned) into its
 * device plane, or into the raw buffer and converts it. */
static int upload_stored(VqStaging *st, VqSlot *slot, unsigned k, unsigned sp,
                         const uint8_t *host, size_t pitch, VqStream up)
{
    const VqFormat *fmt = &st->fmt;
    bool conv = stored_converts(fmt, sp);
    void *dst = conv ? slot->raw[k][sp] : slot->dev[k][sp];
    size_t dpitch = conv ? slot->raw_pitch[k][sp]
                         : slot->view[k].plane[sp].pitch;
    int err = vq_gpu_upload2d(st->gpu, up, dst, dpitch, host, pitch,
                              vq_raw_row_bytes(fmt, sp), fmt->sh[sp]);
    if (!err && conv)
        err = stored_to_planar(st, slot, k, sp, dst, dpitch, up);
    return err;
}

/* Host copies of pictures k0..st->pics-1 into the slot. */
static void hold_from(VqStaging *st, VqSlot *slot, const VqFrame *ref,
                      const VqFrame *dis, unsigned k0)
{
    const VqFormat *fmt = &st->fmt;
    const VqFrame *pic[2] = { ref, dis };
    VqCopyJob job;
    job.n = 0;
    for (unsigned k = k0; k < st->pics; k++)
        for (unsigned sp = 0; sp < fmt->n_planes; sp++)
            if (stored_needed(st, sp))
                vq_copy_job_add(&job, slot->host + slot->host_off[k][sp],
                                slot->host_pitch[k][sp], &pic[k]->plane[sp],
                                vq_raw_row_bytes(fmt, sp), fmt->sh[sp],
                                VQ_MAX_COPY_TASKS / 6);
    vq_copy_job_run(&job, st->pool);
    slot->held = true;
}

void vq_staging_hold(VqStaging *st, VqSlot *slot, const VqFrame *ref,
                     const VqFrame *dis)
{
    hold_from(st, slot, ref, dis, 0);
}

void vq_staging_held_frame(const VqStaging *st, const VqSlot *slot,
                           unsigned k, VqFrame *out)
{
    if (!k && slot->shared) {
        *out = vq_shared_ref_held(slot->shared);
        return;
    }
    const VqFormat *fmt = &st->fmt;
    memset(out, 0, sizeof(*out));
    for (unsigned sp = 0; sp < fmt->n_planes; sp++) {
        if (!stored_needed(st, sp))
            continue;
        out->plane[sp].data = slot->host + slot->host_off[k][sp];
        out->plane[sp].stride = (ptrdiff_t)slot->host_pitch[k][sp];
        out->plane[sp].w = fmt->w[sp];
        out->plane[sp].h = fmt->h[sp];
    }
}

VqSlot *vq_staging_held_slot(VqStaging *st, unsigned index)
{
    for (unsigned k = 0; st && k < st->depth; k++) {
        VqSlot *slot = &st->slot[k];
        if (slot->held && slot->index == index)
            return slot;
    }
    return NULL;
}

/* Uploads (or, mapped, converts where needed) the held pictures k0.. */
static int upload_held(VqStaging *st, VqSlot *slot, unsigned k0, VqStream up)
{
    const VqFormat *fmt = &st->fmt;
    for (unsigned k = k0; k < st->pics; k++) {
        for (unsigned sp = 0; sp < fmt->n_planes; sp++) {
            if (!stored_needed(st, sp))
                continue;
            size_t off = slot->host_off[k][sp], pitch = slot->host_pitch[k][sp];
            int err = 0;
            if (st->mapped && stored_converts(fmt, sp))
                err = stored_to_planar(st, slot, k, sp, slot->host_dev + off,
                                       pitch, up);
            else if (!st->mapped)
                err = upload_stored(st, slot, k, sp, slot->host + off, pitch,
                                    up);
            if (err)
                return err;
        }
    }
    return 0;
}

int vq_staging_upload(VqStaging *st, VqSlot *slot, const VqFrame *ref,
                      const VqFrame *dis)
{
    own_views(slot);
    VqStream up = vq_gpu_upload_stream(st->gpu);
    vq_staging_hold(st, slot, ref, dis);
    int err = upload_held(st, slot, 0, up);
    return err ? err : uploads_queued(st, slot, up);
}

int vq_staging_upload_shared(VqStaging *st, VqSlot *slot, VqSharedRef *ref,
                             const VqFrame *dis)
{
    own_views(slot);
    slot->shared = ref;
    vq_shared_ref_took(ref);
    slot->view[0] = vq_shared_ref_view(ref);
    VqStream up = vq_gpu_upload_stream(st->gpu);
    hold_from(st, slot, NULL, dis, 1);
    /* the reference's uploads (another stream) before this slot's
     * `uploaded`, which the kernels wait for */
    int err = vq_gpu_event_wait(st->gpu, up, vq_shared_ref_event(ref));
    if (!err)
        err = upload_held(st, slot, 1, up);
    return err ? err : uploads_queued(st, slot, up);
}

void vq_staging_drop_shared(VqSlot *slot)
{
    if (!slot->shared)
        return;
    vq_shared_ref_release(slot->shared);
    slot->shared = NULL;
    slot->view[0] = slot->own[0];
}

void vq_staging_drop_all_shared(VqStaging *st)
{
    for (unsigned i = 0; st && i < st->depth; i++)
        vq_staging_drop_shared(&st->slot[i]);
}

int vq_staging_upload_pinned(VqStaging *st, VqSlot *slot, const VqFrame *ref,
                             const VqFrame *dis)
{
    own_views(slot);
    const VqFormat *fmt = &st->fmt;
    const VqFrame *pic[2] = { ref, dis };
    VqStream up = vq_gpu_upload_stream(st->gpu);
    int err = 0;
    for (unsigned k = 0; k < st->pics && !err; k++)
        for (unsigned sp = 0; sp < fmt->n_planes && !err; sp++)
            if (stored_needed(st, sp))
                err = upload_stored(st, slot, k, sp, pic[k]->plane[sp].data,
                                    (size_t)pic[k]->plane[sp].stride, up);
    if (!err)
        err = uploads_queued(st, slot, up);
    /* The caller may reuse its buffers once this returns. */
    if (!err)
        err = vq_gpu_event_sync(st->gpu, slot->uploaded);
    return err;
}

/* Whether the kernels can read stored plane sp of a device picture where
 * it lies: stored as they read it, and aligned as device allocations are
 * (the pitches every kernel has been verified with). */
static bool lendable(const VqFormat *fmt, unsigned sp, const VqPlane *pl)
{
    return !stored_converts(fmt, sp) && pl->stride > 0 &&
           (((uintptr_t)pl->data | (uintptr_t)pl->stride) % VQ_DEVICE_ALIGN) ==
               0;
}

/* Device pictures into the slot after the producer's work: each needed
 * stored plane copied or converted on the upload stream, or with lend,
 * where lendable, read in place through the slot's view. */
static int device_planes(VqStaging *st, VqSlot *slot, const VqFrame *ref,
                         const VqFrame *dis, VqStream producer, bool lend)
{
    const VqFormat *fmt = &st->fmt;
    const VqFrame *pic[2] = { ref, dis };
    VqStream up = vq_gpu_upload_stream(st->gpu);
    own_views(slot);
    int err = 0;
    if (producer) {
        err = vq_gpu_event_record(st->gpu, slot->produced, producer);
        if (!err)
            err = vq_gpu_event_wait(st->gpu, up, slot->produced);
    }
    for (unsigned k = 0; k < 2 && !err; k++)
        for (unsigned sp = 0; sp < fmt->n_planes && !err; sp++) {
            const VqPlane *pl = &pic[k]->plane[sp];
            if (!stored_needed(st, sp))
                continue;
            if (lend && lendable(fmt, sp, pl)) {
                slot->view[k].plane[sp].data = pl->data;
                slot->view[k].plane[sp].pitch = (size_t)pl->stride;
            } else {
                err = stored_to_planar(st, slot, k, sp, pl->data,
                                       (size_t)pl->stride, up);
            }
        }
    /* the lanes wait for `uploaded`, recorded after the producer's work */
    return err ? err : uploads_queued(st, slot, up);
}

int vq_staging_upload_device(VqStaging *st, VqSlot *slot, const VqFrame *ref,
                             const VqFrame *dis, VqStream producer)
{
    int err = device_planes(st, slot, ref, dis, producer, false);
    /* The caller may reuse its frames once this returns. */
    return err ? err : vq_gpu_event_sync(st->gpu, slot->uploaded);
}

int vq_staging_lend_device(VqStaging *st, VqSlot *slot, const VqFrame *ref,
                           const VqFrame *dis, VqStream producer,
                           void (*release)(void *), void *opaque)
{
    slot->release = release;
    slot->opaque = opaque;
    return device_planes(st, slot, ref, dis, producer, true);
}

void vq_staging_release(VqSlot *slot)
{
    void (*release)(void *) = slot->release;
    if (!release)
        return;
    slot->release = NULL;
    own_views(slot);
    release(slot->opaque);
}

int vq_staging_finish(VqStaging *st, VqSlot *slot)
{
    VqStream cs = vq_gpu_compute_stream(st->gpu);
    int err = vq_gpu_download(st->gpu, cs, slot->acc_host, slot->acc_dev,
                              st->acc_size);
    if (!err)
        err = vq_gpu_event_record(st->gpu, slot->done, cs);
    return err;
}
