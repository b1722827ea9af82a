/*
 * The emulated device's runtime, shared by its files: memory (emu_memory.c),
 * streams and events (emu_stream.c), kernel execution (emu_exec.c) and
 * fibers (emu_fiber.c).
 *
 * One device per process. Every API call holds one recursive lock, so the
 * runtime's state, and the kernels (which run inside the calls that make
 * their stream's work complete), see one thread at a time.
 */
#ifndef VQHIP_EMU_INTERNAL_H
#define VQHIP_EMU_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../../../kernels/emu/emu_abi.h"
#include "../../../kernels/emu/hip_runtime_emu.h"

void vq_emu_lock(void);
void vq_emu_unlock(void);

/* The device's settings, read from the environment once:
 * VQHIP_EMU_GPU=0 hides the device; VQHIP_EMU_WAVE=32|64 (32);
 * VQHIP_EMU_ORDER=shuffle|forward|reverse, the order in which a block's
 * threads run between two barriers (shuffle: a different order at each
 * barrier of each block); VQHIP_EMU_OPEN_MS=N, the time the runtime's
 * start takes (hipFree(NULL)); VQHIP_EMU_KERNEL_US=N, the least time a
 * launch takes (the device does one at a time: a known bound on what any
 * number of streams can score). */
typedef enum VqEmuOrder { VQ_EMU_SHUFFLE, VQ_EMU_FORWARD, VQ_EMU_REVERSE } VqEmuOrder;
typedef struct VqEmuSettings {
    int present;
    int wave;
    VqEmuOrder order;
    long kernel_us; /* VQHIP_EMU_KERNEL_US: each launch takes at least this */
} VqEmuSettings;
const VqEmuSettings *vq_emu_settings(void);

/* Errors. A kernel that fails (a trap, a barrier not every thread reaches,
 * a deadlock) makes the device unusable, as a real device's fault makes its
 * context unusable: every later call returns the sticky error. */
hipError_t vq_emu_set_error(hipError_t e);
hipError_t vq_emu_sticky(void);
void vq_emu_fail_device(hipError_t e, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Memory. */
typedef enum VqEmuMemKind { VQ_EMU_PAGEABLE, VQ_EMU_DEVICE, VQ_EMU_PINNED } VqEmuMemKind;
/* What `p` is, and how many bytes from p to the end of its allocation
 * (*avail; 0 for pageable memory). Mapped pinned memory is device memory
 * too (device_ok). */
VqEmuMemKind vq_emu_mem_kind(const void *p, size_t *avail, bool *device_ok);
/* Where an address that faulted lies relative to the device allocations. */
void vq_emu_describe_address(const void *p, char *out, size_t size);
void vq_emu_junk(void *p, size_t size, uint64_t seed);

/* Streams. */
hipError_t vq_emu_enqueue_kernel(hipStream_t s, VqEmuDim grid, VqEmuDim block,
                                 size_t shm, VqEmuKernel k);
/* Runs every stream's pending work (hipFree and the null stream do). */
hipError_t vq_emu_flush_all(void);

/* Kernel execution: the whole grid, now. */
hipError_t vq_emu_run_grid(VqEmuDim grid, VqEmuDim block, size_t shm,
                           const VqEmuKernel *k);

/* Fibers: a stack and a switch. vq_emu_fiber_init prepares `stack` so that
 * switching to the returned stack pointer calls fn(arg) (fn never returns);
 * vq_emu_fiber_switch saves the current stack pointer in *from and resumes
 * `to`. */
void *vq_emu_fiber_init(void *stack, size_t size, void (*fn)(void *), void *arg);
void vq_emu_fiber_switch(void **from, void *to);
/* The initial value of the slot that a switch away from the scheduler
 * saves into. */
void *vq_emu_fiber_main_slot(void);

#endif
