/*
 * Types shared by host C code and the kernels' C-linkage launchers. Every
 * kernels/<name>.h declares its launchers with these types; the .hip file
 * includes the same header, so host and device compile against one
 * declaration of each launcher.
 *
 * Launchers return 0 or the HIP runtime's error code (positive); they check
 * the launch with hipGetLastError() before returning.
 */
#ifndef VQHIP_KERNEL_API_H
#define VQHIP_KERNEL_API_H

#include <stddef.h>
#include <stdint.h>

/* Marks helpers that host C code and kernels share (a shared helper is
 * how CPU and GPU arithmetic stay identical). */
#if defined(__CUDACC__) || defined(__HIP__)
#define VQ_HOST_DEVICE __host__ __device__
#else
#define VQ_HOST_DEVICE
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* A GPU stream (hipStream_t underneath). */
typedef struct VqStreamImpl *VqStream;

/* A plane in device memory. Only device buffers are ever wrapped in this
 * type, so a host pointer cannot reach a kernel by mistake. Sample (x, y) is
 * at data + y * pitch + x * (bpc > 8 ? 2 : 1). */
typedef struct VqDevPlane {
    const void *data;
    size_t pitch;
    unsigned w, h;
} VqDevPlane;

typedef struct VqDevFrame {
    VqDevPlane plane[3];
    unsigned bpc;
} VqDevFrame;

#ifdef __cplusplus
}
#endif

#endif
