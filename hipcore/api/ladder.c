/*
 * A ladder: one reference, several distorted renditions, one context per
 * rendition (docs/LADDER.md). The pictures come in through the ladder
 * only, so every rendition sees the same reference pictures in the same
 * order: the invariant that lets work depending on the reference alone be
 * done once for all of them. Before the first frame every rendition's run
 * is started, and each extractor whose reference work can be shared
 * (VQ_FEX_REF_SHARED) and that every rendition computes on the CPU gets a
 * share (core/refshare.h) that its renditions' instances compute through.
 * Frame indices stay in step: a frame goes to every rendition still in
 * the ladder, and once one took it a refusal by another stops the ladder.
 */
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "context.h"
#include "core/refcache.h"
#include "ladder_cpu.h"
#include "ladder_gpu.h"
#include "core/refshare.h"

struct VqLadder {
    VqContext **ctx;
    bool *ended;
    unsigned n;
    bool checked;   /* the renditions were found to agree */
    bool failed;    /* a submit failed part way: renditions out of step */
    bool attached;  /* the runs started and the shares made */
    VqRefShare *share[VQ_MAX_FEX]; /* per selected extractor, NULL: none */
    VqRefCache *cache[VQ_MAX_FEX]; /* the same, VQ_FEX_REF_PRODUCT's */
    VqLadderCpu cpu;               /* the passes that compute every
                                      rendition's frame at once */
    VqLadderGpu gpu;               /* the reference staged once on the GPU */
    VqThreadPool *pool;            /* with it: the renditions' submits side
                                      by side (submit_parallel) */
    char err[1024]; /* vq_ladder_last_error */
};

static int fail(VqLadder *l, int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(l->err, sizeof(l->err), fmt, ap);
    va_end(ap);
    return code;
}

/* A rendition's own failure, with its message, as the ladder's. */
static int fail_from(VqLadder *l, unsigned i, int code)
{
    const char *why = vq_last_error(l->ctx[i]);
    return fail(l, code, "rendition %u: %s", i + 1,
                *why ? why : vq_strerror(code));
}

int vq_ladder_open(VqLadder **pl, const VqConfig *cfg, unsigned n)
{
    if (!pl)
        return VQ_EINVAL;
    VqLadder *l = calloc(1, sizeof(*l));
    *pl = l;
    if (!l)
        return VQ_ENOMEM;
    if (n < 1 || n > VQ_LADDER_MAX)
        return fail(l, VQ_EINVAL, "a ladder has 1 to %d renditions, not %u",
                    VQ_LADDER_MAX, n);
    l->ctx = calloc(n, sizeof(*l->ctx));
    l->ended = calloc(n, sizeof(*l->ended));
    if (!l->ctx || !l->ended)
        return fail(l, VQ_ENOMEM, "out of memory");
    l->n = n;
    for (unsigned i = 0; i < n; i++) {
        int r = vq_open(&l->ctx[i], cfg);
        if (l->ctx[i]) {
            l->ctx[i]->ladder = l;
            l->ctx[i]->ladder_index = i;
        }
        if (r)
            return l->ctx[i] ? fail_from(l, i, r)
                             : fail(l, r, "rendition %u: out of memory", i + 1);
    }
    return 0;
}

void vq_ladder_close(VqLadder **pl)
{
    if (!pl || !*pl)
        return;
    VqLadder *l = *pl;
    vq_ladder_gpu_stop(&l->gpu);
    vq_threadpool_close(&l->pool);
    for (unsigned i = 0; l->ctx && i < l->n; i++) {
        if (!l->ctx[i])
            continue;
        l->ctx[i]->ladder = NULL; /* now vq_close closes it */
        vq_close(&l->ctx[i]);
    }
    vq_ladder_gpu_close(&l->gpu); /* no rendition holds its pictures now */
    vq_ladder_cpu_close(&l->cpu);
    for (unsigned k = 0; k < VQ_MAX_FEX; k++) {
        vq_refshare_close(&l->share[k]);
        vq_refcache_close(&l->cache[k]);
    }
    free(l->ctx);
    free(l->ended);
    free(l);
    *pl = NULL;
}

unsigned vq_ladder_count(const VqLadder *l)
{
    return l ? l->n : 0;
}

VqContext *vq_ladder_context(VqLadder *l, unsigned i)
{
    return l && i < l->n ? l->ctx[i] : NULL;
}

const char *vq_ladder_last_error(const VqLadder *l)
{
    return l ? l->err : "no ladder";
}

int vq_ladder_ended(const VqLadder *l, unsigned i)
{
    return l && i < l->n && l->ended[i];
}

/* Whether rendition i selected what rendition 0 did: the same extractors
 * with the same options and the same models, in the same order (so that
 * any reference-only work is the same work for both). */
static int check_same_selection(VqLadder *l, unsigned i)
{
    const VqSelection *a = &l->ctx[0]->sel, *b = &l->ctx[i]->sel;
    if (a->fexs.n != b->fexs.n)
        return fail(l, VQ_EINVAL, "rendition %u selects %u feature extractors, "
                    "rendition 1 %u: every rendition of a ladder selects the "
                    "same features and models", i + 1, b->fexs.n, a->fexs.n);
    for (unsigned k = 0; k < a->fexs.n; k++) {
        const VqFex *x = a->fexs.fex[k], *y = b->fexs.fex[k];
        if (x->desc != y->desc || !vq_fex_same_options(x, y))
            return fail(l, VQ_EINVAL, "rendition %u: feature extractor %u is "
                        "%s with other options than rendition 1's %s: every "
                        "rendition of a ladder selects the same features and "
                        "models", i + 1, k + 1, y->desc->name, x->desc->name);
    }
    if (a->n_model != b->n_model)
        return fail(l, VQ_EINVAL, "rendition %u selects %u models, rendition 1 "
                    "%u: every rendition of a ladder selects the same features "
                    "and models", i + 1, b->n_model, a->n_model);
    for (unsigned k = 0; k < a->n_model; k++) {
        VqModelOrigin x, y;
        vq_model_origin(a->model[k], &x);
        vq_model_origin(b->model[k], &y);
        if (strcmp(x.spec, y.spec) || strcmp(x.sha256, y.sha256))
            return fail(l, VQ_EINVAL, "rendition %u: model %u is '%s', "
                        "rendition 1's '%s': every rendition of a ladder "
                        "selects the same features and models", i + 1, k + 1,
                        y.spec, x.spec);
    }
    return 0;
}

static int check_selections(VqLadder *l)
{
    if (l->checked)
        return 0;
    for (unsigned i = 1; i < l->n; i++) {
        int r = check_same_selection(l, i);
        if (r)
            return r;
    }
    l->checked = true;
    return 0;
}

int vq_ladder_configure(VqLadder *l, const VqPicture *geometry)
{
    if (!l || !geometry)
        return VQ_EINVAL;
    int r = check_selections(l);
    for (unsigned i = 0; !r && i < l->n; i++) {
        r = vq_configure(l->ctx[i], geometry);
        if (r)
            return fail_from(l, i, r);
    }
    return r;
}

static const char *fmt_name(VqPixFmt f)
{
    static const char *const names[] = { "gray", "420", "422", "444", "nv12",
                                         "nv16", "nv24", "p010", "p210",
                                         "p410" };
    return (unsigned)f < sizeof(names) / sizeof(names[0]) ? names[f] : "?";
}

/* Every rendition still running has a distorted picture of the
 * reference's format, depth and size. */
static int check_pictures(VqLadder *l, const VqPicture *ref,
                          const VqPicture *const *dis)
{
    if (!ref || !dis)
        return fail(l, VQ_EINVAL, "no reference picture or no distorted list");
    for (unsigned i = 0; i < l->n; i++) {
        if (l->ended[i])
            continue;
        const VqPicture *d = dis[i];
        if (!d)
            return fail(l, VQ_EINVAL, "rendition %u: no distorted picture "
                        "(end the rendition with vq_ladder_end)", i + 1);
        if (d->fmt != ref->fmt || d->bpc != ref->bpc || d->w != ref->w ||
            d->h != ref->h)
            return fail(l, VQ_EINVAL, "rendition %u is %ux%u %s at %u bits, "
                        "the reference %ux%u %s at %u bits: every rendition "
                        "must have the reference's size, format and bit depth "
                        "(scale it back to the reference's first)", i + 1,
                        d->w, d->h, fmt_name(d->fmt), d->bpc, ref->w, ref->h,
                        fmt_name(ref->fmt), ref->bpc);
    }
    return 0;
}

/* Whether every rendition still in the ladder computes extractor k,
 * reference-shareable (flag: VQ_FEX_REF_SHARED or VQ_FEX_REF_PRODUCT), on
 * the CPU (after the runs started: on_gpu is known; one that ended before
 * the first frame never started, and takes no frame). f0: the first
 * running rendition's extractors. */
static bool shareable(const VqLadder *l, const VqFexList *f0, unsigned k,
                      unsigned flag)
{
    const VqFexDesc *d = f0->fex[k]->desc;
    if (!(d->flags & flag) ||
        (flag == VQ_FEX_REF_SHARED && !d->ref_state_free) ||
        (flag == VQ_FEX_REF_PRODUCT && !d->ref_product_size &&
         !d->ladder_run))
        return false;
    for (unsigned i = 0; i < l->n; i++) {
        const VqFexList *f = &l->ctx[i]->sel.fexs;
        if (!l->ended[i] &&
            (f->n != f0->n || f->fex[k]->desc != d || f->fex[k]->on_gpu))
            return false;
    }
    return true;
}

/* Products kept at most per extractor: a few frames per rendition in
 * flight, within a memory budget (a 1080p ADM product is about 11 MB,
 * ssimulacra2's 100 MB), one at least; fewer slots cost recomputation,
 * never a different value. */
#define CACHE_BYTES ((size_t)512 << 20)
#define CACHE_SLOTS_MAX 32

/* Extractor k's cache to every running rendition's instance (an ended
 * one takes no frames). */
static void hand_cache(VqLadder *l, unsigned k)
{
    for (unsigned i = 0; i < l->n; i++) {
        if (l->ended[i]) {
            vq_refcache_leave(l->cache[k], i);
            continue;
        }
        VqFex *fex = l->ctx[i]->sel.fexs.fex[k];
        fex->cache = l->cache[k];
        fex->share_user = i;
    }
}

/* Extractor k's product cache, when its frames are large enough. */
static int attach_cache(VqLadder *l, unsigned k, const VqFex *x)
{
    size_t bytes = x->desc->ref_product_size(x);
    if (!bytes)
        return 0;
    size_t slots = CACHE_BYTES / bytes;
    slots = slots < 1 ? 1 : slots > CACHE_SLOTS_MAX ? CACHE_SLOTS_MAX : slots;
    if (vq_refcache_open(&l->cache[k], l->n, bytes, (unsigned)slots))
        return VQ_ENOMEM;
    return 0;
}

/* Before the first frame: every rendition's run started, then the shares
 * of reference work (at least two renditions). */
static int attach_shares(VqLadder *l, const VqPicture *ref,
                         const VqPicture *const *dis)
{
    for (unsigned i = 0; i < l->n; i++) {
        if (l->ended[i])
            continue;
        int r = vq_pipeline_begin(&l->ctx[i]->run, ref, dis[i]);
        if (r)
            return fail_from(l, i, r);
    }
    l->attached = true;
    unsigned first = 0, running = 0;
    for (unsigned i = l->n; i-- > 0;)
        if (!l->ended[i]) {
            first = i;
            running++;
        }
    const VqFexList *f0 = &l->ctx[first]->sel.fexs;
    for (unsigned k = 0; running > 1 && k < f0->n; k++) {
        if (shareable(l, f0, k, VQ_FEX_REF_PRODUCT)) {
            int r = f0->fex[k]->desc->ladder_run
                        ? vq_ladder_cpu_attach(&l->cpu, l->ctx, l->ended, l->n,
                                               k, &l->cache[k])
                        : attach_cache(l, k, f0->fex[k]);
            if (r)
                return fail(l, r, "out of memory");
            if (l->cache[k])
                hand_cache(l, k);
        }
        if (!shareable(l, f0, k, VQ_FEX_REF_SHARED))
            continue;
        const VqFex *x = f0->fex[k];
        if (vq_refshare_open(&l->share[k], l->n, x->acc_size,
                             x->desc->ref_state_free))
            return fail(l, VQ_ENOMEM, "out of memory");
        for (unsigned i = 0; i < l->n; i++) {
            if (l->ended[i]) {
                vq_refshare_leave(l->share[k], i);
                continue;
            }
            VqFex *fex = l->ctx[i]->sel.fexs.fex[k];
            fex->share = l->share[k];
            fex->share_user = i;
        }
    }
    vq_ladder_gpu_attach(&l->gpu, l->ctx, l->ended, l->n);
    /* VQHIP_LADDER_THREADS=0: one thread submits them in turn */
    const char *env = getenv("VQHIP_LADDER_THREADS");
    if (l->gpu.stage && running > 1 && !(env && !strcmp(env, "0")) &&
        vq_threadpool_open(&l->pool, running))
        l->pool = NULL; /* in turn, then */
    /* side by side, each rendition copies its picture on its submitting
     * thread: N copies at once, not N pools of threads on the cores */
    for (unsigned i = 0; l->pool && i < l->n; i++)
        if (!l->ended[i] && l->ctx[i]->run.gpu_run.staging)
            l->ctx[i]->run.gpu_run.staging->pool = NULL;
    return 0;
}

/* The caller's release, once every rendition is done with the pictures:
 * one count per rendition submitted to, plus the submitting call's own. */
typedef struct Shared {
    atomic_uint left;
    VqReleaseFn release;
    void *opaque;
} Shared;

static void shared_release(void *opaque)
{
    Shared *s = opaque;
    if (atomic_fetch_sub(&s->left, 1) == 1) {
        s->release(s->opaque);
        free(s);
    }
}

/* One rendition's submit of a frame (on the calling thread or, for a
 * ladder on the GPU, on the ladder's pool). */
typedef struct SubmitJob {
    VqLadder *l;
    const VqPicture *ref;
    const VqPicture *const *dis;
    Shared *sh;
    int r[VQ_LADDER_MAX];
} SubmitJob;

static void submit_one(void *arg, unsigned i)
{
    SubmitJob *job = arg;
    VqContext *ctx = job->l->ctx[i];
    if (job->l->ended[i])
        return;
    ctx->ladder_submitting = true;
    job->r[i] = job->sh ? vq_submit_retained(ctx, job->ref, job->dis[i],
                                             shared_release, job->sh)
                        : vq_submit(ctx, job->ref, job->dis[i]);
    ctx->ladder_submitting = false;
}

/* The renditions' submits side by side: on the GPU each one's copy of its
 * distorted picture into pinned memory and its enqueueing take longer
 * than its kernels, so one thread submitting them in turn bounds the
 * ladder. Each context's work stays on its own threads and streams; the
 * shares are made for racing renditions. */
static int submit_parallel(VqLadder *l, SubmitJob *job)
{
    unsigned running = 0;
    for (unsigned i = 0; i < l->n; i++)
        running += !l->ended[i];
    if (job->sh)
        atomic_fetch_add(&job->sh->left, running);
    vq_parallel_for(l->pool, l->n, submit_one, job);
    bool took = false;
    int r = 0;
    unsigned bad = 0;
    for (unsigned i = 0; i < l->n; i++) {
        if (l->ended[i])
            continue;
        took = took || !job->r[i];
        if (job->r[i] && !r) {
            r = job->r[i];
            bad = i;
        }
    }
    if (r) {
        l->failed = took; /* others took the frame: out of step */
        r = fail_from(l, bad, r);
    }
    return r;
}

static int submit(VqLadder *l, const VqPicture *ref,
                  const VqPicture *const *dis, Shared *sh)
{
    if (l->failed)
        return fail(l, VQ_ESTATE, "an earlier error stopped this ladder");
    int r = check_selections(l);
    if (!r)
        r = check_pictures(l, ref, dis);
    if (!r && !l->attached)
        r = attach_shares(l, ref, dis);
    if (!r)
        vq_ladder_gpu_stage(&l->gpu, l->ctx, l->ended, l->n, ref);
    if (!r)
        vq_ladder_cpu_pass(&l->cpu, l->ctx, l->ended, l->n, l->cache, ref,
                           dis);
    SubmitJob job = { l, ref, dis, sh, { 0 } };
    if (!r && l->pool) {
        r = submit_parallel(l, &job);
        vq_ladder_gpu_unused(&l->gpu, l->ctx, l->n);
        return r;
    }
    bool took = false;
    for (unsigned i = 0; !r && i < l->n; i++) {
        if (l->ended[i])
            continue;
        if (sh)
            atomic_fetch_add(&sh->left, 1);
        submit_one(&job, i);
        r = job.r[i];
        took = took || !r;
        if (r) {
            l->failed = took; /* renditions before i took the frame */
            r = fail_from(l, i, r);
        }
    }
    vq_ladder_gpu_unused(&l->gpu, l->ctx, l->n);
    return r;
}

int vq_ladder_submit(VqLadder *l, const VqPicture *ref,
                     const VqPicture *const *dis)
{
    return l ? submit(l, ref, dis, NULL) : VQ_EINVAL;
}

int vq_ladder_submit_retained(VqLadder *l, const VqPicture *ref,
                              const VqPicture *const *dis,
                              VqReleaseFn release, void *opaque)
{
    if (!release)
        return vq_ladder_submit(l, ref, dis);
    Shared *sh = l ? malloc(sizeof(*sh)) : NULL;
    if (!sh) {
        release(opaque);
        return l ? fail(l, VQ_ENOMEM, "out of memory") : VQ_EINVAL;
    }
    atomic_init(&sh->left, 1);
    sh->release = release;
    sh->opaque = opaque;
    int r = submit(l, ref, dis, sh);
    shared_release(sh); /* this call's own count */
    return r;
}

int vq_ladder_end(VqLadder *l, unsigned i)
{
    if (!l || i >= l->n)
        return VQ_EINVAL;
    if (l->ended[i])
        return 0;
    l->ended[i] = true;
    int r = vq_flush(l->ctx[i]);
    /* its frames are all computed: the shares keep nothing for it */
    for (unsigned k = 0; k < VQ_MAX_FEX; k++) {
        if (l->share[k])
            vq_refshare_leave(l->share[k], i);
        if (l->cache[k])
            vq_refcache_leave(l->cache[k], i);
    }
    return r ? fail_from(l, i, r) : 0;
}

int vq_ladder_share_info(const VqLadder *l, VqLadderShare *info)
{
    if (!l || !info)
        return VQ_EINVAL;
    memset(info, 0, sizeof(*info));
    for (unsigned k = 0; k < VQ_MAX_FEX; k++) {
        if (!l->share[k] && !l->cache[k])
            continue;
        uint64_t computed, used;
        if (l->share[k])
            vq_refshare_counts(l->share[k], &computed, &used);
        else
            vq_refcache_counts(l->cache[k], &computed, &used);
        info->extractors++;
        info->computed += computed;
        info->used += used;
    }
    if (l->gpu.stage) {
        uint64_t records, products;
        unsigned n_fex = vq_ref_stage_fex_count(l->gpu.stage) +
                         vq_ref_stage_product_count(l->gpu.stage);
        vq_ref_stage_counts(l->gpu.stage, &info->gpu_staged,
                            &info->gpu_staged_used, &records, &products);
        info->extractors += n_fex;
        info->computed += info->gpu_staged * n_fex;
        info->used += records + products;
    }
    return 0;
}

int vq_ladder_flush(VqLadder *l)
{
    if (!l)
        return VQ_EINVAL;
    int first = 0;
    for (unsigned i = 0; i < l->n; i++) {
        int r = vq_ladder_end(l, i);
        if (r && !first)
            first = r; /* the others are still flushed */
    }
    return first;
}
