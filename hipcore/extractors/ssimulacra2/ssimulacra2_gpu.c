/*
 * ssimulacra2's GPU path: device planes for each frame that may be in
 * flight (one set per lane the core gives it), and per scale the launches
 * that fill the same record as the CPU path.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "../common/gpu_fn.h"
#include "ssimulacra2_priv.h"

/* Device planes of one frame: one set per frame that may be in flight
 * (desc gpu_sets), within S2_GPU_BUDGET bytes, at least one. */
#define S2_GPU_BUDGET ((size_t)1 << 30)

typedef struct S2Set {
    float *planes;   /* 6 XYB, 15 horizontal-pass, 15 blurred: scale 0 size */
    float *lin[2];   /* linear planes of scales 1, 3, 5 and 2, 4 */
    double *colsum;  /* column segment sums of one scale */
} S2Set;

typedef struct S2Gpu {
    S2Set set[VQ_S2_GPU_SETS];
    unsigned n_sets;
    size_t plane, lin_plane[2]; /* floats between planes */
} S2Gpu;

/* Plane rows start 128-byte aligned (the horizontal pass reads quads). */
static size_t gpu_pitch(unsigned w)
{
    return ((size_t)w + 31) / 32 * 32;
}

void vq_ssimulacra2_gpu_close(VqFex *fex, VqGpu *gpu)
{
    S2Gpu *g = fex->gpu_priv;
    if (!g)
        return;
    for (unsigned i = 0; i < VQ_S2_GPU_SETS; i++) {
        vq_gpu_free(gpu, g->set[i].planes);
        vq_gpu_free(gpu, g->set[i].lin[0]);
        vq_gpu_free(gpu, g->set[i].lin[1]);
        vq_gpu_free(gpu, g->set[i].colsum);
    }
    free(g);
    fex->gpu_priv = NULL;
}

static int set_alloc(VqGpu *gpu, const S2Gpu *g, const VqSsimulacra2Dims *d, S2Set *set)
{
    int err = vq_gpu_malloc(gpu, (void **)&set->planes,
                            (6 + 6 * VQ_S2_BLURS) * g->plane * sizeof(float),
                            "ssimulacra2 planes");
    for (unsigned i = 0; !err && i < 2 && i + 1 < d->n_scales; i++)
        err = vq_gpu_malloc(gpu, (void **)&set->lin[i],
                            6 * g->lin_plane[i] * sizeof(float),
                            "ssimulacra2 linear planes");
    if (!err)
        err = vq_gpu_malloc(gpu, (void **)&set->colsum,
                            (size_t)3 * VQ_S2_SUMS * d->nseg[0] * d->w[0] *
                                sizeof(double),
                            "ssimulacra2 column sums");
    return err;
}

int vq_ssimulacra2_gpu_init(VqFex *fex, VqGpu *gpu)
{
    const S2Priv *s = fex->priv;
    const VqSsimulacra2Dims *d = &s->dims;
    S2Gpu *g = calloc(1, sizeof(*g));
    if (!g)
        return vq_fail(fex->err, VQ_ENOMEM, "out of memory");
    fex->gpu_priv = g;
    g->plane = gpu_pitch(d->w[0]) * d->h[0];
    size_t bytes = ((6 + 6 * VQ_S2_BLURS) * g->plane +
                    2 * (size_t)VQ_S2_SUMS * 3 * d->nseg[0] * d->w[0]) *
                   sizeof(float);
    for (unsigned i = 0; i < 2; i++) {
        unsigned sc = i + 1;
        if (sc >= d->n_scales)
            break;
        g->lin_plane[i] = gpu_pitch(d->w[sc]) * d->h[sc];
        bytes += 6 * g->lin_plane[i] * sizeof(float);
    }
    unsigned n = fex->gpu_sets ? fex->gpu_sets : 1;
    if (n > VQ_S2_GPU_SETS)
        n = VQ_S2_GPU_SETS;
    while (n > 1 && n * bytes > S2_GPU_BUDGET)
        n--;
    int err = 0;
    for (g->n_sets = 0; !err && g->n_sets < n; g->n_sets++)
        err = set_alloc(gpu, g, d, &g->set[g->n_sets]);
    fex->gpu_sets = n;
    if (err)
        vq_ssimulacra2_gpu_close(fex, gpu);
    return err;
}

/* Planes of a set at scale sc: XYB, horizontal-pass and blurred planes
 * spaced as at scale 0, rows of the scale's pitch; the linear planes the
 * scale reads (lin) and writes (next). */
typedef struct S2Tables {
    VqSsimulacra2Planes xyb, tmp, blur, lin, next;
    bool has_next;
} S2Tables;

static void set_tables(const S2Gpu *g, const S2Set *set,
                       const VqSsimulacra2Dims *d, unsigned sc, S2Tables *t)
{
    memset(t, 0, sizeof(*t));
    size_t pitch = gpu_pitch(d->w[sc]);
    t->xyb.pitch = t->tmp.pitch = t->blur.pitch = pitch;
    for (unsigned i = 0; i < 6; i++)
        t->xyb.p[i] = set->planes + i * g->plane;
    for (unsigned i = 0; i < 3 * VQ_S2_BLURS; i++) {
        t->tmp.p[i] = set->planes + (6 + i) * g->plane;
        t->blur.p[i] = set->planes + (6 + 3 * VQ_S2_BLURS + i) * g->plane;
    }
    if (sc > 0) {
        unsigned k = (sc - 1) & 1;
        t->lin.pitch = pitch;
        for (unsigned i = 0; i < 6; i++)
            t->lin.p[i] = set->lin[k] + i * g->lin_plane[k];
    }
    t->has_next = sc + 1 < d->n_scales;
    if (t->has_next) {
        unsigned k = sc & 1;
        t->next.pitch = gpu_pitch(d->w[sc + 1]);
        for (unsigned i = 0; i < 6; i++)
            t->next.p[i] = set->lin[k] + i * g->lin_plane[k];
    }
}

/* One scale's launches: the inputs' XYB (and next linear planes), the
 * blurred planes in kmask, and with sums the terms into rec. */
static int scale_run(VqFex *fex, VqGpu *gpu, const S2Set *set, unsigned sc,
                     const S2Tables *t, const VqDevFrame *ref,
                     const VqDevFrame *dis, unsigned inputs, unsigned kmask,
                     double *rec)
{
    const S2Priv *s = fex->priv;
    const VqSsimulacra2Dims *d = &s->dims;
    VqStream st = vq_gpu_compute_stream(gpu);
    unsigned w = d->w[sc], h = d->h[sc];
    const VqSsimulacra2Planes *next = t->has_next ? &t->next : NULL;
    int rc = sc == 0 ? vq_ssimulacra2_prepare_yuv_launch(st, ref, dis, w, h,
                                                         &s->par, inputs,
                                                         &t->xyb, next)
                     : vq_ssimulacra2_prepare_lin_launch(st, &t->lin, w, h,
                                                         &s->par, inputs,
                                                         &t->xyb, next);
    if (!rc)
        rc = vq_ssimulacra2_blur_h_launch(st, &t->xyb, &t->tmp, w, h,
                                          &s->par.blur, kmask);
    if (!rc)
        rc = vq_ssimulacra2_blur_v_launch(st, &t->tmp, &t->blur, w, h,
                                          &s->par.blur, kmask);
    if (!rc && rec)
        rc = vq_ssimulacra2_sums_launch(st, &t->xyb, &t->blur, w, h,
                                        d->nseg[sc], set->colsum,
                                        rec + d->off[sc]);
    return vq_fex_launch_check(fex, gpu, rc);
}

/* A ladder's product of one frame (device memory at base; NULL: its
 * size): per scale the reference's XYB planes, its blurred value and
 * square (c * 2 + (k == 3)) and the next scale's linear planes, rows of
 * the scale's pitch. */
typedef struct S2Prod {
    float *xyb[VQ_S2_SCALES], *blur[VQ_S2_SCALES];
    float *next[VQ_S2_SCALES];
    size_t plane[VQ_S2_SCALES];
} S2Prod;

static size_t prod_layout(const VqSsimulacra2Dims *d, uint8_t *base,
                          S2Prod *p)
{
    size_t off = 0;
    for (unsigned sc = 0; sc < d->n_scales; sc++) {
        p->plane[sc] = gpu_pitch(d->w[sc]) * d->h[sc];
        size_t bytes = p->plane[sc] * sizeof(float);
        p->xyb[sc] = base ? (float *)(base + off) : NULL;
        off += 3 * bytes;
        p->blur[sc] = base ? (float *)(base + off) : NULL;
        off += 6 * bytes;
        p->next[sc] = NULL;
        if (sc + 1 < d->n_scales) {
            p->next[sc] = base ? (float *)(base + off) : NULL;
            off += 3 * gpu_pitch(d->w[sc + 1]) * d->h[sc + 1] * sizeof(float);
        }
    }
    return off;
}

size_t vq_ssimulacra2_gpu_ref_size(const VqFex *fex)
{
    const S2Priv *s = fex->priv;
    S2Prod p;
    return prod_layout(&s->dims, NULL, &p);
}

/* The product's planes in place of the set's: the reference's XYB (and,
 * for REF, as the distorted side too: the horizontal pass loads both),
 * its blurred value and square, its linear planes. */
static void prod_tables(const S2Prod *p, unsigned sc, bool ref_only,
                        S2Tables *t)
{
    for (unsigned c = 0; c < 3; c++) {
        t->xyb.p[c] = p->xyb[sc] + c * p->plane[sc];
        if (ref_only)
            t->xyb.p[3 + c] = t->xyb.p[c];
        t->blur.p[c * VQ_S2_BLURS + 0] = p->blur[sc] + (2 * c) * p->plane[sc];
        t->blur.p[c * VQ_S2_BLURS + 3] =
            p->blur[sc] + (2 * c + 1) * p->plane[sc];
        if (sc > 0)
            t->lin.p[c] = p->next[sc - 1] + c * p->plane[sc];
        if (t->has_next && ref_only)
            t->next.p[c] = p->next[sc] + c * p->plane[sc + 1];
    }
}

/* Every scale of a frame on `set`: whole (prod NULL), the reference's
 * part into prod (ref_only), or the rest, reading prod. */
static int frame_run(VqFex *fex, VqGpu *gpu, const S2Set *set,
                     uint8_t *prod, bool ref_only, const VqDevFrame *ref,
                     const VqDevFrame *dis, double *rec)
{
    const S2Priv *s = fex->priv;
    const S2Gpu *g = fex->gpu_priv;
    S2Prod p;
    if (prod)
        prod_layout(&s->dims, prod, &p);
    unsigned inputs = !prod ? 3 : ref_only ? 1 : 2;
    unsigned kmask = !prod ? VQ_S2_K_ALL : ref_only ? VQ_S2_K_REF
                                                    : VQ_S2_K_DIS;
    for (unsigned sc = 0; sc < s->dims.n_scales; sc++) {
        S2Tables t;
        set_tables(g, set, &s->dims, sc, &t);
        if (prod)
            prod_tables(&p, sc, ref_only, &t);
        int err = scale_run(fex, gpu, set, sc, &t, ref, dis, inputs, kmask,
                            rec);
        if (err)
            return err;
    }
    return 0;
}

int vq_ssimulacra2_gpu_run(VqFex *fex, VqGpu *gpu, const VqDevFrame *ref,
                  const VqDevFrame *dis, unsigned index, void *acc_dev)
{
    (void)index;
    const S2Gpu *g = fex->gpu_priv;
    return frame_run(fex, gpu, &g->set[fex->gpu_seq % g->n_sets], NULL,
                     false, ref, dis, acc_dev);
}

int vq_ssimulacra2_gpu_ref_run(VqFex *fex, VqGpu *gpu, const VqDevFrame *ref,
                               unsigned index, void *prod)
{
    (void)index;
    const S2Gpu *g = fex->gpu_priv;
    return frame_run(fex, gpu, &g->set[0], prod, true, ref, ref, NULL);
}

int vq_ssimulacra2_gpu_run_split(VqFex *fex, VqGpu *gpu,
                                 const VqDevFrame *ref, const VqDevFrame *dis,
                                 unsigned index, const void *prod,
                                 void *acc_dev)
{
    (void)index;
    const S2Gpu *g = fex->gpu_priv;
    /* prod is only read here */
    return frame_run(fex, gpu, &g->set[fex->gpu_seq % g->n_sets],
                     (uint8_t *)prod, false, ref, dis, acc_dev);
}
