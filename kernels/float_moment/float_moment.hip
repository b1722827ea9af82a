/*
 * float_moment: one pass over both luma planes, four 64-bit integer sums
 * per thread, reduced in shared memory and added to the record with one
 * atomic per sum and block. Integer sums: any order gives the CPU's result.
 */
#include "../hip_device.h"
#include "float_moment.h"

#define MOMENT_THREADS 256 /* a power of two, not tied to the wave size */
#define MOMENT_MAX_BLOCKS 1024

template <typename T>
__global__ void moment_kernel(VqDevPlane ref, VqDevPlane dis,
                              VqFloatMomentAcc *acc)
{
    __shared__ unsigned long long part[4][MOMENT_THREADS];
    unsigned long long s[4] = { 0, 0, 0, 0 };
    for (unsigned y = blockIdx.x; y < ref.h; y += gridDim.x) {
        const T *r = (const T *)((const char *)ref.data + y * ref.pitch);
        const T *d = (const T *)((const char *)dis.data + y * dis.pitch);
        for (unsigned x = threadIdx.x; x < ref.w; x += blockDim.x) {
            unsigned a = r[x], b = d[x];
            s[0] += a;
            s[1] += b;
            s[2] += vq_float_moment_sq(a);
            s[3] += vq_float_moment_sq(b);
        }
    }
    for (int k = 0; k < 4; k++)
        part[k][threadIdx.x] = s[k];
    __syncthreads();
    for (unsigned n = blockDim.x / 2; n > 0; n >>= 1) {
        if (threadIdx.x < n)
            for (int k = 0; k < 4; k++)
                part[k][threadIdx.x] += part[k][threadIdx.x + n];
        __syncthreads();
    }
    if (threadIdx.x == 0) {
        atomicAdd((unsigned long long *)&acc->sum[0], part[0][0]);
        atomicAdd((unsigned long long *)&acc->sum[1], part[1][0]);
        atomicAdd((unsigned long long *)&acc->sq[0], part[2][0]);
        atomicAdd((unsigned long long *)&acc->sq[1], part[3][0]);
    }
}

extern "C" int vq_float_moment_launch(VqStream stream, const VqDevPlane *ref,
                                      const VqDevPlane *dis, unsigned bpc,
                                      VqFloatMomentAcc *acc)
{
    if (!ref->w || !ref->h)
        return 0;
    unsigned blocks = ref->h < MOMENT_MAX_BLOCKS ? ref->h : MOMENT_MAX_BLOCKS;
    if (bpc > 8)
        moment_kernel<uint16_t><<<blocks, MOMENT_THREADS, 0,
                                  vq_hip_stream(stream)>>>(*ref, *dis, acc);
    else
        moment_kernel<uint8_t><<<blocks, MOMENT_THREADS, 0,
                                 vq_hip_stream(stream)>>>(*ref, *dis, acc);
    return vq_launch_status();
}
