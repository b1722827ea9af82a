/*
 * The GPU layer of a build without a HIP platform. vq_gpu_open() explains
 * that there is no GPU support, unless VQHIP_FAKE_GPU=1: then it opens a
 * fake device in host memory, so that the pipeline's GPU side (staging
 * slots, frames in flight, fault injection, the fallback to the CPU,
 * verify=) runs and is tested on machines without a GPU. Its "device
 * memory" is host memory, its copies are memcpy and complete at once, and
 * the pipeline runs the extractors' CPU code as their kernels.
 * VQHIP_FAKE_GPU_OPEN_MS=N makes its open take N ms.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../../kernels/convert.h"
#include "fault.h"
#include "gpu.h"

#if !defined(VQ_HAVE_HIP)

struct VqGpu {
    VqErrBuf *err;
    VqFaults faults;
    bool dead;
    VqGpuTraffic traffic;
};

const char *vq_gpu_platform(void) { return "none"; }

static bool fake_wanted(void)
{
    const char *fake = getenv("VQHIP_FAKE_GPU");
    return fake && !strcmp(fake, "1");
}

/* What vq_gpu_open() can open: the fake device when asked for, else none. */
int vq_gpu_devices(char *why, size_t why_size)
{
    bool fake = fake_wanted();
    if (why && why_size)
        snprintf(why, why_size, "%s", fake ? "1 fake GPU (host memory, "
                 "VQHIP_FAKE_GPU=1)" : "this libvqhip was built without a "
                 "HIP platform");
    return fake ? 1 : 0;
}

int vq_gpu_open(VqGpu **out, int index, int use_current, VqErrBuf *e)
{
    (void)use_current;
    *out = NULL;
    if (!fake_wanted())
        return vq_fail(e, VQ_EDEVICE,
                       "this libvqhip was built without a HIP platform "
                       "(meson -Dhip_platform=amd or nvidia)");
    if (index != 0)
        return vq_fail(e, VQ_EDEVICE, "GPU %d requested, 1 (fake) present",
                       index);
    /* VQHIP_FAKE_GPU_OPEN_MS=N: the open takes N ms, as a GPU runtime's
     * start does (tests of what waits for it) */
    const char *ms = getenv("VQHIP_FAKE_GPU_OPEN_MS");
    long n = ms ? strtol(ms, NULL, 10) : 0;
    if (n > 0) {
        struct timespec t = { n / 1000, (n % 1000) * 1000000L };
        while (nanosleep(&t, &t) && errno == EINTR) {
        }
    }
    VqGpu *gpu = calloc(1, sizeof(*gpu));
    if (!gpu)
        return vq_fail(e, VQ_ENOMEM, "out of memory");
    gpu->err = e;
    char why[256];
    if (vq_faults_init(&gpu->faults, why, sizeof(why))) {
        free(gpu);
        return vq_fail(e, VQ_EINVAL, "%s", why);
    }
    *out = gpu;
    return 0;
}

int vq_gpu_bind(VqGpu *gpu) { (void)gpu; return 0; }

void vq_gpu_close(VqGpu **gpu)
{
    free(*gpu);
    *gpu = NULL;
}

const char *vq_gpu_name(const VqGpu *gpu) { (void)gpu; return "fake GPU (host memory)"; }
int vq_gpu_wave_size(const VqGpu *gpu) { (void)gpu; return 32; }
double vq_gpu_open_time(const VqGpu *gpu, VqGpuOpenPhase phase)
{
    (void)gpu;
    (void)phase;
    return 0;
}
VqStream vq_gpu_compute_stream(const VqGpu *gpu) { (void)gpu; return NULL; }
VqStream vq_gpu_upload_stream(const VqGpu *gpu) { (void)gpu; return NULL; }
/* One stream: its copies complete at once and the pipeline runs the
 * extractors one after the other. */
int vq_gpu_lanes(VqGpu *gpu, unsigned n) { (void)gpu; (void)n; return 0; }
void vq_gpu_use_lane(VqGpu *gpu, int lane) { (void)gpu; (void)lane; }
VqStream vq_gpu_lane_stream(const VqGpu *gpu, unsigned lane)
{ (void)gpu; (void)lane; return NULL; }
void vq_gpu_set_errbuf(VqGpu *gpu, VqErrBuf *e) { gpu->err = e; }
int vq_gpu_integrated(const VqGpu *gpu) { (void)gpu; return 0; }
int vq_gpu_is_fake(const VqGpu *gpu) { (void)gpu; return 1; }
void vq_gpu_mark_dead(VqGpu *gpu) { gpu->dead = true; }

void vq_gpu_set_frame(VqGpu *gpu, unsigned index)
{
    gpu->faults.frame = index;
    gpu->faults.armed = true;
}

int vq_gpu_fault_drop(VqGpu *gpu, unsigned index)
{
    unsigned keep = gpu->faults.frame;
    gpu->faults.frame = index;
    bool drop = vq_fault_fires(&gpu->faults, VQ_FAULT_DROP);
    gpu->faults.frame = keep;
    return drop;
}

/* Every call: a lost device fails it. */
static int call(VqGpu *gpu, const char *what)
{
    return vq_fault_check(&gpu->faults, VQ_FAULT_LOST, gpu->err, what);
}

int vq_gpu_fail(VqGpu *gpu, int hip_err, const char *what)
{
    int f = vq_fault_check(&gpu->faults, VQ_FAULT_LAUNCH, gpu->err, what);
    if (!f)
        f = call(gpu, what);
    if (!f && hip_err)
        f = vq_fail(gpu->err, VQ_EDEVICE, "GPU: %s failed (%d)", what, hip_err);
    return f;
}

static int alloc(VqGpu *gpu, void **ptr, size_t size, const char *what)
{
    *ptr = NULL;
    int f = call(gpu, what);
    if (f)
        return f;
    *ptr = aligned_alloc(256, (size + 255) & ~(size_t)255);
    return *ptr ? 0 : vq_fail(gpu->err, VQ_ENOMEM, "GPU: %s failed: out of "
                              "memory", what);
}

int vq_gpu_malloc(VqGpu *gpu, void **ptr, size_t size, const char *what)
{
    return alloc(gpu, ptr, size ? size : 1, what);
}

int vq_gpu_malloc_pitch(VqGpu *gpu, void **ptr, size_t *pitch, size_t row,
                        size_t rows, const char *what)
{
    *pitch = (row + 255) & ~(size_t)255;
    return alloc(gpu, ptr, *pitch * (rows ? rows : 1), what);
}

void vq_gpu_free(VqGpu *gpu, void *ptr) { (void)gpu; free(ptr); }

int vq_gpu_host_alloc(VqGpu *gpu, void **ptr, size_t size, const char *what)
{
    return alloc(gpu, ptr, size ? size : 1, what);
}

int vq_gpu_host_alloc_mapped(VqGpu *gpu, void **ptr, void **dev, size_t size,
                             const char *what)
{
    int err = alloc(gpu, ptr, size ? size : 1, what);
    *dev = *ptr;
    return err;
}

void vq_gpu_host_free(VqGpu *gpu, void *ptr) { (void)gpu; free(ptr); }

int vq_gpu_import_dmabuf(VqGpu *gpu, int fd, size_t size, void **handle,
                         void **dev)
{
    (void)fd;
    (void)size;
    *handle = *dev = NULL;
    return vq_fail(gpu->err, VQ_EUNSUPPORTED, "importing dma-buf frames "
                   "needs the AMD platform");
}

void vq_gpu_release_import(VqGpu *gpu, void *handle) { (void)gpu; (void)handle; }

int vq_gpu_memset(VqGpu *gpu, VqStream s, void *dev, int value, size_t size)
{
    (void)s;
    int f = call(gpu, "device memset");
    if (!f)
        memset(dev, value, size);
    return f;
}

static int copy2d(VqGpu *gpu, void *dst, size_t dpitch, const void *src,
                  size_t spitch, size_t row, size_t rows, const char *what)
{
    int f = vq_fault_check(&gpu->faults, VQ_FAULT_COPY, gpu->err, what);
    if (!f)
        f = call(gpu, what);
    for (size_t y = 0; !f && y < rows; y++)
        memcpy((char *)dst + y * dpitch, (const char *)src + y * spitch, row);
    return f;
}

int vq_gpu_upload2d(VqGpu *gpu, VqStream s, void *dev, size_t dpitch,
                    const void *host, size_t spitch, size_t row, size_t rows)
{
    (void)s;
    gpu->traffic.planes_up += (uint64_t)row * rows;
    return copy2d(gpu, dev, dpitch, host, spitch, row, rows, "plane upload");
}

int vq_gpu_copy2d_device(VqGpu *gpu, VqStream s, void *dst, size_t dpitch,
                         const void *src, size_t spitch, size_t row,
                         size_t rows)
{
    (void)s;
    gpu->traffic.planes_device += (uint64_t)row * rows;
    return copy2d(gpu, dst, dpitch, src, spitch, row, rows, "device plane copy");
}

int vq_gpu_download2d(VqGpu *gpu, VqStream s, void *host, size_t hpitch,
                      const void *dev, size_t dpitch, size_t row, size_t rows)
{
    (void)s;
    gpu->traffic.planes_down += (uint64_t)row * rows;
    return copy2d(gpu, host, hpitch, dev, dpitch, row, rows, "plane download");
}

int vq_gpu_download(VqGpu *gpu, VqStream s, void *host, const void *dev,
                    size_t size)
{
    (void)s;
    gpu->traffic.results_down += size;
    return copy2d(gpu, host, size, dev, size, size, 1, "result download");
}

void vq_gpu_traffic(const VqGpu *gpu, VqGpuTraffic *out)
{
    *out = gpu->traffic;
}

int vq_gpu_sync(VqGpu *gpu, VqStream s)
{
    (void)s;
    if (gpu->dead)
        return vq_fail(gpu->err, VQ_EDEVICE, "GPU: unusable after a fault");
    return call(gpu, "stream");
}

/* Events carry no state: work completes when it is enqueued, unless a
 * hang@ fault fired. */
int vq_gpu_event_create(VqGpu *gpu, VqEvent *ev)
{
    *ev = NULL;
    return call(gpu, "event creation");
}

void vq_gpu_event_destroy(VqGpu *gpu, VqEvent ev) { (void)gpu; (void)ev; }

int vq_gpu_event_record(VqGpu *gpu, VqEvent ev, VqStream s)
{
    (void)ev;
    (void)s;
    if (vq_fault_fires(&gpu->faults, VQ_FAULT_HANG))
        gpu->faults.hang = true;
    return call(gpu, "event record");
}

int vq_gpu_event_wait(VqGpu *gpu, VqStream s, VqEvent ev)
{
    (void)s;
    (void)ev;
    return call(gpu, "stream wait");
}

int vq_gpu_event_done(VqGpu *gpu, VqEvent ev)
{
    (void)ev;
    if (gpu->faults.hang)
        return 0;
    int f = call(gpu, "GPU work");
    return f ? f : 1;
}

int vq_gpu_event_sync(VqGpu *gpu, VqEvent ev)
{
    if (gpu->dead)
        return vq_fail(gpu->err, VQ_EDEVICE, "GPU: unusable after a fault");
    if (gpu->faults.hang) {
        /* the watchdog's wait, then its verdict */
        double t = gpu->faults.timeout;
        struct timespec ts = { (time_t)t, (long)((t - (time_t)t) * 1e9) };
        nanosleep(&ts, NULL);
        return vq_fault_watchdog(&gpu->faults, gpu->err, t);
    }
    int done = vq_gpu_event_done(gpu, ev);
    return done < 0 ? done : 0;
}

/* The conversion "kernel" (kernels/convert.hip) on the fake device's host
 * memory; the same selection, in the same types. */
int vq_convert_plane_launch(VqStream stream, const void *src,
                            size_t src_pitch, unsigned step, unsigned first,
                            unsigned shift, unsigned bps, void *dst,
                            size_t dst_pitch, unsigned w, unsigned h)
{
    (void)stream;
    for (unsigned y = 0; y < h; y++) {
        const char *s = (const char *)src + (size_t)y * src_pitch;
        char *d = (char *)dst + (size_t)y * dst_pitch;
        for (unsigned x = 0; x < w; x++) {
            size_t i = (size_t)x * step + first;
            if (bps == 1)
                ((uint8_t *)d)[x] = (uint8_t)(((const uint8_t *)s)[i] >> shift);
            else
                ((uint16_t *)(void *)d)[x] =
                    (uint16_t)(((const uint16_t *)(const void *)s)[i] >> shift);
        }
    }
    return 0;
}

#endif /* !VQ_HAVE_HIP */
