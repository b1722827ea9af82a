/*
 * verify=N: every N-th frame that the GPU computes is also computed on the
 * CPU from the slot's host copy, and the outputs the two records give are
 * compared: bit for bit for VQ_EXACT_BITWISE extractors, within the
 * descriptor's tolerance otherwise. On a mismatch the CPU's record is the
 * one finalized (the CPU is the reference), and the mismatch is logged
 * with frame and output, and counted.
 *
 * The outputs are compared, not the records, because a tolerance applies
 * to outputs. To get both sets of outputs, finalize runs "dry" on each
 * record into a scratch collector with the extractor's state saved and put
 * back (finalize keeps its state in priv itself: docs/EXTRACTORS.md), then
 * once for real.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "verify.h"

bool vq_verify_frame(const VqVerify *v, unsigned index, unsigned ahead)
{
    unsigned n = v->every;
    for (unsigned a = 0; n && a <= ahead; a++)
        if ((index + a) % n == 0)
            return true;
    return false;
}

void vq_verify_free(VqVerify *v)
{
    free(v->buf.acc);
    free(v->buf.scratch);
    free(v->buf.pix);
    memset(&v->buf, 0, sizeof(v->buf));
}

static int grow(VqErrBuf *err, void **p, size_t *have, size_t need)
{
    if (*have >= need)
        return 0;
    free(*p);
    *p = aligned_alloc(64, (need + 63) & ~(size_t)63);
    *have = *p ? need : 0;
    return *p ? 0 : vq_fail(err, VQ_ENOMEM, "out of memory");
}

/* A held frame as the CPU path reads it: planar, low-bit samples, the
 * stored planes (fmt->sw/sh) behind views of the scored size. */
static void cpu_view(const VqFormat *fmt, const VqStaging *st,
                     const VqSlot *slot, unsigned k, VqFrame *out,
                     uint8_t *pix)
{
    VqFrame raw;
    vq_staging_held_frame(st, slot, k, &raw);
    if (!vq_format_converts(fmt)) {
        *out = raw;
        return;
    }
    memset(out, 0, sizeof(*out));
    size_t off = 0;
    for (unsigned p = 0; p < fmt->n_planes; p++) {
        if (!(st->planes & (1u << p)))
            continue;
        size_t row = (size_t)fmt->sw[p] * fmt->bytes_per_sample;
        vq_frame_convert_plane(fmt, &raw, p, pix + off, row);
        out->plane[p] = (VqPlane){ pix + off, (ptrdiff_t)row, fmt->w[p],
                                   fmt->h[p] };
        off += row * fmt->sh[p];
    }
}

/* The CPU's record of frame `index` for fex into v->buf.acc; 1 when it
 * could not be made (a temporal extractor's earlier frames are gone). */
static int cpu_record(VqVerify *v, const VqRunEnv *env, VqStaging *st,
                      VqFex *fex, unsigned index)
{
    const VqFormat *fmt = env->fmt;
    size_t pix = 0;
    for (unsigned p = 0; p < fmt->n_planes; p++)
        pix += 2 * (size_t)fmt->sw[p] * fmt->bytes_per_sample * fmt->sh[p];
    int err = grow(env->err, &v->buf.acc, &v->buf.acc_size, fex->acc_size);
    if (!err)
        err = grow(env->err, &v->buf.scratch, &v->buf.scratch_size,
                   fex->scratch_size ? fex->scratch_size : 1);
    if (!err)
        err = grow(env->err, &v->buf.pix, &v->buf.pix_size, pix);
    if (err)
        return err;
    unsigned from = index;
    if (fex->desc->flags & VQ_FEX_TEMPORAL)
        from = index > fex->lag ? index - fex->lag : 0;
    for (unsigned j = from; j <= index; j++)
        if (!vq_staging_held_slot(st, j))
            return 1;
    /* A temporal extractor's CPU state is not used while it runs on the
     * GPU: its earlier frames rebuild it here. */
    for (unsigned j = from; j <= index && !err; j++) {
        VqSlot *s = vq_staging_held_slot(st, j);
        VqFrame r, d;
        uint8_t *px = v->buf.pix;
        cpu_view(fmt, st, s, 0, &r, px);
        cpu_view(fmt, st, s, 1, &d, px + v->buf.pix_size / 2);
        memset(v->buf.acc, 0, fex->acc_size);
        err = fex->desc->cpu_run(fex, &r, &d, j, v->buf.acc, v->buf.scratch);
    }
    return err;
}

/* finalize on a record without keeping anything: outputs go to `out`. */
static int dry_finalize(VqFex *fex, const void *acc, unsigned index,
                        VqCollector *out)
{
    size_t size = fex->desc->priv_size ? fex->desc->priv_size : 1;
    void *saved = malloc(size);
    if (!saved)
        return vq_fail(fex->err, VQ_ENOMEM, "out of memory");
    memcpy(saved, fex->priv, size);
    struct VqCollector *coll = fex->coll;
    int ids[VQ_FEX_MAX_OUTPUTS];
    memcpy(ids, fex->out_id, sizeof(ids));
    for (unsigned k = 0; k < fex->n_outputs; k++)
        fex->out_id[k] = -1;
    fex->coll = out;
    int err = fex->desc->finalize(fex, acc, index);
    fex->coll = coll;
    memcpy(fex->out_id, ids, sizeof(ids));
    memcpy(fex->priv, saved, size);
    free(saved);
    return err;
}

static bool same(const VqFexDesc *d, double a, double b)
{
    if (d->exactness == VQ_EXACT_BITWISE)
        return !memcmp(&a, &b, sizeof(a));
    if (isnan(a) || isnan(b))
        return isnan(a) && isnan(b);
    if (isinf(a) || isinf(b))
        return a == b;
    return fabs(a - b) <= d->tolerance;
}

/* Compares the outputs of both records; logs each difference. */
static unsigned compare(const VqLogger *log, const VqFex *fex, unsigned index,
                        const VqCollector *gpu, const VqCollector *cpu)
{
    unsigned bad = 0;
    for (unsigned pass = 0; pass < 2; pass++) {
        const VqCollector *a = pass ? cpu : gpu, *b = pass ? gpu : cpu;
        for (unsigned j = 0; j < a->n; j++) {
            const VqSeries *s = &a->series[j];
            int id = vq_collector_find(b, s->name);
            for (unsigned i = 0; i < s->cap; i++) {
                double va, vb;
                if (!s->written[i])
                    continue;
                va = s->value[i];
                bool has = vq_collector_get(b, id, i, &vb);
                if (pass && has)
                    continue; /* compared in the first pass */
                if (has && same(fex->desc, va, vb))
                    continue;
                bad++;
                vq_log(log, VQ_LOG_LEVEL_WARNING, "verify: frame %u, %s (of "
                       "frame %u): GPU %.17g, CPU %.17g: the GPU's result "
                       "differs; the CPU's is used", index, s->name, i,
                       pass ? NAN : va, pass ? va : has ? vb : NAN);
            }
        }
    }
    return bad;
}

int vq_verify_finalize(VqVerify *v, const VqRunEnv *env, VqStaging *st,
                       VqFex *fex, VqSlot *slot, const void *gpu_acc)
{
    unsigned index = slot->index;
    int err = slot->held ? cpu_record(v, env, st, fex, index) : 1;
    if (err == 1) /* nothing to compare with: an ordinary finalize */
        return fex->desc->finalize(fex, gpu_acc, index);
    if (err)
        return err;
    VqCollector g, c;
    memset(&g, 0, sizeof(g));
    memset(&c, 0, sizeof(c));
    err = dry_finalize(fex, gpu_acc, index, &g);
    if (!err)
        err = dry_finalize(fex, v->buf.acc, index, &c);
    unsigned bad = err ? 0 : compare(env->log, fex, index, &g, &c);
    vq_collector_free(&g);
    vq_collector_free(&c);
    if (err)
        return err;
    /* counted per frame, by the first extractor that compares it */
    if (slot->verify == 1) {
        v->n_frames++;
        slot->verify = 2;
    }
    if (bad && slot->verify != 3) {
        v->n_mismatch++;
        slot->verify = 3;
    }
    v->n_values += bad;
    return fex->desc->finalize(fex, bad ? v->buf.acc : gpu_acc, index);
}
