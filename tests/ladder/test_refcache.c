/*
 * core/refcache: a ladder's per-frame reference products, computed once.
 * Users on threads of their own take frames in a jittered, partly
 * shuffled order (as a rendition's frames run out of order on its pool);
 * a product is a pattern made from its frame index, checked whole by every
 * user that takes it. Checked: every user reads the right product for
 * every frame; with enough slots each frame is computed once and taken
 * once per user; a frame is never computed by two users at once; with one
 * slot a frame some user has not taken yet is dropped for a newer one and
 * computed again when that user asks (never a wrong product); every slot
 * pinned gives no product; a failed computation is the computing user's
 * error and the next user computes it; a user that leaves holds nothing
 * back.
 */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "../common/unit_check.h"
#include "core/extractor.h"
#include "core/refcache.h"

#define USERS 4
#define FRAMES 3000
#define WORDS 64

static atomic_int computing[FRAMES];
/* the users meet every 32 frames: at most 36 frames apart, within the
 * race's 64 slots */
static pthread_barrier_t meet;
static atomic_int n_calls;

typedef struct Arg {
    unsigned index;
    unsigned fail_at; /* this frame's computation fails (UINT32_MAX: none) */
    VqErrBuf *err;
} Arg;

static uint64_t word(unsigned index, unsigned k)
{
    return (uint64_t)index * 0x9e3779b97f4a7c15u + k;
}

static int compute(void *arg, void *product)
{
    const Arg *a = arg;
    atomic_fetch_add(&n_calls, 1);
    CHECK_MSG(atomic_fetch_add(&computing[a->index], 1) == 0,
              "frame %u computed by two users at once", a->index);
    uint64_t *p = product;
    for (unsigned k = 0; k < WORDS; k++) {
        p[k] = word(a->index, k);
        if (k == WORDS / 2)
            sched_yield(); /* a window for the others to come in */
    }
    atomic_fetch_sub(&computing[a->index], 1);
    if (a->index == a->fail_at)
        return vq_fail(a->err, VQ_ENOMEM, "frame %u: no memory", a->index);
    return 0;
}

static int right(const void *product, unsigned index)
{
    const uint64_t *p = product;
    for (unsigned k = 0; k < WORDS; k++)
        if (p[k] != word(index, k))
            return 0;
    return 1;
}

typedef struct User {
    VqRefCache *c;
    unsigned user, bad, none;
} User;

static void *user_main(void *p)
{
    User *u = p;
    uint64_t seed = 71 + u->user;
    VqErrBuf err = { { 0 } };
    for (unsigned base = 0; base < FRAMES; base += 4) {
        if (base % 32 == 0)
            pthread_barrier_wait(&meet);
        /* frames base..base+3 in an order of this user's own */
        unsigned order[4] = { 0, 1, 2, 3 };
        for (unsigned k = 3; k > 0; k--) {
            unsigned j = (unsigned)(vq_test_xorshift(&seed) % (k + 1));
            unsigned t = order[k];
            order[k] = order[j];
            order[j] = t;
        }
        for (unsigned k = 0; k < 4; k++) {
            unsigned i = base + order[k];
            if (vq_test_xorshift(&seed) % 4 == 0)
                sched_yield();
            Arg a = { i, UINT32_MAX, &err };
            const void *prod;
            int r = vq_refcache_get(u->c, u->user, i, compute, &a, &prod,
                                    &err);
            if (r || !prod) {
                u->bad += r != 0;
                u->none += !prod;
                continue;
            }
            u->bad += !right(prod, i);
            vq_refcache_put(u->c, u->user, i);
        }
    }
    return NULL;
}

static void race(unsigned slots, const char *what)
{
    VqRefCache *c;
    CHECK_MSG(!vq_refcache_open(&c, USERS, WORDS * 8, slots), "open");
    atomic_store(&n_calls, 0);
    pthread_barrier_init(&meet, NULL, USERS);
    User u[USERS];
    pthread_t th[USERS];
    for (unsigned k = 0; k < USERS; k++) {
        u[k] = (User){ c, k, 0, 0 };
        CHECK_MSG(!pthread_create(&th[k], NULL, user_main, &u[k]), "thread");
    }
    unsigned none = 0;
    for (unsigned k = 0; k < USERS; k++) {
        pthread_join(th[k], NULL);
        CHECK_MSG(!u[k].bad, "%s: user %u: %u products wrong", what, k,
                  u[k].bad);
        none += u[k].none;
    }
    pthread_barrier_destroy(&meet);
    uint64_t computed, used;
    vq_refcache_counts(c, &computed, &used);
    CHECK_MSG(computed == (uint64_t)atomic_load(&n_calls),
              "%s: computed %llu, calls %d", what,
              (unsigned long long)computed, atomic_load(&n_calls));
    CHECK_MSG(used + none == (uint64_t)USERS * FRAMES,
              "%s: used %llu + none %u", what, (unsigned long long)used, none);
    if (slots >= 64)
        CHECK_MSG(computed == FRAMES && !none,
                  "%s: computed %llu times, %u without a product", what,
                  (unsigned long long)computed, none);
    vq_refcache_close(&c);
    CHECK_MSG(!c, "close leaves the handle set");
}

/* A ladder pass's products, a user waiting in vq_fex_ladder_record. */
typedef struct Waiter {
    VqFex fex;
    unsigned index;
    uint64_t acc[4];
    int r;
    atomic_int started;
} Waiter;

static void *waiter_main(void *p)
{
    Waiter *w = p;
    atomic_store(&w->started, 1);
    w->r = vq_fex_ladder_record(&w->fex, w->index, w->acc);
    return NULL;
}

static void passes(void)
{
    enum { N = 3 };
    const size_t acc_size = sizeof(uint64_t[4]);
    VqRefCache *c;
    CHECK_MSG(!vq_refcache_open(&c, N, vq_ladder_records_size(N, acc_size), 2),
              "open");
    CHECK_MSG(vq_ladder_records_size(N, acc_size) >= sizeof(VqLadderRecords) +
                  N * acc_size, "records' size");
    /* frame 5: user 2 waits while the pass computes it */
    VqLadderRecords *rec = vq_refcache_begin(c, 5);
    CHECK_MSG(rec != NULL, "begin frame 5");
    Waiter w = { .index = 5 };
    w.fex.cache = c;
    w.fex.share_user = 2;
    w.fex.acc_size = acc_size;
    pthread_t th;
    CHECK_MSG(!pthread_create(&th, NULL, waiter_main, &w), "thread");
    while (!atomic_load(&w.started))
        sched_yield();
    for (unsigned k = 0; k < 1000; k++)
        sched_yield(); /* time to reach the wait */
    rec->n = N;
    for (unsigned i = 0; i < N; i++) {
        rec->has[i] = i != 1; /* user 1 was not in the pass */
        uint64_t *a = vq_ladder_records_at(rec, i, acc_size);
        for (unsigned k = 0; k < 4; k++)
            a[k] = word(5 + i, k);
    }
    vq_refcache_end(c, 5, 1);
    pthread_join(th, NULL);
    CHECK_MSG(w.r == 0 && w.acc[0] == word(7, 0) && w.acc[3] == word(7, 3),
              "user 2's record of frame 5 after the wait: %d", w.r);
    uint64_t acc[4] = { 0 };
    VqFex f = { .cache = c, .share_user = 0, .acc_size = acc_size };
    CHECK_MSG(!vq_fex_ladder_record(&f, 5, acc) && acc[1] == word(5, 1),
              "user 0's record of frame 5");
    CHECK_MSG(vq_fex_ladder_record(&f, 6, acc) == 1,
              "frame 6 was never computed");
    /* a dropped pass gives nothing (frame 5 waits for user 1 meanwhile) */
    CHECK_MSG(vq_refcache_begin(c, 6) != NULL, "begin frame 6");
    vq_refcache_end(c, 6, 0);
    CHECK_MSG(!vq_refcache_lookup(c, 0, 6), "a dropped pass gives nothing");
    /* a slot being read is not taken for another frame: frame 5 pinned,
     * frame 7 in the other slot, frame 8 has none */
    CHECK_MSG(vq_refcache_lookup(c, 0, 5) != NULL, "frame 5 again");
    CHECK_MSG(vq_refcache_begin(c, 7) != NULL, "begin frame 7");
    vq_refcache_end(c, 7, 1);
    CHECK_MSG(vq_refcache_lookup(c, 0, 7) != NULL, "frame 7");
    CHECK_MSG(!vq_refcache_begin(c, 8), "every slot read: no slot for frame 8");
    CHECK_MSG(!vq_refcache_begin(c, 5), "frame 5 is read: not overwritten");
    vq_refcache_put(c, 0, 7);
    vq_refcache_put(c, 0, 5);
    /* unpinned, a pass of frame 5 again overwrites it */
    CHECK_MSG(vq_refcache_begin(c, 5) != NULL, "frame 5 overwritten");
    vq_refcache_end(c, 5, 1);
    f.share_user = 1;
    CHECK_MSG(vq_fex_ladder_record(&f, 5, acc) == 1,
              "user 1 has no record of frame 5");
    uint64_t computed, used;
    vq_refcache_counts(c, &computed, &used);
    CHECK_MSG(computed == 3 && used == 5, "passes: computed %llu, used %llu",
              (unsigned long long)computed, (unsigned long long)used);
    vq_refcache_close(&c);
}

int main(void)
{
    passes();
    race(64, "64 slots");
    race(1, "one slot");

    VqErrBuf err = { { 0 } };
    VqRefCache *c;
    const void *p0, *p1, *p2;
    Arg a0 = { 0, UINT32_MAX, &err }, a1 = { 1, UINT32_MAX, &err };

    /* one slot: pinned, so no product for another frame */
    CHECK_MSG(!vq_refcache_open(&c, 2, WORDS * 8, 1), "open");
    CHECK_MSG(!vq_refcache_get(c, 0, 0, compute, &a0, &p0, &err) && p0 &&
                  right(p0, 0), "frame 0");
    CHECK_MSG(!vq_refcache_get(c, 0, 1, compute, &a1, &p1, &err) && !p1,
              "every slot pinned: no product");
    vq_refcache_put(c, 0, 0);
    /* user 1 has not had frame 0: it stays until a newer frame needs its
     * slot, then user 1 computes it again */
    CHECK_MSG(!vq_refcache_get(c, 1, 0, compute, &a0, &p0, &err) && p0 &&
                  right(p0, 0), "user 1 takes frame 0");
    vq_refcache_put(c, 1, 0);
    CHECK_MSG(!vq_refcache_get(c, 0, 1, compute, &a1, &p1, &err) && p1 &&
                  right(p1, 1), "frame 1 in the freed slot");
    vq_refcache_put(c, 0, 1);
    Arg a2 = { 2, UINT32_MAX, &err };
    CHECK_MSG(!vq_refcache_get(c, 0, 2, compute, &a2, &p2, &err) && p2 &&
                  right(p2, 2), "frame 2 drops frame 1 (user 1 lags)");
    vq_refcache_put(c, 0, 2);
    CHECK_MSG(!vq_refcache_get(c, 1, 1, compute, &a1, &p1, &err) && p1 &&
                  right(p1, 1), "user 1 computes frame 1 again");
    vq_refcache_put(c, 1, 1);
    uint64_t computed, used;
    vq_refcache_counts(c, &computed, &used);
    CHECK_MSG(computed == 4 && used == 5, "computed %llu, used %llu",
              (unsigned long long)computed, (unsigned long long)used);
    vq_refcache_close(&c);

    /* a failed computation: the computing user's error; the next user
     * computes the frame; a user that left holds nothing back */
    CHECK_MSG(!vq_refcache_open(&c, 2, WORDS * 8, 1), "open");
    Arg bad = { 0, 0, &err };
    int r = vq_refcache_get(c, 0, 0, compute, &bad, &p0, &err);
    CHECK_MSG(r == VQ_ENOMEM && !p0 && strstr(err.msg, "frame 0"),
              "failed computation: %d %s", r, err.msg);
    CHECK_MSG(!vq_refcache_get(c, 1, 0, compute, &a0, &p0, &err) && p0 &&
                  right(p0, 0), "the next user computes frame 0");
    vq_refcache_put(c, 1, 0);
    vq_refcache_counts(c, &computed, &used);
    CHECK_MSG(computed == 1 && used == 1, "after a failure: computed %llu, "
              "used %llu", (unsigned long long)computed,
              (unsigned long long)used);
    /* frame 0 is kept for user 0 (asked again, it is not recomputed) until
     * user 0 leaves: then it is dropped (asked again, recomputed) */
    CHECK_MSG(!vq_refcache_get(c, 1, 0, compute, &a0, &p0, &err) && p0,
              "frame 0 kept");
    vq_refcache_put(c, 1, 0);
    vq_refcache_counts(c, &computed, &used);
    CHECK_MSG(computed == 1, "kept frame computed again");
    vq_refcache_leave(c, 0);
    CHECK_MSG(!vq_refcache_get(c, 1, 0, compute, &a0, &p0, &err) && p0 &&
                  right(p0, 0), "frame 0 after user 0 left");
    vq_refcache_put(c, 1, 0);
    vq_refcache_counts(c, &computed, &used);
    CHECK_MSG(computed == 2, "a left user's frame was kept for it");
    vq_refcache_close(&c);
    TEST_END();
}
