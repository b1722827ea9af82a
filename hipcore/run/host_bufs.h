/*
 * Host buffers for pictures (vq_host_alloc): pinned for the GPU when there
 * is one, so that frames whose planes all lie in them are uploaded in
 * place (the GPU run asks vq_host_bufs_pinned); plain memory without one.
 */
#ifndef VQHIP_RUN_HOST_BUFS_H
#define VQHIP_RUN_HOST_BUFS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/error.h"
#include "gpu/gpu.h"

typedef struct VqHostBuf {
    uint8_t *ptr;
    size_t size;
    bool pinned;
} VqHostBuf;

typedef struct VqHostBufs {
    VqHostBuf *buf;
    unsigned n;
} VqHostBufs;

/* size bytes, pinned for gpu (NULL: plain memory); NULL on error, with the
 * message in err (or, for the pinned allocation, in the GPU's). */
void *vq_host_bufs_alloc(VqHostBufs *hb, VqGpu *gpu, size_t size,
                         VqErrBuf *err);
/* Frees one buffer of the list (others are ignored). */
void vq_host_bufs_free(VqHostBufs *hb, VqGpu *gpu, void *ptr);
/* Frees every buffer and the list. */
void vq_host_bufs_clear(VqHostBufs *hb, VqGpu *gpu);
/* Whether [p, p + len) lies in one of the pinned buffers. */
bool vq_host_bufs_pinned(const VqHostBufs *hb, const void *p, size_t len);

#endif
