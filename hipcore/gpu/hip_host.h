/*
 * The HIP runtime API as host C code uses it, on both platforms.
 *
 * AMD: HIP's own C header. NVIDIA: the subset of HIP that hipcore uses,
 * mapped onto the CUDA runtime. Debian's HIP 5.2 NVIDIA headers do not
 * compile with CUDA 13, so this small table replaces them. The emulated
 * device (tests without a GPU): its own runtime with HIP's names. Only gpu.c
 * includes this file; everything else goes through gpu.h.
 */
#ifndef VQHIP_HIP_HOST_H
#define VQHIP_HIP_HOST_H

#if defined(VQ_HIP_PLATFORM_NVIDIA)

#include <cuda_runtime_api.h>

typedef cudaError_t hipError_t;
typedef cudaStream_t hipStream_t;
typedef cudaEvent_t hipEvent_t;
typedef struct cudaDeviceProp hipDeviceProp_t;

#define hipSuccess cudaSuccess
#define hipErrorNotReady cudaErrorNotReady
#define hipErrorNoDevice cudaErrorNoDevice
#define hipErrorInsufficientDriver cudaErrorInsufficientDriver
#define hipMemcpyHostToDevice cudaMemcpyHostToDevice
#define hipMemcpyDeviceToHost cudaMemcpyDeviceToHost
#define hipMemcpyDeviceToDevice cudaMemcpyDeviceToDevice
#define hipStreamNonBlocking cudaStreamNonBlocking
#define hipEventDisableTiming cudaEventDisableTiming
#define hipHostMallocDefault cudaHostAllocDefault
#define hipHostMallocMapped cudaHostAllocMapped
#define hipDeviceAttributeIntegrated cudaDevAttrIntegrated

#define hipGetErrorString cudaGetErrorString
#define hipGetErrorName cudaGetErrorName
#define hipGetLastError cudaGetLastError
#define hipGetDeviceCount cudaGetDeviceCount
#define hipGetDeviceProperties cudaGetDeviceProperties
#define hipSetDevice cudaSetDevice
#define hipGetDevice cudaGetDevice
#define hipMalloc cudaMalloc
#define hipMallocPitch cudaMallocPitch
#define hipFree cudaFree
#define hipHostMalloc(p, size, flags) cudaHostAlloc((p), (size), (flags))
#define hipHostFree cudaFreeHost
#define hipHostGetDevicePointer cudaHostGetDevicePointer
#define hipDeviceGetAttribute cudaDeviceGetAttribute
#define hipMemsetAsync cudaMemsetAsync
#define hipMemcpyAsync cudaMemcpyAsync
#define hipMemcpy2DAsync cudaMemcpy2DAsync
#define hipStreamCreateWithFlags cudaStreamCreateWithFlags
#define hipStreamDestroy cudaStreamDestroy
#define hipStreamSynchronize cudaStreamSynchronize
#define hipStreamWaitEvent cudaStreamWaitEvent
#define hipEventCreateWithFlags cudaEventCreateWithFlags
#define hipEventDestroy cudaEventDestroy
#define hipEventRecord cudaEventRecord
#define hipEventSynchronize cudaEventSynchronize
#define hipEventQuery cudaEventQuery
#define hipRuntimeGetVersion cudaRuntimeGetVersion
#define hipDriverGetVersion cudaDriverGetVersion

#elif defined(VQ_HIP_PLATFORM_AMD)

#ifndef __HIP_PLATFORM_AMD__
#define __HIP_PLATFORM_AMD__
#endif
#include <hip/hip_runtime_api.h>

#elif defined(VQ_HIP_PLATFORM_EMU)

#include "../../kernels/emu/hip_runtime_emu.h"

#else
#error "hip_host.h needs VQ_HIP_PLATFORM_AMD, _NVIDIA or _EMU"
#endif

#endif
