/*
 * core/refshare: a ladder's reference-only records, computed once. The
 * record of frame i is made from the share's state as frame i - 1 left it
 * (as motion's SAD needs the previous planes), so a computation out of
 * order or twice gives a wrong record; the expected records are the same
 * recurrence recomputed here. Checked: every user gets every frame's
 * record, each frame is computed once, never two at a time (threads that
 * race for the same frames), a frame out of step or already dropped is
 * refused, a user that leaves holds nothing back, and a failed
 * computation is every user's error with its message.
 */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "../common/unit_check.h"
#include "core/refshare.h"

#define USERS 4
#define FRAMES 2000

typedef struct State {
    uint64_t last;
} State;

typedef struct Arg {
    unsigned index;
    unsigned fail_at; /* this frame's computation fails (UINT32_MAX: none) */
    VqErrBuf *err;
} Arg;

static atomic_int inside; /* computations running now */

static uint64_t next_value(uint64_t last, unsigned index)
{
    return last * 6364136223846793005u + index + 1;
}

static int compute(void *arg, void **state, void *rec)
{
    const Arg *a = arg;
    CHECK_MSG(atomic_fetch_add(&inside, 1) == 0, "two computations at once");
    sched_yield(); /* a window for the other threads to come in */
    if (!*state)
        *state = calloc(1, sizeof(State));
    State *s = *state;
    s->last = next_value(s->last, a->index);
    memcpy(rec, &s->last, sizeof(s->last));
    atomic_fetch_sub(&inside, 1);
    if (a->index == a->fail_at)
        return vq_fail(a->err, VQ_ENOMEM, "frame %u: no memory", a->index);
    return 0;
}

static uint64_t want[FRAMES];

typedef struct User {
    VqRefShare *share;
    unsigned user;
    unsigned bad; /* records that differed */
} User;

static void *user_main(void *p)
{
    User *u = p;
    uint64_t seed = 35 + u->user;
    VqErrBuf err = { { 0 } };
    for (unsigned i = 0; i < FRAMES; i++) {
        if (vq_test_xorshift(&seed) % 8 == 0)
            sched_yield();
        Arg a = { i, UINT32_MAX, &err };
        uint64_t rec = 0;
        int r = vq_refshare_get(u->share, u->user, i, &rec, compute, &a, &err);
        u->bad += r != 0 || rec != want[i];
    }
    return NULL;
}

int main(void)
{
    uint64_t last = 0;
    for (unsigned i = 0; i < FRAMES; i++)
        want[i] = last = next_value(last, i);

    /* users racing on threads of their own */
    VqRefShare *s;
    CHECK_MSG(!vq_refshare_open(&s, USERS, sizeof(uint64_t), free), "open");
    User u[USERS];
    pthread_t th[USERS];
    for (unsigned k = 0; k < USERS; k++) {
        u[k] = (User){ s, k, 0 };
        CHECK_MSG(!pthread_create(&th[k], NULL, user_main, &u[k]), "thread");
    }
    for (unsigned k = 0; k < USERS; k++) {
        pthread_join(th[k], NULL);
        CHECK_MSG(!u[k].bad, "user %u: %u records wrong", k, u[k].bad);
    }
    uint64_t computed, used;
    vq_refshare_counts(s, &computed, &used);
    CHECK_MSG(computed == FRAMES && used == (uint64_t)USERS * FRAMES,
          "computed %llu, used %llu", (unsigned long long)computed,
          (unsigned long long)used);
    vq_refshare_close(&s);
    CHECK_MSG(!s, "close leaves the handle");

    /* one thread: out of step, dropped records, a user leaving, errors */
    CHECK_MSG(!vq_refshare_open(&s, 2, sizeof(uint64_t), free), "open");
    VqErrBuf err = { { 0 } };
    uint64_t rec;
    Arg a = { 1, 3, &err };
    CHECK_MSG(vq_refshare_get(s, 0, 1, &rec, compute, &a, &err) == VQ_ESTATE &&
          strstr(err.msg, "out of step"), "frame 1 before frame 0: %s",
          err.msg);
    for (unsigned i = 0; i < 3; i++) {
        a.index = i;
        CHECK_MSG(!vq_refshare_get(s, 0, i, &rec, compute, &a, &err) &&
              rec == want[i], "user 1, frame %u", i);
    }
    a.index = 0;
    CHECK_MSG(!vq_refshare_get(s, 1, 0, &rec, compute, &a, &err) && rec == want[0],
          "user 2 takes frame 0 computed by user 1");
    /* frame 0 was taken by both: dropped */
    CHECK_MSG(vq_refshare_get(s, 0, 0, &rec, compute, &a, &err) == VQ_ESTATE,
          "a dropped frame given again");
    a.index = 3;
    VqErrBuf err2 = { { 0 } };
    CHECK_MSG(vq_refshare_get(s, 0, 3, &rec, compute, &a, &err) == VQ_ENOMEM,
          "a failed computation succeeded");
    vq_refshare_leave(s, 1); /* user 2 never takes frames 1 to 3 */
    a.index = 4;
    CHECK_MSG(!vq_refshare_get(s, 0, 4, &rec, compute, &a, &err2) &&
          rec == want[4], "frame 4 after the failure");
    vq_refshare_counts(s, &computed, &used);
    CHECK_MSG(computed == 5 && used == 6, "computed %llu, used %llu",
          (unsigned long long)computed, (unsigned long long)used);
    vq_refshare_close(&s);

    /* a failure is every user's error, with the computing user's message */
    CHECK_MSG(!vq_refshare_open(&s, 2, sizeof(uint64_t), free), "open");
    Arg f = { 0, 0, &err };
    memset(&err, 0, sizeof(err));
    memset(&err2, 0, sizeof(err2));
    CHECK_MSG(vq_refshare_get(s, 0, 0, &rec, compute, &f, &err) == VQ_ENOMEM &&
          vq_refshare_get(s, 1, 0, &rec, compute, &f, &err2) == VQ_ENOMEM &&
          strstr(err2.msg, "frame 0: no memory"),
          "the failure reached the other user: %s", err2.msg);
    vq_refshare_counts(s, &computed, &used);
    CHECK_MSG(computed == 1, "a failed frame computed %llu times",
          (unsigned long long)computed);
    vq_refshare_close(&s);

    printf("%u checks, %u failed\n", n_checks, n_fail);
    return n_fail ? 1 : 0;
}
