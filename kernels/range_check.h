/* Samples above a bit depth's largest value in a 16-bit plane in device
 * memory (pictures handed over in device memory are checked as host
 * pictures are, core/picture.c: vq_frame_check_range). */
#ifndef VQHIP_KERNELS_RANGE_CHECK_H
#define VQHIP_KERNELS_RANGE_CHECK_H

#include "vq_kernel_api.h"

#ifdef __cplusplus
extern "C" {
#endif

/* *out (set to ~0 by the caller before) becomes the minimum over the plane
 * of (y * w + x) << 16 | sample for the samples above max: the first such
 * sample in row order, as the host scan finds it, with its value. ~0 when
 * there is none. plane: w x h 16-bit samples, rows pitch bytes apart. */
int vq_range_check_launch(VqStream stream, const VqDevPlane *plane,
                          unsigned max, unsigned long long *out);

#ifdef __cplusplus
}
#endif

#endif
