/*
 * Copies into staging memory that the CPU does not read again soon (the
 * DMA engine does): on x86-64 with non-temporal stores, which skip the
 * read-for-ownership of every destination line that ordinary stores make,
 * so a copy moves two bytes of memory traffic per byte instead of three.
 * glibc's memcpy does that only above a large size threshold (a fraction
 * of the last-level cache); staging copies run in bands of rows below it.
 * Elsewhere, memcpy. The bytes written are the same either way.
 */
#ifndef VQHIP_STREAM_COPY_H
#define VQHIP_STREAM_COPY_H

#include <stddef.h>
#include <stdint.h>

#include "base/threadpool.h"
#include "core/picture.h"

void vq_stream_copy(void *dst, const void *src, size_t n);
/* Staging buffers open in the process: +1 when one opens, -1 when it
 * closes. With more than VQ_STREAM_COPY_MAX_USERS open, vq_stream_copy
 * uses ordinary stores. Measured on an H200's 16-core Xeon host (one run,
 * 1080p frames in host memory, vmaf_v0.6.1, fps summed over the streams):
 * one stream 5342 and 5993 with non-temporal stores against 3791 and 3888
 * with memcpy; 4 to 16 streams within 5% of each other; 32 streams 11284
 * and 10901 against 19280 and 20673. */
#define VQ_STREAM_COPY_MAX_USERS 16
void vq_stream_copy_user(int delta);
/* After a thread's stream copies, before another thread or a device reads
 * the destination (orders the non-temporal stores). */
void vq_stream_copy_done(void);

/* Host copies into pinned memory are the bottleneck of 4K uploads on one
 * thread, so they are cut into bands of rows spread over a pool. */
#define VQ_COPY_BAND_BYTES (512 * 1024)
#define VQ_MAX_COPY_TASKS 64

typedef struct VqCopyTask {
    uint8_t *dst;
    const uint8_t *src;
    ptrdiff_t stride;
    size_t row, dst_pitch;
    unsigned rows;
} VqCopyTask;

typedef struct VqCopyJob {
    VqCopyTask task[VQ_MAX_COPY_TASKS];
    unsigned n;
} VqCopyJob;

/* Adds the bands that pack the h rows of a stored plane (row: its bytes
 * per row) into dst, in at most bands_left bands. */
void vq_copy_job_add(VqCopyJob *job, uint8_t *dst, size_t dst_pitch,
                     const VqPlane *src, size_t row, unsigned h,
                     unsigned bands_left);
/* Runs the bands (on the pool when there is one) and empties the job. */
void vq_copy_job_run(VqCopyJob *job, VqThreadPool *pool);

#endif
