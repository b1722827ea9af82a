/*
 * The HIP runtime API of the emulated device: the subset hipcore and the
 * kernels' launchers call, in C, with HIP's names and error numbers. The
 * implementation is hipcore/gpu/emu/ (device memory in host memory,
 * streams that run their work lazily, kernels on fibers).
 */
#ifndef VQHIP_HIP_RUNTIME_EMU_H
#define VQHIP_HIP_RUNTIME_EMU_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* HIP's numbers (hip_runtime_api.h). */
typedef enum hipError_t {
    hipSuccess = 0,
    hipErrorInvalidValue = 1,
    hipErrorOutOfMemory = 2,
    hipErrorInvalidConfiguration = 9,
    hipErrorInvalidDevicePointer = 17,
    hipErrorInsufficientDriver = 35,
    hipErrorInvalidDevice = 101,
    hipErrorNoDevice = 100,
    hipErrorInvalidHandle = 400,
    hipErrorNotReady = 600,
    hipErrorIllegalAddress = 700,
    hipErrorLaunchFailure = 719,
    hipErrorNotSupported = 801,
} hipError_t;

typedef struct VqEmuStream *hipStream_t;
typedef struct VqEmuEvent *hipEvent_t;

typedef enum hipMemcpyKind {
    hipMemcpyHostToHost = 0,
    hipMemcpyHostToDevice = 1,
    hipMemcpyDeviceToHost = 2,
    hipMemcpyDeviceToDevice = 3,
    hipMemcpyDefault = 4,
} hipMemcpyKind;

typedef struct hipDeviceProp_t {
    char name[256];
    int integrated;
    int warpSize;
    int multiProcessorCount;
    size_t totalGlobalMem;
} hipDeviceProp_t;

typedef enum hipDeviceAttribute_t {
    hipDeviceAttributeIntegrated,
    hipDeviceAttributeMultiprocessorCount,
    hipDeviceAttributeWarpSize,
} hipDeviceAttribute_t;

#define hipStreamNonBlocking 0x1u
#define hipEventDisableTiming 0x2u
#define hipHostMallocDefault 0x0u
#define hipHostMallocMapped 0x2u

const char *hipGetErrorString(hipError_t e);
const char *hipGetErrorName(hipError_t e);
hipError_t hipGetLastError(void);
hipError_t hipGetDeviceCount(int *count);
hipError_t hipGetDeviceProperties(hipDeviceProp_t *prop, int device);
hipError_t hipDeviceGetAttribute(int *value, hipDeviceAttribute_t attr,
                                 int device);
hipError_t hipSetDevice(int device);
hipError_t hipGetDevice(int *device);
hipError_t hipRuntimeGetVersion(int *version);
hipError_t hipDriverGetVersion(int *version);

hipError_t hipMalloc(void **ptr, size_t size);
hipError_t hipMallocPitch(void **ptr, size_t *pitch, size_t width,
                          size_t height);
hipError_t hipFree(void *ptr);
hipError_t hipHostMalloc(void **ptr, size_t size, unsigned flags);
hipError_t hipHostFree(void *ptr);
hipError_t hipHostGetDevicePointer(void **dev, void *host, unsigned flags);

hipError_t hipMemsetAsync(void *dst, int value, size_t size,
                          hipStream_t stream);
hipError_t hipMemcpyAsync(void *dst, const void *src, size_t size,
                          hipMemcpyKind kind, hipStream_t stream);
hipError_t hipMemcpy2DAsync(void *dst, size_t dpitch, const void *src,
                            size_t spitch, size_t width, size_t height,
                            hipMemcpyKind kind, hipStream_t stream);

hipError_t hipStreamCreateWithFlags(hipStream_t *stream, unsigned flags);
hipError_t hipStreamDestroy(hipStream_t stream);
hipError_t hipStreamSynchronize(hipStream_t stream);
hipError_t hipStreamWaitEvent(hipStream_t stream, hipEvent_t event,
                              unsigned flags);
hipError_t hipEventCreateWithFlags(hipEvent_t *event, unsigned flags);
hipError_t hipEventDestroy(hipEvent_t event);
hipError_t hipEventRecord(hipEvent_t event, hipStream_t stream);
hipError_t hipEventSynchronize(hipEvent_t event);
hipError_t hipEventQuery(hipEvent_t event);

#ifdef __cplusplus
}
#endif

#endif
