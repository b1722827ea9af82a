/*
 * Device copies of host pictures for the GPU tests. Every stored plane is
 * copied whole (stride bytes a row) into rows `pitch` bytes apart: the
 * stride rounded up to a multiple of `align` (1: the stride itself), plus
 * `extra` bytes. The bytes past each copied row hold junk, which no kernel
 * may read into a score.
 */
#ifndef VQHIP_TESTS_DEV_PICTURE_H
#define VQHIP_TESTS_DEV_PICTURE_H

#include <stddef.h>

#include "gpu/gpu.h"
#include "vqhip.h"

typedef struct VqTestDevPic {
    VqDevicePicture dp; /* device 0, no stream */
    void *mem[3];
} VqTestDevPic;

/* 0, or a negative error (the message in the device handle's buffer, or
 * VQ_ENOMEM / VQ_EINVAL). *d is safe to free in either case. */
int vq_test_dev_picture(VqGpu *gpu, const VqPicture *p, size_t align,
                        size_t extra, VqTestDevPic *d);
void vq_test_dev_picture_free(VqGpu *gpu, VqTestDevPic *d);

#endif
