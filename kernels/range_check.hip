#include "hip_device.h"
#include "range_check.h"

/* One block row per picture row; each thread strides along the row and
 * stops at its first bad sample. Only bad samples touch *out, so a good
 * picture costs one read of the plane; the atomic minimum picks the first
 * bad sample whatever the order threads run in (no wave-size assumption). */
__global__ void vq_range_check_kernel(const uint8_t *data, size_t pitch,
                                      unsigned w, unsigned max,
                                      unsigned long long *out)
{
    unsigned y = blockIdx.y;
    const uint16_t *row = (const uint16_t *)(data + (size_t)y * pitch);
    for (unsigned x = blockIdx.x * blockDim.x + threadIdx.x; x < w;
         x += gridDim.x * blockDim.x) {
        unsigned v = row[x];
        if (v > max) {
            atomicMin(out, (((unsigned long long)y * w + x) << 16) | v);
            break;
        }
    }
}

extern "C" int vq_range_check_launch(VqStream stream, const VqDevPlane *plane,
                                     unsigned max, unsigned long long *out)
{
    if (!plane->w || !plane->h)
        return 0;
    unsigned bx = vq_div_ceil(plane->w, 256);
    dim3 grid(bx < 8 ? bx : 8, plane->h);
    vq_range_check_kernel<<<grid, 256, 0, vq_hip_stream(stream)>>>(
        (const uint8_t *)plane->data, plane->pitch, plane->w, max, out);
    return vq_launch_status();
}
