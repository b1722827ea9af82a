/*
 * The emulated device's interface between the kernels (compiled for the
 * host by emu_hipcc.py with hip_emu.h) and its runtime
 * (hipcore/gpu/emu/). C, so that the runtime stays C.
 *
 * A launch hands the runtime a closure: run(closure) executes the kernel
 * body for the current thread, whose indices the runtime has set in
 * vq_emu_thread_idx / vq_emu_block_idx before switching to it. A block's
 * threads are fibers on one host thread: __syncthreads() and the warp
 * collectives switch back to the runtime's scheduler, which resumes them
 * when every thread (or every lane of the warp) has arrived.
 */
#ifndef VQHIP_EMU_ABI_H
#define VQHIP_EMU_ABI_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct VqEmuDim {
    unsigned x, y, z;
} VqEmuDim;

/* The running thread's view; valid only inside a kernel. */
extern VqEmuDim vq_emu_thread_idx, vq_emu_block_idx, vq_emu_block_dim,
    vq_emu_grid_dim;
extern int vq_emu_warp_size;

typedef struct VqEmuKernel {
    const char *name;          /* the launch's kernel expression */
    void (*run)(void *closure);
    void (*release)(void *closure);
    void *closure;
} VqEmuKernel;

/* Enqueues a launch on `stream` (a hipStream_t; NULL: the null stream).
 * Returns 0 or a HIP error code; on error the closure has been released
 * and the thread's last error is set, as a real launch would. */
int vq_emu_launch(void *stream, VqEmuDim grid, VqEmuDim block,
                  size_t dynamic_shared, VqEmuKernel kernel);

/* __syncthreads(): every thread of the block waits here. `site` names
 * the call (all threads must wait at the same one). */
void vq_emu_barrier(const char *site);

/* A warp collective: the lane contributes `value` and waits until every
 * live lane of its warp has; returns the warp's contributions, indexed by
 * lane (vq_emu_warp_size entries; lanes that have exited read as
 * VQ_EMU_DEAD_LANE). Valid until the lane's next collective. */
#define VQ_EMU_DEAD_LANE 0xdeadbeefdeadbeefull
const uint64_t *vq_emu_warp_exchange(uint64_t value, const char *site);

/* A __shared__ variable reached by a thread: the first thread of a block
 * to reach it (*block_of differs from the block's serial number) fills it
 * with junk, as shared memory holds at a block's start, and adds its size
 * to the block's shared memory. */
void vq_emu_shared_init(void *var, size_t size,
                        unsigned long long *block_of);

/* The launch's dynamic shared memory (extern __shared__). */
void *vq_emu_dynamic_shared(void);

/* A device-side error that makes the kernel fail (reported by the runtime
 * as a launch failure of the stream). Does not return. */
void vq_emu_trap(const char *what);

#ifdef __cplusplus
}
#endif

#endif
