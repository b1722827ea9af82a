#include <stdlib.h>
#include <string.h>

#include "staging.h"

/* The stored planes (FFmpeg's rounded-up chroma) are staged, so an
 * extractor may read the chroma column/row that the scored size drops. */
static size_t plane_bytes(const VqFormat *fmt, unsigned p)
{
    return (size_t)fmt->sw[p] * fmt->bytes_per_sample * fmt->sh[p];
}

void vq_staging_close(VqStaging **pst)
{
    VqStaging *st = *pst;
    if (!st)
        return;
    if (st->slot) {
        for (unsigned i = 0; i < st->depth; i++) {
            VqSlot *s = &st->slot[i];
            if (s->done)
                vq_gpu_event_sync(st->gpu, s->done);
            vq_gpu_host_free(st->gpu, s->host);
            vq_gpu_host_free(st->gpu, s->acc_host);
            vq_gpu_free(st->gpu, s->acc_dev);
            for (unsigned k = 0; k < 2; k++)
                for (unsigned p = 0; p < 3; p++)
                    vq_gpu_free(st->gpu, s->dev[k][p]);
            vq_gpu_event_destroy(st->gpu, s->uploaded);
            vq_gpu_event_destroy(st->gpu, s->done);
        }
        free(st->slot);
    }
    free(st);
    *pst = NULL;
}

static int slot_open(VqStaging *st, VqSlot *s)
{
    const VqFormat *fmt = &st->fmt;
    size_t total = 0;
    for (unsigned k = 0; k < 2; k++) {
        for (unsigned p = 0; p < fmt->n_planes; p++) {
            if (!(st->planes & (1u << p)))
                continue;
            s->host_off[k][p] = total;
            total += (plane_bytes(fmt, p) + 63) & ~(size_t)63;
        }
    }
    int err = vq_gpu_host_alloc(st->gpu, (void **)&s->host, total,
                                "pinned staging allocation");
    for (unsigned k = 0; k < 2 && !err; k++) {
        s->view[k].bpc = fmt->bpc;
        for (unsigned p = 0; p < fmt->n_planes && !err; p++) {
            if (!(st->planes & (1u << p)))
                continue;
            size_t pitch = 0;
            err = vq_gpu_malloc_pitch(st->gpu, &s->dev[k][p], &pitch,
                                      (size_t)fmt->sw[p] * fmt->bytes_per_sample,
                                      fmt->sh[p], "device plane allocation");
            s->view[k].plane[p].data = s->dev[k][p];
            s->view[k].plane[p].pitch = pitch;
            s->view[k].plane[p].w = fmt->w[p];
            s->view[k].plane[p].h = fmt->h[p];
        }
    }
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
    return err;
}

int vq_staging_open(VqStaging **pst, VqGpu *gpu, const VqFormat *fmt,
                    unsigned planes, unsigned depth, size_t acc_size,
                    VqThreadPool *pool, VqErrBuf *e)
{
    VqStaging *st = calloc(1, sizeof(*st));
    *pst = st;
    if (!st)
        return vq_fail(e, VQ_ENOMEM, "out of memory");
    st->gpu = gpu;
    st->fmt = *fmt;
    st->planes = planes;
    st->depth = depth;
    st->acc_size = acc_size ? acc_size : 8;
    st->pool = pool;
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

/* Host copies into pinned memory are the bottleneck of 4K uploads on one
 * thread, so they are cut into bands of rows spread over the pool. */
#define VQ_COPY_BAND_BYTES (512 * 1024)
#define VQ_MAX_COPY_TASKS 64

typedef struct CopyTask {
    uint8_t *dst;
    const uint8_t *src;
    ptrdiff_t stride;
    size_t row;
    unsigned rows;
} CopyTask;

typedef struct CopyJob {
    CopyTask task[VQ_MAX_COPY_TASKS];
    unsigned n;
} CopyJob;

static void copy_rows(void *arg, unsigned i)
{
    const CopyTask *t = &((CopyJob *)arg)->task[i];
    uint8_t *d = t->dst;
    const uint8_t *s = t->src;
    for (unsigned y = 0; y < t->rows; y++, d += t->row, s += t->stride)
        memcpy(d, s, t->row);
}

/* Adds the bands that pack the stored w x h region of a plane. */
static void add_plane_copy(CopyJob *job, uint8_t *dst, const VqPlane *src,
                           unsigned w, unsigned h, unsigned bps,
                           unsigned bands_left)
{
    size_t row = (size_t)w * bps;
    unsigned per = (unsigned)(VQ_COPY_BAND_BYTES / (row ? row : 1));
    if (per < 1)
        per = 1;
    while (per * (size_t)bands_left < h)
        per++;
    for (unsigned y = 0; y < h && job->n < VQ_MAX_COPY_TASKS; y += per) {
        CopyTask *t = &job->task[job->n++];
        t->dst = dst + y * row;
        t->src = src->data + (ptrdiff_t)y * src->stride;
        t->stride = src->stride;
        t->row = row;
        t->rows = h - y < per ? h - y : per;
    }
}

int vq_staging_upload(VqStaging *st, VqSlot *slot, const VqFrame *ref,
                      const VqFrame *dis)
{
    const VqFormat *fmt = &st->fmt;
    const VqFrame *pic[2] = { ref, dis };
    VqStream up = vq_gpu_upload_stream(st->gpu);
    CopyJob job;
    job.n = 0;
    for (unsigned k = 0; k < 2; k++)
        for (unsigned p = 0; p < fmt->n_planes; p++)
            if ((st->planes & (1u << p)) && fmt->sw[p] && fmt->sh[p])
                add_plane_copy(&job, slot->host + slot->host_off[k][p],
                               &pic[k]->plane[p], fmt->sw[p], fmt->sh[p],
                               fmt->bytes_per_sample, VQ_MAX_COPY_TASKS / 6);
    vq_parallel_for(st->pool, job.n, copy_rows, &job);
    for (unsigned k = 0; k < 2; k++) {
        for (unsigned p = 0; p < fmt->n_planes; p++) {
            if (!(st->planes & (1u << p)) || !fmt->sw[p] || !fmt->sh[p])
                continue;
            uint8_t *h = slot->host + slot->host_off[k][p];
            size_t row = (size_t)fmt->sw[p] * fmt->bytes_per_sample;
            int err = vq_gpu_upload2d(st->gpu, up, slot->dev[k][p],
                                      slot->view[k].plane[p].pitch, h, row,
                                      row, fmt->sh[p]);
            if (err)
                return err;
        }
    }
    VqStream cs = vq_gpu_compute_stream(st->gpu);
    int err = vq_gpu_event_record(st->gpu, slot->uploaded, up);
    if (!err)
        err = vq_gpu_event_wait(st->gpu, cs, slot->uploaded);
    if (!err)
        err = vq_gpu_memset(st->gpu, cs, slot->acc_dev, 0, st->acc_size);
    return err;
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
