/*
 * Kernels for emu_selftest: one correct block reduction, and the kinds of
 * kernel bug that a GPU may forgive on one run and not the next, each
 * written on purpose. The emulated device must compute the correct one
 * exactly and show every bug (a wrong sum, a failed launch or a fault).
 */
#include "../../kernels/hip_device.h"
#include "emu_bugs.h"

#define EB_THREADS 256

enum { REDUCE_OK, REDUCE_NO_BARRIER, REDUCE_WARP_SYNC };

/* Sum of row[0 .. w-1] of each row (row y at data + y * pitch), bytes. */
template <int BUG>
__global__ void eb_reduce(const unsigned char *data, size_t pitch, unsigned w,
                          unsigned h, unsigned long long *out)
{
    __shared__ unsigned long long part[EB_THREADS];
    unsigned long long acc = 0;
    for (unsigned y = blockIdx.x; y < h; y += gridDim.x)
        for (unsigned x = threadIdx.x; x < w; x += blockDim.x)
            acc += data[y * pitch + x];
    part[threadIdx.x] = acc;
    __syncthreads();
    if (BUG == REDUCE_WARP_SYNC) {
        /* the old warp-synchronous idiom: the last 32 lanes without a
         * barrier, as if they ran in lockstep */
        for (unsigned s = blockDim.x / 2; s > 32; s >>= 1) {
            if (threadIdx.x < s)
                part[threadIdx.x] += part[threadIdx.x + s];
            __syncthreads();
        }
        if (threadIdx.x < 32) {
            volatile unsigned long long *p = part;
            for (unsigned s = 32; s > 0; s >>= 1)
                p[threadIdx.x] += p[threadIdx.x + s];
        }
    } else {
        for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
            if (threadIdx.x < s)
                part[threadIdx.x] += part[threadIdx.x + s];
            if (BUG != REDUCE_NO_BARRIER)
                __syncthreads();
        }
    }
    if (threadIdx.x == 0)
        atomicAdd(out, part[0]);
}

/* The same sum with a wave reduction that takes the wave to be 32 lanes
 * wide: on a wave64 device lanes 32..63 of each wave are never added. */
__global__ void eb_reduce_shfl32(const unsigned char *data, size_t pitch,
                                 unsigned w, unsigned h,
                                 unsigned long long *out)
{
    unsigned long long acc = 0;
    for (unsigned y = blockIdx.x; y < h; y += gridDim.x)
        for (unsigned x = threadIdx.x; x < w; x += blockDim.x)
            acc += data[y * pitch + x];
    for (int off = 16; off > 0; off >>= 1)
        acc += __shfl_down(acc, off);
    if (threadIdx.x % warpSize == 0)
        atomicAdd(out, acc);
}

/* The correct wave reduction: offsets from the device's wave size. */
__global__ void eb_reduce_shfl(const unsigned char *data, size_t pitch,
                               unsigned w, unsigned h, unsigned long long *out)
{
    unsigned long long acc = 0;
    for (unsigned y = blockIdx.x; y < h; y += gridDim.x)
        for (unsigned x = threadIdx.x; x < w; x += blockDim.x)
            acc += data[y * pitch + x];
    for (int off = warpSize / 2; off > 0; off >>= 1)
        acc += __shfl_down(acc, off);
    if (threadIdx.x % warpSize == 0)
        atomicAdd(out, acc);
}

/* A row loop that runs one sample too far (x <= w): it adds the first
 * sample of the row's padding. */
__global__ void eb_border(const unsigned char *data, size_t pitch, unsigned w,
                          unsigned h, unsigned long long *out)
{
    if (threadIdx.x != 0)
        return;
    unsigned long long acc = 0;
    for (unsigned y = blockIdx.x; y < h; y += gridDim.x)
        for (unsigned x = 0; x <= w; x++)
            acc += data[y * pitch + x];
    atomicAdd(out, acc);
}

/* Reads `past` bytes beyond the end of its buffer of n bytes. */
__global__ void eb_past_end(const unsigned char *data, size_t n, size_t past,
                            unsigned long long *out)
{
    *out = data[n - 1 + past];
}

/* Threads that return before a barrier the others wait at. */
__global__ void eb_early_exit(unsigned long long *out)
{
    __shared__ unsigned long long v[EB_THREADS];
    if (threadIdx.x < 16)
        return;
    v[threadIdx.x] = threadIdx.x;
    __syncthreads();
    if (threadIdx.x == 16)
        *out = v[17];
}

extern "C" int eb_sum_launch(VqStream stream, int kind, const void *data,
                             size_t pitch, unsigned w, unsigned h,
                             uint64_t *out)
{
    const unsigned char *d = (const unsigned char *)data;
    unsigned long long *o = (unsigned long long *)out;
    hipStream_t s = vq_hip_stream(stream);
    unsigned blocks = h < 64 ? h : 64;
    switch (kind) {
    case EB_SUM_OK:
        eb_reduce<REDUCE_OK><<<blocks, EB_THREADS, 0, s>>>(d, pitch, w, h, o);
        break;
    case EB_SUM_NO_BARRIER:
        eb_reduce<REDUCE_NO_BARRIER><<<blocks, EB_THREADS, 0, s>>>(d, pitch, w,
                                                                   h, o);
        break;
    case EB_SUM_WARP_SYNC:
        eb_reduce<REDUCE_WARP_SYNC><<<blocks, EB_THREADS, 0, s>>>(d, pitch, w,
                                                                  h, o);
        break;
    case EB_SUM_SHFL32:
        eb_reduce_shfl32<<<blocks, EB_THREADS, 0, s>>>(d, pitch, w, h, o);
        break;
    case EB_SUM_SHFL:
        eb_reduce_shfl<<<blocks, EB_THREADS, 0, s>>>(d, pitch, w, h, o);
        break;
    case EB_SUM_BORDER:
        eb_border<<<blocks, EB_THREADS, 0, s>>>(d, pitch, w, h, o);
        break;
    default:
        return -1;
    }
    return vq_launch_status();
}

extern "C" int eb_past_end_launch(VqStream stream, const void *data, size_t n,
                                  size_t past, uint64_t *out)
{
    eb_past_end<<<1, 1, 0, vq_hip_stream(stream)>>>(
        (const unsigned char *)data, n, past, (unsigned long long *)out);
    return vq_launch_status();
}

extern "C" int eb_early_exit_launch(VqStream stream, uint64_t *out)
{
    eb_early_exit<<<1, EB_THREADS, 0, vq_hip_stream(stream)>>>(
        (unsigned long long *)out);
    return vq_launch_status();
}

extern "C" int eb_block_launch(VqStream stream, unsigned threads,
                               unsigned blocks, uint64_t *out)
{
    eb_early_exit<<<blocks, threads, 0, vq_hip_stream(stream)>>>(
        (unsigned long long *)out);
    return vq_launch_status();
}
