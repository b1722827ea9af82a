/* The public offset search (vq_sync_*): core/align.c behind a handle, the
 * luma reduced on the GPU where one opens (gpu/gpu_block_sums.c), else on
 * the CPU; both give the same grids, hence the same result. */
#include <stdio.h>
#include <stdlib.h>

#include "base/error.h"
#include "core/align.h"
#include "gpu/gpu.h"
#include "gpu/gpu_block_sums.h"

struct VqSync {
    VqAlign align;
    VqGpu *gpu;              /* NULL: the CPU reduces */
    int device;
    VqGpuBlockSums sums;
    VqErrBuf gpu_err;
    char error[VQ_ERR_MSG_SIZE + 128];
};

/* The GPU for backends AUTO and HIP; without one the CPU reduces and
 * vq_sync_error says why. The fake device (tests) has no kernels. */
static void open_gpu(VqSync *s, const VqSyncConfig *cfg)
{
    if (!cfg || cfg->backend == VQ_BACKEND_CPU)
        return;
    if (vq_gpu_open(&s->gpu, cfg->device, cfg->use_current_context != 0,
                    &s->gpu_err)) {
        snprintf(s->error, sizeof(s->error), "no GPU for the search, it runs "
                 "on the CPU: %.1000s", s->gpu_err.msg);
        s->gpu = NULL;
        return;
    }
    if (vq_gpu_is_fake(s->gpu))
        vq_gpu_close(&s->gpu);
    else
        vq_gpu_set_errbuf(s->gpu, &s->gpu_err);
}

int vq_sync_open(VqSync **sync, const VqSyncConfig *cfg)
{
    if (!sync)
        return VQ_EINVAL;
    *sync = calloc(1, sizeof(**sync));
    if (!*sync)
        return VQ_ENOMEM;
    vq_align_init(&(*sync)->align, cfg);
    (*sync)->device = cfg ? cfg->device : 0;
    open_gpu(*sync, cfg);
    return 0;
}

unsigned vq_sync_needed(const VqSync *sync)
{
    return sync ? sync->align.need : 0;
}

static int add_on_gpu(VqSync *s, int distorted, const VqPicture *pic)
{
    VqAlign *a = &s->align;
    if (vq_align_check(a, pic, s->error, sizeof(s->error)))
        return VQ_EINVAL;
    if (vq_align_full(a, distorted))
        return 0;
    const uint64_t *sums;
    int err = vq_gpu_bind(s->gpu);
    if (!err)
        err = vq_gpu_block_sums(s->gpu, &s->sums, pic->data[0], pic->stride[0],
                                vq_align_wide(pic), a->block, a->gw, a->gh,
                                &sums);
    if (err) {
        /* the grids are the same either way: the CPU goes on */
        snprintf(s->error, sizeof(s->error), "the GPU's reduction failed, the "
                 "search goes on on the CPU: %.1000s", s->gpu_err.msg);
        vq_gpu_block_sums_free(s->gpu, &s->sums);
        vq_gpu_close(&s->gpu);
        return vq_align_add(a, distorted, pic, s->error, sizeof(s->error))
                   ? VQ_EINVAL : 0;
    }
    return vq_align_add_sums(a, distorted, pic, sums);
}

int vq_sync_add(VqSync *sync, int distorted, const VqPicture *pic)
{
    if (!sync)
        return VQ_EINVAL;
    /* rows stored bottom-up (a negative stride) are reduced on the CPU */
    if (sync->gpu && pic && pic->data[0] && pic->stride[0] > 0)
        return add_on_gpu(sync, distorted, pic);
    if (vq_align_add(&sync->align, distorted, pic, sync->error,
                     sizeof(sync->error)))
        return VQ_EINVAL;
    return 0;
}

int vq_sync_find(VqSync *sync, VqSyncResult *res)
{
    if (!sync || !res)
        return VQ_EINVAL;
    vq_align_find(&sync->align, res);
    res->backend = sync->gpu ? "hip" : "cpu";
    return 0;
}

int vq_sync_add_device(VqSync *sync, int distorted, const VqDevicePicture *dp)
{
    if (!sync || !dp)
        return VQ_EINVAL;
    VqAlign *a = &sync->align;
    const VqPicture *pic = &dp->pic;
    if (!sync->gpu) {
        snprintf(sync->error, sizeof(sync->error), "a device picture, but the "
                 "search runs on the CPU (open it with backend auto or hip on "
                 "that GPU)");
        return VQ_ESTATE;
    }
    if (dp->device != sync->device) {
        snprintf(sync->error, sizeof(sync->error), "a device picture on GPU "
                 "%d, but the search uses GPU %d", dp->device, sync->device);
        return VQ_EINVAL;
    }
    if (vq_align_check(a, pic, sync->error, sizeof(sync->error)))
        return VQ_EINVAL;
    if (pic->stride[0] <= 0) {
        snprintf(sync->error, sizeof(sync->error), "a device picture with a "
                 "stride of %td bytes", pic->stride[0]);
        return VQ_EINVAL;
    }
    if (vq_align_full(a, distorted))
        return 0;
    const uint64_t *sums;
    int err = vq_gpu_bind(sync->gpu);
    if (!err)
        err = vq_gpu_block_sums_device(sync->gpu, &sync->sums, pic->data[0],
                                       (size_t)pic->stride[0],
                                       (VqStream)dp->stream, vq_align_wide(pic),
                                       a->block, a->gw, a->gh, &sums);
    if (err) {
        snprintf(sync->error, sizeof(sync->error), "the GPU's reduction "
                 "failed: %.1000s", sync->gpu_err.msg);
        return err;
    }
    return vq_align_add_sums(a, distorted, pic, sums);
}

const char *vq_sync_backend(const VqSync *sync)
{
    return !sync ? "" : sync->gpu ? "hip" : "cpu";
}

const char *vq_sync_error(const VqSync *sync)
{
    return sync ? sync->error : "no search";
}

void vq_sync_close(VqSync **sync)
{
    if (!sync || !*sync)
        return;
    if ((*sync)->gpu) {
        vq_gpu_block_sums_free((*sync)->gpu, &(*sync)->sums);
        vq_gpu_close(&(*sync)->gpu);
    }
    vq_align_free(&(*sync)->align);
    free(*sync);
    *sync = NULL;
}
