/* Per-frame reference products, computed once for a ladder (refcache.h). */
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "extractor.h"
#include "refcache.h"

enum { SLOT_FREE, SLOT_COMPUTING, SLOT_READY };

typedef struct Slot {
    uint8_t *buf;   /* kept once allocated: no page clearing per frame */
    unsigned index;
    int state;
    unsigned pins;  /* users reading it now */
    uint64_t taken; /* users that have had it */
    uint64_t stamp; /* order of making: the least recent goes first */
} Slot;

struct VqRefCache {
    pthread_mutex_t lock;
    pthread_cond_t done; /* a computation ended */
    size_t bytes;
    unsigned n_slots;
    Slot *slot;
    uint64_t all, left; /* user bits */
    uint64_t stamp, n_computed, n_used;
};

int vq_refcache_open(VqRefCache **pc, unsigned n_users, size_t bytes,
                     unsigned slots)
{
    *pc = NULL;
    if (n_users < 1 || n_users > 64 || slots < 1 || !bytes)
        return VQ_EINVAL;
    VqRefCache *c = calloc(1, sizeof(*c));
    if (!c)
        return VQ_ENOMEM;
    c->slot = calloc(slots, sizeof(*c->slot));
    if (!c->slot) {
        free(c);
        return VQ_ENOMEM;
    }
    pthread_mutex_init(&c->lock, NULL);
    pthread_cond_init(&c->done, NULL);
    c->bytes = bytes;
    c->n_slots = slots;
    c->all = n_users == 64 ? ~(uint64_t)0 : ((uint64_t)1 << n_users) - 1;
    *pc = c;
    return 0;
}

void vq_refcache_close(VqRefCache **pc)
{
    VqRefCache *c = *pc;
    if (!c)
        return;
    for (unsigned k = 0; k < c->n_slots; k++)
        free(c->slot[k].buf);
    free(c->slot);
    pthread_mutex_destroy(&c->lock);
    pthread_cond_destroy(&c->done);
    free(c);
    *pc = NULL;
}

/* A ready slot nobody reads and every user still in has had is free. */
static void release_if_done(VqRefCache *c, Slot *s)
{
    if (s->state == SLOT_READY && !s->pins &&
        ((s->taken | c->left) & c->all) == c->all)
        s->state = SLOT_FREE;
}

static Slot *find(VqRefCache *c, unsigned index)
{
    for (unsigned k = 0; k < c->n_slots; k++)
        if (c->slot[k].state != SLOT_FREE && c->slot[k].index == index)
            return &c->slot[k];
    return NULL;
}

/* A slot for a new product: a free one, else the least recent ready one
 * nobody reads; NULL when every slot is in use. */
static Slot *claim(VqRefCache *c)
{
    Slot *best = NULL;
    for (unsigned k = 0; k < c->n_slots; k++) {
        Slot *s = &c->slot[k];
        if (s->state == SLOT_FREE)
            return s;
        if (s->state == SLOT_READY && !s->pins &&
            (!best || s->stamp < best->stamp))
            best = s;
    }
    return best;
}

/* Under the lock: frame index's slot once no one computes it, pinned for
 * user when it holds a product (NULL: none). */
static Slot *take_ready(VqRefCache *c, unsigned user, unsigned index)
{
    Slot *s;
    while ((s = find(c, index)) && s->state == SLOT_COMPUTING)
        pthread_cond_wait(&c->done, &c->lock);
    if (s) {
        s->pins++;
        s->taken |= (uint64_t)1 << user;
        c->n_used++;
    }
    return s;
}

/* Under the lock: a slot's buffer, allocated at its first use (0, or -1
 * out of memory). */
static int slot_buf(VqRefCache *c, Slot *s)
{
    void *p = NULL;
    if (!s->buf && !posix_memalign(&p, 64, c->bytes))
        s->buf = p;
    return s->buf ? 0 : -1;
}

int vq_refcache_get(VqRefCache *c, unsigned user, unsigned index,
                    VqRefProductFn fn, void *arg, const void **product,
                    VqErrBuf *err)
{
    *product = NULL;
    uint64_t bit = (uint64_t)1 << user;
    pthread_mutex_lock(&c->lock);
    Slot *s = take_ready(c, user, index);
    if (s) {
        *product = s->buf;
        pthread_mutex_unlock(&c->lock);
        return 0;
    }
    s = claim(c);
    if (!s) {
        pthread_mutex_unlock(&c->lock);
        return 0;
    }
    if (slot_buf(c, s)) {
        pthread_mutex_unlock(&c->lock);
        return vq_fail(err, VQ_ENOMEM, "out of memory");
    }
    s->state = SLOT_COMPUTING;
    s->index = index;
    s->pins = 1;
    s->taken = bit;
    s->stamp = ++c->stamp;
    pthread_mutex_unlock(&c->lock);
    int r = fn(arg, s->buf);
    pthread_mutex_lock(&c->lock);
    if (r) {
        s->state = SLOT_FREE; /* waiters find no product: they compute */
    } else {
        s->state = SLOT_READY;
        c->n_computed++;
        c->n_used++;
        *product = s->buf;
    }
    pthread_cond_broadcast(&c->done);
    pthread_mutex_unlock(&c->lock);
    return r;
}

void *vq_refcache_begin(VqRefCache *c, unsigned index)
{
    pthread_mutex_lock(&c->lock);
    Slot *s = find(c, index);
    if (s && (s->state != SLOT_READY || s->pins))
        s = NULL; /* being computed or read: left as it is */
    else if (!s)
        s = claim(c);
    if (s && slot_buf(c, s))
        s = NULL;
    if (s) {
        s->state = SLOT_COMPUTING;
        s->index = index;
        s->pins = 0;
        s->taken = 0;
        s->stamp = ++c->stamp;
    }
    pthread_mutex_unlock(&c->lock);
    return s ? s->buf : NULL;
}

void vq_refcache_end(VqRefCache *c, unsigned index, int ok)
{
    pthread_mutex_lock(&c->lock);
    Slot *s = find(c, index);
    if (s && s->state == SLOT_COMPUTING) {
        s->state = ok ? SLOT_READY : SLOT_FREE;
        c->n_computed += ok != 0;
    }
    pthread_cond_broadcast(&c->done);
    pthread_mutex_unlock(&c->lock);
}

const void *vq_refcache_lookup(VqRefCache *c, unsigned user, unsigned index)
{
    pthread_mutex_lock(&c->lock);
    Slot *s = take_ready(c, user, index);
    pthread_mutex_unlock(&c->lock);
    return s ? s->buf : NULL;
}

size_t vq_ladder_records_size(unsigned n, size_t acc_size)
{
    return (sizeof(VqLadderRecords) + 63) / 64 * 64 +
           (size_t)n * ((acc_size + 63) / 64 * 64);
}

void *vq_ladder_records_at(const VqLadderRecords *r, unsigned i,
                           size_t acc_size)
{
    return (uint8_t *)r + (sizeof(VqLadderRecords) + 63) / 64 * 64 +
           (size_t)i * ((acc_size + 63) / 64 * 64);
}

void vq_refcache_put(VqRefCache *c, unsigned user, unsigned index)
{
    (void)user;
    pthread_mutex_lock(&c->lock);
    Slot *s = find(c, index);
    if (s && s->state == SLOT_READY && s->pins) {
        s->pins--;
        release_if_done(c, s);
    }
    pthread_mutex_unlock(&c->lock);
}

void vq_refcache_leave(VqRefCache *c, unsigned user)
{
    pthread_mutex_lock(&c->lock);
    c->left |= (uint64_t)1 << user;
    for (unsigned k = 0; k < c->n_slots; k++)
        release_if_done(c, &c->slot[k]);
    pthread_mutex_unlock(&c->lock);
}

void vq_refcache_counts(VqRefCache *c, uint64_t *computed, uint64_t *used)
{
    pthread_mutex_lock(&c->lock);
    *computed = c->n_computed;
    *used = c->n_used;
    pthread_mutex_unlock(&c->lock);
}

int vq_fex_ladder_record(VqFex *fex, unsigned index, void *acc)
{
    const VqLadderRecords *r =
        vq_refcache_lookup(fex->cache, fex->share_user, index);
    if (!r)
        return 1;
    unsigned i = fex->share_user;
    bool has = i < r->n && r->has[i];
    if (has)
        memcpy(acc, vq_ladder_records_at(r, i, fex->acc_size), fex->acc_size);
    vq_refcache_put(fex->cache, fex->share_user, index);
    return has ? 0 : 1;
}
