/*
 * The emulated device: its settings, errors, and memory.
 *
 * Device allocations are mappings of their own, filled with junk (a
 * kernel that reads what nothing wrote meets it), with an inaccessible page
 * on each side; the buffer ends within 256 bytes of the page after it, so
 * that a read past the end faults (emu_exec.c says where). Pitched
 * allocations always have padding, also filled with junk. Pinned host
 * memory is remembered, because copies from and to it are asynchronous and
 * copies from and to pageable memory are not.
 */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS, sigaltstack */
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "emu_internal.h"

#define ALIGN 256

static pthread_mutex_t lock;
static pthread_once_t lock_once = PTHREAD_ONCE_INIT;

static void lock_init(void)
{
    pthread_mutexattr_t a;
    pthread_mutexattr_init(&a);
    pthread_mutexattr_settype(&a, PTHREAD_MUTEX_RECURSIVE);
    pthread_mutex_init(&lock, &a);
    pthread_mutexattr_destroy(&a);
}

void vq_emu_lock(void)
{
    pthread_once(&lock_once, lock_init);
    pthread_mutex_lock(&lock);
}

void vq_emu_unlock(void) { pthread_mutex_unlock(&lock); }

static VqEmuSettings settings;
static pthread_once_t settings_once = PTHREAD_ONCE_INIT;

static void settings_read(void)
{
    const char *g = getenv("VQHIP_EMU_GPU");
    settings.present = !(g && !strcmp(g, "0"));
    const char *w = getenv("VQHIP_EMU_WAVE");
    settings.wave = w && !strcmp(w, "64") ? 64 : 32;
    const char *k = getenv("VQHIP_EMU_KERNEL_US");
    settings.kernel_us = k ? strtol(k, NULL, 10) : 0;
    const char *o = getenv("VQHIP_EMU_ORDER");
    settings.order = !o || !strcmp(o, "shuffle") ? VQ_EMU_SHUFFLE
                     : !strcmp(o, "forward") ? VQ_EMU_FORWARD
                                              : VQ_EMU_REVERSE;
    if (w && strcmp(w, "32") && strcmp(w, "64"))
        fprintf(stderr, "vqhip emulated device: VQHIP_EMU_WAVE=%s ignored "
                "(32 or 64)\n", w);
    if (o && strcmp(o, "shuffle") && strcmp(o, "forward") && strcmp(o, "reverse"))
        fprintf(stderr, "vqhip emulated device: VQHIP_EMU_ORDER=%s read as "
                "reverse (shuffle, forward or reverse)\n", o);
}

const VqEmuSettings *vq_emu_settings(void)
{
    pthread_once(&settings_once, settings_read);
    return &settings;
}

/* ---- errors ---- */

static _Thread_local hipError_t last_error;
static hipError_t sticky_error;

hipError_t vq_emu_set_error(hipError_t e)
{
    if (e != hipSuccess)
        last_error = e;
    return e;
}

hipError_t vq_emu_sticky(void) { return sticky_error; }

void vq_emu_fail_device(hipError_t e, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("vqhip emulated device: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    if (sticky_error == hipSuccess)
        sticky_error = e;
}

hipError_t hipGetLastError(void)
{
    hipError_t e = sticky_error != hipSuccess ? sticky_error : last_error;
    last_error = hipSuccess;
    return e;
}

const char *hipGetErrorName(hipError_t e)
{
    switch (e) {
    case hipSuccess: return "hipSuccess";
    case hipErrorInvalidValue: return "hipErrorInvalidValue";
    case hipErrorOutOfMemory: return "hipErrorOutOfMemory";
    case hipErrorInvalidConfiguration: return "hipErrorInvalidConfiguration";
    case hipErrorInvalidDevicePointer: return "hipErrorInvalidDevicePointer";
    case hipErrorInsufficientDriver: return "hipErrorInsufficientDriver";
    case hipErrorNoDevice: return "hipErrorNoDevice";
    case hipErrorInvalidDevice: return "hipErrorInvalidDevice";
    case hipErrorInvalidHandle: return "hipErrorInvalidHandle";
    case hipErrorNotReady: return "hipErrorNotReady";
    case hipErrorIllegalAddress: return "hipErrorIllegalAddress";
    case hipErrorLaunchFailure: return "hipErrorLaunchFailure";
    case hipErrorNotSupported: return "hipErrorNotSupported";
    }
    return "hipErrorUnknown";
}

const char *hipGetErrorString(hipError_t e)
{
    switch (e) {
    case hipSuccess: return "no error";
    case hipErrorInvalidValue: return "invalid argument";
    case hipErrorOutOfMemory: return "out of memory";
    case hipErrorInvalidConfiguration: return "invalid launch configuration";
    case hipErrorInvalidDevicePointer: return "invalid device pointer";
    case hipErrorNoDevice: return "no device (VQHIP_EMU_GPU=0)";
    case hipErrorLaunchFailure:
        return "a kernel failed on the emulated device (see its message)";
    default: return hipGetErrorName(e);
    }
}

/* ---- the device ---- */

hipError_t hipGetDeviceCount(int *count)
{
    *count = vq_emu_settings()->present;
    return *count ? hipSuccess : vq_emu_set_error(hipErrorNoDevice);
}

static hipError_t device_ok(int device)
{
    if (!vq_emu_settings()->present)
        return vq_emu_set_error(hipErrorNoDevice);
    return device == 0 ? hipSuccess : vq_emu_set_error(hipErrorInvalidDevice);
}

hipError_t hipGetDeviceProperties(hipDeviceProp_t *prop, int device)
{
    hipError_t e = device_ok(device);
    if (e)
        return e;
    memset(prop, 0, sizeof(*prop));
    snprintf(prop->name, sizeof(prop->name),
             "vqhip emulated device (wave%d, kernels on the host CPU)",
             vq_emu_settings()->wave);
    prop->warpSize = vq_emu_settings()->wave;
    prop->multiProcessorCount = 1;
    prop->totalGlobalMem = (size_t)1 << 32;
    return hipSuccess;
}

hipError_t hipDeviceGetAttribute(int *value, hipDeviceAttribute_t attr,
                                 int device)
{
    hipError_t e = device_ok(device);
    if (e)
        return e;
    *value = attr == hipDeviceAttributeWarpSize ? vq_emu_settings()->wave
             : attr == hipDeviceAttributeMultiprocessorCount ? 1
                                                              : 0;
    return hipSuccess;
}

hipError_t hipSetDevice(int device) { return device_ok(device); }

hipError_t hipGetDevice(int *device)
{
    *device = 0;
    return device_ok(0);
}

hipError_t hipRuntimeGetVersion(int *version)
{
    *version = 0;
    return hipSuccess;
}

hipError_t hipDriverGetVersion(int *version)
{
    *version = 0;
    return hipSuccess;
}

/* ---- memory ---- */

typedef struct Alloc {
    struct Alloc *next;
    char *map;       /* the whole mapping (device) or allocation (pinned) */
    size_t map_size;
    char *data;
    size_t size;
    VqEmuMemKind kind;
    bool mapped;     /* pinned memory kernels may read */
} Alloc;

static Alloc *allocs;
static uint64_t junk_serial;

void vq_emu_junk(void *p, size_t size, uint64_t seed)
{
    uint64_t x = seed * 0x9E3779B97F4A7C15ull + 0x632BE59BD9B4E019ull;
    unsigned char *b = p;
    while (size >= 8) {
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        uint64_t v = x * 0x2545F4914F6CDD1Dull;
        memcpy(b, &v, 8);
        b += 8;
        size -= 8;
    }
    while (size--)
        *b++ = (unsigned char)(x >>= 8);
}

static Alloc *find(const void *p)
{
    for (Alloc *a = allocs; a; a = a->next)
        if ((const char *)p >= a->data && (const char *)p < a->data + a->size)
            return a;
    return NULL;
}

VqEmuMemKind vq_emu_mem_kind(const void *p, size_t *avail, bool *dev_ok)
{
    vq_emu_lock();
    Alloc *a = find(p);
    VqEmuMemKind k = a ? a->kind : VQ_EMU_PAGEABLE;
    *avail = a ? (size_t)(a->data + a->size - (const char *)p) : 0;
    *dev_ok = a && (a->kind == VQ_EMU_DEVICE || a->mapped);
    vq_emu_unlock();
    return k;
}

void vq_emu_describe_address(const void *p, char *out, size_t size)
{
    const char *c = p;
    for (Alloc *a = allocs; a; a = a->next) {
        if (a->kind != VQ_EMU_DEVICE || c < a->map || c >= a->map + a->map_size)
            continue;
        if (c >= a->data + a->size)
            snprintf(out, size, "%zu bytes past the end of a device allocation "
                     "of %zu bytes", (size_t)(c - (a->data + a->size)), a->size);
        else
            snprintf(out, size, "%zu bytes before the start of a device "
                     "allocation of %zu bytes", (size_t)(a->data - c), a->size);
        return;
    }
    snprintf(out, size, "outside every device allocation");
}

static size_t page_size(void)
{
    static size_t page;
    if (!page)
        page = (size_t)sysconf(_SC_PAGESIZE);
    return page;
}

static hipError_t device_alloc(void **ptr, size_t size)
{
    *ptr = NULL;
    hipError_t e = vq_emu_sticky();
    if (e)
        return vq_emu_set_error(e);
    if (!vq_emu_settings()->present)
        return vq_emu_set_error(hipErrorNoDevice);
    size_t page = page_size();
    size_t body = (size + ALIGN - 1) / ALIGN * ALIGN;
    size_t inner = (body + page - 1) / page * page;
    Alloc *a = calloc(1, sizeof(*a));
    char *map = mmap(NULL, inner + 2 * page, PROT_NONE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (!a || map == MAP_FAILED ||
        mprotect(map + page, inner, PROT_READ | PROT_WRITE)) {
        free(a);
        if (map != MAP_FAILED)
            munmap(map, inner + 2 * page);
        return vq_emu_set_error(hipErrorOutOfMemory);
    }
    vq_emu_junk(map + page, inner, ++junk_serial);
    a->map = map;
    a->map_size = inner + 2 * page;
    a->data = map + page + (inner - body);
    a->size = size;
    a->kind = VQ_EMU_DEVICE;
    vq_emu_lock();
    a->next = allocs;
    allocs = a;
    vq_emu_unlock();
    *ptr = a->data;
    return hipSuccess;
}

hipError_t hipMalloc(void **ptr, size_t size) { return device_alloc(ptr, size); }

hipError_t hipMallocPitch(void **ptr, size_t *pitch, size_t width,
                          size_t height)
{
    /* always padded: a kernel that reads past a row meets junk */
    *pitch = (width / ALIGN + 1) * ALIGN;
    return device_alloc(ptr, *pitch * height);
}

/* Removes the allocation that starts at p; NULL if none. */
static Alloc *unlink_alloc(void *p, VqEmuMemKind kind)
{
    for (Alloc **pa = &allocs; *pa; pa = &(*pa)->next) {
        Alloc *a = *pa;
        if (a->data == p && a->kind == kind) {
            *pa = a->next;
            return a;
        }
    }
    return NULL;
}

hipError_t hipFree(void *ptr)
{
    if (!ptr) {
        /* what makes a runtime create its context; VQHIP_EMU_OPEN_MS=N
         * makes that take N ms, one context at a time, as a GPU runtime's
         * start does (tests of what waits for it) */
        const char *ms = getenv("VQHIP_EMU_OPEN_MS");
        long n = ms ? strtol(ms, NULL, 10) : 0;
        if (n > 0) {
            static pthread_mutex_t opening = PTHREAD_MUTEX_INITIALIZER;
            struct timespec t = { n / 1000, (n % 1000) * 1000000L };
            pthread_mutex_lock(&opening); /* not the device's lock */
            while (nanosleep(&t, &t) && errno == EINTR) {
            }
            pthread_mutex_unlock(&opening);
        }
        return vq_emu_settings()->present ? hipSuccess
                                          : vq_emu_set_error(hipErrorNoDevice);
    }
    vq_emu_lock();
    hipError_t e = vq_emu_flush_all(); /* hipFree waits for the device */
    Alloc *a = unlink_alloc(ptr, VQ_EMU_DEVICE);
    vq_emu_unlock();
    if (!a)
        return vq_emu_set_error(hipErrorInvalidDevicePointer);
    munmap(a->map, a->map_size);
    free(a);
    return e;
}

hipError_t hipHostMalloc(void **ptr, size_t size, unsigned flags)
{
    *ptr = NULL;
    hipError_t e = vq_emu_sticky();
    if (e)
        return vq_emu_set_error(e);
    Alloc *a = calloc(1, sizeof(*a));
    char *m = aligned_alloc(ALIGN, (size + ALIGN - 1) / ALIGN * ALIGN + ALIGN);
    if (!a || !m) {
        free(a);
        free(m);
        return vq_emu_set_error(hipErrorOutOfMemory);
    }
    vq_emu_junk(m, size, ++junk_serial);
    a->map = a->data = m;
    a->size = a->map_size = size ? size : 1;
    a->kind = VQ_EMU_PINNED;
    a->mapped = (flags & hipHostMallocMapped) != 0;
    vq_emu_lock();
    a->next = allocs;
    allocs = a;
    vq_emu_unlock();
    *ptr = m;
    return hipSuccess;
}

hipError_t hipHostFree(void *ptr)
{
    if (!ptr)
        return hipSuccess;
    vq_emu_lock();
    hipError_t e = vq_emu_flush_all();
    Alloc *a = unlink_alloc(ptr, VQ_EMU_PINNED);
    vq_emu_unlock();
    if (!a)
        return vq_emu_set_error(hipErrorInvalidValue);
    free(a->map);
    free(a);
    return e;
}

hipError_t hipHostGetDevicePointer(void **dev, void *host, unsigned flags)
{
    (void)flags;
    size_t avail;
    bool ok;
    *dev = NULL;
    if (vq_emu_mem_kind(host, &avail, &ok) != VQ_EMU_PINNED || !ok)
        return vq_emu_set_error(hipErrorInvalidValue);
    *dev = host;
    return hipSuccess;
}
