/*
 * Integer ADM, GPU path: device buffers for the approximation bands and the
 * per-row sums, allocated once; per frame four scale launches and the row
 * launch on the compute stream, no host synchronisation. The row sums are
 * cleared by the row launch itself, so frames need no memset.
 */
#include <stdlib.h>

#include "adm_priv.h"

/* Frames have no ADM state in common: each set of bands and row sums
 * serves every fex->gpu_sets-th frame, on a lane of its own (two sets up
 * to VQ_GPU_SETS_MAX_PIXELS). */
typedef struct AdmGpu {
    VqAdmDevBufs b[VQ_ADM_GPU_SETS];
    int32_t *recip; /* the 65537 entries every b[].recip points into */
} AdmGpu;

void vq_adm_gpu_close(VqFex *fex, VqGpu *gpu)
{
    AdmGpu *g = fex->gpu_priv;
    if (!g)
        return;
    for (int i = 0; i < VQ_ADM_GPU_SETS; i++) {
        for (int k = 0; k < 3; k++) {
            vq_gpu_free(gpu, g->b[i].a_ref[k]);
            vq_gpu_free(gpu, g->b[i].a_dis[k]);
        }
        vq_gpu_free(gpu, g->b[i].rows);
    }
    vq_gpu_free(gpu, g->recip);
    free(g);
    fex->gpu_priv = NULL;
}

static int adm_gpu_set_init(VqAdmDevBufs *b, VqGpu *gpu, const AdmPriv *s,
                            VqStream st)
{
    int err = 0;
    for (int k = 0; k < 3 && !err; k++) {
        const VqAdmScale *sc = &s->p.sc[k];
        size_t elem = k == 0 ? sizeof(int16_t) : sizeof(int32_t);
        b->a_pitch[k] = ((size_t)sc->w + 63) & ~(size_t)63;
        size_t bytes = b->a_pitch[k] * (size_t)sc->h * elem;
        err = vq_gpu_malloc(gpu, &b->a_ref[k], bytes, "adm band");
        if (!err)
            err = vq_gpu_malloc(gpu, &b->a_dis[k], bytes, "adm band");
    }
    size_t n_rows = vq_adm_rows_layout(&s->p, b->rows_off);
    if (!err)
        err = vq_gpu_malloc(gpu, (void **)&b->rows, n_rows * sizeof(uint64_t),
                            "adm row sums");
    if (!err)
        err = vq_gpu_memset(gpu, st, b->rows, 0, n_rows * sizeof(uint64_t));
    return err;
}

int vq_adm_gpu_init(VqFex *fex, VqGpu *gpu)
{
    const AdmPriv *s = fex->priv;
    AdmGpu *g = calloc(1, sizeof(*g));
    if (!g)
        return vq_fail(fex->err, VQ_ENOMEM, "out of memory");
    fex->gpu_priv = g;
    if (!fex->gpu_sets || fex->gpu_sets > VQ_ADM_GPU_SETS ||
        (unsigned)s->p.sc[0].in_w * (unsigned)s->p.sc[0].in_h >
            VQ_GPU_SETS_MAX_PIXELS)
        fex->gpu_sets = 1;
    VqStream st = vq_gpu_compute_stream(gpu);
    int err = 0;
    for (unsigned i = 0; i < fex->gpu_sets && !err; i++)
        err = adm_gpu_set_init(&g->b[i], gpu, s, st);
    /* the CPU path's table, once (the upload is waited for below) */
    const size_t tab_bytes = 65537 * sizeof(int32_t);
    if (!err)
        err = vq_gpu_malloc(gpu, (void **)&g->recip, tab_bytes,
                            "adm reciprocal table");
    if (!err)
        err = vq_gpu_upload2d(gpu, st, g->recip, tab_bytes, s->recip, tab_bytes,
                              tab_bytes, 1);
    if (!err)
        err = vq_gpu_sync(gpu, st);
    for (int i = 0; i < VQ_ADM_GPU_SETS; i++)
        g->b[i].recip = g->recip ? g->recip + 32768 : NULL;
    if (err)
        vq_adm_gpu_close(fex, gpu);
    return err;
}

int vq_adm_gpu_run(VqFex *fex, VqGpu *gpu, const VqDevFrame *ref,
                   const VqDevFrame *dis, unsigned index, void *acc_dev)
{
    (void)index;
    const AdmPriv *s = fex->priv;
    AdmGpu *g = fex->gpu_priv;
    VqAdmDevBufs *b = &g->b[fex->gpu_seq % fex->gpu_sets];
    VqStream st = vq_gpu_compute_stream(gpu);
    for (int k = 0; k < 4; k++) {
        int err = vq_fex_launch_check(
            fex, gpu, vq_adm_scale_launch(st, &s->p, k, &ref->plane[0],
                                          &dis->plane[0], b));
        if (err)
            return err;
    }
    return vq_fex_launch_check(fex, gpu,
                               vq_adm_rows_launch(st, &s->p, b, NULL,
                                                  acc_dev));
}

static size_t align256(size_t v)
{
    return (v + 255) & ~(size_t)255;
}

/* A ladder's product of one frame in device memory at base (NULL: just
 * its size): the reference's bands, approximations and denominator rows
 * (kernels/adm/adm.h). */
static size_t prod_layout(const AdmPriv *s, uint8_t *base, VqAdmRefBufs *r)
{
    size_t off = 0;
    for (int k = 0; k < 4; k++) {
        const VqAdmScale *sc = &s->p.sc[k];
        r->bands[k] = base ? (int32_t *)(base + off) : NULL;
        off += align256(3 * (size_t)sc->w * (size_t)sc->h * sizeof(int32_t));
        if (k == 3)
            break;
        size_t elem = k == 0 ? sizeof(int16_t) : sizeof(int32_t);
        r->a_pitch[k] = ((size_t)sc->w + 63) & ~(size_t)63;
        r->approx[k] = base ? base + off : NULL;
        off += align256(r->a_pitch[k] * (size_t)sc->h * elem);
    }
    size_t n_rows = vq_adm_rows_layout(&s->p, r->rows_off);
    r->rows = base ? (uint64_t *)(base + off) : NULL;
    return off + n_rows * sizeof(uint64_t);
}

size_t vq_adm_gpu_ref_size(const VqFex *fex)
{
    VqAdmRefBufs r;
    return prod_layout(fex->priv, NULL, &r);
}

int vq_adm_gpu_ref_run(VqFex *fex, VqGpu *gpu, const VqDevFrame *ref,
                       unsigned index, void *prod)
{
    (void)index;
    const AdmPriv *s = fex->priv;
    VqAdmRefBufs r;
    prod_layout(s, prod, &r);
    VqStream st = vq_gpu_compute_stream(gpu);
    /* the denominator's rows are atomic sums */
    size_t n_rows = vq_adm_rows_layout(&s->p, r.rows_off);
    int err = vq_gpu_memset(gpu, st, r.rows, 0, n_rows * sizeof(uint64_t));
    for (int k = 0; !err && k < 4; k++)
        err = vq_fex_launch_check(
            fex, gpu, vq_adm_ref_scale_launch(st, &s->p, k, &ref->plane[0],
                                              &r));
    return err;
}

int vq_adm_gpu_run_split(VqFex *fex, VqGpu *gpu, const VqDevFrame *ref,
                         const VqDevFrame *dis, unsigned index,
                         const void *prod, void *acc_dev)
{
    (void)index;
    (void)ref;
    const AdmPriv *s = fex->priv;
    AdmGpu *g = fex->gpu_priv;
    VqAdmDevBufs *b = &g->b[fex->gpu_seq % fex->gpu_sets];
    VqAdmRefBufs r;
    prod_layout(s, (uint8_t *)prod, &r); /* read only here */
    VqStream st = vq_gpu_compute_stream(gpu);
    for (int k = 0; k < 4; k++) {
        int err = vq_fex_launch_check(
            fex, gpu, vq_adm_dis_scale_launch(st, &s->p, k, &dis->plane[0],
                                              &r, b));
        if (err)
            return err;
    }
    return vq_fex_launch_check(fex, gpu,
                               vq_adm_rows_launch(st, &s->p, b, &r, acc_dev));
}
