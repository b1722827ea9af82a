/*
 * ssimulacra2's GPU path: device planes for each frame that may be in
 * flight (one set per lane the core gives it), and per scale the launches
 * that fill the same record as the CPU path.
 */
#include <stdlib.h>

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
    size_t pitch, plane, lin_pitch[2], lin_plane[2];
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
    g->pitch = gpu_pitch(d->w[0]);
    g->plane = g->pitch * d->h[0];
    size_t bytes = ((6 + 6 * VQ_S2_BLURS) * g->plane +
                    2 * (size_t)VQ_S2_SUMS * 3 * d->nseg[0] * d->w[0]) *
                   sizeof(float);
    for (unsigned i = 0; i < 2; i++) {
        unsigned sc = i + 1;
        if (sc >= d->n_scales)
            break;
        g->lin_pitch[i] = gpu_pitch(d->w[sc]);
        g->lin_plane[i] = g->lin_pitch[i] * d->h[sc];
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

int vq_ssimulacra2_gpu_run(VqFex *fex, VqGpu *gpu, const VqDevFrame *ref,
                  const VqDevFrame *dis, unsigned index, void *acc_dev)
{
    (void)index;
    const S2Priv *s = fex->priv;
    const VqSsimulacra2Dims *d = &s->dims;
    const S2Gpu *g = fex->gpu_priv;
    const S2Set *set = &g->set[fex->gpu_seq % g->n_sets];
    VqStream st = vq_gpu_compute_stream(gpu);
    VqSsimulacra2Buf xyb = { set->planes, g->pitch, g->plane };
    VqSsimulacra2Buf tmp = { set->planes + 6 * g->plane, g->pitch, g->plane };
    VqSsimulacra2Buf blur = { set->planes + (6 + 3 * VQ_S2_BLURS) * g->plane, g->pitch,
                     g->plane };
    double *rec = acc_dev;
    for (unsigned sc = 0; sc < d->n_scales; sc++) {
        unsigned w = d->w[sc], h = d->h[sc];
        VqSsimulacra2Buf next = { NULL, 0, 0 };
        if (sc + 1 < d->n_scales) {
            unsigned i = sc & 1;
            next = (VqSsimulacra2Buf){ set->lin[i], g->lin_pitch[i], g->lin_plane[i] };
        }
        int rc;
        if (sc == 0) {
            rc = vq_ssimulacra2_prepare_yuv_launch(st, ref, dis, w, h, &s->par, xyb,
                                          next);
        } else {
            unsigned i = (sc - 1) & 1;
            VqSsimulacra2Buf lin = { set->lin[i], g->lin_pitch[i], g->lin_plane[i] };
            rc = vq_ssimulacra2_prepare_lin_launch(st, lin, w, h, &s->par, xyb, next);
        }
        if (!rc)
            rc = vq_ssimulacra2_blur_h_launch(st, xyb, tmp, w, h, &s->par.blur);
        if (!rc)
            rc = vq_ssimulacra2_blur_v_launch(st, tmp, blur, w, h, &s->par.blur);
        if (!rc)
            rc = vq_ssimulacra2_sums_launch(st, xyb, blur, w, h, d->nseg[sc],
                                   set->colsum, rec + d->off[sc]);
        int err = vq_fex_launch_check(fex, gpu, rc);
        if (err)
            return err;
    }
    return 0;
}
