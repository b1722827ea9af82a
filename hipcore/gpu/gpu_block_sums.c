#include <string.h>

#include "gpu_block_sums.h"

#if defined(VQ_HAVE_HIP)
#include "../../kernels/block_sums.h"
#endif

void vq_gpu_block_sums_free(VqGpu *gpu, VqGpuBlockSums *b)
{
    if (b->plane)
        vq_gpu_free(gpu, b->plane);
    if (b->dev_sums)
        vq_gpu_free(gpu, b->dev_sums);
    if (b->host_sums)
        vq_gpu_host_free(gpu, b->host_sums);
    if (b->produced)
        vq_gpu_event_destroy(gpu, b->produced);
    memset(b, 0, sizeof(*b));
}

#if defined(VQ_HAVE_HIP)
/* The sums' buffers, and with `plane` the plane's copy. */
static int ready(VqGpu *gpu, VqGpuBlockSums *b, size_t row, size_t rows,
                 size_t cells, int plane)
{
    if (b->dev_sums && b->cells == cells &&
        (!plane || (b->plane && b->row == row && b->rows == rows)))
        return 0;
    vq_gpu_block_sums_free(gpu, b);
    int err = plane ? vq_gpu_malloc_pitch(gpu, &b->plane, &b->pitch, row,
                                          rows, "offset search plane")
                    : 0;
    if (!err)
        err = vq_gpu_malloc(gpu, &b->dev_sums, cells * sizeof(uint64_t),
                            "offset search sums");
    if (!err)
        err = vq_gpu_host_alloc(gpu, (void **)&b->host_sums,
                                cells * sizeof(uint64_t), "offset search sums");
    if (err) {
        vq_gpu_block_sums_free(gpu, b);
        return err;
    }
    b->row = row;
    b->rows = rows;
    b->cells = cells;
    return 0;
}

/* The kernel on the upload stream over dp, the sums back to b->host_sums. */
static int sum_plane(VqGpu *gpu, VqGpuBlockSums *b, const VqDevPlane *dp,
                     int wide, unsigned block, unsigned gw, unsigned gh)
{
    VqStream up = vq_gpu_upload_stream(gpu);
    int err = vq_gpu_fail(gpu, vq_block_sums_launch(up, dp, wide, block, gw,
                                                    gh, b->dev_sums),
                          "offset search kernel launch");
    if (!err)
        err = vq_gpu_download(gpu, up, b->host_sums, b->dev_sums,
                              b->cells * sizeof(uint64_t));
    return err ? err : vq_gpu_sync(gpu, up);
}
#endif

int vq_gpu_block_sums(VqGpu *gpu, VqGpuBlockSums *b, const void *data,
                      ptrdiff_t stride, int wide, unsigned block, unsigned gw,
                      unsigned gh, const uint64_t **sums)
{
#if defined(VQ_HAVE_HIP)
    /* only the samples that fill whole blocks are read */
    size_t row = (size_t)gw * block * (wide ? 2 : 1), rows = (size_t)gh * block;
    size_t cells = (size_t)gw * gh;
    VqStream up = vq_gpu_upload_stream(gpu);
    int err = ready(gpu, b, row, rows, cells, 1);
    if (!err)
        err = vq_gpu_upload2d(gpu, up, b->plane, b->pitch, data,
                              (size_t)stride, row, rows);
    if (!err) {
        VqDevPlane dp = { b->plane, b->pitch, (unsigned)(row / (wide ? 2 : 1)),
                          (unsigned)rows };
        err = sum_plane(gpu, b, &dp, wide, block, gw, gh);
    }
    *sums = err ? NULL : b->host_sums;
    return err;
#else
    (void)gpu; (void)b; (void)data; (void)stride; (void)wide; (void)block;
    (void)gw; (void)gh;
    *sums = NULL;
    return VQ_EDEVICE;
#endif
}

int vq_gpu_block_sums_device(VqGpu *gpu, VqGpuBlockSums *b, const void *dev,
                             size_t stride, VqStream producer, int wide,
                             unsigned block, unsigned gw, unsigned gh,
                             const uint64_t **sums)
{
#if defined(VQ_HAVE_HIP)
    size_t cells = (size_t)gw * gh;
    int err = ready(gpu, b, 0, 0, cells, 0);
    if (!err && !b->produced)
        err = vq_gpu_event_create(gpu, &b->produced);
    if (!err && producer) {
        err = vq_gpu_event_record(gpu, b->produced, producer);
        if (!err)
            err = vq_gpu_event_wait(gpu, vq_gpu_upload_stream(gpu), b->produced);
    }
    if (!err) {
        VqDevPlane dp = { dev, stride, gw * block, gh * block };
        err = sum_plane(gpu, b, &dp, wide, block, gw, gh);
    }
    *sums = err ? NULL : b->host_sums;
    return err;
#else
    (void)gpu; (void)b; (void)dev; (void)stride; (void)producer; (void)wide;
    (void)block; (void)gw; (void)gh;
    *sums = NULL;
    return VQ_EDEVICE;
#endif
}
