/*
 * Device-side HIP for the kernels, on both platforms. AMD (hipcc): HIP
 * itself. NVIDIA (nvcc compiling .hip as CUDA): the few HIP names kernels and
 * launchers use, mapped onto CUDA. Kernels use <<<>>> launches, blockIdx /
 * threadIdx / blockDim, __syncthreads, shared memory and 64-bit atomicAdd,
 * which both platforms spell the same way.
 *
 * No kernel may assume a wave size: block-level reductions go through shared
 * memory with blockDim-derived strides.
 */
#ifndef VQHIP_HIP_DEVICE_H
#define VQHIP_HIP_DEVICE_H

#if defined(VQ_HIP_EMU)
#include "emu/hip_emu.h"
#elif defined(__CUDACC__)
#include <cuda_runtime.h>
typedef cudaError_t hipError_t;
typedef cudaStream_t hipStream_t;
#define hipSuccess cudaSuccess
#define hipGetLastError cudaGetLastError
#else
#include <hip/hip_runtime.h>
#endif

#include "vq_kernel_api.h"

static inline hipStream_t vq_hip_stream(VqStream s)
{
    return (hipStream_t)s;
}

/* Launch check shared by every launcher. */
static inline int vq_launch_status(void)
{
    hipError_t err = hipGetLastError();
    return err == hipSuccess ? 0 : (int)err;
}

/* A load of data that a block reads once (picture tiles): on NVIDIA it
 * bypasses L1 (cached in L2 only), so that L1 keeps what every block reads
 * again (lookup tables). A performance choice only. */
template <typename T>
__device__ __forceinline__ T vq_load_once(const T *p)
{
#if defined(__CUDACC__)
    return __ldcg(p);
#else
    return *p;
#endif
}

static inline unsigned vq_div_ceil(unsigned a, unsigned b)
{
    return (a + b - 1) / b;
}

#endif
