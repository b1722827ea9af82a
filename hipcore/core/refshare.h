/*
 * Reference-only work of a temporal extractor, done once for a ladder
 * (docs/LADDER.md): the renditions of a ladder see the same reference
 * pictures under the same frame indices, so an accumulator record that
 * depends on the reference alone (motion's SAD) is computed by the first
 * rendition that asks for a frame and copied by the others.
 *
 * Frames are computed in index order, one at a time, on the state the
 * share owns (the previous reference planes), never on a rendition's: a
 * temporal extractor's jobs run in frame order within each rendition, so
 * whoever asks for frame i has had frame i - 1, and frame i is the next
 * one to compute or already computed. Nothing is held while a frame is
 * computed but the "computing" mark: the computing thread waits on no other
 * rendition, so renditions running their own thread pools cannot deadlock.
 * Records stay until every rendition still in the ladder has taken them.
 */
#ifndef VQHIP_CORE_REFSHARE_H
#define VQHIP_CORE_REFSHARE_H

#include <stddef.h>
#include <stdint.h>

#include "base/error.h"

typedef struct VqRefShare VqRefShare;

/* Computes frame index's record (rec_size bytes, zeroed) on the share's
 * state (*state: NULL at first, allocated by the function, freed with the
 * share's state_free). */
typedef int (*VqRefComputeFn)(void *arg, void **state, void *rec);

int vq_refshare_open(VqRefShare **ps, unsigned n_users, size_t rec_size,
                     void (*state_free)(void *state));
void vq_refshare_close(VqRefShare **ps);

/* Frame index's record into rec (rec_size bytes): computed here with
 * fn(arg, ...) when it is the next frame to compute, else the record
 * computed for another user. The error of a failed computation is every
 * user's (its message to err). VQ_ESTATE for a frame out of order. */
int vq_refshare_get(VqRefShare *s, unsigned user, unsigned index, void *rec,
                    VqRefComputeFn fn, void *arg, VqErrBuf *err);

/* The user takes no more frames (its rendition ended): its records need
 * not be kept for it. */
void vq_refshare_leave(VqRefShare *s, unsigned user);

/* Frames computed, and records handed out (computed ones included). */
void vq_refshare_counts(VqRefShare *s, uint64_t *computed, uint64_t *used);

#endif
