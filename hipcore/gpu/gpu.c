/* The GPU through HIP (a build without a HIP platform has fake_gpu.c). */
#include <dlfcn.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fault.h"
#include "gpu.h"

#if defined(VQ_HAVE_HIP)

#include "hip_host.h"
#include "../../kernels/probe.h"

struct VqGpu {
    int device;
    int use_current;
    char name[256];
    int wave_size;
    int integrated;
    hipStream_t compute, upload;
    hipStream_t lane[VQ_GPU_MAX_LANES];
    unsigned n_lanes;
    hipStream_t current; /* vq_gpu_compute_stream's answer; NULL: compute */
    VqErrBuf *err;
    VqFaults faults;
    bool dead;          /* a fault was seen: never wait on it again */
    VqGpuTraffic traffic;
    double t_open[VQ_GPU_OPEN_PHASES]; /* seconds, vq_gpu_open_time */
};

const char *vq_gpu_platform(void)
{
#if defined(VQ_HIP_PLATFORM_NVIDIA)
    return "nvidia";
#elif defined(VQ_HIP_PLATFORM_EMU)
    return "emu";
#else
    return "amd";
#endif
}

/* A HIP status as this library's error: 0, or VQ_EDEVICE with the call
 * named. */
static int hip_status(VqGpu *gpu, hipError_t r, const char *what)
{
    if (r == hipSuccess)
        return 0;
    return vq_fail(gpu ? gpu->err : NULL, VQ_EDEVICE, "GPU: %s failed: %s (%s)",
                   what, hipGetErrorString(r), hipGetErrorName(r));
}

/* hip_status, after the fault-injection point of the device operations. */
static int check(VqGpu *gpu, hipError_t r, const char *what)
{
    if (gpu) {
        int f = vq_fault_check(&gpu->faults, VQ_FAULT_LOST, gpu->err, what);
        if (f)
            return f;
    }
    return hip_status(gpu, r, what);
}

int vq_gpu_fail(VqGpu *gpu, int hip_err, const char *what)
{
    int f = vq_fault_check(&gpu->faults, VQ_FAULT_LAUNCH, gpu->err, what);
    return f ? f : check(gpu, (hipError_t)hip_err, what);
}

void vq_gpu_set_frame(VqGpu *gpu, unsigned index)
{
    gpu->faults.frame = index;
    gpu->faults.armed = true;
}
void vq_gpu_mark_dead(VqGpu *gpu) { gpu->dead = true; }
int vq_gpu_is_fake(const VqGpu *gpu) { (void)gpu; return 0; }

int vq_gpu_fault_drop(VqGpu *gpu, unsigned index)
{
    unsigned keep = gpu->faults.frame;
    gpu->faults.frame = index;
    bool drop = vq_fault_fires(&gpu->faults, VQ_FAULT_DROP);
    gpu->faults.frame = keep;
    return drop;
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

/* Whether the platform's driver library is there at all. A runtime says
 * "insufficient driver" both when there is none (no GPU: a machine like any
 * other) and when it is too old (a GPU the runtime cannot use: an error). */
static bool driver_installed(void)
{
#if defined(VQ_HIP_PLATFORM_NVIDIA)
    void *h = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL);
#elif defined(VQ_HIP_PLATFORM_AMD)
    void *h = dlopen("libhsa-runtime64.so.1", RTLD_LAZY | RTLD_LOCAL);
#else
    void *h = NULL;
#endif
    if (h)
        dlclose(h);
    return h != NULL;
}

int vq_gpu_devices(char *why, size_t why_size)
{
    int count = 0;
    hipError_t r = hipGetDeviceCount(&count);
    char msg[256];
    int ret = count;
    if (r == hipErrorNoDevice || (r == hipErrorInsufficientDriver &&
                                  !driver_installed())) {
        snprintf(msg, sizeof(msg), "no %s GPU present: %s",
                 vq_gpu_platform(), r == hipErrorNoDevice
                     ? hipGetErrorName(r) : "no GPU driver is installed");
        ret = 0;
    } else if (r == hipErrorInsufficientDriver) {
        /* a GPU may well be there: the runtime cannot use its driver */
        snprintf(msg, sizeof(msg), "the %s GPU driver is older than this "
                 "runtime needs (%s): update the driver",
                 vq_gpu_platform(), hipGetErrorName(r));
        ret = VQ_EDEVICE;
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

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

int vq_gpu_open(VqGpu **out, int index, int use_current, VqErrBuf *e)
{
    *out = NULL;
    double t0 = now_s();
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
    gpu->use_current = use_current;
    gpu->err = e;
    char why[256];
    if (vq_faults_init(&gpu->faults, why, sizeof(why))) {
        free(gpu);
        return vq_fail(e, VQ_EINVAL, "%s", why);
    }
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
    /* hipFree(NULL) makes the runtime create its context now, so that
     * the phases below are timed apart from it */
    if (!err)
        err = check(gpu, hipFree(NULL), "creating the device context");
    gpu->t_open[VQ_GPU_OPEN_CONTEXT] = now_s() - t0;
    double t1 = now_s();
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
    gpu->t_open[VQ_GPU_OPEN_STREAMS] = now_s() - t1;
    t1 = now_s();
    if (!err)
        err = run_probe(gpu);
    gpu->t_open[VQ_GPU_OPEN_PROBE] = now_s() - t1;
    *out = gpu;
    if (err) {
        vq_gpu_close(out);
        return err;
    }
    return 0;
}

int vq_gpu_bind(VqGpu *gpu)
{
    if (!gpu || gpu->use_current)
        return 0;
    /* not a fault-injection point: the frames' operations are */
    return hip_status(gpu, hipSetDevice(gpu->device), "selecting the device");
}

void vq_gpu_close(VqGpu **pgpu)
{
    VqGpu *gpu = *pgpu;
    if (!gpu)
        return;
    /* After a fault the streams may never finish: leave them. */
    if (gpu->compute && !gpu->dead) {
        hipStreamSynchronize(gpu->compute);
        hipStreamDestroy(gpu->compute);
    }
    if (gpu->upload && !gpu->dead) {
        hipStreamSynchronize(gpu->upload);
        hipStreamDestroy(gpu->upload);
    }
    for (unsigned i = 0; i < gpu->n_lanes && !gpu->dead; i++) {
        hipStreamSynchronize(gpu->lane[i]);
        hipStreamDestroy(gpu->lane[i]);
    }
    free(gpu);
    *pgpu = NULL;
}

const char *vq_gpu_name(const VqGpu *gpu) { return gpu->name; }
double vq_gpu_open_time(const VqGpu *gpu, VqGpuOpenPhase phase)
{
    return gpu->t_open[phase];
}
int vq_gpu_wave_size(const VqGpu *gpu) { return gpu->wave_size; }
VqStream vq_gpu_compute_stream(const VqGpu *gpu)
{
    return (VqStream)(gpu->current ? gpu->current : gpu->compute);
}

VqStream vq_gpu_upload_stream(const VqGpu *gpu) { return (VqStream)gpu->upload; }

int vq_gpu_lanes(VqGpu *gpu, unsigned n)
{
    if (n > VQ_GPU_MAX_LANES)
        n = VQ_GPU_MAX_LANES;
    while (gpu->n_lanes < n) {
        int err = check(gpu, hipStreamCreateWithFlags(&gpu->lane[gpu->n_lanes],
                                                      hipStreamNonBlocking),
                        "creating a compute lane");
        if (err)
            return err;
        gpu->n_lanes++;
    }
    return (int)gpu->n_lanes;
}

void vq_gpu_use_lane(VqGpu *gpu, int lane)
{
    gpu->current = lane >= 0 && (unsigned)lane < gpu->n_lanes ? gpu->lane[lane]
                                                               : NULL;
}

VqStream vq_gpu_lane_stream(const VqGpu *gpu, unsigned lane)
{
    return (VqStream)(lane < gpu->n_lanes ? gpu->lane[lane] : gpu->compute);
}

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

/* After a fault, memory is left allocated: freeing synchronizes with the
 * device, which may never answer again (a hung kernel). */
void vq_gpu_free(VqGpu *gpu, void *ptr)
{
    if (ptr && !gpu->dead)
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
    if (ptr && !gpu->dead)
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
    int f = vq_fault_check(&gpu->faults, VQ_FAULT_COPY, gpu->err, "plane upload");
    if (f)
        return f;
    gpu->traffic.planes_up += (uint64_t)row * rows;
    return check(gpu, hipMemcpy2DAsync(dev, dpitch, host, spitch, row, rows,
                                       hipMemcpyHostToDevice, (hipStream_t)s),
                 "plane upload");
}

int vq_gpu_copy2d_device(VqGpu *gpu, VqStream s, void *dst, size_t dpitch,
                         const void *src, size_t spitch, size_t row,
                         size_t rows)
{
    int f = vq_fault_check(&gpu->faults, VQ_FAULT_COPY, gpu->err, "device plane copy");
    if (f)
        return f;
    gpu->traffic.planes_device += (uint64_t)row * rows;
    return check(gpu, hipMemcpy2DAsync(dst, dpitch, src, spitch, row, rows,
                                       hipMemcpyDeviceToDevice, (hipStream_t)s),
                 "device plane copy");
}

int vq_gpu_download2d(VqGpu *gpu, VqStream s, void *host, size_t hpitch,
                      const void *dev, size_t dpitch, size_t row, size_t rows)
{
    int f = vq_fault_check(&gpu->faults, VQ_FAULT_COPY, gpu->err, "plane download");
    if (f)
        return f;
    gpu->traffic.planes_down += (uint64_t)row * rows;
    return check(gpu, hipMemcpy2DAsync(host, hpitch, dev, dpitch, row, rows,
                                       hipMemcpyDeviceToHost, (hipStream_t)s),
                 "plane download");
}

int vq_gpu_download(VqGpu *gpu, VqStream s, void *host, const void *dev,
                    size_t size)
{
    int f = vq_fault_check(&gpu->faults, VQ_FAULT_COPY, gpu->err, "result download");
    if (f)
        return f;
    gpu->traffic.results_down += size;
    return check(gpu, hipMemcpyAsync(host, dev, size, hipMemcpyDeviceToHost,
                                     (hipStream_t)s), "result download");
}

void vq_gpu_traffic(const VqGpu *gpu, VqGpuTraffic *out)
{
    *out = gpu->traffic;
}

int vq_gpu_sync(VqGpu *gpu, VqStream s)
{
    if (gpu->dead)
        return vq_fail(gpu->err, VQ_EDEVICE, "GPU: unusable after a fault");
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
    if (vq_fault_fires(&gpu->faults, VQ_FAULT_HANG))
        gpu->faults.hang = true;
    return check(gpu, hipEventRecord((hipEvent_t)ev, (hipStream_t)s),
                 "event record");
}

int vq_gpu_event_wait(VqGpu *gpu, VqStream s, VqEvent ev)
{
    return check(gpu, hipStreamWaitEvent((hipStream_t)s, (hipEvent_t)ev, 0),
                 "stream wait");
}

/* Waits for the event with a watchdog. It polls instead of blocking in
 * hipEventSynchronize, which never returns on a hung device. The polling
 * adds no latency in the common case: the query repeats with only a yield
 * in between for the first 2 ms, far longer than a frame takes; only a
 * longer wait sleeps between queries, for a growing fraction of the time
 * already waited (vq_wait_pause: under 2% of it, at most 1 ms). It gives
 * up after the timeout with a device error. */
int vq_gpu_event_sync(VqGpu *gpu, VqEvent ev)
{
    if (gpu->dead)
        return vq_fail(gpu->err, VQ_EDEVICE, "GPU: unusable after a fault");
    double t0 = now_s();
    for (;;) {
        int done = vq_gpu_event_done(gpu, ev);
        if (done)
            return done < 0 ? done : 0;
        double waited = now_s() - t0;
        if (waited > gpu->faults.timeout)
            return vq_fault_watchdog(&gpu->faults, gpu->err, waited);
        double nap = vq_wait_pause(waited);
        if (nap <= 0.0) {
            sched_yield();
        } else {
            struct timespec ts = { 0, (long)(nap * 1e9) };
            nanosleep(&ts, NULL);
        }
    }
}

int vq_gpu_event_done(VqGpu *gpu, VqEvent ev)
{
    if (gpu->faults.hang)
        return 0;
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
