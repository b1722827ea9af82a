#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "frame_reader.h"

#define MAX_BUFFERS FRAME_READER_MAX_BUFFERS

typedef struct Slot {
    unsigned char *buf;
    VqPicture pic;
    int back; /* given back out of order, before the frames before it */
} Slot;

struct FrameReader {
    YuvInput *in;
    FrameReaderConfig cfg;
    Slot slot[MAX_BUFFERS];
    unsigned n;
    /* frames [taken, filled) are read, [released, taken) are with the
     * consumer; the thread fills slot filled % n once filled < released + n */
    unsigned filled, taken, released;
    int end;          /* 1: end of input after `filled`; -1: read error */
    int stop;
    int started;
    int exited;       /* the thread has left its loop */
    int mapped;       /* frames straight from the file's mapping */
    char err[256];
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t cond;
};

/* Sent to a reader thread to end a read() that waits on a stalled pipe:
 * its handler is installed without SA_RESTART, so the read fails with
 * EINTR and the thread sees `stop`. (SIGURG is ignored by default, so a
 * stray one elsewhere does nothing.) */
#define WAKE_SIGNAL SIGURG

static void on_wake(int sig)
{
    (void)sig;
}

static void install_wake_handler(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_wake;
    sigemptyset(&sa.sa_mask);
    sigaction(WAKE_SIGNAL, &sa, NULL);
}

/* Waits on r->cond for at most `ms` milliseconds (r->lock held). */
static void wait_ms(FrameReader *r, long ms)
{
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    t.tv_nsec += ms * 1000000L;
    t.tv_sec += t.tv_nsec / 1000000000L;
    t.tv_nsec %= 1000000000L;
    /* a time-out or a wake-up alike: the caller checks its condition */
    pthread_cond_timedwait(&r->cond, &r->lock, &t);
}

static void *reader_main(void *arg)
{
    FrameReader *r = arg;
    pthread_mutex_lock(&r->lock);
    for (;;) {
        while (!r->stop && r->filled == r->released + r->n)
            pthread_cond_wait(&r->cond, &r->lock);
        if (r->stop)
            break;
        if (r->cfg.max_frames && r->filled == r->cfg.max_frames) {
            r->end = 1;
            pthread_cond_broadcast(&r->cond);
            break;
        }
        Slot *s = &r->slot[r->filled % r->n];
        pthread_mutex_unlock(&r->lock);
        char err[256] = "";
        int got = yuv_read_into(r->in, s->buf, &s->pic, err, sizeof(err));
        pthread_mutex_lock(&r->lock);
        if (r->stop)
            break; /* a read cut short by the wake-up signal: dropped */
        if (got <= 0) {
            r->end = got < 0 ? -1 : 1;
            snprintf(r->err, sizeof(r->err), "%s", err);
            pthread_cond_broadcast(&r->cond);
            break;
        }
        r->filled++;
        pthread_cond_broadcast(&r->cond);
    }
    r->exited = 1;
    pthread_cond_broadcast(&r->cond);
    pthread_mutex_unlock(&r->lock);
    return NULL;
}

int frame_reader_start(FrameReader **pr, YuvInput *in,
                       const FrameReaderConfig *cfg, char *err, size_t errsz)
{
    *pr = NULL;
    FrameReader *r = calloc(1, sizeof(*r));
    if (!r) {
        snprintf(err, errsz, "out of memory");
        return -1;
    }
    r->in = in;
    r->cfg = *cfg;
    r->n = cfg->n_buffers < 1 ? 1 : cfg->n_buffers > MAX_BUFFERS
                                        ? MAX_BUFFERS : cfg->n_buffers;
    if (cfg->map && !yuv_map(in)) {
        r->mapped = 1;
        pthread_mutex_init(&r->lock, NULL);
        pthread_cond_init(&r->cond, NULL);
        *pr = r;
        return 0;
    }
    for (unsigned i = 0; i < r->n; i++) {
        r->slot[i].buf = cfg->alloc(cfg->opaque, in->frame_size);
        if (!r->slot[i].buf) {
            snprintf(err, errsz, "cannot allocate %u frame buffers of %zu "
                     "bytes", r->n, in->frame_size);
            frame_reader_stop(&r);
            return -1;
        }
    }
    static pthread_once_t wake_once = PTHREAD_ONCE_INIT;
    pthread_once(&wake_once, install_wake_handler);
    pthread_mutex_init(&r->lock, NULL);
    pthread_cond_init(&r->cond, NULL);
    if (pthread_create(&r->thread, NULL, reader_main, r)) {
        snprintf(err, errsz, "cannot start a reader thread");
        pthread_mutex_destroy(&r->lock);
        pthread_cond_destroy(&r->cond);
        for (unsigned i = 0; i < r->n; i++)
            cfg->release(cfg->opaque, r->slot[i].buf);
        free(r);
        return -1;
    }
    r->started = 1;
    *pr = r;
    return 0;
}

int frame_reader_next(FrameReader *r, VqPicture *pic, char *err, size_t errsz)
{
    if (r->mapped) {
        if (r->cfg.max_frames && r->taken >= r->cfg.max_frames)
            return 0;
        /* at most n frames out at once: their give-back marks share the
         * n slots (and the caller's records of them may too) */
        pthread_mutex_lock(&r->lock);
        while (r->taken - r->released >= r->n)
            pthread_cond_wait(&r->cond, &r->lock);
        pthread_mutex_unlock(&r->lock);
        int got = yuv_map_frame(r->in, r->taken, pic, err, errsz);
        if (got > 0) {
            pthread_mutex_lock(&r->lock);
            r->taken++;
            pthread_mutex_unlock(&r->lock);
        }
        return got;
    }
    pthread_mutex_lock(&r->lock);
    int cancelled = 0;
    while (r->taken == r->filled && !r->end) {
        if (r->cfg.cancel && *r->cfg.cancel) {
            cancelled = 1;
            break;
        }
        if (r->cfg.cancel)
            wait_ms(r, 50);
        else
            pthread_cond_wait(&r->cond, &r->lock);
    }
    int ret;
    if (cancelled) {
        ret = FRAME_READER_CANCELLED;
    } else if (r->taken < r->filled) {
        *pic = r->slot[r->taken % r->n].pic;
        r->taken++;
        ret = 1;
    } else {
        ret = r->end < 0 ? -1 : 0;
        if (ret < 0)
            snprintf(err, errsz, "%s", r->err);
    }
    pthread_mutex_unlock(&r->lock);
    return ret;
}

void frame_reader_release(FrameReader *r)
{
    pthread_mutex_lock(&r->lock);
    if (r->released < r->taken)
        r->released++;
    pthread_cond_broadcast(&r->cond);
    pthread_mutex_unlock(&r->lock);
}

void frame_reader_give_back(FrameReader *r, unsigned seq)
{
    pthread_mutex_lock(&r->lock);
    if (seq >= r->released && seq < r->taken) {
        r->slot[seq % r->n].back = 1;
        while (r->released < r->taken && r->slot[r->released % r->n].back) {
            r->slot[r->released % r->n].back = 0;
            r->released++;
        }
    }
    pthread_cond_broadcast(&r->cond);
    pthread_mutex_unlock(&r->lock);
}

void frame_reader_stop(FrameReader **pr)
{
    FrameReader *r = *pr;
    if (!r)
        return;
    if (r->mapped) {
        pthread_mutex_lock(&r->lock);
        while (r->released < r->taken)
            pthread_cond_wait(&r->cond, &r->lock);
        pthread_mutex_unlock(&r->lock);
        pthread_mutex_destroy(&r->lock);
        pthread_cond_destroy(&r->cond);
    }
    if (r->started) {
        pthread_mutex_lock(&r->lock);
        /* frames lent out are still read: wait until they are back */
        while (r->released < r->taken)
            pthread_cond_wait(&r->cond, &r->lock);
        r->stop = 1;
        pthread_cond_broadcast(&r->cond);
        /* a thread in read() on a pipe that gives nothing would never see
         * `stop`: interrupt the read until the thread has left (a signal
         * that lands just before the read is repeated) */
        while (!r->exited) {
            pthread_kill(r->thread, WAKE_SIGNAL);
            wait_ms(r, 20);
        }
        pthread_mutex_unlock(&r->lock);
        pthread_join(r->thread, NULL);
        pthread_mutex_destroy(&r->lock);
        pthread_cond_destroy(&r->cond);
    }
    for (unsigned i = 0; i < r->n; i++)
        if (r->slot[i].buf)
            r->cfg.release(r->cfg.opaque, r->slot[i].buf);
    free(r);
    *pr = NULL;
}
