/*
 * Pairs that wait while the GPU opens (VqConfig.open_async): submitted
 * pictures copied, or the caller's planes kept until their release
 * (vq_submit_retained), up to a byte budget, then scored in order.
 */
#ifndef VQHIP_RUN_HELD_H
#define VQHIP_RUN_HELD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/error.h"
#include "core/picture.h"

typedef struct VqHeldPair {
    VqPicture ref, dis;    /* the caller's planes, or views of `copy` */
    uint8_t *copy;         /* owned planes; NULL: the caller's, lent */
    VqReleaseFn release;   /* lent planes: gives them back */
    void *opaque;
    size_t bytes;
} VqHeldPair;

typedef struct VqHeld {
    VqHeldPair *pair;      /* oldest first from head, a ring of cap */
    unsigned head, n, cap;
    size_t bytes;          /* held now */
    size_t budget;         /* VqConfig.open_hold_bytes */
    unsigned total;        /* pairs held in all */
} VqHeld;

/* Bytes a pair of pictures of fmt takes held: the stored planes that hold
 * samples of `planes` (VQ_PLANE_*), both pictures. */
size_t vq_held_pair_bytes(const VqFormat *fmt, unsigned planes);
/* Holds a valid pair (r, d: its plane views): lent when release is set,
 * else the planes that hold `planes` copied. */
int vq_held_push(VqHeld *h, const VqFormat *fmt, unsigned planes,
                 const VqPicture *ref, const VqPicture *dis, const VqFrame *r,
                 const VqFrame *d, VqReleaseFn release, void *opaque,
                 VqErrBuf *err);
/* Takes the oldest pair; false when none is held. */
bool vq_held_pop(VqHeld *h, VqHeldPair *out);
/* Frees a pair's copy, or gives lent planes back (release). */
void vq_held_pair_free(VqHeldPair *p);
/* Every pair given back, and the ring freed. */
void vq_held_clear(VqHeld *h);

#endif
