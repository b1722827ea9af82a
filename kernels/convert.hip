#include "convert.h"
#include "hip_device.h"

template <typename T>
__global__ void vq_convert_plane_kernel(const char *src, size_t src_pitch,
                                        unsigned step, unsigned first,
                                        unsigned shift, char *dst,
                                        size_t dst_pitch, unsigned w,
                                        unsigned h)
{
    unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned y = blockIdx.y;
    if (x >= w || y >= h)
        return;
    const T *s = (const T *)(src + (size_t)y * src_pitch);
    T *d = (T *)(dst + (size_t)y * dst_pitch);
    d[x] = (T)(s[(size_t)x * step + first] >> shift);
}

extern "C" int vq_convert_plane_launch(VqStream stream, const void *src,
                                       size_t src_pitch, unsigned step,
                                       unsigned first, unsigned shift,
                                       unsigned bps, void *dst,
                                       size_t dst_pitch, unsigned w,
                                       unsigned h)
{
    if (!w || !h)
        return 0;
    const unsigned threads = 256;
    dim3 grid(vq_div_ceil(w, threads), h);
    if (bps == 1)
        vq_convert_plane_kernel<uint8_t><<<grid, threads, 0,
                                           vq_hip_stream(stream)>>>(
            (const char *)src, src_pitch, step, first, shift, (char *)dst,
            dst_pitch, w, h);
    else
        vq_convert_plane_kernel<uint16_t><<<grid, threads, 0,
                                            vq_hip_stream(stream)>>>(
            (const char *)src, src_pitch, step, first, shift, (char *)dst,
            dst_pitch, w, h);
    return vq_launch_status();
}
