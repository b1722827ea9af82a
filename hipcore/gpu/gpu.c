#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu.h"

#if !defined(VQ_HAVE_HIP)

/* A build without a HIP platform: vq_gpu_open() explains, and nothing else
 * is reached because no context ever holds a VqGpu. */
struct VqGpu {
    int unused;
};

const char *vq_gpu_platform(void) { return "none"; }

int vq_gpu_count(char *why, size_t why_size)
{
    if (why && why_size)
        snprintf(why, why_size, "this libvqhip was built without a HIP "
                 "platform");
    return 0;
}

int vq_gpu_open(VqGpu **gpu, int index, int use_current, VqErrBuf *e)
{
    (void)index;
    (void)use_current;
    *gpu = NULL;
    return vq_fail(e, VQ_EDEVICE,
                   "this libvqhip was built without a HIP platform "
                   "(meson -Dhip_platform=amd or nvidia)");
}

void vq_gpu_close(VqGpu **gpu) { *gpu = NULL; }
const char *vq_gpu_name(const VqGpu *gpu) { (void)gpu; return ""; }
int vq_gpu_wave_size(const VqGpu *gpu) { (void)gpu; return 0; }
VqStream vq_gpu_compute_stream(const VqGpu *gpu) { (void)gpu; return NULL; }
VqStream vq_gpu_upload_stream(const VqGpu *gpu) { (void)gpu; return NULL; }
int vq_gpu_fail(VqGpu *gpu, int hip_err, const char *what)
{ (void)what; (void)gpu; return hip_err ? VQ_EDEVICE : 0; }
void vq_gpu_set_errbuf(VqGpu *gpu, VqErrBuf *e) { (void)gpu; (void)e; }
int vq_gpu_malloc(VqGpu *gpu, void **p, size_t n, const char *w)
{ (void)n; (void)w; *p = NULL; (void)gpu; return VQ_EDEVICE; }
int vq_gpu_malloc_pitch(VqGpu *gpu, void **p, size_t *pitch, size_t row,
                        size_t rows, const char *w)
{ (void)pitch; (void)row; (void)rows; (void)w; *p = NULL; (void)gpu; return VQ_EDEVICE; }
void vq_gpu_free(VqGpu *gpu, void *p) { (void)gpu; (void)p; }
int vq_gpu_host_alloc(VqGpu *gpu, void **p, size_t n, const char *w)
{ (void)n; (void)w; *p = NULL; (void)gpu; return VQ_EDEVICE; }
int vq_gpu_host_alloc_mapped(VqGpu *gpu, void **p, void **d, size_t n,
                             const char *w)
{ (void)n; (void)w; *p = *d = NULL; (void)gpu; return VQ_EDEVICE; }
int vq_gpu_integrated(const VqGpu *gpu) { (void)gpu; return 0; }
int vq_gpu_import_dmabuf(VqGpu *gpu, int fd, size_t size, void **handle,
                         void **dev)
{ (void)gpu; (void)fd; (void)size; *handle = *dev = NULL; return VQ_EDEVICE; }
void vq_gpu_release_import(VqGpu *gpu, void *handle) { (void)gpu; (void)handle; }
void vq_gpu_host_free(VqGpu *gpu, void *p) { (void)gpu; (void)p; }
int vq_gpu_memset(VqGpu *gpu, VqStream s, void *d, int v, size_t n)
{ (void)s; (void)d; (void)v; (void)n; (void)gpu; return VQ_EDEVICE; }
int vq_gpu_upload2d(VqGpu *gpu, VqStream s, void *d, size_t dp, const void *h,
                    size_t sp, size_t row, size_t rows)
{ (void)s; (void)d; (void)dp; (void)h; (void)sp; (void)row; (void)rows; (void)gpu; return VQ_EDEVICE; }
int vq_gpu_download(VqGpu *gpu, VqStream s, void *h, const void *d, size_t n)
{ (void)s; (void)h; (void)d; (void)n; (void)gpu; return VQ_EDEVICE; }
int vq_gpu_copy2d_device(VqGpu *gpu, VqStream s, void *d, size_t dp,
                         const void *src, size_t sp, size_t row, size_t rows)
{ (void)s; (void)d; (void)dp; (void)src; (void)sp; (void)row; (void)rows; (void)gpu; return VQ_EDEVICE; }
int vq_gpu_download2d(VqGpu *gpu, VqStream s, void *h, size_t hp, const void *d,
                      size_t dp, size_t row, size_t rows)
{ (void)s; (void)h; (void)hp; (void)d; (void)dp; (void)row; (void)rows; (void)gpu; return VQ_EDEVICE; }
int vq_gpu_sync(VqGpu *gpu, VqStream s) { (void)s; (void)gpu; return VQ_EDEVICE; }
int vq_gpu_event_create(VqGpu *gpu, VqEvent *ev) { *ev = NULL; (void)gpu; return VQ_EDEVICE; }
void vq_gpu_event_destroy(VqGpu *gpu, VqEvent ev) { (void)gpu; (void)ev; }
int vq_gpu_event_record(VqGpu *gpu, VqEvent ev, VqStream s)
{ (void)ev; (void)s; (void)gpu; return VQ_EDEVICE; }
int vq_gpu_event_wait(VqGpu *gpu, VqStream s, VqEvent ev)
{ (void)ev; (void)s; (void)gpu; return VQ_EDEVICE; }
int vq_gpu_event_sync(VqGpu *gpu, VqEvent ev) { (void)ev; (void)gpu; return VQ_EDEVICE; }
int vq_gpu_event_done(VqGpu *gpu, VqEvent ev) { (void)ev; (void)gpu; return VQ_EDEVICE; }

#else /* VQ_HAVE_HIP */

#include "hip_host.h"
#include "../../kernels/probe.h"

struct VqGpu {
    int device;
    char name[256];
    int wave_size;
    int integrated;
    hipStream_t compute, upload;
    VqErrBuf *err;
};

const char *vq_gpu_platform(void)
{
#if defined(VQ_HIP_PLATFORM_NVIDIA)
    return "nvidia";
#else
    return "amd";
#endif
}

static int check(VqGpu *gpu, hipError_t r, const char *what)
{
    if (r == hipSuccess)
        return 0;
    return vq_fail(gpu ? gpu->err : NULL, VQ_EDEVICE, "GPU: %s failed: %s (%s)",
                   what, hipGetErrorString(r), hipGetErrorName(r));
}

int vq_gpu_fail(VqGpu *gpu, int hip_err, const char *what)
{
    if (!hip_err)
        return 0;
    return check(gpu, (hipError_t)hip_err, what);
}

void vq_gpu_set_errbuf(VqGpu *gpu, VqErrBuf *e) { gpu->err = e; }

static int run_probe(VqGpu *gpu)
{
    uint32_t *dev = NULL, host[VQ_PROBE_N + 1];
    size_t size = sizeof(host);
    int err = check(gpu, hipMalloc((void **)&dev, size), "probe allocation");
    if (err)
        return err;
    err = check(gpu, hipMemsetAsync(dev, 0, size, gpu->compute), "probe clear");
    if (!err)
        err = vq_gpu_fail(gpu, vq_probe_launch((VqStream)gpu->compute, dev),
                          "probe kernel launch");
    if (!err)
        err = check(gpu, hipMemcpyAsync(host, dev, size, hipMemcpyDeviceToHost,
                                        gpu->compute), "probe read-back");
    if (!err)
        err = check(gpu, hipStreamSynchronize(gpu->compute), "probe kernel");
    hipFree(dev);
    if (err)
        return err;
    for (uint32_t i = 0; i < VQ_PROBE_N; i++)
        if (host[i] != vq_probe_expected(i))
            return vq_fail(gpu->err, VQ_EDEVICE,
                           "GPU: the probe kernel ran but wrote wrong values "
                           "(word %u): the kernels were not built for this "
                           "device", i);
    gpu->wave_size = (int)host[VQ_PROBE_N];
    if (gpu->wave_size <= 0)
        return vq_fail(gpu->err, VQ_EDEVICE, "GPU: probe read wave size %d",
                       gpu->wave_size);
    return 0;
}

int vq_gpu_count(char *why, size_t why_size)
{
    int count = 0;
    hipError_t r = hipGetDeviceCount(&count);
    char msg[256];
    int ret = count;
    if (r == hipErrorNoDevice || r == hipErrorInsufficientDriver) {
        snprintf(msg, sizeof(msg), "no %s GPU present: %s",
                 vq_gpu_platform(), hipGetErrorName(r));
        ret = 0;
    } else if (r != hipSuccess) {
        snprintf(msg, sizeof(msg), "the %s GPU runtime failed: %s (%s)",
                 vq_gpu_platform(), hipGetErrorString(r), hipGetErrorName(r));
        ret = VQ_EDEVICE;
    } else {
        snprintf(msg, sizeof(msg), "%d %s GPU(s)", count, vq_gpu_platform());
    }
    if (why && why_size)
        snprintf(why, why_size, "%s", msg);
    return ret;
}

int vq_gpu_open(VqGpu **out, int index, int use_current, VqErrBuf *e)
{
    *out = NULL;
    int count = 0;
    hipError_t r = hipGetDeviceCount(&count);
    if (r != hipSuccess)
        return vq_fail(e, VQ_EDEVICE, "no usable %s GPU: %s",
                       vq_gpu_platform(), hipGetErrorString(r));
    if (index < 0 || index >= count)
        return vq_fail(e, VQ_EDEVICE, "GPU %d requested, %d present", index,
                       count);
    VqGpu *gpu = calloc(1, sizeof(*gpu));
    if (!gpu)
        return vq_fail(e, VQ_ENOMEM, "out of memory");
    gpu->device = index;
    gpu->err = e;
    int err;
    if (use_current) {
        /* The runtime then works in the caller's current context. */
        int cur = -1;
        err = check(gpu, hipGetDevice(&cur), "reading the current device");
        if (!err && cur != index)
            err = vq_fail(e, VQ_EDEVICE, "the current GPU context is on "
                          "device %d, not %d", cur, index);
    } else {
        err = check(gpu, hipSetDevice(index), "selecting the device");
    }
    hipDeviceProp_t prop;
    if (!err)
        err = check(gpu, hipGetDeviceProperties(&prop, index),
                    "reading device properties");
    if (!err) {
        snprintf(gpu->name, sizeof(gpu->name), "%s", prop.name);
        gpu->integrated = prop.integrated != 0;
        err = check(gpu, hipStreamCreateWithFlags(&gpu->compute,
                                                  hipStreamNonBlocking),
                    "creating the compute stream");
    }
    if (!err)
        err = check(gpu, hipStreamCreateWithFlags(&gpu->upload,
                                                  hipStreamNonBlocking),
                    "creating the upload stream");
    if (!err)
        err = run_probe(gpu);
    *out = gpu;
    if (err) {
        vq_gpu_close(out);
        return err;
    }
    return 0;
}

void vq_gpu_close(VqGpu **pgpu)
{
    VqGpu *gpu = *pgpu;
    if (!gpu)
        return;
    if (gpu->compute) {
        hipStreamSynchronize(gpu->compute);
        hipStreamDestroy(gpu->compute);
    }
    if (gpu->upload) {
        hipStreamSynchronize(gpu->upload);
        hipStreamDestroy(gpu->upload);
    }
    free(gpu);
    *pgpu = NULL;
}

const char *vq_gpu_name(const VqGpu *gpu) { return gpu->name; }
int vq_gpu_wave_size(const VqGpu *gpu) { return gpu->wave_size; }
VqStream vq_gpu_compute_stream(const VqGpu *gpu) { return (VqStream)gpu->compute; }
VqStream vq_gpu_upload_stream(const VqGpu *gpu) { return (VqStream)gpu->upload; }

int vq_gpu_malloc(VqGpu *gpu, void **ptr, size_t size, const char *what)
{
    *ptr = NULL;
    int err = check(gpu, hipMalloc(ptr, size ? size : 1), what);
    if (err)
        *ptr = NULL;
    return err;
}

int vq_gpu_malloc_pitch(VqGpu *gpu, void **ptr, size_t *pitch, size_t row,
                        size_t rows, const char *what)
{
    *ptr = NULL;
    int err = check(gpu, hipMallocPitch(ptr, pitch, row ? row : 1,
                                        rows ? rows : 1), what);
    if (err)
        *ptr = NULL;
    return err;
}

void vq_gpu_free(VqGpu *gpu, void *ptr)
{
    (void)gpu;
    if (ptr)
        hipFree(ptr);
}

int vq_gpu_host_alloc(VqGpu *gpu, void **ptr, size_t size, const char *what)
{
    *ptr = NULL;
    int err = check(gpu, hipHostMalloc(ptr, size ? size : 1,
                                       hipHostMallocDefault), what);
    if (err)
        *ptr = NULL;
    return err;
}

int vq_gpu_host_alloc_mapped(VqGpu *gpu, void **ptr, void **dev, size_t size,
                             const char *what)
{
    *ptr = *dev = NULL;
    int err = check(gpu, hipHostMalloc(ptr, size ? size : 1,
                                       hipHostMallocMapped), what);
    if (!err)
        err = check(gpu, hipHostGetDevicePointer(dev, *ptr, 0), what);
    if (err && *ptr) {
        hipHostFree(*ptr);
        *ptr = NULL;
    }
    return err;
}

int vq_gpu_integrated(const VqGpu *gpu) { return gpu->integrated; }

#if defined(VQ_HIP_PLATFORM_AMD)
int vq_gpu_import_dmabuf(VqGpu *gpu, int fd, size_t size, void **handle,
                         void **dev)
{
    *handle = *dev = NULL;
    hipExternalMemoryHandleDesc desc;
    memset(&desc, 0, sizeof(desc));
    desc.type = hipExternalMemoryHandleTypeOpaqueFd;
    desc.handle.fd = fd;
    desc.size = size;
    hipExternalMemory_t mem = NULL;
    int err = check(gpu, hipImportExternalMemory(&mem, &desc),
                    "importing a dma-buf");
    if (err)
        return err;
    hipExternalMemoryBufferDesc buf;
    memset(&buf, 0, sizeof(buf));
    buf.offset = 0;
    buf.size = size;
    err = check(gpu, hipExternalMemoryGetMappedBuffer(dev, mem, &buf),
                "mapping an imported dma-buf");
    if (err) {
        hipDestroyExternalMemory(mem);
        *dev = NULL;
        return err;
    }
    *handle = mem;
    return 0;
}

void vq_gpu_release_import(VqGpu *gpu, void *handle)
{
    (void)gpu;
    if (handle)
        hipDestroyExternalMemory((hipExternalMemory_t)handle);
}
#else
int vq_gpu_import_dmabuf(VqGpu *gpu, int fd, size_t size, void **handle,
                         void **dev)
{
    (void)fd;
    (void)size;
    *handle = *dev = NULL;
    return vq_fail(gpu->err, VQ_EUNSUPPORTED, "importing dma-buf frames "
                   "(VAAPI, DRM PRIME) needs the AMD platform");
}

void vq_gpu_release_import(VqGpu *gpu, void *handle)
{
    (void)gpu;
    (void)handle;
}
#endif

void vq_gpu_host_free(VqGpu *gpu, void *ptr)
{
    (void)gpu;
    if (ptr)
        hipHostFree(ptr);
}

int vq_gpu_memset(VqGpu *gpu, VqStream s, void *dev, int value, size_t size)
{
    return check(gpu, hipMemsetAsync(dev, value, size, (hipStream_t)s),
                 "device memset");
}

int vq_gpu_upload2d(VqGpu *gpu, VqStream s, void *dev, size_t dpitch,
                    const void *host, size_t spitch, size_t row, size_t rows)
{
    return check(gpu, hipMemcpy2DAsync(dev, dpitch, host, spitch, row, rows,
                                       hipMemcpyHostToDevice, (hipStream_t)s),
                 "plane upload");
}

int vq_gpu_copy2d_device(VqGpu *gpu, VqStream s, void *dst, size_t dpitch,
                         const void *src, size_t spitch, size_t row,
                         size_t rows)
{
    return check(gpu, hipMemcpy2DAsync(dst, dpitch, src, spitch, row, rows,
                                       hipMemcpyDeviceToDevice, (hipStream_t)s),
                 "device plane copy");
}

int vq_gpu_download2d(VqGpu *gpu, VqStream s, void *host, size_t hpitch,
                      const void *dev, size_t dpitch, size_t row, size_t rows)
{
    return check(gpu, hipMemcpy2DAsync(host, hpitch, dev, dpitch, row, rows,
                                       hipMemcpyDeviceToHost, (hipStream_t)s),
                 "plane download");
}

int vq_gpu_download(VqGpu *gpu, VqStream s, void *host, const void *dev,
                    size_t size)
{
    return check(gpu, hipMemcpyAsync(host, dev, size, hipMemcpyDeviceToHost,
                                     (hipStream_t)s), "result download");
}

int vq_gpu_sync(VqGpu *gpu, VqStream s)
{
    return check(gpu, hipStreamSynchronize((hipStream_t)s), "stream");
}

int vq_gpu_event_create(VqGpu *gpu, VqEvent *ev)
{
    hipEvent_t e = NULL;
    int err = check(gpu, hipEventCreateWithFlags(&e, hipEventDisableTiming),
                    "event creation");
    *ev = (VqEvent)e;
    return err;
}

void vq_gpu_event_destroy(VqGpu *gpu, VqEvent ev)
{
    (void)gpu;
    if (ev)
        hipEventDestroy((hipEvent_t)ev);
}

int vq_gpu_event_record(VqGpu *gpu, VqEvent ev, VqStream s)
{
    return check(gpu, hipEventRecord((hipEvent_t)ev, (hipStream_t)s),
                 "event record");
}

int vq_gpu_event_wait(VqGpu *gpu, VqStream s, VqEvent ev)
{
    return check(gpu, hipStreamWaitEvent((hipStream_t)s, (hipEvent_t)ev, 0),
                 "stream wait");
}

int vq_gpu_event_sync(VqGpu *gpu, VqEvent ev)
{
    return check(gpu, hipEventSynchronize((hipEvent_t)ev), "GPU work");
}

int vq_gpu_event_done(VqGpu *gpu, VqEvent ev)
{
    hipError_t r = hipEventQuery((hipEvent_t)ev);
    if (r == hipSuccess)
        return 1;
    if (r == hipErrorNotReady) {
        hipGetLastError(); /* a not-ready query is not an error to keep */
        return 0;
    }
    return check(gpu, r, "GPU work");
}

#endif /* VQ_HAVE_HIP */
