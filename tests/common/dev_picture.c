#include "dev_picture.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "picture.h"

int vq_test_dev_picture(VqGpu *gpu, const VqPicture *p, size_t align,
                        size_t extra, VqTestDevPic *d)
{
    memset(d, 0, sizeof(*d));
    d->dp.pic = *p;
    VqFormat fmt;
    VqErrBuf e;
    if (!align || vq_format_from_picture(&fmt, p, "test picture", &e))
        return VQ_EINVAL;
    unsigned n = fmt.semiplanar ? 2 : fmt.n_planes;
    VqStream up = vq_gpu_upload_stream(gpu);
    for (unsigned c = 0; c < n; c++) {
        size_t row = (size_t)p->stride[c], rows = fmt.sh[c];
        size_t pitch = (row + align - 1) / align * align + extra;
        uint8_t *host = malloc(pitch * rows);
        if (!host)
            return VQ_ENOMEM;
        for (size_t y = 0; y < rows; y++) {
            memcpy(host + y * pitch, (const uint8_t *)p->data[c] + y * row, row);
            for (size_t x = row; x < pitch; x++)
                host[y * pitch + x] = (uint8_t)(0xc3 ^ (x * 13 + y * 7));
        }
        int err = vq_gpu_malloc(gpu, &d->mem[c], pitch * rows, "test plane");
        if (!err)
            err = vq_gpu_upload2d(gpu, up, d->mem[c], pitch, host, pitch, pitch,
                                  rows);
        if (!err)
            err = vq_gpu_sync(gpu, up);
        free(host);
        if (err)
            return err;
        d->dp.pic.data[c] = d->mem[c];
        d->dp.pic.stride[c] = (ptrdiff_t)pitch;
    }
    return 0;
}

void vq_test_dev_picture_free(VqGpu *gpu, VqTestDevPic *d)
{
    for (unsigned c = 0; c < 3; c++) {
        vq_gpu_free(gpu, d->mem[c]);
        d->mem[c] = NULL;
    }
}
