/*
 * Block sums of a picture's luma on the GPU, for the offset search
 * (api/sync.c): a host plane is uploaded, a device plane read in place,
 * kernels/block_sums.hip sums it, the integer sums come back (equal to the
 * CPU's, core/align.c).
 */
#ifndef VQHIP_GPU_BLOCK_SUMS_H
#define VQHIP_GPU_BLOCK_SUMS_H

#include <stdint.h>

#include "gpu.h"

/* Buffers, made at the first use for one geometry. */
typedef struct VqGpuBlockSums {
    void *plane;         /* device copy of the summed part of the luma */
    size_t pitch;
    void *dev_sums;
    uint64_t *host_sums; /* pinned: gw * gh sums */
    size_t row, rows, cells;
    VqEvent produced;    /* device planes: their producer's work done */
} VqGpuBlockSums;

/* The gw * gh sums of blocks of side `block` of the luma at data (rows
 * stride bytes apart, 16-bit samples when wide) into *sums (valid until the
 * next call). 0, or VQ_EDEVICE / VQ_ENOMEM with the message in the GPU's
 * error buffer. Not for the fake device. */
int vq_gpu_block_sums(VqGpu *gpu, VqGpuBlockSums *b, const void *data,
                      ptrdiff_t stride, int wide, unsigned block, unsigned gw,
                      unsigned gh, const uint64_t **sums);
/* The same for a luma plane in device memory (rows stride bytes apart),
 * read in place once the work on `producer` (NULL: none) is done. */
int vq_gpu_block_sums_device(VqGpu *gpu, VqGpuBlockSums *b, const void *dev,
                             size_t stride, VqStream producer, int wide,
                             unsigned block, unsigned gw, unsigned gh,
                             const uint64_t **sums);
void vq_gpu_block_sums_free(VqGpu *gpu, VqGpuBlockSums *b);

#endif
