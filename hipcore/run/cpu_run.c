#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "cpu_run.h"

#define VQ_ALIGN(x, a) (((x) + (a) - 1) & ~(size_t)((a) - 1))

typedef struct CpuSlot CpuSlot;

typedef struct CpuJob {
    VqCpuRun *run;
    CpuSlot *slot;
    unsigned fex;
} CpuJob;

struct CpuSlot {
    unsigned index;
    uint64_t mask;              /* extractors computing this frame */
    uint8_t *pix;               /* owned copy of the planes CPU extractors read */
    VqFrame ref, dis;           /* own_ref, own_dis, or the caller's (lent) */
    VqFrame own_ref, own_dis;   /* views of pix */
    void (*release)(void *);    /* lent planes: called when jobs_left is 0 */
    void *opaque;
    atomic_uint jobs_left;
    uint8_t *acc;
    int err[VQ_MAX_FEX];
    CpuJob job[VQ_MAX_FEX];
    VqTaskGroup group;
};

struct VqCpuRun {
    const VqRunEnv *env;
    VqThreadPool *pool;         /* NULL: inline */
    unsigned n_workers;
    void **scratch;             /* [fex * n_workers + worker] */
    void **part_scratch;        /* the same for vq_fex_parallel */
    size_t acc_size;            /* vq_acc_layout of the CPU extractors */
    unsigned planes;
    bool any;
    bool owned;                 /* frames are copied into the slots */
    CpuSlot *slot;
    unsigned n_slots, n_queued, n_done;
    pthread_mutex_t order_lock; /* temporal extractors' frame order */
    pthread_cond_t order_cond;
    unsigned next_index[VQ_MAX_FEX];
};

void vq_cpu_close(VqCpuRun **prun)
{
    VqCpuRun *run = *prun;
    if (!run)
        return;
    for (unsigned s = 0; s < run->n_slots; s++) {
        vq_taskgroup_destroy(&run->slot[s].group); /* waits for its tasks */
        free(run->slot[s].pix);
        free(run->slot[s].acc);
    }
    const VqFexList *fexs = run->env->fexs;
    for (unsigned i = 0; i < fexs->n; i++)
        if (fexs->fex[i]->cpu == run)
            fexs->fex[i]->cpu = NULL;
    free(run->slot);
    for (unsigned i = 0; run->scratch && i < VQ_MAX_FEX * run->n_workers; i++)
        free(run->scratch[i]);
    free(run->scratch);
    for (unsigned i = 0; run->part_scratch && i < VQ_MAX_FEX * run->n_workers;
         i++)
        free(run->part_scratch[i]);
    free(run->part_scratch);
    pthread_mutex_destroy(&run->order_lock);
    pthread_cond_destroy(&run->order_cond);
    free(run);
    *prun = NULL;
}

/* Copies hold the stored planes (FFmpeg's rounded-up chroma), so an
 * extractor may read the chroma column/row that the scored size drops. */
static size_t plane_row(const VqFormat *fmt, unsigned p)
{
    return (size_t)fmt->sw[p] * fmt->bytes_per_sample;
}

static int slot_open(VqCpuRun *run, CpuSlot *s)
{
    const VqFormat *fmt = run->env->fmt;
    size_t total = 0;
    for (unsigned k = 0; k < 2; k++)
        for (unsigned p = 0; p < fmt->n_planes; p++)
            if (run->planes & (1u << p))
                total += VQ_ALIGN(plane_row(fmt, p) * fmt->sh[p], 64);
    s->pix = malloc(total ? total : 1);
    s->acc = malloc(run->acc_size ? run->acc_size : 1);
    if (!s->pix || !s->acc)
        return VQ_ENOMEM;
    size_t off = 0;
    for (unsigned k = 0; k < 2; k++) {
        VqFrame *f = k ? &s->own_dis : &s->own_ref;
        for (unsigned p = 0; p < fmt->n_planes; p++) {
            if (!(run->planes & (1u << p)))
                continue;
            f->plane[p].data = s->pix + off;
            f->plane[p].stride = (ptrdiff_t)plane_row(fmt, p);
            f->plane[p].w = fmt->w[p];
            f->plane[p].h = fmt->h[p];
            off += VQ_ALIGN(plane_row(fmt, p) * fmt->sh[p], 64);
        }
    }
    return 0;
}

int vq_cpu_open(VqCpuRun **prun, const VqRunEnv *env, VqThreadPool *pool)
{
    const VqFexList *fexs = env->fexs;
    VqCpuRun *run = calloc(1, sizeof(*run));
    *prun = run;
    if (!run)
        return vq_fail(env->err, VQ_ENOMEM, "out of memory");
    run->env = env;
    pthread_mutex_init(&run->order_lock, NULL);
    pthread_cond_init(&run->order_cond, NULL);
    for (unsigned i = 0; i < fexs->n; i++) {
        VqFex *fex = fexs->fex[i];
        if (fex->on_gpu)
            continue;
        run->any = true;
        run->planes |= fex->planes;
    }
    run->acc_size = vq_acc_layout(fexs->fex, fexs->n, false);
    run->pool = pool;
    run->n_workers = run->pool ? vq_threadpool_size(run->pool) : 1;
    run->scratch = calloc((size_t)VQ_MAX_FEX * run->n_workers, sizeof(void *));
    run->part_scratch =
        calloc((size_t)VQ_MAX_FEX * run->n_workers, sizeof(void *));
    if (!run->scratch || !run->part_scratch)
        return vq_fail(env->err, VQ_ENOMEM, "out of memory");
    for (unsigned i = 0; i < fexs->n; i++) {
        VqFex *fex = fexs->fex[i];
        fex->cpu = run;
        fex->cpu_index = i;
        for (unsigned w = 0; !fex->on_gpu && w < run->n_workers; w++) {
            size_t size[2] = { fex->scratch_size, fex->part_scratch_size };
            void **p[2] = { &run->scratch[i * run->n_workers + w],
                            &run->part_scratch[i * run->n_workers + w] };
            for (unsigned k = 0; k < 2; k++) {
                if (!size[k])
                    continue;
                *p[k] = aligned_alloc(64, VQ_ALIGN(size[k], 64));
                if (!*p[k])
                    return vq_fail(env->err, VQ_ENOMEM, "out of memory");
            }
        }
    }
    /* frames in flight: one per worker and two more, so that workers find
     * the next frame while one is being finalized (extractors that split
     * a frame into parts keep all workers busy with fewer) */
    run->n_slots = run->pool ? run->n_workers + 2 : 1;
    run->slot = calloc(run->n_slots, sizeof(*run->slot));
    if (!run->slot)
        return vq_fail(env->err, VQ_ENOMEM, "out of memory");
    /* Inline runs read the caller's planes in place, unless they must be
     * converted (semi-planar, high-bit samples) into the slot first. */
    run->owned = run->pool || vq_format_converts(env->fmt);
    for (unsigned s = 0; s < run->n_slots; s++) {
        vq_taskgroup_init(&run->slot[s].group);
        if (run->owned && run->any && slot_open(run, &run->slot[s]))
            return vq_fail(env->err, VQ_ENOMEM, "out of memory");
    }
    if (!run->pool && !run->owned) {
        run->slot[0].acc = malloc(run->acc_size ? run->acc_size : 1);
        if (!run->slot[0].acc)
            return vq_fail(env->err, VQ_ENOMEM, "out of memory");
    }
    return 0;
}

int vq_cpu_reopen(VqCpuRun **prun)
{
    const VqRunEnv *env = (*prun)->env;
    VqThreadPool *pool = (*prun)->pool;
    vq_cpu_close(prun);
    return vq_cpu_open(prun, env, pool);
}

/* The pool worker running on this thread (0 without a pool), and the
 * extractor whose CPU-run job it is running (NULL outside one). */
static _Thread_local unsigned tl_worker;
static _Thread_local const VqFex *tl_fex;

typedef struct PartJob {
    VqFexPartFn fn;
    void *arg;
    void *const *scratch; /* per worker */
} PartJob;

static void run_part(void *arg, unsigned part, unsigned worker)
{
    const PartJob *pj = arg;
    pj->fn(pj->arg, part, pj->scratch[worker]);
}

int vq_fex_parallel(VqFex *fex, unsigned n, VqFexPartFn fn, void *arg)
{
    VqCpuRun *run = fex->cpu;
    if (!run || tl_fex != fex) {
        /* an extractor driven outside its CPU run's jobs (tests without a
         * context, the fake device, verify=, a fallback's warm-up): the
         * parts run here, one after the other, on scratch of their own */
        size_t size = VQ_ALIGN(fex->part_scratch_size ? fex->part_scratch_size : 1,
                               64);
        void *scratch = aligned_alloc(64, size);
        if (!scratch)
            return VQ_ENOMEM;
        for (unsigned i = 0; i < n; i++)
            fn(arg, i, scratch);
        free(scratch);
        return 0;
    }
    PartJob pj = { fn, arg, run->part_scratch + fex->cpu_index * run->n_workers };
    vq_threadpool_fork(run->pool, tl_worker, n, run_part, &pj);
    return 0;
}

unsigned vq_fex_threads(const VqFex *fex)
{
    /* outside its CPU run's jobs an extractor takes its whole-frame path */
    return fex->cpu && tl_fex == fex ? fex->cpu->n_workers : 1;
}

unsigned vq_fex_bands(const VqFex *fex, unsigned rows, unsigned band_rows,
                      unsigned max_parts)
{
    unsigned threads = vq_fex_threads(fex);
    unsigned n = threads < 2 ? 1 : rows / band_rows;
    if (n > 2 * threads)
        n = 2 * threads;
    if (n > max_parts)
        n = max_parts;
    return n ? n : 1;
}

static void run_job(void *arg, unsigned worker)
{
    tl_worker = worker;
    CpuJob *job = arg;
    VqCpuRun *run = job->run;
    CpuSlot *s = job->slot;
    VqFex *fex = run->env->fexs->fex[job->fex];
    bool temporal = fex->desc->flags & VQ_FEX_TEMPORAL;
    if (temporal) {
        pthread_mutex_lock(&run->order_lock);
        while (run->next_index[job->fex] != s->index)
            pthread_cond_wait(&run->order_cond, &run->order_lock);
        pthread_mutex_unlock(&run->order_lock);
    }
    uint8_t *acc = s->acc + fex->acc_off;
    memset(acc, 0, fex->acc_size);
    tl_fex = fex;
    s->err[job->fex] = fex->desc->cpu_run(
        fex, &s->ref, &s->dis, s->index, acc,
        run->scratch[job->fex * run->n_workers + worker]);
    tl_fex = NULL;
    if (temporal) {
        pthread_mutex_lock(&run->order_lock);
        run->next_index[job->fex] = s->index + 1;
        pthread_cond_broadcast(&run->order_cond);
        pthread_mutex_unlock(&run->order_lock);
    }
    /* the last job of a frame on lent planes gives them back */
    if (s->release && atomic_fetch_sub(&s->jobs_left, 1) == 1)
        s->release(s->opaque);
}

static int finalize_slot(VqCpuRun *run, CpuSlot *s)
{
    const VqFexList *fexs = run->env->fexs;
    for (unsigned i = 0; i < fexs->n; i++) {
        VqFex *fex = fexs->fex[i];
        if (fex->on_gpu || !(s->mask >> i & 1))
            continue;
        if (vq_env_runs_on(run->env, fex, s->index)) {
            if (s->err[i])
                return s->err[i];
            int err = fex->desc->finalize(fex, s->acc + fex->acc_off, s->index);
            if (err)
                return err;
        }
        fex->n_finalized++;
    }
    return 0;
}

int vq_cpu_collect(VqCpuRun *run, bool wait)
{
    while (run->n_done < run->n_queued) {
        CpuSlot *s = &run->slot[run->n_done % run->n_slots];
        if (!wait && !vq_taskgroup_idle(&s->group))
            return 0;
        vq_taskgroup_wait(&s->group);
        run->n_done++;
        int err = finalize_slot(run, s);
        if (err)
            return err;
    }
    return 0;
}

static void copy_frame(VqCpuRun *run, VqFrame *dst, const VqFrame *src)
{
    const VqFormat *fmt = run->env->fmt;
    for (unsigned p = 0; p < fmt->n_planes; p++) {
        if (!(run->planes & (1u << p)))
            continue;
        size_t row = plane_row(fmt, p);
        if (vq_format_converts(fmt)) {
            vq_frame_convert_plane(fmt, src, p, (uint8_t *)dst->plane[p].data,
                                   row);
            continue;
        }
        uint8_t *d = (uint8_t *)dst->plane[p].data;
        const uint8_t *sp = src->plane[p].data;
        for (unsigned y = 0; y < fmt->sh[p]; y++)
            memcpy(d + y * row, sp + (ptrdiff_t)y * src->plane[p].stride, row);
    }
}

void vq_cpu_set_next(VqCpuRun *run, unsigned i, unsigned index)
{
    run->next_index[i] = index;
}

int vq_cpu_warm(VqCpuRun *run, unsigned i, const VqFrame *ref,
                const VqFrame *dis, unsigned index)
{
    CpuSlot *s = &run->slot[0];
    VqFex *fex = run->env->fexs->fex[i];
    if (run->owned) {
        s->ref = s->own_ref;
        s->dis = s->own_dis;
        copy_frame(run, &s->ref, ref);
        copy_frame(run, &s->dis, dis);
    } else {
        s->ref = *ref;
        s->dis = *dis;
    }
    s->release = NULL;
    uint8_t *acc = s->acc + fex->acc_off;
    memset(acc, 0, fex->acc_size);
    int err = fex->desc->cpu_run(fex, &s->ref, &s->dis, index, acc,
                                 run->scratch[i * run->n_workers]);
    run->next_index[i] = index + 1;
    return err;
}

/* Whether extractor i is in mask and computes frame index on the CPU. */
static bool job_runs(VqCpuRun *run, unsigned i, unsigned index, uint64_t mask)
{
    const VqFex *fex = run->env->fexs->fex[i];
    return (mask >> i & 1) && !fex->on_gpu &&
           vq_env_runs_on(run->env, fex, index);
}

static int submit_masked(VqCpuRun *run, const VqFrame *ref, const VqFrame *dis,
                         unsigned index, uint64_t mask,
                         void (*release)(void *), void *opaque, bool *taken)
{
    const VqFexList *fexs = run->env->fexs;
    bool frames = ref && dis;
    unsigned n_jobs = 0;
    for (unsigned i = 0; i < fexs->n; i++)
        n_jobs += job_runs(run, i, index, mask);
    if (!frames && n_jobs)
        return vq_fail(run->env->err, VQ_ESTATE, "frame %u has no pixels",
                       index);
    if (!run->any) {
        for (unsigned i = 0; i < fexs->n; i++)
            if (!fexs->fex[i]->on_gpu && (mask >> i & 1))
                fexs->fex[i]->n_finalized++;
        return 0;
    }
    if (!run->pool) {
        CpuSlot *s = &run->slot[0];
        s->index = index;
        s->mask = mask;
        s->release = NULL;
        if (!frames) {
            /* nothing to compute: only the frame count moves */
        } else if (run->owned) {
            s->ref = s->own_ref;
            s->dis = s->own_dis;
            copy_frame(run, &s->ref, ref);
            copy_frame(run, &s->dis, dis);
        } else {
            s->ref = *ref;
            s->dis = *dis;
        }
        for (unsigned i = 0; i < fexs->n; i++) {
            s->err[i] = 0;
            if (!job_runs(run, i, index, mask))
                continue;
            CpuJob job = { run, s, i };
            run_job(&job, 0);
        }
        return finalize_slot(run, s);
    }
    /* Reuse the oldest slot once its frame is finalized. */
    if (run->n_queued - run->n_done == run->n_slots) {
        CpuSlot *old = &run->slot[run->n_done % run->n_slots];
        vq_taskgroup_wait(&old->group);
        run->n_done++;
        int err = finalize_slot(run, old);
        if (err)
            return err;
    }
    CpuSlot *s = &run->slot[run->n_queued % run->n_slots];
    s->index = index;
    s->mask = mask;
    s->release = NULL;
    for (unsigned i = 0; i < fexs->n; i++)
        s->err[i] = 0;
    if (release && n_jobs && !vq_format_converts(run->env->fmt)) {
        /* lent planes: read in place, given back by the last job */
        s->ref = *ref;
        s->dis = *dis;
        s->release = release;
        s->opaque = opaque;
        atomic_store(&s->jobs_left, n_jobs);
        *taken = true;
    } else if (frames) {
        s->ref = s->own_ref;
        s->dis = s->own_dis;
        copy_frame(run, &s->ref, ref);
        copy_frame(run, &s->dis, dis);
    }
    run->n_queued++;
    for (unsigned i = 0; i < fexs->n; i++) {
        if (!job_runs(run, i, index, mask))
            continue;
        s->job[i] = (CpuJob){ run, s, i };
        if (vq_threadpool_submit(run->pool, &s->group, run_job, &s->job[i])) {
            /* jobs not queued never finish: count them as done */
            for (unsigned k = i; k < fexs->n; k++)
                if (s->release && job_runs(run, k, index, mask) &&
                    atomic_fetch_sub(&s->jobs_left, 1) == 1)
                    s->release(s->opaque);
            return vq_fail(run->env->err, VQ_ENOMEM, "out of memory");
        }
    }
    return 0;
}

int vq_cpu_submit(VqCpuRun *run, const VqFrame *ref, const VqFrame *dis,
                  unsigned index, void (*release)(void *), void *opaque,
                  bool *taken)
{
    *taken = false;
    return submit_masked(run, ref, dis, index, UINT64_MAX, release, opaque,
                         taken);
}

int vq_cpu_submit_mask(VqCpuRun *run, const VqFrame *ref, const VqFrame *dis,
                       unsigned index, uint64_t mask)
{
    bool taken = false;
    return submit_masked(run, ref, dis, index, mask, NULL, NULL, &taken);
}

bool vq_cpu_active(const VqCpuRun *run)
{
    return run && run->any;
}
