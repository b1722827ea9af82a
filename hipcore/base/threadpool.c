#define _GNU_SOURCE /* sched_getaffinity, CPU_COUNT */
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <unistd.h>

#include "threadpool.h"
#include "vqhip.h"

typedef struct Fork Fork;

typedef struct Task {
    VqTaskFn fn;
    void *arg;
    VqTaskGroup *group; /* NULL for fork helpers */
    Fork *fork;         /* the fork a helper works for */
    struct Task *next;
} Task;

/* One vq_threadpool_fork, on its caller's stack. Its counters other than
 * next are guarded by the pool's lock. */
struct Fork {
    VqPartFn fn;
    void *arg;
    unsigned n;
    atomic_uint next;     /* the next part to take */
    unsigned running;     /* helpers picked up and not yet finished */
    pthread_cond_t idle;  /* running dropped to 0 */
};

struct VqThreadPool {
    pthread_mutex_t lock;
    pthread_cond_t wake;
    Task *head, *tail;
    int stop;
    unsigned n;
    pthread_t *threads;
    unsigned *index;
};

typedef struct WorkerArg {
    VqThreadPool *pool;
    unsigned worker;
} WorkerArg;

static void *worker_main(void *p)
{
    WorkerArg *wa = p;
    VqThreadPool *pool = wa->pool;
    unsigned worker = wa->worker;
    free(wa);
    pthread_mutex_lock(&pool->lock);
    for (;;) {
        while (!pool->head && !pool->stop)
            pthread_cond_wait(&pool->wake, &pool->lock);
        if (!pool->head)
            break;
        Task *t = pool->head;
        pool->head = t->next;
        if (!pool->head)
            pool->tail = NULL;
        Fork *f = t->fork;
        if (f)
            f->running++; /* before the lock is released: see the fork */
        pthread_mutex_unlock(&pool->lock);
        t->fn(t->arg, worker);
        VqTaskGroup *g = t->group;
        free(t);
        if (f) {
            pthread_mutex_lock(&pool->lock);
            if (!--f->running)
                pthread_cond_broadcast(&f->idle);
            continue;
        }
        pthread_mutex_lock(&g->lock);
        if (!--g->pending)
            pthread_cond_broadcast(&g->done);
        pthread_mutex_unlock(&g->lock);
        pthread_mutex_lock(&pool->lock);
    }
    pthread_mutex_unlock(&pool->lock);
    return NULL;
}

unsigned vq_cpu_count(void)
{
#ifdef CPU_COUNT
    cpu_set_t set;
    if (!sched_getaffinity(0, sizeof(set), &set) && CPU_COUNT(&set) > 0)
        return (unsigned)CPU_COUNT(&set);
#endif
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (unsigned)n : 1;
}

int vq_threadpool_open(VqThreadPool **out, unsigned n_threads)
{
    *out = NULL;
    VqThreadPool *pool = calloc(1, sizeof(*pool));
    if (!pool)
        return VQ_ENOMEM;
    pool->threads = calloc(n_threads, sizeof(*pool->threads));
    if (!pool->threads) {
        free(pool);
        return VQ_ENOMEM;
    }
    pthread_mutex_init(&pool->lock, NULL);
    pthread_cond_init(&pool->wake, NULL);
    for (unsigned i = 0; i < n_threads; i++) {
        WorkerArg *wa = malloc(sizeof(*wa));
        if (!wa)
            break;
        wa->pool = pool;
        wa->worker = i;
        if (pthread_create(&pool->threads[i], NULL, worker_main, wa)) {
            free(wa);
            break;
        }
        pool->n++;
    }
    *out = pool;
    if (pool->n != n_threads) {
        vq_threadpool_close(out);
        return VQ_ENOMEM;
    }
    return 0;
}

void vq_threadpool_close(VqThreadPool **ppool)
{
    VqThreadPool *pool = *ppool;
    if (!pool)
        return;
    pthread_mutex_lock(&pool->lock);
    pool->stop = 1;
    pthread_cond_broadcast(&pool->wake);
    pthread_mutex_unlock(&pool->lock);
    for (unsigned i = 0; i < pool->n; i++)
        pthread_join(pool->threads[i], NULL);
    pthread_mutex_destroy(&pool->lock);
    pthread_cond_destroy(&pool->wake);
    free(pool->threads);
    free(pool);
    *ppool = NULL;
}

unsigned vq_threadpool_size(const VqThreadPool *pool)
{
    return pool ? pool->n : 0;
}

void vq_taskgroup_init(VqTaskGroup *g)
{
    pthread_mutex_init(&g->lock, NULL);
    pthread_cond_init(&g->done, NULL);
    g->pending = 0;
}

void vq_taskgroup_destroy(VqTaskGroup *g)
{
    vq_taskgroup_wait(g);
    pthread_mutex_destroy(&g->lock);
    pthread_cond_destroy(&g->done);
}

int vq_threadpool_submit(VqThreadPool *pool, VqTaskGroup *g, VqTaskFn fn,
                         void *arg)
{
    Task *t = malloc(sizeof(*t));
    if (!t)
        return VQ_ENOMEM;
    t->fn = fn;
    t->arg = arg;
    t->group = g;
    t->fork = NULL;
    t->next = NULL;
    pthread_mutex_lock(&g->lock);
    g->pending++;
    pthread_mutex_unlock(&g->lock);
    pthread_mutex_lock(&pool->lock);
    if (pool->tail)
        pool->tail->next = t;
    else
        pool->head = t;
    pool->tail = t;
    pthread_cond_signal(&pool->wake);
    pthread_mutex_unlock(&pool->lock);
    return 0;
}

void vq_taskgroup_wait(VqTaskGroup *g)
{
    pthread_mutex_lock(&g->lock);
    while (g->pending)
        pthread_cond_wait(&g->done, &g->lock);
    pthread_mutex_unlock(&g->lock);
}

int vq_taskgroup_idle(VqTaskGroup *g)
{
    pthread_mutex_lock(&g->lock);
    int idle = !g->pending;
    pthread_mutex_unlock(&g->lock);
    return idle;
}

typedef struct ForArg {
    VqForFn fn;
    void *arg;
    unsigned i;
} ForArg;

static void for_task(void *p, unsigned worker)
{
    (void)worker;
    ForArg *fa = p;
    fa->fn(fa->arg, fa->i);
}

void vq_parallel_for(VqThreadPool *pool, unsigned n, VqForFn fn, void *arg)
{
    ForArg stack_args[64];
    ForArg *fa = n <= 64 ? stack_args : malloc(n * sizeof(*fa));
    if (!pool || n <= 1 || !fa) {
        for (unsigned i = 0; i < n; i++)
            fn(arg, i);
        if (fa != stack_args)
            free(fa);
        return;
    }
    VqTaskGroup g;
    vq_taskgroup_init(&g);
    for (unsigned i = 0; i < n; i++) {
        fa[i].fn = fn;
        fa[i].arg = arg;
        fa[i].i = i;
        if (vq_threadpool_submit(pool, &g, for_task, &fa[i]))
            fn(arg, i);
    }
    vq_taskgroup_destroy(&g);
    if (fa != stack_args)
        free(fa);
}

/* ---- fork ------------------------------------------------------------------ */

static void fork_parts(Fork *f, unsigned worker)
{
    for (;;) {
        unsigned i = atomic_fetch_add(&f->next, 1);
        if (i >= f->n)
            return;
        f->fn(f->arg, i, worker);
    }
}

static void fork_helper(void *arg, unsigned worker)
{
    fork_parts(arg, worker);
}

void vq_threadpool_fork(VqThreadPool *pool, unsigned self, unsigned n,
                        VqPartFn fn, void *arg)
{
    unsigned helpers = pool && n > 1 ? pool->n - 1 : 0;
    if (helpers > n - 1)
        helpers = n - 1;
    if (!helpers) {
        for (unsigned i = 0; i < n; i++)
            fn(arg, i, self);
        return;
    }
    Fork f;
    f.fn = fn;
    f.arg = arg;
    f.n = n;
    atomic_init(&f.next, 0);
    f.running = 0;
    pthread_cond_init(&f.idle, NULL);
    /* the helpers go to the front of the queue; without memory for one,
     * the caller does its share */
    Task *first = NULL, *last = NULL;
    for (unsigned k = 0; k < helpers; k++) {
        Task *t = malloc(sizeof(*t));
        if (!t)
            break;
        t->fn = fork_helper;
        t->arg = &f;
        t->group = NULL;
        t->fork = &f;
        t->next = first;
        first = t;
        if (!last)
            last = t;
    }
    if (first) {
        pthread_mutex_lock(&pool->lock);
        last->next = pool->head;
        pool->head = first;
        if (!pool->tail)
            pool->tail = last;
        pthread_cond_broadcast(&pool->wake);
        pthread_mutex_unlock(&pool->lock);
    }
    fork_parts(&f, self);
    /* Every part is taken: withdraw the helpers nobody picked up, then wait
     * for those running (a helper counts as running from the moment it
     * leaves the queue, under the lock). */
    pthread_mutex_lock(&pool->lock);
    Task **pp = &pool->head, *prev = NULL;
    while (*pp) {
        Task *t = *pp;
        if (t->fork == &f) {
            *pp = t->next;
            if (pool->tail == t)
                pool->tail = prev;
            free(t);
            continue;
        }
        prev = t;
        pp = &t->next;
    }
    while (f.running)
        pthread_cond_wait(&f.idle, &pool->lock);
    pthread_mutex_unlock(&pool->lock);
    pthread_cond_destroy(&f.idle);
}
