/*
 * A device error in the middle of a run (a failed launch or copy, a hung
 * kernel caught by the watchdog, a lost device): unless strict=1, every
 * extractor that ran on the GPU goes on on the CPU, from the oldest frame
 * whose GPU results were not read yet. Those frames are recomputed from
 * the host copies the staging slots hold; a temporal extractor's CPU state
 * is rebuilt from the frames before them, which the slot ring also keeps.
 * No frame is finalized twice or skipped: the GPU extractors finalized
 * frames [0, first) and the CPU takes [first, ...).
 */
#include <stdio.h>
#include <string.h>

#include "fallback.h"

/* The held host frames of a slot. */
static void held_frames(const VqStaging *st, const VqSlot *slot, VqFrame *r,
                        VqFrame *d)
{
    vq_staging_held_frame(st, slot, 0, r);
    vq_staging_held_frame(st, slot, 1, d);
}

/* Checks that every frame the CPU needs is held; fills the in-flight list
 * (oldest first). */
static int gather(const VqRunEnv *env, VqGpuRun *g, uint64_t mask,
                  unsigned first, VqSlot **fl, unsigned *n_fl)
{
    VqStaging *st = g->staging;
    *n_fl = 0;
    for (unsigned k = 0; k < st->depth; k++) {
        VqSlot *s = &st->slot[(g->next_slot + k) % st->depth];
        if (!s->busy)
            continue;
        if (s->has_work && !s->held)
            return vq_fail(env->err, VQ_EDEVICE, "frame %u was uploaded "
                           "straight from pinned or device memory and has no "
                           "host copy to be recomputed from", s->index);
        fl[(*n_fl)++] = s;
    }
    for (unsigned i = 0; i < env->fexs->n; i++) {
        const VqFex *fex = env->fexs->fex[i];
        if (!(mask >> i & 1) || !(fex->desc->flags & VQ_FEX_TEMPORAL))
            continue;
        for (unsigned j = first > fex->lag ? first - fex->lag : 0; j < first;
             j++)
            if (!vq_staging_held_slot(st, j))
                return vq_fail(env->err, VQ_EDEVICE, "%s's state needs "
                               "frame %u, which has no host copy",
                               fex->desc->name, j);
    }
    return 0;
}

/* The CPU run again, now with every extractor; temporal ones that come from
 * the GPU see the frames before `first` once. */
static int reopen_cpu(const VqRunEnv *env, VqStaging *st, VqCpuRun **cpu,
                      uint64_t mask, unsigned first)
{
    int err = vq_cpu_reopen(cpu);
    for (unsigned i = 0; !err && i < env->fexs->n; i++) {
        VqFex *fex = env->fexs->fex[i];
        vq_cpu_set_next(*cpu, i, fex->n_finalized);
        if (!(mask >> i & 1) || !(fex->desc->flags & VQ_FEX_TEMPORAL))
            continue;
        for (unsigned j = first > fex->lag ? first - fex->lag : 0;
             !err && j < first; j++) {
            VqFrame r, d;
            held_frames(st, vq_staging_held_slot(st, j), &r, &d);
            err = vq_cpu_warm(*cpu, i, &r, &d, j);
        }
        vq_cpu_set_next(*cpu, i, first);
    }
    return err;
}

int vq_fallback(VqFallback *fb, const VqRunEnv *env, bool strict,
                VqGpuRun *g, VqCpuRun **cpu, unsigned n_submitted)
{
    char why[VQ_ERR_MSG_SIZE];
    snprintf(why, sizeof(why), "%s", env->err->msg);
    if (strict)
        return vq_fail(env->err, VQ_EDEVICE, "%s (strict=1: no fallback to "
                       "the CPU)", why);
    vq_gpu_mark_dead(g->gpu);
    uint64_t mask = 0;
    unsigned first = n_submitted;
    const VqFexList *fexs = env->fexs;
    for (unsigned i = 0; i < fexs->n; i++) {
        if (!fexs->fex[i]->on_gpu)
            continue;
        mask |= (uint64_t)1 << i;
        first = fexs->fex[i]->n_finalized; /* the same for all of them */
    }
    VqSlot *fl[VQ_MAX_SLOTS];
    unsigned n_fl = 0;
    int err = g->staging ? gather(env, g, mask, first, fl, &n_fl) : 0;
    if (err) {
        char more[VQ_ERR_MSG_SIZE];
        snprintf(more, sizeof(more), "%s", env->err->msg);
        return vq_fail(env->err, VQ_EDEVICE, "%s; the run cannot go on on "
                       "the CPU: %s", why, more);
    }
    /* The CPU extractors' frames in flight end first (their slots are
     * reopened with every extractor). */
    err = vq_cpu_collect(*cpu, true);
    if (err)
        return err;
    for (unsigned i = 0; i < fexs->n; i++) {
        VqFex *fex = fexs->fex[i];
        if (!(mask >> i & 1))
            continue;
        vq_fex_gpu_close(g->gpu, fex);
        fex->on_gpu = false;
        for (unsigned k = 0; k < fex->n_outputs; k++)
            if (fex->out_id[k] >= 0)
                fex->coll->series[fex->out_id[k]].backend = "hip+cpu";
    }
    err = reopen_cpu(env, g->staging, cpu, mask, first);
    /* Recompute what was in flight, in frame order. */
    for (unsigned k = 0; !err && k < n_fl; k++) {
        VqFrame r, d;
        held_frames(g->staging, fl[k], &r, &d);
        bool px = fl[k]->has_work;
        err = vq_cpu_submit_mask(*cpu, px ? &r : NULL, px ? &d : NULL,
                                 fl[k]->index, mask);
        fl[k]->busy = false;
    }
    vq_staging_close(&g->staging);
    if (err)
        return err;
    fb->fell_back = true;
    fb->first = first;
    snprintf(fb->reason, sizeof(fb->reason), "%s", why);
    vq_log(env->log, VQ_LOG_LEVEL_WARNING, "%s: the GPU is no longer used; "
           "frames %u and later are computed on the CPU (%u in flight "
           "recomputed)", why, first, n_fl);
    vq_err_clear(env->err);
    return 0;
}
