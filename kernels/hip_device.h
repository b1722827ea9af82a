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

#if defined(__CUDACC__)
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

static inline unsigned vq_div_ceil(unsigned a, unsigned b)
{
    return (a + b - 1) / b;
}

#endif
