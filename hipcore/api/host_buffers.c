/* Host buffers pinned for the context's GPU (vq_host_alloc) and frames
 * imported by dma-buf (vq_import_dmabuf). */
#include "context.h"

void *vq_host_alloc(VqContext *ctx, size_t size)
{
    if (!ctx || !size)
        return NULL;
    /* pinned for the GPU: once it is known whether there is one */
    if (vq_pipeline_await_gpu(&ctx->run))
        return NULL;
    return vq_host_bufs_alloc(&ctx->host, ctx->run.gpu, size, &ctx->err);
}

void vq_host_free(VqContext *ctx, void *ptr)
{
    if (!ctx || !ptr)
        return;
    vq_host_bufs_free(&ctx->host, ctx->run.gpu, ptr);
}

int vq_import_dmabuf(VqContext *ctx, int fd, size_t size, VqImport **imp,
                     void **dev)
{
    if (!ctx || !imp || !dev)
        return VQ_EINVAL;
    *imp = NULL;
    *dev = NULL;
    int err = vq_pipeline_await_gpu(&ctx->run);
    if (err)
        return err;
    VqGpu *gpu = ctx->run.gpu;
    if (!gpu)
        return vq_fail(&ctx->err, VQ_EUNSUPPORTED,
                       "importing frames needs the GPU backend");
    if (fd < 0 || !size)
        return vq_fail(&ctx->err, VQ_EINVAL, "bad dma-buf (fd %d, %zu bytes)",
                       fd, size);
    void *handle = NULL;
    err = vq_pipeline_bind(&ctx->run);
    if (!err)
        err = vq_gpu_import_dmabuf(gpu, fd, size, &handle, dev);
    if (!err)
        *imp = handle;
    return err;
}

void vq_import_release(VqContext *ctx, VqImport **imp)
{
    if (!ctx || !imp || !*imp)
        return;
    if (ctx->run.gpu)
        vq_gpu_release_import(ctx->run.gpu, *imp);
    *imp = NULL;
}
