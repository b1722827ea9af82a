/*
 * Device helper: the sum over a plane of an integer per-sample term of
 * (reference, distorted), added to a 64-bit counter in device memory.
 * Integer sums make the order of accumulation irrelevant, so the result is
 * the CPU's, bit for bit. Included by .hip files only.
 */
#ifndef VQHIP_PLANE_SUM_H
#define VQHIP_PLANE_SUM_H

#include "hip_device.h"

#define VQ_PLANE_SUM_THREADS 256 /* a power of two, not tied to the wave size */
#define VQ_PLANE_SUM_MAX_BLOCKS 2048

template <typename T, typename Term>
__global__ void vq_plane_sum_kernel(VqDevPlane ref, VqDevPlane dis,
                                    unsigned long long *out, Term term)
{
    __shared__ unsigned long long part[VQ_PLANE_SUM_THREADS];
    unsigned long long acc = 0;
    for (unsigned y = blockIdx.x; y < ref.h; y += gridDim.x) {
        const T *r = (const T *)((const char *)ref.data + y * ref.pitch);
        const T *d = (const T *)((const char *)dis.data + y * dis.pitch);
        for (unsigned x = threadIdx.x; x < ref.w; x += blockDim.x)
            acc += term(r[x], d[x]);
    }
    part[threadIdx.x] = acc;
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s)
            part[threadIdx.x] += part[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0 && part[0])
        atomicAdd(out, part[0]);
}

/* Adds the plane's sum of term(r, d) to *out (which the caller cleared). */
template <typename Term>
static int vq_plane_sum(VqStream stream, const VqDevPlane *ref,
                        const VqDevPlane *dis, unsigned bpc, uint64_t *out,
                        Term term)
{
    if (!ref->w || !ref->h)
        return 0;
    unsigned blocks = ref->h < VQ_PLANE_SUM_MAX_BLOCKS ? ref->h
                                                       : VQ_PLANE_SUM_MAX_BLOCKS;
    unsigned long long *o = (unsigned long long *)out;
    if (bpc > 8)
        vq_plane_sum_kernel<uint16_t><<<blocks, VQ_PLANE_SUM_THREADS, 0,
                                        vq_hip_stream(stream)>>>(*ref, *dis, o,
                                                                 term);
    else
        vq_plane_sum_kernel<uint8_t><<<blocks, VQ_PLANE_SUM_THREADS, 0,
                                       vq_hip_stream(stream)>>>(*ref, *dis, o,
                                                                term);
    return vq_launch_status();
}

#endif
