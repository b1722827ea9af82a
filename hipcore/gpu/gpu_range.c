#include <string.h>

#include "gpu_range.h"

#if defined(VQ_HAVE_HIP)
#include "../../kernels/range_check.h"
#endif

#define RANGE_WORDS 6 /* 2 pictures x 3 planes */

void vq_gpu_range_free(VqGpu *gpu, VqGpuRange *r)
{
    if (r->dev)
        vq_gpu_free(gpu, r->dev);
    if (r->host)
        vq_gpu_host_free(gpu, r->host);
    if (r->produced)
        vq_gpu_event_destroy(gpu, r->produced);
    memset(r, 0, sizeof(*r));
}

#if defined(VQ_HAVE_HIP)
static int range_ready(VqGpu *gpu, VqGpuRange *r)
{
    size_t size = RANGE_WORDS * sizeof(unsigned long long);
    int err = 0;
    if (!r->dev)
        err = vq_gpu_malloc(gpu, &r->dev, size, "range check");
    if (!err && !r->host)
        err = vq_gpu_host_alloc(gpu, (void **)&r->host, size, "range check");
    if (!err && !r->produced)
        err = vq_gpu_event_create(gpu, &r->produced);
    return err;
}

/* The kernels on the upload stream, after the producer's work: the first
 * bad sample of each (picture, plane) into r->host. */
static int range_scan(VqGpu *gpu, VqGpuRange *r, VqStream producer,
                      const VqFrame *pic[2], const VqFormat *fmt,
                      unsigned planes)
{
    VqStream up = vq_gpu_upload_stream(gpu);
    int err = range_ready(gpu, r);
    if (!err && producer) {
        err = vq_gpu_event_record(gpu, r->produced, producer);
        if (!err)
            err = vq_gpu_event_wait(gpu, up, r->produced);
    }
    size_t size = RANGE_WORDS * sizeof(unsigned long long);
    if (!err)
        err = vq_gpu_memset(gpu, up, r->dev, 0xFF, size);
    for (unsigned k = 0; k < 2 && !err; k++)
        for (unsigned p = 0; p < fmt->n_planes && !err; p++) {
            const VqPlane *pl = &pic[k]->plane[p];
            if (!(planes & (1u << p)) || !pl->data)
                continue;
            VqDevPlane dp = { pl->data, (size_t)pl->stride, pl->w, pl->h };
            err = vq_gpu_fail(gpu, vq_range_check_launch(
                                  up, &dp, (1u << fmt->bpc) - 1,
                                  (unsigned long long *)r->dev + 3 * k + p),
                              "range check kernel launch");
        }
    if (!err)
        err = vq_gpu_download(gpu, up, r->host, r->dev, size);
    return err ? err : vq_gpu_sync(gpu, up);
}
#endif

int vq_gpu_check_range(VqGpu *gpu, VqGpuRange *r, VqStream producer,
                       const VqFrame *ref, const VqFrame *dis,
                       const VqFormat *fmt, unsigned planes, VqErrBuf *e)
{
    if (!vq_format_range_checked(fmt))
        return 0;
    if (vq_gpu_is_fake(gpu)) {
        int err = vq_frame_check_range(ref, fmt, planes, "reference", e);
        return err ? err : vq_frame_check_range(dis, fmt, planes,
                                                "distorted", e);
    }
#if defined(VQ_HAVE_HIP)
    const VqFrame *pic[2] = { ref, dis };
    int err = range_scan(gpu, r, producer, pic, fmt, planes);
    if (err)
        return err;
    for (unsigned k = 0; k < 2; k++)
        for (unsigned p = 0; p < fmt->n_planes; p++) {
            unsigned long long v = r->host[3 * k + p];
            if (v == ~0ULL)
                continue;
            unsigned long long at = v >> 16;
            unsigned w = pic[k]->plane[p].w;
            return vq_range_fail(e, fmt, k ? "distorted" : "reference", p,
                                 (unsigned)(v & 0xFFFF), (unsigned)(at % w),
                                 (unsigned)(at / w));
        }
    return 0;
#else
    (void)r;
    (void)producer;
    return vq_fail(e, VQ_EDEVICE, "GPU: no device");
#endif
}
