/*
 * A fixed pool of worker threads with a FIFO task queue. Tasks run in the
 * order they were queued (a task never waits on one queued after it, which
 * is what lets temporal extractors wait for their previous frame safely);
 * only the helpers of vq_threadpool_fork jump the queue, and they never
 * wait for anything.
 */
#ifndef VQHIP_THREADPOOL_H
#define VQHIP_THREADPOOL_H

#include <pthread.h>

typedef struct VqThreadPool VqThreadPool;

/* Tasks that can be waited for together. */
typedef struct VqTaskGroup {
    pthread_mutex_t lock;
    pthread_cond_t done;
    unsigned pending;
} VqTaskGroup;

typedef void (*VqTaskFn)(void *arg, unsigned worker);

int vq_threadpool_open(VqThreadPool **pool, unsigned n_threads);
void vq_threadpool_close(VqThreadPool **pool);
unsigned vq_threadpool_size(const VqThreadPool *pool);

void vq_taskgroup_init(VqTaskGroup *g);
void vq_taskgroup_destroy(VqTaskGroup *g);
/* Queues fn(arg, worker) as part of group g; returns 0 or VQ_ENOMEM. */
int vq_threadpool_submit(VqThreadPool *pool, VqTaskGroup *g, VqTaskFn fn,
                         void *arg);
void vq_taskgroup_wait(VqTaskGroup *g);
/* Nonzero when every task of g has finished. */
int vq_taskgroup_idle(VqTaskGroup *g);

/* Runs fn(arg, i) for i in [0, n) on the pool and waits; without a pool (or
 * for n == 1) on the calling thread. */
typedef void (*VqForFn)(void *arg, unsigned i);
void vq_parallel_for(VqThreadPool *pool, unsigned n, VqForFn fn, void *arg);

/* Runs fn(arg, part, worker) for every part in [0, n) and returns when all
 * have run; `worker` is the index of the thread that runs the part (self
 * for the calling thread, which must be worker `self` of the pool, or any
 * thread when pool is NULL: then every part runs on it, in order). The
 * caller runs parts too, and waits only for parts that other workers have
 * started: helper tasks go to the front of the queue, and those no worker
 * has picked up when the parts are all taken are withdrawn. So a fork
 * never waits for queued work, and may be called from inside a task.
 * Parts must not block on other tasks. */
typedef void (*VqPartFn)(void *arg, unsigned part, unsigned worker);
void vq_threadpool_fork(VqThreadPool *pool, unsigned self, unsigned n,
                        VqPartFn fn, void *arg);

/* Number of CPUs this process may run on (its affinity mask; at least 1). */
unsigned vq_cpu_count(void);

#endif
