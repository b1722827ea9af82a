#include "hip_device.h"
#include "block_sums.h"

/* One thread per block: neighbouring threads read neighbouring runs of a
 * row, so a warp's reads of one row are contiguous. */
template <typename T>
__global__ void vq_block_sums_kernel(const uint8_t *data, size_t pitch,
                                     unsigned block, unsigned gw, unsigned gh,
                                     unsigned long long *sums)
{
    unsigned gx = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned gy = blockIdx.y * blockDim.y + threadIdx.y;
    if (gx >= gw || gy >= gh)
        return;
    unsigned long long s = 0;
    for (unsigned y = gy * block; y < (gy + 1) * block; y++) {
        const T *p = (const T *)(data + (size_t)y * pitch) + (size_t)gx * block;
        unsigned row = 0; /* block <= 4096 samples of <= 16 bits: fits */
        for (unsigned k = 0; k < block; k++)
            row += p[k];
        s += row;
    }
    sums[(size_t)gy * gw + gx] = s;
}

extern "C" int vq_block_sums_launch(VqStream stream, const VqDevPlane *plane,
                                    int wide, unsigned block, unsigned gw,
                                    unsigned gh, unsigned long long *sums)
{
    if (!gw || !gh)
        return 0;
    dim3 threads(64, 4);
    dim3 grid(vq_div_ceil(gw, threads.x), vq_div_ceil(gh, threads.y));
    const uint8_t *data = (const uint8_t *)plane->data;
    if (wide)
        vq_block_sums_kernel<uint16_t><<<grid, threads, 0, vq_hip_stream(stream)>>>(
            data, plane->pitch, block, gw, gh, sums);
    else
        vq_block_sums_kernel<uint8_t><<<grid, threads, 0, vq_hip_stream(stream)>>>(
            data, plane->pitch, block, gw, gh, sums);
    return vq_launch_status();
}
