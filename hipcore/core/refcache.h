/*
 * Reference-only work of an extractor whose frames are independent, done
 * once per frame for a ladder (docs/LADDER.md): a product computed from
 * the reference picture alone (ADM's decomposition of the reference) that
 * every rendition's computation of the frame reads; or, for an extractor
 * the ladder's pass computes (below), the records of every rendition.
 *
 * The first rendition that asks for a frame computes its product into a
 * slot of the cache; one that asks while it is computed waits for it (the
 * computation waits on nothing: vq_fex_parallel's caller runs parts
 * itself, so no rendition's thread pool can hold it up). A product stays
 * until every rendition still in the ladder has taken it. The cache holds
 * a bounded number of slots: when all hold products some rendition has not
 * taken yet, the least recent unpinned one goes (a rendition that asks for
 * it later computes it again); when every slot is pinned the caller gets
 * no product and computes the frame on its own. Either way the values are
 * the same: only how often the work is done changes.
 */
#ifndef VQHIP_CORE_REFCACHE_H
#define VQHIP_CORE_REFCACHE_H

#include <stddef.h>
#include <stdint.h>

#include "base/error.h"

typedef struct VqRefCache VqRefCache;

/* Computes frame index's product into product (the cache's bytes, not
 * cleared). */
typedef int (*VqRefProductFn)(void *arg, void *product);

/* n_users: the ladder's renditions (at most 64); bytes: one product;
 * slots: how many products at most (at least 1). */
int vq_refcache_open(VqRefCache **pc, unsigned n_users, size_t bytes,
                     unsigned slots);
void vq_refcache_close(VqRefCache **pc);

/* Frame index's product for user: *product points at it, pinned until
 * vq_refcache_put; or *product is NULL (no slot free): compute the frame
 * without it, and do not put. A failed computation's error is returned
 * (its message in err) to the user that ran it; the others compute it
 * again. */
int vq_refcache_get(VqRefCache *c, unsigned user, unsigned index,
                    VqRefProductFn fn, void *arg, const void **product,
                    VqErrBuf *err);
void vq_refcache_put(VqRefCache *c, unsigned user, unsigned index);

/*
 * Products the ladder computes itself, before the frame reaches any
 * rendition (a ladder pass, VqFexDesc.ladder_run: every rendition's record
 * at once): vq_refcache_begin gives frame index's slot to fill (NULL: none
 * free; a product of that index not being read is overwritten),
 * vq_refcache_end makes it READY (ok) or drops it; meanwhile users of
 * that index wait. vq_refcache_lookup gives a user the READY product of
 * frame index, pinned until vq_refcache_put, or NULL: it computes nothing.
 */
void *vq_refcache_begin(VqRefCache *c, unsigned index);
void vq_refcache_end(VqRefCache *c, unsigned index, int ok);
const void *vq_refcache_lookup(VqRefCache *c, unsigned user, unsigned index);

/* A ladder pass's product: which renditions' records it holds, then the
 * records (acc_size bytes each, at vq_ladder_records_at). */
typedef struct VqLadderRecords {
    unsigned n;
    uint8_t has[64];
} VqLadderRecords;
size_t vq_ladder_records_size(unsigned n, size_t acc_size);
void *vq_ladder_records_at(const VqLadderRecords *r, unsigned i,
                           size_t acc_size);

/* The user takes no more frames (its rendition ended). */
void vq_refcache_leave(VqRefCache *c, unsigned user);

/* Products computed, and taken (computed ones included). */
void vq_refcache_counts(VqRefCache *c, uint64_t *computed, uint64_t *used);

#endif
