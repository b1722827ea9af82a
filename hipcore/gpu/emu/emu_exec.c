/*
 * Kernel execution on the emulated device: the blocks of a grid one after
 * another, each block's threads as fibers of the calling thread.
 *
 * Between two barriers a thread runs until it blocks (at __syncthreads, at
 * a warp collective) or ends; the block's threads take turns in an order
 * that changes at every barrier of every block (VQHIP_EMU_ORDER), so a
 * thread that reads what another writes without a barrier between them
 * reads it too early in some blocks. Nothing runs in lockstep: code that
 * relies on a wave's lanes running together fails here, whatever the wave
 * size. Warp collectives complete when every live lane of the warp has
 * reached one; a barrier completes when every thread of the block has
 * reached the same one. A barrier that threads which have ended never
 * reach, threads at different barriers, and a warp collective that waits
 * for lanes held at a barrier are errors of the kernel (undefined
 * behaviour on a device), reported with the kernel's name and block.
 * Shared memory starts each block as junk; a block may use 64 KiB.
 * An access outside the device allocations faults, and the fault is
 * reported with the kernel, block and thread before the process ends.
 */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS, sigaltstack */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "emu_internal.h"

#define MAX_THREADS 1024
#define STACK_SIZE (256 * 1024)
#define SHARED_LIMIT (64 * 1024)

VqEmuDim vq_emu_thread_idx, vq_emu_block_idx, vq_emu_block_dim,
    vq_emu_grid_dim;
int vq_emu_warp_size = 32;

typedef enum TState { T_RUN, T_BARRIER, T_WARP, T_DONE } TState;

typedef struct Fiber {
    void *sp;
    VqEmuDim tid;
    TState state;
    const char *site;
    const uint64_t *warp_values;
} Fiber;

static Fiber fibers[MAX_THREADS];
/* how many of the block's threads are in each state but T_RUN */
static unsigned n_barrier, n_warp, n_done;
static char *stacks;
static size_t stack_stride;
static void *sched_slot;
static Fiber *cur;
static const VqEmuKernel *kernel;
static uint64_t launch_serial;
static unsigned long long block_serial;
static size_t block_shared;
static unsigned char dyn_shared[SHARED_LIMIT];
static size_t dyn_shared_size;
static uint64_t warp_values[MAX_THREADS * 2];
static unsigned warp_gen[MAX_THREADS];
static char trap_msg[256];
static int trapped;

static void fiber_main(void *arg)
{
    Fiber *f = arg;
    kernel->run(kernel->closure);
    f->state = T_DONE;
    n_done++;
    vq_emu_fiber_switch(&f->sp, sched_slot);
}

static void block_yield(TState state, const char *site)
{
    Fiber *f = cur;
    f->state = state;
    f->site = site;
    n_barrier += state == T_BARRIER;
    n_warp += state == T_WARP;
    n_done += state == T_DONE;
    vq_emu_fiber_switch(&f->sp, sched_slot);
}

void vq_emu_barrier(const char *site) { block_yield(T_BARRIER, site); }

const uint64_t *vq_emu_warp_exchange(uint64_t value, const char *site)
{
    unsigned lin = (unsigned)(cur - fibers), wave = (unsigned)vq_emu_warp_size;
    unsigned w = lin / wave;
    uint64_t *buf = warp_values + ((size_t)w * 2 + (warp_gen[w] & 1)) * wave;
    buf[lin % wave] = value;
    cur->warp_values = buf;
    block_yield(T_WARP, site);
    return cur->warp_values;
}

void *vq_emu_dynamic_shared(void) { return dyn_shared; }

void vq_emu_trap(const char *what)
{
    if (!trapped)
        snprintf(trap_msg, sizeof(trap_msg), "%s", what);
    trapped = 1;
    block_yield(T_DONE, "trap");
    abort(); /* the scheduler never resumes a trapped thread */
}

void vq_emu_shared_init(void *var, size_t size, unsigned long long *block_of)
{
    if (*block_of == block_serial)
        return;
    *block_of = block_serial;
    vq_emu_junk(var, size, block_serial ^ (uintptr_t)var);
    block_shared += size;
    if (block_shared + dyn_shared_size > SHARED_LIMIT) {
        char m[128];
        snprintf(m, sizeof(m), "the block uses more than %d bytes of shared "
                 "memory", SHARED_LIMIT);
        vq_emu_trap(m);
    }
}

/* ---- faults ---- */

static struct sigaction old_segv, old_bus;
static stack_t old_stack;
static int in_kernel;

static void on_fault(int sig, siginfo_t *si, void *uc)
{
    (void)uc;
    sigaction(SIGSEGV, &old_segv, NULL);
    sigaction(SIGBUS, &old_bus, NULL);
    if (!in_kernel)
        return; /* not ours: the old handler sees the fault again */
    char where[160];
    vq_emu_describe_address(si->si_addr, where, sizeof(where));
    fprintf(stderr, "vqhip emulated device: kernel %s, block (%u,%u,%u), "
            "thread (%u,%u,%u): %s at %p (%s)\n", kernel->name,
            vq_emu_block_idx.x, vq_emu_block_idx.y, vq_emu_block_idx.z,
            vq_emu_thread_idx.x, vq_emu_thread_idx.y, vq_emu_thread_idx.z,
            sig == SIGSEGV ? "invalid memory access" : "bus error",
            si->si_addr, where);
    fflush(stderr);
}

/* The handler above, on a stack of its own (a fiber's stack that overflowed
 * into its guard page cannot run it), for the time of one grid; the
 * thread's own handlers and alternate stack (a sanitizer's, say, which it
 * frees when the thread ends) are put back after it. One grid runs at a
 * time (the device's lock), so one stack serves every thread. */
static void catch_faults(void)
{
    static char alt[64 * 1024];
    stack_t ss = { .ss_sp = alt, .ss_size = sizeof(alt), .ss_flags = 0 };
    sigaltstack(&ss, &old_stack);
    struct sigaction sa;
    memset(&sa, 0, sizeof(sa));
    sa.sa_sigaction = on_fault;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGSEGV, &sa, &old_segv);
    sigaction(SIGBUS, &sa, &old_bus);
}

static void release_faults(void)
{
    sigaction(SIGSEGV, &old_segv, NULL);
    sigaction(SIGBUS, &old_bus, NULL);
    sigaltstack(&old_stack, NULL);
}

/* ---- blocks ---- */

static int stacks_ready(void)
{
    if (stacks)
        return 0;
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    stack_stride = STACK_SIZE + page;
    char *m = mmap(NULL, stack_stride * MAX_THREADS, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (m == MAP_FAILED)
        return -1;
    /* a guard page below each stack: an overflow faults */
    for (unsigned i = 0; i < MAX_THREADS; i++)
        mprotect(m + i * stack_stride, page, PROT_NONE);
    stacks = m;
    return 0;
}

/* The order of a turn: thread (a * k + b) mod n runs k-th, a prime to n.
 * Shuffle: a and b drawn from the seed (forward, reverse and strided
 * orders, different at each barrier); forward: a = 1; reverse: a = n - 1,
 * b = n - 1. */
static void turn_order(unsigned n, uint64_t seed, unsigned *a, unsigned *b)
{
    VqEmuOrder mode = vq_emu_settings()->order;
    *a = 1;
    *b = 0;
    if (n < 2 || mode == VQ_EMU_FORWARD)
        return;
    if (mode == VQ_EMU_REVERSE) {
        *a = *b = n - 1;
        return;
    }
    uint64_t x = seed * 0x9E3779B97F4A7C15ull;
    x ^= x >> 29;
    x *= 0xBF58476D1CE4E5B9ull;
    x ^= x >> 32;
    *b = (unsigned)(x % n);
    unsigned c = (unsigned)((x >> 20) % n);
    for (;; c = c + 1 < n ? c + 1 : 1) {
        unsigned p = c, q = n;
        while (q) {
            unsigned t = p % q;
            p = q;
            q = t;
        }
        if (c && p == 1)
            break;
    }
    *a = c;
}

/* Completes the warp collectives every live lane has reached. */
static int complete_warps(unsigned n)
{
    unsigned wave = (unsigned)vq_emu_warp_size, released = 0;
    for (unsigned w = 0; w * wave < n; w++) {
        unsigned lo = w * wave, hi = lo + wave < n ? lo + wave : n;
        int waiting = 0, held = 0;
        for (unsigned i = lo; i < hi; i++) {
            waiting |= fibers[i].state == T_WARP;
            held |= fibers[i].state == T_BARRIER;
        }
        if (!waiting || held)
            continue;
        uint64_t *buf = warp_values + ((size_t)w * 2 + (warp_gen[w] & 1)) * wave;
        for (unsigned i = lo; i < lo + wave; i++) {
            if (i >= hi || fibers[i].state == T_DONE) {
                buf[i - lo] = VQ_EMU_DEAD_LANE;
            } else {
                fibers[i].state = T_RUN;
                n_warp--;
            }
        }
        warp_gen[w]++;
        released++;
    }
    return released > 0;
}

static hipError_t kernel_error(const char *fmt, const char *a, const char *b)
{
    char what[512];
    snprintf(what, sizeof(what), fmt, a, b);
    vq_emu_fail_device(hipErrorLaunchFailure, "kernel %s, block (%u,%u,%u): %s",
                       kernel->name, vq_emu_block_idx.x, vq_emu_block_idx.y,
                       vq_emu_block_idx.z, what);
    return hipErrorLaunchFailure;
}

/* Releases the block's threads from a barrier, or says why it cannot. */
static hipError_t barrier_release(unsigned n, unsigned done)
{
    const char *site = NULL;
    for (unsigned i = 0; i < n; i++) {
        if (fibers[i].state == T_WARP)
            return kernel_error("threads wait at %s for warp lanes held at "
                                "a barrier%s", fibers[i].site, "");
        if (fibers[i].state != T_BARRIER)
            continue;
        if (site && site != fibers[i].site && strcmp(site, fibers[i].site))
            return kernel_error("threads wait at different barriers (%s and "
                                "%s)", site, fibers[i].site);
        site = fibers[i].site;
    }
    if (done) {
        char d[64];
        snprintf(d, sizeof(d), "%u of %u", done, n);
        return kernel_error("%s threads ended without reaching the barrier "
                            "at %s", d, site);
    }
    for (unsigned i = 0; i < n; i++)
        fibers[i].state = T_RUN;
    n_barrier = 0;
    return hipSuccess;
}

static hipError_t run_block(unsigned n, uint64_t block_seed)
{
    block_serial++;
    block_shared = 0;
    if (dyn_shared_size)
        vq_emu_junk(dyn_shared, dyn_shared_size, block_serial);
    VqEmuDim bd = vq_emu_block_dim;
    for (unsigned i = 0; i < n; i++) {
        Fiber *f = &fibers[i];
        f->tid.x = i % bd.x;
        f->tid.y = i / bd.x % bd.y;
        f->tid.z = i / (bd.x * bd.y);
        f->state = T_RUN;
        /* stack tops at different offsets within a page, so that the
         * threads' top frames do not all compete for the same cache sets */
        f->sp = vq_emu_fiber_init(stacks + i * stack_stride +
                                  (stack_stride - STACK_SIZE),
                                  STACK_SIZE - (i * 17 % 64) * 64, fiber_main,
                                  f);
        warp_gen[i] = 0;
    }
    n_barrier = n_warp = n_done = 0;
    for (uint64_t turn = 0;; turn++) {
        unsigned a, i;
        turn_order(n, block_seed * 0x100000001B3ull + turn, &a, &i);
        for (unsigned k = 0; k < n; k++, i = i + a < n ? i + a : i + a - n) {
            Fiber *f = &fibers[i];
            if (f->state != T_RUN)
                continue;
            cur = f;
            vq_emu_thread_idx = f->tid;
            vq_emu_fiber_switch(&sched_slot, f->sp);
            if (trapped) {
                char t[48];
                snprintf(t, sizeof(t), "%u,%u,%u", f->tid.x, f->tid.y,
                         f->tid.z);
                trapped = 0;
                return kernel_error("thread (%s): %s", t, trap_msg);
            }
        }
        if (n_warp && complete_warps(n))
            continue;
        if (n_done == n)
            return hipSuccess;
        hipError_t e = barrier_release(n, n_done);
        if (e)
            return e;
    }
}

hipError_t vq_emu_run_grid(VqEmuDim grid, VqEmuDim block, size_t shm,
                           const VqEmuKernel *k)
{
    if (stacks_ready())
        return vq_emu_set_error(hipErrorOutOfMemory);
    unsigned n = block.x * block.y * block.z;
    kernel = k;
    vq_emu_grid_dim = grid;
    vq_emu_block_dim = block;
    vq_emu_warp_size = vq_emu_settings()->wave;
    dyn_shared_size = shm;
    sched_slot = vq_emu_fiber_main_slot();
    launch_serial++;
    hipError_t e = hipSuccess;
    catch_faults();
    in_kernel = 1;
    for (unsigned z = 0; z < grid.z && !e; z++)
        for (unsigned y = 0; y < grid.y && !e; y++)
            for (unsigned x = 0; x < grid.x && !e; x++) {
                vq_emu_block_idx = (VqEmuDim){ x, y, z };
                uint64_t lin = ((uint64_t)z * grid.y + y) * grid.x + x;
                e = run_block(n, launch_serial * 0x9E3779B97F4A7C15ull + lin);
            }
    in_kernel = 0;
    release_faults();
    kernel = NULL;
    long us = vq_emu_settings()->kernel_us;
    if (us > 0) {
        /* under the device's lock: launches of every stream in a row */
        struct timespec t = { us / 1000000, (us % 1000000) * 1000L };
        while (nanosleep(&t, &t) && errno == EINTR) {
        }
    }
    return e;
}

int vq_emu_launch(void *stream, VqEmuDim grid, VqEmuDim block,
                  size_t dynamic_shared, VqEmuKernel k)
{
    hipError_t e = vq_emu_sticky();
    unsigned long long threads =
        (unsigned long long)block.x * block.y * block.z;
    if (!e && (!grid.x || !grid.y || !grid.z || grid.x > 0x7fffffffu ||
               grid.y > 65535 || grid.z > 65535 || !threads ||
               threads > MAX_THREADS || block.z > 64 ||
               dynamic_shared > SHARED_LIMIT))
        e = hipErrorInvalidConfiguration;
    if (e) {
        k.release(k.closure);
        return vq_emu_set_error(e);
    }
    return vq_emu_enqueue_kernel((hipStream_t)stream, grid, block,
                                 dynamic_shared, k);
}
