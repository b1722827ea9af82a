/*
 * Staging slots: for each frame in flight, owned pinned copies of every plane
 * an active extractor reads, their device copies, and the extractors'
 * accumulator records (device and pinned host).
 *
 * Order of work for one slot (all asynchronous after the host copy):
 *   host: caller's planes -> pinned staging (vq_staging_upload returns after
 *         this, so the caller's memory is never read later)
 *   upload stream: pinned -> device planes; event `uploaded`
 *   compute stream: wait `uploaded`; clear accumulators; the extractors'
 *         kernels; accumulators -> pinned host; event `done`
 * A slot is reused only after `done` completed and its results were read,
 * so uploads of frame N+1 (next slot) overlap the kernels of frame N.
 */
#ifndef VQHIP_STAGING_H
#define VQHIP_STAGING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../picture.h"
#include "../threadpool.h"
#include "gpu.h"

typedef struct VqSlot {
    uint8_t *host;             /* pinned: both pictures' planes, packed */
    size_t host_off[2][3];
    void *dev[2][3];
    VqDevFrame view[2];        /* [0] reference, [1] distorted */
    uint8_t *acc_host;         /* pinned */
    uint8_t *acc_dev;
    VqEvent uploaded, done;
    bool busy;                 /* work enqueued, results not read yet */
    bool has_work;             /* false: no GPU extractor ran on this frame */
    unsigned index;
} VqSlot;

typedef struct VqStaging {
    VqGpu *gpu;
    VqFormat fmt;
    unsigned planes;           /* VQ_PLANE_* to stage */
    unsigned depth;
    size_t acc_size;
    VqSlot *slot;
    VqThreadPool *pool;        /* host copies run on it when set */
} VqStaging;

int vq_staging_open(VqStaging **st, VqGpu *gpu, const VqFormat *fmt,
                    unsigned planes, unsigned depth, size_t acc_size,
                    VqThreadPool *pool, VqErrBuf *e);
void vq_staging_close(VqStaging **st);

/* Copies the planes into the slot's pinned memory, enqueues their uploads and
 * the clearing of the accumulators, and makes the compute stream wait for the
 * uploads. Returns once the caller's memory is no longer needed. */
int vq_staging_upload(VqStaging *st, VqSlot *slot, const VqFrame *ref,
                      const VqFrame *dis);
/* Enqueues the accumulator download and records the slot's `done` event. */
int vq_staging_finish(VqStaging *st, VqSlot *slot);

#endif
