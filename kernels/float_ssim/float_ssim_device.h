/*
 * Device helpers of the float SSIM kernels (float_ssim.hip and
 * float_ms_ssim.hip); included by .hip files only.
 */
#ifndef VQHIP_KERNELS_FSSIM_DEVICE_H
#define VQHIP_KERNELS_FSSIM_DEVICE_H

#include <type_traits>

#include "../hip_device.h"
#include "float_ssim.h"

/* Sample (x, y) of a source as libvmaf's picture_copy makes it: 8-bit as
 * is, higher depths times 2^-(bpc-8) (exact: a power of two), floats as
 * they are. */
template <typename T>
__device__ __forceinline__ float float_ssim_load(const VqDevPlane &p, int x, int y,
                                            float inv_scale)
{
    const T *row = (const T *)((const char *)p.data + (size_t)y * p.pitch);
    if (std::is_same<T, uint16_t>::value)
        return (float)row[x] * inv_scale;
    return (float)row[x];
}

/* 2^-(bpc-8) for an integer source, 1 otherwise. */
static inline float float_ssim_inv_scale(unsigned src_bpc)
{
    return src_bpc > 8 ? 1.0f / (float)(1u << (src_bpc - 8)) : 1.0f;
}

/* Calls LAUNCH with the sample type of a source: src_bpc 0 = float, 8 =
 * uint8_t, else uint16_t. */
#define FSSIM_DISPATCH(src_bpc, LAUNCH)                                       \
    do {                                                                      \
        if ((src_bpc) == 0)                                                   \
            LAUNCH(float);                                                    \
        else if ((src_bpc) == 8)                                              \
            LAUNCH(uint8_t);                                                  \
        else                                                                  \
            LAUNCH(uint16_t);                                                 \
    } while (0)

#endif
