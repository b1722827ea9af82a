/* vif's GPU stage (host side). */
#include "vif_priv.h"

typedef struct VifGpuSet {
    uint32_t *edge;                  /* VQ_VIF_EDGE_N values */
    uint16_t *img[2][VQ_VIF_SCALES]; /* scales 1..3 */
    size_t pitch[VQ_VIF_SCALES];     /* bytes */
} VifGpuSet;

typedef struct VifGpu {
    uint16_t *log2_tab;
    VifGpuSet set[VIF_GPU_SETS];
} VifGpu;

void vif_gpu_close(VqFex *fex, VqGpu *gpu)
{
    VifGpu *g = fex->gpu_priv;
    if (!g)
        return;
    vq_gpu_free(gpu, g->log2_tab);
    for (unsigned i = 0; i < VIF_GPU_SETS; i++) {
        vq_gpu_free(gpu, g->set[i].edge);
        for (unsigned s = 1; s < VQ_VIF_SCALES; s++) {
            vq_gpu_free(gpu, g->set[i].img[0][s]);
            vq_gpu_free(gpu, g->set[i].img[1][s]);
        }
    }
    free(g);
    fex->gpu_priv = NULL;
}

static int vif_gpu_set_init(VifGpuSet *set, VqGpu *gpu, const VifPriv *s)
{
    int err = vq_gpu_malloc(gpu, (void **)&set->edge,
                            VQ_VIF_EDGE_N * sizeof(uint32_t), "vif edge");
    for (unsigned sc = 1; !err && sc < VQ_VIF_SCALES; sc++) {
        size_t row = s->dims.w[sc] * sizeof(uint16_t);
        /* scale 3 has a row 1 even when it is one row high */
        size_t rows = s->dims.h[sc] + (sc == VQ_VIF_SCALES - 1);
        for (unsigned k = 0; !err && k < 2; k++)
            err = vq_gpu_malloc_pitch(gpu, (void **)&set->img[k][sc],
                                      &set->pitch[sc], row, rows,
                                      "vif scale images");
    }
    return err;
}

int vif_gpu_init(VqFex *fex, VqGpu *gpu)
{
    const VifPriv *s = fex->priv;
    VifGpu *g = calloc(1, sizeof(*g));
    if (!g)
        return vq_fail(fex->err, VQ_ENOMEM, "out of memory");
    fex->gpu_priv = g;
    if (!fex->gpu_sets || fex->gpu_sets > VIF_GPU_SETS ||
        s->dims.w[0] * s->dims.h[0] > VQ_GPU_SETS_MAX_PIXELS)
        fex->gpu_sets = 1;
    size_t tab_bytes = VQ_VIF_LOG2_SIZE * sizeof(uint16_t);
    int err = vq_gpu_malloc(gpu, (void **)&g->log2_tab, tab_bytes,
                            "vif log2 table");
    for (unsigned i = 0; !err && i < fex->gpu_sets; i++)
        err = vif_gpu_set_init(&g->set[i], gpu, s);
    VqStream st = vq_gpu_compute_stream(gpu);
    if (!err)
        err = vq_gpu_upload2d(gpu, st, g->log2_tab, tab_bytes, s->log2_tab,
                              tab_bytes, tab_bytes, 1);
    if (!err)
        err = vq_gpu_sync(gpu, st);
    if (err)
        vif_gpu_close(fex, gpu);
    return err;
}

/* Scale sc's image (1..3) at data. */
static VqDevPlane scale_plane(const VifPriv *s, const void *data, size_t pitch,
                              unsigned sc)
{
    VqDevPlane p = { data, pitch, s->dims.w[sc], s->dims.h[sc] };
    return p;
}

int vif_gpu_run(VqFex *fex, VqGpu *gpu, const VqDevFrame *ref,
                const VqDevFrame *dis, unsigned index, void *acc_dev)
{
    (void)index;
    const VifPriv *s = fex->priv;
    const VifGpu *g = fex->gpu_priv;
    const VifGpuSet *set = &g->set[fex->gpu_seq % fex->gpu_sets];
    VqVifAcc *acc = acc_dev;
    VqStream st = vq_gpu_compute_stream(gpu);
    for (unsigned sc = 0; sc < VQ_VIF_SCALES; sc++) {
        VqDevPlane r = sc ? scale_plane(s, set->img[0][sc], set->pitch[sc], sc)
                          : ref->plane[0];
        VqDevPlane d = sc ? scale_plane(s, set->img[1][sc], set->pitch[sc], sc)
                          : dis->plane[0];
        bool last = sc + 1 == VQ_VIF_SCALES;
        int err = vq_fex_launch_check(
            fex, gpu,
            vq_vif_scale_launch(st, sc, &r, &d, ref->bpc,
                                !(sc == 0 && s->skip_scale0), g->log2_tab,
                                s->gain_limit, last ? NULL : set->img[0][sc + 1],
                                last ? NULL : set->img[1][sc + 1],
                                last ? 0 : set->pitch[sc + 1], set->edge,
                                &acc->scale[sc]));
        if (err)
            return err;
    }
    return 0;
}

/* A ladder's product of one frame (device, tile order: kernels/vif/vif.h):
 * per scale the reference's statistics, and its images of scales 1..3
 * (scale 3 with its extra row, as the sets'). */
typedef struct VifProdLayout {
    size_t stat[VQ_VIF_SCALES], img[VQ_VIF_SCALES], pitch[VQ_VIF_SCALES];
    size_t bytes;
} VifProdLayout;

static size_t align256(size_t v)
{
    return (v + 255) & ~(size_t)255;
}

static void prod_layout(const VifPriv *s, unsigned bpc, VifProdLayout *l)
{
    size_t off = 0;
    for (unsigned sc = 0; sc < VQ_VIF_SCALES; sc++) {
        l->stat[sc] = off;
        off += align256(vq_vif_prod_words(sc, bpc, s->dims.w[sc],
                                          s->dims.h[sc]) * sizeof(uint32_t));
        l->pitch[sc] = align256(s->dims.w[sc] * sizeof(uint16_t));
        l->img[sc] = off;
        if (sc > 0)
            off += l->pitch[sc] * (s->dims.h[sc] + (sc == VQ_VIF_SCALES - 1));
    }
    l->bytes = off;
}

size_t vif_gpu_ref_size(const VqFex *fex)
{
    const VifPriv *s = fex->priv;
    VifProdLayout l;
    /* the split kernels have no edge values (one-sample scale 3) */
    if (s->dims.w[VQ_VIF_SCALES - 1] < 2 || s->dims.h[VQ_VIF_SCALES - 1] < 2)
        return 0;
    prod_layout(s, fex->fmt.bpc, &l);
    return l.bytes;
}

static VqDevPlane prod_image(const VifPriv *s, const VifProdLayout *l,
                             const void *prod, unsigned sc)
{
    return scale_plane(s, (const uint8_t *)prod + l->img[sc], l->pitch[sc],
                       sc);
}

int vif_gpu_ref_run(VqFex *fex, VqGpu *gpu, const VqDevFrame *ref,
                    unsigned index, void *prod)
{
    (void)index;
    const VifPriv *s = fex->priv;
    VifProdLayout l;
    prod_layout(s, ref->bpc, &l);
    VqStream st = vq_gpu_compute_stream(gpu);
    for (unsigned sc = 0; sc < VQ_VIF_SCALES; sc++) {
        VqDevPlane r = sc ? prod_image(s, &l, prod, sc) : ref->plane[0];
        bool last = sc + 1 == VQ_VIF_SCALES;
        int err = vq_fex_launch_check(
            fex, gpu,
            vq_vif_ref_scale_launch(
                st, sc, &r, ref->bpc, !(sc == 0 && s->skip_scale0),
                (uint32_t *)((uint8_t *)prod + l.stat[sc]),
                last ? NULL : (uint16_t *)((uint8_t *)prod + l.img[sc + 1]),
                last ? 0 : l.pitch[sc + 1]));
        if (err)
            return err;
    }
    return 0;
}

int vif_gpu_run_split(VqFex *fex, VqGpu *gpu, const VqDevFrame *ref,
                      const VqDevFrame *dis, unsigned index, const void *prod,
                      void *acc_dev)
{
    (void)index;
    const VifPriv *s = fex->priv;
    const VifGpu *g = fex->gpu_priv;
    const VifGpuSet *set = &g->set[fex->gpu_seq % fex->gpu_sets];
    VqVifAcc *acc = acc_dev;
    VifProdLayout l;
    prod_layout(s, ref->bpc, &l);
    VqStream st = vq_gpu_compute_stream(gpu);
    for (unsigned sc = 0; sc < VQ_VIF_SCALES; sc++) {
        VqDevPlane r = sc ? prod_image(s, &l, prod, sc) : ref->plane[0];
        VqDevPlane d = sc ? scale_plane(s, set->img[1][sc], set->pitch[sc], sc)
                          : dis->plane[0];
        bool last = sc + 1 == VQ_VIF_SCALES;
        int err = vq_fex_launch_check(
            fex, gpu,
            vq_vif_dis_scale_launch(
                st, sc, &r, &d, ref->bpc, !(sc == 0 && s->skip_scale0),
                (const uint32_t *)((const uint8_t *)prod + l.stat[sc]),
                g->log2_tab, s->gain_limit,
                last ? NULL : set->img[1][sc + 1],
                last ? 0 : set->pitch[sc + 1], &acc->scale[sc]));
        if (err)
            return err;
    }
    return 0;
}
