/*
 * The CPU extractors' side of the pipeline. With a thread pool, several
 * frames are in flight: submit copies the planes the CPU extractors read
 * (the caller's memory is not read after vq_submit returns) unless the
 * caller lends them (vq_submit_retained), queues one task per extractor and
 * frame, and frames are finalized in order as their tasks finish. Temporal
 * extractors' tasks run one frame at a time, in order.
 * Without a pool everything runs inline on the caller's pictures.
 */
#ifndef VQHIP_RUN_CPU_RUN_H
#define VQHIP_RUN_CPU_RUN_H

#include <stdbool.h>
#include <stdint.h>

#include "base/threadpool.h"
#include "core/picture.h"
#include "run_env.h"

typedef struct VqCpuRun VqCpuRun;

/* The CPU side of a run over env's extractors that are not on the GPU;
 * with a pool, frames run on its workers. env must outlive the run. */
int vq_cpu_open(VqCpuRun **run, const VqRunEnv *env, VqThreadPool *pool);
void vq_cpu_close(VqCpuRun **run);
/* Closes and opens it again (same env and pool), e.g. after extractors
 * moved from the GPU to the CPU. */
int vq_cpu_reopen(VqCpuRun **run);
/* Queues (or, without a pool, runs) a frame. With release non-NULL the
 * frames' planes may be read in place after the call, until release(opaque)
 * is called: *taken then says whether the CPU run took that on (it calls
 * release once its tasks are done); otherwise the caller calls it once the
 * planes are not needed any more (they were copied, or used inline). */
int vq_cpu_submit(VqCpuRun *run, const VqFrame *ref, const VqFrame *dis,
                  unsigned index, void (*release)(void *), void *opaque,
                  bool *taken);
/* As vq_cpu_submit for the CPU extractors in `mask` (bit i: env->fexs->fex[i])
 * only, planes always copied; ref and dis may be NULL when none of them
 * computes this frame. */
int vq_cpu_submit_mask(VqCpuRun *run, const VqFrame *ref, const VqFrame *dis,
                       unsigned index, uint64_t mask);
/* Runs extractor i's cpu_run on a frame before the run's first one, for its
 * temporal state only (no finalize); only before any submit. */
int vq_cpu_warm(VqCpuRun *run, unsigned i, const VqFrame *ref,
                const VqFrame *dis, unsigned index);
/* The next frame temporal extractor i computes (a run opened mid-stream). */
void vq_cpu_set_next(VqCpuRun *run, unsigned i, unsigned index);
/* Whether any extractor runs on the CPU. */
bool vq_cpu_active(const VqCpuRun *run);
/* Finalizes finished frames in order; with wait, every frame in flight. */
int vq_cpu_collect(VqCpuRun *run, bool wait);

#endif
