/* Host buffers pinned for the context's GPU (vq_host_alloc) and frames
 * imported by dma-buf (vq_import_dmabuf). */
#include <stdlib.h>

#include "context.h"

void *vq_host_alloc(VqContext *ctx, size_t size)
{
    if (!ctx || !size)
        return NULL;
    struct VqHostBuf *list = realloc(ctx->host_buf,
                                     (ctx->n_host_buf + 1) * sizeof(*list));
    if (!list) {
        vq_fail(&ctx->err, VQ_ENOMEM, "out of memory");
        return NULL;
    }
    ctx->host_buf = list;
    struct VqHostBuf *b = &list[ctx->n_host_buf];
    b->size = size;
    b->pinned = ctx->gpu != NULL;
    if (b->pinned) {
        void *p = NULL;
        if (vq_gpu_host_alloc(ctx->gpu, &p, size, "pinned picture buffer"))
            return NULL;
        b->ptr = p;
    } else {
        b->ptr = aligned_alloc(64, (size + 63) & ~(size_t)63);
        if (!b->ptr) {
            vq_fail(&ctx->err, VQ_ENOMEM, "out of memory");
            return NULL;
        }
    }
    ctx->n_host_buf++;
    return b->ptr;
}

void vq_host_free(VqContext *ctx, void *ptr)
{
    if (!ctx || !ptr)
        return;
    for (unsigned i = 0; i < ctx->n_host_buf; i++) {
        struct VqHostBuf *b = &ctx->host_buf[i];
        if (b->ptr != ptr)
            continue;
        if (b->pinned)
            vq_gpu_host_free(ctx->gpu, ptr);
        else
            free(ptr);
        ctx->host_buf[i] = ctx->host_buf[--ctx->n_host_buf];
        return;
    }
}

bool vq_in_host_buf(const VqContext *ctx, const void *p, size_t len)
{
    const uint8_t *a = p;
    for (unsigned i = 0; i < ctx->n_host_buf; i++) {
        const struct VqHostBuf *b = &ctx->host_buf[i];
        if (b->pinned && a >= b->ptr && len <= b->size &&
            (size_t)(a - b->ptr) <= b->size - len)
            return true;
    }
    return false;
}

int vq_import_dmabuf(VqContext *ctx, int fd, size_t size, VqImport **imp,
                     void **dev)
{
    if (!ctx || !imp || !dev)
        return VQ_EINVAL;
    *imp = NULL;
    *dev = NULL;
    if (!ctx->gpu)
        return vq_fail(&ctx->err, VQ_EUNSUPPORTED,
                       "importing frames needs the GPU backend");
    if (fd < 0 || !size)
        return vq_fail(&ctx->err, VQ_EINVAL, "bad dma-buf (fd %d, %zu bytes)",
                       fd, size);
    void *handle = NULL;
    int err = vq_bind(ctx);
    if (!err)
        err = vq_gpu_import_dmabuf(ctx->gpu, fd, size, &handle, dev);
    if (!err)
        *imp = handle;
    return err;
}

void vq_import_release(VqContext *ctx, VqImport **imp)
{
    if (!ctx || !imp || !*imp)
        return;
    if (ctx->gpu)
        vq_gpu_release_import(ctx->gpu, *imp);
    *imp = NULL;
}
