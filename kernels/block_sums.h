/* Sums of a luma plane's samples over square blocks, for the offset search
 * (hipcore/core/align.c holds the CPU reduction it must equal: the sums are
 * integers, so both are exact and the host turns them into the same grid). */
#ifndef VQHIP_KERNELS_BLOCK_SUMS_H
#define VQHIP_KERNELS_BLOCK_SUMS_H

#include "vq_kernel_api.h"

#ifdef __cplusplus
extern "C" {
#endif

/* sums[gy * gw + gx] = the sum of the samples (x, y) with
 * gx * block <= x < (gx + 1) * block and likewise for y, for gx < gw,
 * gy < gh; samples are 16-bit when wide, else 8-bit. The plane holds at
 * least gw * block x gh * block samples. */
int vq_block_sums_launch(VqStream stream, const VqDevPlane *plane, int wide,
                         unsigned block, unsigned gw, unsigned gh,
                         unsigned long long *sums);

#ifdef __cplusplus
}
#endif

#endif
