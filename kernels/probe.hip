#include "hip_device.h"
#include "probe.h"

__global__ void vq_probe_kernel(uint32_t *out)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < VQ_PROBE_N)
        out[i] = vq_probe_expected(i);
    if (i == 0)
        out[VQ_PROBE_N] = warpSize;
}

extern "C" int vq_probe_launch(VqStream stream, uint32_t *out)
{
    vq_probe_kernel<<<vq_div_ceil(VQ_PROBE_N, 64), 64, 0,
                      vq_hip_stream(stream)>>>(out);
    return vq_launch_status();
}
