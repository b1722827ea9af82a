/*
 * Staging slots: for each frame in flight, owned pinned copies of every plane
 * an active extractor reads, their device copies, and the extractors'
 * accumulator records (device and pinned host).
 *
 * Order of work for one slot (all asynchronous after the host copy):
 *   host: caller's planes -> pinned staging (vq_staging_upload returns after
 *         this, so the caller's memory is never read later)
 *   upload stream: pinned -> device planes; clear accumulators; event
 *         `uploaded`
 *   compute stream: wait `uploaded`; the extractors' kernels; accumulators
 *         -> pinned host; event `done`
 * With lanes (vq_staging_use_lanes), each extractor's kernels go to its own
 * lane instead: every lane waits `uploaded` (vq_staging_fork), the compute
 * stream waits for every lane (vq_staging_join) before the download. The
 * compute stream then holds only joins and downloads, so the lanes of frame
 * N+1 start as soon as its uploads are done and each lane has finished its
 * own work of frame N: frames overlap across lanes, and an extractor's
 * frames stay in order on its lane (its device state is per extractor).
 * A slot is reused only after `done` completed and its results were read,
 * so uploads of frame N+1 (next slot) overlap the kernels of frame N.
 */
#ifndef VQHIP_STAGING_H
#define VQHIP_STAGING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/picture.h"
#include "base/threadpool.h"
#include "gpu.h"

/* A reference picture staged once for several runs (gpu/ref_stage.h). */
typedef struct VqSharedRef VqSharedRef;

typedef struct VqSlot {
    uint8_t *host;             /* pinned: both pictures' stored planes */
    uint8_t *host_dev;         /* its device address (mapped staging) */
    size_t host_off[2][3];
    size_t host_pitch[2][3];
    void *dev[2][3];           /* planar low-bit planes the kernels read */
    void *raw[2][2];           /* converting layouts: the uploaded luma
                                  (high-bit samples) and interleaved chroma */
    size_t raw_pitch[2][2];
    VqDevFrame view[2];        /* [0] reference, [1] distorted */
    VqDevFrame own[2];         /* the slot's own planes (view is set back to
                                  them before every upload) */
    void (*release)(void *);   /* lent device planes in view: called once
                                  the slot's work is done (or at close) */
    void *opaque;
    uint8_t *acc_host;         /* pinned */
    uint8_t *acc_dev;
    VqEvent uploaded, done;
    VqEvent produced;          /* device pictures: the producer's work */
    bool busy;                 /* work enqueued, results not read yet */
    bool held;                 /* host holds this frame's planes (copied by
                                  vq_staging_upload or vq_staging_hold) until
                                  the slot is reused: what a fallback to the
                                  CPU and verify= recompute from */
    unsigned char verify;      /* verify= checks this frame on the CPU: 1;
                                  counted 2; a mismatch counted 3 */
    bool has_work;             /* false: no GPU extractor ran on this frame */
    unsigned index;
    VqSharedRef *shared;       /* the reference staged once for a ladder:
                                  view[0] reads its planes and the slot's
                                  held reference is its host copy, until
                                  vq_staging_drop_shared (slot reuse,
                                  flush, close) gives it back */
} VqSlot;

typedef struct VqStaging {
    VqGpu *gpu;
    VqFormat fmt;
    unsigned planes;           /* VQ_PLANE_* to stage */
    unsigned depth;            /* slots: frames in flight plus the frames
                                  before them that temporal extractors'
                                  CPU state would need
                                  (run/pipeline_setup.c) */
    size_t acc_size;
    unsigned pics;             /* pictures per slot: 2, or 1 (the reference
                                  alone, gpu/ref_stage.c) */
    VqSlot *slot;
    VqThreadPool *pool;        /* host copies run on it when set */
    /* Kernels read the pinned staging in place (integrated GPUs, whose
     * memory is the host's: one copy instead of two). VQHIP_ZERO_COPY=1/0
     * forces it on or off. */
    bool mapped;
    bool junk;                 /* VQHIP_PITCH_JUNK=1: see staging.c */
    unsigned lanes;            /* 0: everything on the compute stream */
    VqEvent joined[VQ_GPU_MAX_LANES];
} VqStaging;

int vq_staging_open(VqStaging **st, VqGpu *gpu, const VqFormat *fmt,
                    unsigned planes, unsigned depth, size_t acc_size,
                    VqThreadPool *pool, VqErrBuf *e);
/* The same with `pics` pictures per slot (1: the reference alone; dis is
 * then NULL in the calls below). */
int vq_staging_open_pics(VqStaging **st, VqGpu *gpu, const VqFormat *fmt,
                         unsigned planes, unsigned depth, size_t acc_size,
                         unsigned pics, VqThreadPool *pool, VqErrBuf *e);
void vq_staging_close(VqStaging **st);

/* Copies the planes into the slot's pinned memory, enqueues their uploads
 * and the clearing of the accumulators, and (without lanes) makes the
 * compute stream wait for the uploads. Returns once the caller's memory is
 * no longer needed. */
int vq_staging_upload(VqStaging *st, VqSlot *slot, const VqFrame *ref,
                      const VqFrame *dis);
/* As vq_staging_upload for pictures in pinned host memory (vq_host_alloc):
 * uploaded straight from there, no host copy; returns once the uploads
 * are done. Not with mapped staging. */
int vq_staging_upload_pinned(VqStaging *st, VqSlot *slot, const VqFrame *ref,
                             const VqFrame *dis);
/* As vq_staging_upload for pictures already in device memory (plane views
 * holding device pointers, caller's layout): device-to-device copies, or
 * the conversion kernels reading the caller's planes, on the upload stream,
 * after the work already queued on `producer` (NULL: none). Returns once
 * the caller's memory is no longer read. */
int vq_staging_upload_device(VqStaging *st, VqSlot *slot, const VqFrame *ref,
                             const VqFrame *dis, VqStream producer);
/* As vq_staging_upload_device, reading in place the planes the kernels
 * can read as they are (vq_submit_device_retained's rule); the others are
 * copied or converted. The slot keeps release(opaque) (vq_staging_release)
 * and returns without waiting: the planes are read until `done`. */
int vq_staging_lend_device(VqStaging *st, VqSlot *slot, const VqFrame *ref,
                           const VqFrame *dis, VqStream producer,
                           void (*release)(void *), void *opaque);
/* As vq_staging_upload with the reference already staged for a ladder
 * (gpu/ref_stage.h): only the distorted picture is copied and uploaded,
 * the slot's uploads wait for the reference's, and the slot takes one of
 * its users' counts (kept until vq_staging_drop_shared). */
int vq_staging_upload_shared(VqStaging *st, VqSlot *slot, VqSharedRef *ref,
                             const VqFrame *dis);
/* Gives a slot's shared reference back (its work done or abandoned). */
void vq_staging_drop_shared(VqSlot *slot);
/* The same for every slot (the run flushed: no frame reads them again). */
void vq_staging_drop_all_shared(VqStaging *st);
/* Gives lent planes back (their release), once the slot's work is done. */
void vq_staging_release(VqSlot *slot);
/* Copies the planes into the slot's host memory only (pictures uploaded
 * by another path whose pixels verify= or a fallback may need). */
void vq_staging_hold(VqStaging *st, VqSlot *slot, const VqFrame *ref,
                     const VqFrame *dis);
/* The held planes of a slot as a host frame in the caller's layout
 * (k: 0 reference, 1 distorted). */
void vq_staging_held_frame(const VqStaging *st, const VqSlot *slot,
                           unsigned k, VqFrame *out);
/* The slot holding frame `index` with its host copy (held), or NULL. */
VqSlot *vq_staging_held_slot(VqStaging *st, unsigned index);
/* Enqueues the accumulator download and records the slot's `done` event. */
int vq_staging_finish(VqStaging *st, VqSlot *slot);

/* Runs the extractors of later frames on lanes: n of them (one per GPU
 * extractor's set of device state), at most vq_staging_lane_cap(). */
int vq_staging_use_lanes(VqStaging *st, unsigned n);
/* VQ_GPU_MAX_LANES, or VQHIP_LANES where set (0 or 1: no lanes). */
unsigned vq_staging_lane_cap(void);
/* Before a slot's extractors: every lane waits for the slot's uploads. */
int vq_staging_fork(VqStaging *st, VqSlot *slot);
/* After them: the compute stream waits for every lane. */
int vq_staging_join(VqStaging *st);

#endif
