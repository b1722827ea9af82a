/* Picture layouts the extractors do not read directly (semi-planar chroma,
 * samples in the high bits) made planar, low-bit, on the device. */
#ifndef VQHIP_KERNELS_CONVERT_H
#define VQHIP_KERNELS_CONVERT_H

#include "vq_kernel_api.h"

#ifdef __cplusplus
extern "C" {
#endif

/* dst[y][x] = src[y][x * step + first] >> shift for a w x h plane of
 * bps-byte samples (1 or 2); src and dst are device memory. The same
 * selection as vq_frame_convert_plane on the host. */
int vq_convert_plane_launch(VqStream stream, const void *src,
                            size_t src_pitch, unsigned step, unsigned first,
                            unsigned shift, unsigned bps, void *dst,
                            size_t dst_pitch, unsigned w, unsigned h);

#ifdef __cplusplus
}
#endif

#endif
