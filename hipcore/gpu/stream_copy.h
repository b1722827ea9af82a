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

void vq_stream_copy(void *dst, const void *src, size_t n);
/* After a thread's stream copies, before another thread or a device reads
 * the destination (orders the non-temporal stores). */
void vq_stream_copy_done(void);

#endif
