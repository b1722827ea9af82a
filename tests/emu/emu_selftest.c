/*
 * emu_selftest: the emulated device catches the bugs it exists to catch.
 *
 * The correct reductions must give the host's sum exactly; each kernel bug
 * written on purpose (emu_bugs.hip: a missing barrier, lanes taken to run
 * in lockstep, a wave width of 32 taken for granted, a row read one sample
 * too far, a read past a buffer, threads that leave before a barrier, a
 * launch the hardware refuses) must show, as a wrong sum, a failed launch
 * or a reported fault; and the streams must run work no earlier than the
 * API promises, so that a missing synchronisation reads stale data. Each
 * case runs in a child process (a failed kernel leaves the device unusable,
 * as on a GPU). The wave width is the environment's (VQHIP_EMU_WAVE): the
 * meson tests run it at 32 and 64.
 *
 * Exit: 0 every case as expected, 1 otherwise.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../kernels/emu/hip_runtime_emu.h"
#include "emu_bugs.h"

#define W 333
#define H 97

static int wave;

/* A picture of W x H bytes at a device pitch, its host copy and sum. */
typedef struct Pic {
    unsigned char host[H][W];
    void *dev;
    size_t pitch;
    unsigned long long sum;
} Pic;

static int fail(const char *what)
{
    printf("  %s\n", what);
    return 1;
}

static void pic_fill(Pic *p)
{
    unsigned x = 12345;
    p->sum = 0;
    for (unsigned y = 0; y < H; y++)
        for (unsigned i = 0; i < W; i++) {
            x = x * 1103515245u + 12345u;
            p->host[y][i] = (unsigned char)(x >> 16);
            p->sum += p->host[y][i];
        }
}

/* The picture in device memory too (uploaded on s). */
static int pic_make(Pic *p, hipStream_t s)
{
    pic_fill(p);
    if (hipMallocPitch(&p->dev, &p->pitch, W, H) ||
        hipMemcpy2DAsync(p->dev, p->pitch, p->host, W, W, H,
                         hipMemcpyHostToDevice, s))
        return -1;
    return 0;
}

/* The kernel's sum of the picture, or ~0 when a call failed. */
static unsigned long long kernel_sum(int kind)
{
    hipStream_t s;
    Pic *p = malloc(sizeof(*p));
    uint64_t *acc = NULL, got = ~0ull;
    if (!p || hipStreamCreateWithFlags(&s, hipStreamNonBlocking) ||
        pic_make(p, s) || hipMalloc((void **)&acc, 8) ||
        hipMemsetAsync(acc, 0, 8, s) ||
        eb_sum_launch((VqStream)s, kind, p->dev, p->pitch, W, H, acc) ||
        hipMemcpyAsync(&got, acc, 8, hipMemcpyDeviceToHost, s) ||
        hipStreamSynchronize(s))
        got = ~0ull;
    free(p);
    return got;
}

static unsigned long long true_sum(void)
{
    static Pic p;
    pic_fill(&p);
    return p.sum;
}

static int case_sum(int kind, int should_match)
{
    unsigned long long want = true_sum(), got = kernel_sum(kind);
    printf("  sum %llu, kernel %llu\n", want, got);
    if (got == ~0ull)
        return fail("a call failed");
    if ((got == want) != should_match)
        return fail(should_match ? "the kernel's sum is wrong"
                                 : "the bug went unseen: the sum is right");
    return 0;
}

static int c_reduce_ok(void) { return case_sum(EB_SUM_OK, 1); }
static int c_no_barrier(void) { return case_sum(EB_SUM_NO_BARRIER, 0); }
static int c_warp_sync(void) { return case_sum(EB_SUM_WARP_SYNC, 0); }
static int c_shfl(void) { return case_sum(EB_SUM_SHFL, 1); }
/* right at wave32, lanes lost at wave64 */
static int c_shfl32(void) { return case_sum(EB_SUM_SHFL32, wave == 32); }
static int c_border(void) { return case_sum(EB_SUM_BORDER, 0); }

/* A read 300 bytes past a 1000-byte buffer: the process ends on a fault
 * that names the kernel (the parent checks the message). */
static int c_past_end(void)
{
    hipStream_t s;
    void *buf;
    uint64_t *out;
    if (hipStreamCreateWithFlags(&s, hipStreamNonBlocking) ||
        hipMalloc(&buf, 1000) || hipMalloc((void **)&out, 8) ||
        eb_past_end_launch((VqStream)s, buf, 1000, 300, out))
        return fail("a call failed");
    hipStreamSynchronize(s);
    return fail("the read past the buffer went unseen");
}

static int c_early_exit(void)
{
    hipStream_t s;
    uint64_t *out;
    void *more;
    if (hipStreamCreateWithFlags(&s, hipStreamNonBlocking) ||
        hipMalloc((void **)&out, 8) || eb_early_exit_launch((VqStream)s, out))
        return fail("a call failed before the kernel ran");
    hipError_t e = hipStreamSynchronize(s);
    printf("  stream: %s\n", hipGetErrorName(e));
    if (e != hipErrorLaunchFailure)
        return fail("the early return before a barrier went unseen");
    if (hipMalloc(&more, 8) != hipErrorLaunchFailure)
        return fail("the device is usable after a failed kernel");
    return 0;
}

static int c_launch_limits(void)
{
    hipStream_t s;
    uint64_t *out;
    if (hipStreamCreateWithFlags(&s, hipStreamNonBlocking) ||
        hipMalloc((void **)&out, 8))
        return fail("a call failed");
    int big = eb_block_launch((VqStream)s, 2048, 1, out);
    int none = eb_block_launch((VqStream)s, 64, 0, out);
    printf("  2048 threads: %s, 0 blocks: %s\n",
           hipGetErrorName((hipError_t)big), hipGetErrorName((hipError_t)none));
    if (big != hipErrorInvalidConfiguration ||
        none != hipErrorInvalidConfiguration)
        return fail("a launch a GPU refuses was taken");
    return hipStreamSynchronize(s) ? fail("the stream failed") : 0;
}

/* A copy into pinned memory has not happened before the stream is
 * synchronised; a copy into pageable memory has when the call returns. */
static int c_lazy_download(void)
{
    hipStream_t s;
    uint64_t *acc, *pinned, pageable = 0;
    Pic *p = malloc(sizeof(*p));
    if (!p || hipStreamCreateWithFlags(&s, hipStreamNonBlocking) ||
        pic_make(p, s) || hipMalloc((void **)&acc, 8) ||
        hipHostMalloc((void **)&pinned, 8, hipHostMallocDefault) ||
        hipMemsetAsync(acc, 0, 8, s) ||
        eb_sum_launch((VqStream)s, EB_SUM_OK, p->dev, p->pitch, W, H, acc))
        return fail("a call failed");
    *pinned = 7;
    if (hipMemcpyAsync(pinned, acc, 8, hipMemcpyDeviceToHost, s))
        return fail("the download failed");
    int early = *pinned != 7;
    if (hipStreamSynchronize(s) || *pinned != p->sum)
        return fail("the pinned download is wrong after synchronisation");
    if (hipMemcpyAsync(&pageable, acc, 8, hipMemcpyDeviceToHost, s) ||
        pageable != p->sum)
        return fail("a download to pageable memory was not done on return");
    free(p);
    return early ? fail("a pinned download was done before any wait") : 0;
}

/* A kernel on one stream that reads what another stream uploads: without
 * a wait on the upload's event it reads the junk of a new allocation. */
static int upload_and_sum(int wait)
{
    hipStream_t up, work;
    hipEvent_t ev;
    Pic *p = malloc(sizeof(*p));
    void *staging;
    uint64_t *acc, got = 0;
    if (!p || hipStreamCreateWithFlags(&up, hipStreamNonBlocking) ||
        hipStreamCreateWithFlags(&work, hipStreamNonBlocking) ||
        hipEventCreateWithFlags(&ev, hipEventDisableTiming) ||
        pic_make(p, work) || hipStreamSynchronize(work) ||
        hipHostMalloc(&staging, sizeof(p->host), hipHostMallocDefault) ||
        hipMalloc((void **)&acc, 8))
        return -1;
    void *dev2;
    size_t pitch2;
    memcpy(staging, p->host, sizeof(p->host));
    if (hipMallocPitch(&dev2, &pitch2, W, H) ||
        hipMemcpy2DAsync(dev2, pitch2, staging, W, W, H,
                         hipMemcpyHostToDevice, up) ||
        hipEventRecord(ev, up) || (wait && hipStreamWaitEvent(work, ev, 0)) ||
        hipMemsetAsync(acc, 0, 8, work) ||
        eb_sum_launch((VqStream)work, EB_SUM_OK, dev2, pitch2, W, H, acc) ||
        hipMemcpyAsync(&got, acc, 8, hipMemcpyDeviceToHost, work))
        return -1;
    int ok = got == p->sum;
    hipStreamSynchronize(up);
    free(p);
    return ok;
}

static int c_cross_stream(void)
{
    int with = upload_and_sum(1), without = upload_and_sum(0);
    printf("  with the wait: %s, without: %s\n", with ? "right" : "wrong",
           without ? "right" : "wrong");
    if (with < 0 || without < 0)
        return fail("a call failed");
    if (!with)
        return fail("the sum is wrong with the wait");
    return without ? fail("the missing wait went unseen") : 0;
}

typedef struct Case {
    const char *name;
    int (*run)(void);
    const char *dies_with; /* the case ends the process with this message */
} Case;

static const Case cases[] = {
    { "reduction with barriers", c_reduce_ok, NULL },
    { "missing barrier", c_no_barrier, NULL },
    { "warp-synchronous lanes", c_warp_sync, NULL },
    { "wave reduction from warpSize", c_shfl, NULL },
    { "wave reduction for 32 lanes", c_shfl32, NULL },
    { "row read one sample too far", c_border, NULL },
    { "read past a buffer", c_past_end, "past the end of a device allocation" },
    { "threads leave before a barrier", c_early_exit, NULL },
    { "launches a GPU refuses", c_launch_limits, NULL },
    { "download waits for the stream", c_lazy_download, NULL },
    { "upload on another stream", c_cross_stream, NULL },
};

static int run_case(const Case *c)
{
    int fd[2];
    if (pipe(fd))
        return 1;
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        dup2(fd[1], 2);
        close(fd[0]);
        int r = c->run();
        fflush(stdout);
        _exit(r);
    }
    close(fd[1]);
    char err[4096];
    size_t n = 0;
    ssize_t k;
    while (n < sizeof(err) - 1 && (k = read(fd[0], err + n, sizeof(err) - 1 - n)) > 0)
        n += (size_t)k;
    err[n] = 0;
    close(fd[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    int ok;
    if (c->dies_with) /* killed by the fault, or ended by a sanitizer */
        ok = !(WIFEXITED(status) && WEXITSTATUS(status) == 0) &&
             strstr(err, c->dies_with) != NULL;
    else
        ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
    if (err[0])
        printf("  device said: %s", err);
    printf("%s %s\n", ok ? "ok  " : "FAIL", c->name);
    return !ok;
}

int main(void)
{
    const char *w = getenv("VQHIP_EMU_WAVE");
    wave = w && !strcmp(w, "64") ? 64 : 32;
    printf("emu_selftest: wave%d\n", wave);
    int failed = 0;
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
        failed += run_case(&cases[i]);
    printf("emu_selftest: %d of %zu cases not as expected\n", failed,
           sizeof(cases) / sizeof(cases[0]));
    return failed ? 1 : 0;
}
