/*
 * The GPU as hipcore sees it: one device, a compute stream and an upload
 * stream, device and pinned host memory, events. Every HIP call is checked;
 * failures become VQ_EDEVICE with the runtime's message in the error buffer.
 * Built only with a HIP platform (VQ_HAVE_HIP); without one, vq_gpu_open()
 * reports that the build has no GPU support.
 */
#ifndef VQHIP_GPU_H
#define VQHIP_GPU_H

#include <stddef.h>
#include <stdint.h>

#include "base/error.h"
#include "../../kernels/vq_kernel_api.h"

typedef struct VqGpu VqGpu;
typedef struct VqEventImpl *VqEvent;

/* How many GPUs the runtime sees (vq_gpu_count, vqhip.h). */
int vq_gpu_devices(char *why, size_t why_size);
/* Opens device `index` (or, with use_current, the device of the context
 * current on this thread, which must be `index`), creates the streams and
 * runs the probe kernel. */
int vq_gpu_open(VqGpu **gpu, int index, int use_current, VqErrBuf *e);
void vq_gpu_close(VqGpu **gpu);
/* Makes the device current on the calling thread: a context's calls may
 * come from several threads, one at a time (the filter opens the GPU on a
 * thread of its own), and the runtime's current device is per thread. With
 * use_current the caller's context is left as it is. */
int vq_gpu_bind(VqGpu *gpu);
const char *vq_gpu_name(const VqGpu *gpu);
/* Seconds vq_gpu_open spent in each phase: the runtime's start and the
 * device context, device properties and streams, the probe kernel (its
 * launch loads the kernels' module). VQHIP_STATS prints them. */
typedef enum VqGpuOpenPhase {
    VQ_GPU_OPEN_CONTEXT, VQ_GPU_OPEN_STREAMS, VQ_GPU_OPEN_PROBE,
    VQ_GPU_OPEN_PHASES
} VqGpuOpenPhase;
double vq_gpu_open_time(const VqGpu *gpu, VqGpuOpenPhase phase);
int vq_gpu_wave_size(const VqGpu *gpu);
/* The stream kernels are enqueued on: the compute stream, or while
 * vq_gpu_use_lane(gpu, k) is in effect, lane k's stream. */
VqStream vq_gpu_compute_stream(const VqGpu *gpu);
VqStream vq_gpu_upload_stream(const VqGpu *gpu);

/* Lanes: more compute streams, so that the kernels of independent
 * extractors run side by side. vq_gpu_lanes creates up to n of them (at most
 * VQ_GPU_MAX_LANES; those that exist are kept) and returns how many exist or
 * a negative error. vq_gpu_use_lane(gpu, k) makes vq_gpu_compute_stream
 * return lane k's stream (k < 0 or k >= the number of lanes: the compute
 * stream itself); the pipeline sets it around one extractor's gpu_run. */
#define VQ_GPU_MAX_LANES 8
int vq_gpu_lanes(VqGpu *gpu, unsigned n);
void vq_gpu_use_lane(VqGpu *gpu, int lane);
VqStream vq_gpu_lane_stream(const VqGpu *gpu, unsigned lane);
/* Compile-time platform: "amd", "nvidia", "emu" (the emulated device) or
 * "none". */
const char *vq_gpu_platform(void);

/* Turns a nonzero HIP error code (from a launcher) into VQ_EDEVICE. */
int vq_gpu_fail(VqGpu *gpu, int hip_err, const char *what);

int vq_gpu_malloc(VqGpu *gpu, void **ptr, size_t size, const char *what);
int vq_gpu_malloc_pitch(VqGpu *gpu, void **ptr, size_t *pitch, size_t row,
                        size_t rows, const char *what);
void vq_gpu_free(VqGpu *gpu, void *ptr);
int vq_gpu_host_alloc(VqGpu *gpu, void **ptr, size_t size, const char *what);
/* Pinned host memory that kernels can read in place: *dev is its address
 * on the device. */
int vq_gpu_host_alloc_mapped(VqGpu *gpu, void **ptr, void **dev, size_t size,
                             const char *what);
/* Device memory imported from a dma-buf file descriptor (AMD platform; the
 * fd is not consumed). *handle is released with vq_gpu_release_import. */
int vq_gpu_import_dmabuf(VqGpu *gpu, int fd, size_t size, void **handle,
                         void **dev);
void vq_gpu_release_import(VqGpu *gpu, void *handle);
/* An integrated GPU (APU: its memory is the host's). */
int vq_gpu_integrated(const VqGpu *gpu);
void vq_gpu_host_free(VqGpu *gpu, void *ptr);

int vq_gpu_memset(VqGpu *gpu, VqStream s, void *dev, int value, size_t size);
int vq_gpu_upload2d(VqGpu *gpu, VqStream s, void *dev, size_t dpitch,
                    const void *host, size_t spitch, size_t row, size_t rows);
int vq_gpu_copy2d_device(VqGpu *gpu, VqStream s, void *dst, size_t dpitch,
                         const void *src, size_t spitch, size_t row,
                         size_t rows);
int vq_gpu_download2d(VqGpu *gpu, VqStream s, void *host, size_t hpitch,
                      const void *dev, size_t dpitch, size_t row, size_t rows);
int vq_gpu_download(VqGpu *gpu, VqStream s, void *host, const void *dev,
                    size_t size);
int vq_gpu_sync(VqGpu *gpu, VqStream s);

/* Bytes the copies above were asked to move since the device was opened,
 * by kind (VQHIP_STATS prints them per frame): picture planes from host
 * memory (vq_gpu_upload2d), device-to-device plane copies
 * (vq_gpu_copy2d_device), planes to host memory (vq_gpu_download2d: only
 * for extractors that run on the CPU) and result records (vq_gpu_download). */
typedef struct VqGpuTraffic {
    uint64_t planes_up, planes_device, planes_down, results_down;
} VqGpuTraffic;
void vq_gpu_traffic(const VqGpu *gpu, VqGpuTraffic *out);

int vq_gpu_event_create(VqGpu *gpu, VqEvent *ev);
void vq_gpu_event_destroy(VqGpu *gpu, VqEvent ev);
int vq_gpu_event_record(VqGpu *gpu, VqEvent ev, VqStream s);
int vq_gpu_event_wait(VqGpu *gpu, VqStream s, VqEvent ev);
int vq_gpu_event_sync(VqGpu *gpu, VqEvent ev);
/* 1 when complete, 0 when still running, negative on error. */
int vq_gpu_event_done(VqGpu *gpu, VqEvent ev);

/* Fault handling (fault.h): the frame whose work is enqueued next (fault
 * injection counts frames by it); after a fault, no call waits on the
 * device again; whether frame `index`'s results are to be dropped
 * (VQHIP_FAULT=drop@N). */
void vq_gpu_set_frame(VqGpu *gpu, unsigned index);
void vq_gpu_mark_dead(VqGpu *gpu);
int vq_gpu_fault_drop(VqGpu *gpu, unsigned index);
/* A fake device in host memory (VQHIP_FAKE_GPU=1 in a build without a HIP
 * platform, for tests): copies are memcpy, "kernels" are the extractors'
 * CPU code (the pipeline runs them). */
int vq_gpu_is_fake(const VqGpu *gpu);

/* The error buffer messages go to (the owning context's). */
void vq_gpu_set_errbuf(VqGpu *gpu, VqErrBuf *e);

#endif
