/*
 * Integer VIF, CPU path: the frame driver. Row by row at each scale: the
 * DSP table's row filters (vif_dsp.h) give the row's sigmas,
 * vq_vif_cpu_stat_sums adds their terms; on even rows the next scale's row
 * is made.
 */
#include <string.h>

#include "vif_priv.h"

void vq_vif_dims(VqVifDims *d, unsigned w, unsigned h)
{
    for (unsigned s = 0; s < VQ_VIF_SCALES; s++) {
        d->w[s] = w;
        d->h[s] = h;
        w /= 2;
        h /= 2;
    }
}

static void take(uint8_t *base, size_t *off, size_t bytes, void **ptr)
{
    size_t at = *off;
    *off = (at + bytes + 63) & ~(size_t)63;
    *ptr = base ? base + at : NULL;
}

/* Images of scales 1..3 (both pictures), laid out in scratch (NULL: just
 * the size). */
static size_t image_layout(const VqVifDims *d, void *scratch, VqVifWork *wk)
{
    uint8_t *base = scratch;
    size_t off = 0;
    void *p;
    for (unsigned s = 1; s < VQ_VIF_SCALES; s++)
        for (unsigned k = 0; k < 2; k++) {
            take(base, &off, (size_t)d->w[s] * d->h[s] * sizeof(uint16_t), &p);
            if (base)
                wk->img[k][s] = p;
        }
    return off;
}

/* The row buffers of the filters, laid out in scratch (NULL: the size). */
static size_t row_layout(const VqVifDims *d, void *scratch, VqVifWork *wk)
{
    uint8_t *base = scratch;
    size_t off = 0;
    size_t row16 = ((size_t)d->w[0] + 2 * VQ_VIF_PAD + VQ_VIF_SLACK) * 2;
    size_t row32 = (size_t)d->w[0] * 4;
    size_t row_lg = ((size_t)d->w[0] + VQ_VIF_GATHER_SLACK) * 4;
    void *p;
    for (unsigned k = 0; k < VQ_VIF_ROWS + 2; k++) {
        take(base, &off, row16, &p);
        if (!base)
            continue;
        uint16_t *r = (uint16_t *)p + VQ_VIF_PAD;
        if (k < VQ_VIF_ROWS)
            wk->v[k] = r;
        else if (k == VQ_VIF_ROWS)
            wk->d_ref = r;
        else
            wk->d_dis = r;
    }
    for (unsigned k = 0; k < VQ_VIF_ROWS; k++) {
        take(base, &off, row32, &p);
        if (base)
            wk->sum[k] = p;
    }
    int32_t **rows32[6] = { &wk->s1,    &wk->s2,    &wk->s12,
                            &wk->lg[0], &wk->lg[1], &wk->lg[2] };
    for (unsigned k = 0; k < 6; k++) {
        take(base, &off, k < 3 ? row32 : row_lg, &p);
        if (base)
            *rows32[k] = p;
    }
    take(base, &off, 3 * row32, &p);
    if (base)
        wk->lg_idx = p;
    return off;
}

void vq_vif_row_layout(const VqVifDims *d, void *rows, VqVifWork *wk)
{
    row_layout(d, rows, wk);
}

size_t vq_vif_cpu_image_size(const VqVifDims *d)
{
    VqVifWork unused;
    return image_layout(d, NULL, &unused);
}

size_t vq_vif_cpu_row_size(const VqVifDims *d)
{
    VqVifWork unused;
    return row_layout(d, NULL, &unused);
}

size_t vq_vif_cpu_scratch_size(const VqVifDims *d)
{
    return vq_vif_cpu_image_size(d) + vq_vif_cpu_row_size(d);
}

void vq_vif_work_layout(const VqVifDims *d, void *scratch, VqVifWork *wk)
{
    size_t off = image_layout(d, scratch, wk);
    row_layout(d, (uint8_t *)scratch + off, wk);
}

/* Rows of one scale's images: scale 0 reads the planes (8 or 16 bits),
 * later scales the 16-bit images of the previous one. */
typedef struct VifSrc {
    const uint8_t *ref, *dis;
    ptrdiff_t ref_stride, dis_stride; /* bytes */
    bool u8;
    const uint8_t *ref_row1, *dis_row1; /* row 1 of a one-row scale */
} VifSrc;

static void gather_rows(const VifSrc *src, int first, unsigned n, unsigned h,
                        const void **rr, const void **rd)
{
    for (unsigned k = 0; k < n; k++) {
        int y = first + (int)k;
        if (h == 1 && vq_vif_row_one_high(y)) {
            rr[k] = src->ref_row1;
            rd[k] = src->dis_row1;
            continue;
        }
        y = vq_vif_mirror(y, (int)h);
        rr[k] = src->ref + (ptrdiff_t)y * src->ref_stride;
        rd[k] = src->dis + (ptrdiff_t)y * src->dis_stride;
    }
}

static void vif_scale(const VqVifDsp *dsp, const VqVifParams *p,
                      const VqVifDims *d, unsigned s, const VifSrc *src,
                      VqVifWork *t, unsigned y0, unsigned y1,
                      VqVifScaleAcc *acc)
{
    unsigned w = d->w[s], h = d->h[s];
    bool stat = !(s == 0 && p->skip_scale0);
    bool down = s + 1 < VQ_VIF_SCALES;
    int half = VQ_VIF_HALF(s), half_down = down ? VQ_VIF_HALF(s + 1) : 0;
    VqVifVRound rnd = vq_vif_vround(s, p->bpc);
    const void *rr[VQ_VIF_MAX_TAPS], *rd[VQ_VIF_MAX_TAPS];
    for (unsigned i = y0; i < y1; i++) {
        if (stat) {
            gather_rows(src, (int)i - half, 2 * half + 1, h, rr, rd);
            dsp->stat_row(s, src->u8, rr, rd, w, rnd, t);
            vq_vif_cpu_stat_sums(dsp, p, t->s1, t->s2, t->s12, w, t, acc);
        }
        if (down && !(i & 1) && i / 2 < d->h[s + 1]) {
            size_t o = (size_t)(i / 2) * d->w[s + 1];
            gather_rows(src, (int)i - half_down, 2 * half_down + 1, h, rr, rd);
            dsp->down_row(s, src->u8, rr, rd, w, rnd, t, t->img[0][s + 1] + o,
                          t->img[1][s + 1] + o);
        }
    }
}

void vq_vif_cpu_scale_rows(const VqVifDsp *dsp, const VqVifParams *p,
                           const VqVifDims *d, unsigned s, const VqPlane *ref,
                           const VqPlane *dis, void *images, void *rows,
                           unsigned y0, unsigned y1, VqVifScaleAcc *acc)
{
    VqVifWork t;
    image_layout(d, images, &t);
    row_layout(d, rows, &t);
    VifSrc src;
    src.ref_row1 = src.dis_row1 = NULL;
    if (s == 0) {
        src.ref = ref->data;
        src.dis = dis->data;
        src.ref_stride = ref->stride;
        src.dis_stride = dis->stride;
        src.u8 = p->bpc == 8;
    } else {
        src.ref = (const uint8_t *)t.img[0][s];
        src.dis = (const uint8_t *)t.img[1][s];
        src.ref_stride = (ptrdiff_t)(d->w[s] * sizeof(uint16_t));
        src.dis_stride = src.ref_stride;
        src.u8 = false;
        if (s == VQ_VIF_SCALES - 1) {
            /* scale 2's row 1 (vq_vif_row_one_high); a one-row scale 3
             * means scale 2 has 2 or 3 rows. Scale 2 is one column
             * wide never, so its stale row buffers at column 1, which
             * a one-column scale 3 reads, are libvmaf's (VQ_VIF_EDGE_*). */
            src.ref_row1 = (const uint8_t *)(t.img[0][s - 1] + d->w[s - 1]);
            src.dis_row1 = (const uint8_t *)(t.img[1][s - 1] + d->w[s - 1]);
        }
    }
    vif_scale(dsp, p, d, s, &src, &t, y0, y1, acc);
}

void vq_vif_cpu_frame(const VqVifDsp *dsp, const VqVifParams *p,
                      const VqVifDims *d, const VqPlane *ref,
                      const VqPlane *dis, void *scratch, VqVifAcc *acc)
{
    void *rows = (uint8_t *)scratch + vq_vif_cpu_image_size(d);
    for (unsigned s = 0; s < VQ_VIF_SCALES; s++)
        vq_vif_cpu_scale_rows(dsp, p, d, s, ref, dis, scratch, rows, 0,
                              d->h[s], &acc->scale[s]);
}


VqVifParams vif_cpu_params(const VifPriv *s, unsigned bpc)
{
    VqVifParams p = {
        .bpc = bpc,
        .skip_scale0 = s->skip_scale0,
        .gain_limit = s->gain_limit,
        .log2_tab = s->log2_tab,
    };
    return p;
}

/* One scale of a frame split into row bands, each band a part
 * (vq_fex_parallel) with its own sums. */
#define VIF_MAX_PARTS 64
#define VIF_BAND_ROWS 16

typedef struct VifBands {
    const VifPriv *s;
    const VqVifParams *p;
    unsigned scale, n;
    const VqPlane *ref, *dis;
    void *images;
    VqVifScaleAcc acc[VIF_MAX_PARTS];
} VifBands;

static void vif_band(void *arg, unsigned part, void *rows)
{
    VifBands *b = arg;
    unsigned h = b->s->dims.h[b->scale];
    unsigned y0 = (unsigned)((uint64_t)h * part / b->n);
    unsigned y1 = (unsigned)((uint64_t)h * (part + 1) / b->n);
    vq_vif_cpu_scale_rows(&b->s->dsp, b->p, &b->s->dims, b->scale, b->ref,
                          b->dis, b->images, rows, y0, y1, &b->acc[part]);
}

int vif_cpu_run(VqFex *fex, const VqFrame *ref, const VqFrame *dis,
                unsigned index, void *acc, void *scratch)
{
    const VifPriv *s = fex->priv;
    VqVifParams p = vif_cpu_params(s, fex->fmt.bpc);
    /* in a ladder: the record its pass computed, when it has one */
    if (fex->cache && !vq_fex_ladder_record(fex, index, acc))
        return 0;
    unsigned threads = vq_fex_threads(fex);
    if (threads < 2 || s->dims.w[0] < VQ_VIF_SPLIT_MIN_W) {
        vq_vif_cpu_frame(&s->dsp, &p, &s->dims, &ref->plane[0],
                         &dis->plane[0], scratch, acc);
        return 0;
    }
    VqVifAcc *out = acc;
    VifBands b = { .s = s, .p = &p, .ref = &ref->plane[0],
                   .dis = &dis->plane[0], .images = scratch };
    for (unsigned sc = 0; sc < VQ_VIF_SCALES; sc++) {
        b.scale = sc;
        b.n = vq_fex_bands(fex, s->dims.h[sc], VIF_BAND_ROWS, VIF_MAX_PARTS);
        memset(b.acc, 0, sizeof(b.acc));
        int err = vq_fex_parallel(fex, b.n, vif_band, &b);
        if (err)
            return vq_fail(fex->err, err, "vif: out of memory");
        /* integer sums: the same in any order; added in band order */
        for (unsigned k = 0; k < b.n; k++) {
            out->scale[sc].num_log += b.acc[k].num_log;
            out->scale[sc].den_log += b.acc[k].den_log;
            out->scale[sc].num_non_log += b.acc[k].num_non_log;
            out->scale[sc].den_non_log += b.acc[k].den_non_log;
        }
    }
    return 0;
}
