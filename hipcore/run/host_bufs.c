#include <stdlib.h>

#include "host_bufs.h"

void *vq_host_bufs_alloc(VqHostBufs *hb, VqGpu *gpu, size_t size,
                         VqErrBuf *err)
{
    VqHostBuf *list = realloc(hb->buf, (hb->n + 1) * sizeof(*list));
    if (!list) {
        vq_fail(err, VQ_ENOMEM, "out of memory");
        return NULL;
    }
    hb->buf = list;
    VqHostBuf *b = &list[hb->n];
    b->size = size;
    b->pinned = gpu != NULL;
    if (b->pinned) {
        void *p = NULL;
        if (vq_gpu_host_alloc(gpu, &p, size, "pinned picture buffer"))
            return NULL;
        b->ptr = p;
    } else {
        b->ptr = aligned_alloc(64, (size + 63) & ~(size_t)63);
        if (!b->ptr) {
            vq_fail(err, VQ_ENOMEM, "out of memory");
            return NULL;
        }
    }
    hb->n++;
    return b->ptr;
}

void vq_host_bufs_free(VqHostBufs *hb, VqGpu *gpu, void *ptr)
{
    for (unsigned i = 0; i < hb->n; i++) {
        VqHostBuf *b = &hb->buf[i];
        if (b->ptr != ptr)
            continue;
        if (b->pinned)
            vq_gpu_host_free(gpu, ptr);
        else
            free(ptr);
        hb->buf[i] = hb->buf[--hb->n];
        return;
    }
}

void vq_host_bufs_clear(VqHostBufs *hb, VqGpu *gpu)
{
    while (hb->n)
        vq_host_bufs_free(hb, gpu, hb->buf[0].ptr);
    free(hb->buf);
    hb->buf = NULL;
}

bool vq_host_bufs_pinned(const VqHostBufs *hb, const void *p, size_t len)
{
    const uint8_t *a = p;
    for (unsigned i = 0; i < hb->n; i++) {
        const VqHostBuf *b = &hb->buf[i];
        if (b->pinned && a >= b->ptr && len <= b->size &&
            (size_t)(a - b->ptr) <= b->size - len)
            return true;
    }
    return false;
}
