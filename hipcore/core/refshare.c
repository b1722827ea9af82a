/* A temporal extractor's reference-only records, computed once for a
 * ladder (refshare.h). */
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "refshare.h"

struct VqRefShare {
    pthread_mutex_t lock;
    pthread_cond_t done;     /* a computation finished */
    size_t rec_size;
    void *state;
    void (*state_free)(void *state);
    /* records of frames [base, next), frame i at i % cap */
    uint8_t *rec;
    int *err;
    unsigned cap, base, next;
    bool computing;          /* frame next is being computed */
    unsigned n_users;
    unsigned *progress;      /* per user: the next frame it takes */
    bool *left;
    uint64_t n_computed, n_used;
    char msg[VQ_ERR_MSG_SIZE]; /* the first failed computation's */
};

int vq_refshare_open(VqRefShare **ps, unsigned n_users, size_t rec_size,
                     void (*state_free)(void *state))
{
    VqRefShare *s = calloc(1, sizeof(*s));
    *ps = s;
    if (!s)
        return VQ_ENOMEM;
    pthread_mutex_init(&s->lock, NULL);
    pthread_cond_init(&s->done, NULL);
    s->rec_size = rec_size ? rec_size : 1;
    s->state_free = state_free;
    s->n_users = n_users;
    s->progress = calloc(n_users ? n_users : 1, sizeof(*s->progress));
    s->left = calloc(n_users ? n_users : 1, sizeof(*s->left));
    if (!s->progress || !s->left) {
        vq_refshare_close(ps);
        return VQ_ENOMEM;
    }
    return 0;
}

void vq_refshare_close(VqRefShare **ps)
{
    VqRefShare *s = *ps;
    if (!s)
        return;
    if (s->state && s->state_free)
        s->state_free(s->state);
    free(s->rec);
    free(s->err);
    free(s->progress);
    free(s->left);
    pthread_mutex_destroy(&s->lock);
    pthread_cond_destroy(&s->done);
    free(s);
    *ps = NULL;
}

/* Drops the records every user still in has taken. */
static void evict(VqRefShare *s)
{
    unsigned low = s->next;
    for (unsigned u = 0; u < s->n_users; u++)
        if (!s->left[u] && s->progress[u] < low)
            low = s->progress[u];
    if (low > s->base)
        s->base = low;
}

/* Room for frame next's record. */
static int make_room(VqRefShare *s)
{
    if (s->next - s->base < s->cap)
        return 0;
    unsigned cap = s->cap ? 2 * s->cap : 8;
    uint8_t *rec = malloc((size_t)cap * s->rec_size);
    int *err = malloc(cap * sizeof(*err));
    if (!rec || !err) {
        free(rec);
        free(err);
        return VQ_ENOMEM;
    }
    for (unsigned i = s->base; i < s->next; i++) {
        memcpy(rec + (size_t)(i % cap) * s->rec_size,
               s->rec + (size_t)(i % s->cap) * s->rec_size, s->rec_size);
        err[i % cap] = s->err[i % s->cap];
    }
    free(s->rec);
    free(s->err);
    s->rec = rec;
    s->err = err;
    s->cap = cap;
    return 0;
}

int vq_refshare_get(VqRefShare *s, unsigned user, unsigned index, void *rec,
                    VqRefComputeFn fn, void *arg, VqErrBuf *err)
{
    pthread_mutex_lock(&s->lock);
    while (s->computing && index == s->next)
        pthread_cond_wait(&s->done, &s->lock);
    int r = 0;
    if (index < s->base || index > s->next || user >= s->n_users ||
        s->left[user]) {
        pthread_mutex_unlock(&s->lock);
        return vq_fail(err, VQ_ESTATE, "ladder: frame %u of rendition %u is "
                       "out of step with the shared reference work (frames "
                       "%u to %u)", index, user + 1, s->base, s->next);
    }
    if (index == s->next) {
        r = make_room(s);
        if (r) {
            pthread_mutex_unlock(&s->lock);
            return vq_fail(err, r, "out of memory");
        }
        s->computing = true;
        pthread_mutex_unlock(&s->lock);
        r = fn(arg, &s->state, rec);
        pthread_mutex_lock(&s->lock);
        memcpy(s->rec + (size_t)(index % s->cap) * s->rec_size, rec,
               s->rec_size);
        s->err[index % s->cap] = r;
        if (r && !s->msg[0])
            snprintf(s->msg, sizeof(s->msg), "%s",
                     err && err->msg[0] ? err->msg : "shared reference work "
                     "failed");
        s->next++;
        s->n_computed++;
        s->computing = false;
        pthread_cond_broadcast(&s->done);
    } else {
        memcpy(rec, s->rec + (size_t)(index % s->cap) * s->rec_size,
               s->rec_size);
        r = s->err[index % s->cap];
        if (r)
            vq_fail(err, r, "%s", s->msg);
    }
    s->n_used++;
    s->progress[user] = index + 1;
    evict(s);
    pthread_mutex_unlock(&s->lock);
    return r;
}

void vq_refshare_leave(VqRefShare *s, unsigned user)
{
    pthread_mutex_lock(&s->lock);
    if (user < s->n_users)
        s->left[user] = true;
    evict(s);
    pthread_mutex_unlock(&s->lock);
}

void vq_refshare_counts(VqRefShare *s, uint64_t *computed, uint64_t *used)
{
    pthread_mutex_lock(&s->lock);
    *computed = s->n_computed;
    *used = s->n_used;
    pthread_mutex_unlock(&s->lock);
}
