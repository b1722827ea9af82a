/*
 * CAMBI's CPU path: preprocessing, spatial mask, the five scales; the
 * c-values and the pooling are in cambi_cvalues.c. One frame per call;
 * everything it writes is in the record and the per-worker scratch.
 */
#include <stdlib.h>
#include <string.h>

#include "../common/gpu_fn.h"
#include "core/refcache.h"
#include "cambi_priv.h"

enum { SCR_PRE, SCR_IMG, SCR_MASK, SCR_MASK_S, SCR_HIST, SCR_CVAL, SCR_ROWS,
       SCR_TOPK, SCR_END };

static size_t align64(size_t n)
{
    return (n + 63) & ~(size_t)63;
}

/* ---- preprocessing -------------------------------------------------------- */

static uint64_t count_bad(const VqPlane *p, unsigned bpc)
{
    if (bpc != 10 && bpc != 12)
        return 0;
    uint64_t n = 0;
    const unsigned max = (1u << bpc) - 1;
    for (unsigned y = 0; y < p->h; y++) {
        const uint16_t *r = (const uint16_t *)(const void *)(p->data + (ptrdiff_t)y * p->stride);
        for (unsigned x = 0; x < p->w; x++)
            n += r[x] > max;
    }
    return n;
}

/* The luma at the scored size as 10-bit samples, then libvmaf's
 * anti-dithering (a 2x2 mean, in raster order; each output reads only
 * samples not yet rewritten). */
static void preprocess(const CambiPriv *s, const CambiImage *im,
                       const VqPlane *p, unsigned bpc, uint16_t *out)
{
    const unsigned w = im->w, h = im->h;
    for (unsigned y = 0; y < h; y++) {
        const uint8_t *row = p->data + (ptrdiff_t)(im->ymap ? (unsigned)im->ymap[y] : y) * p->stride;
        const uint16_t *r16 = (const uint16_t *)(const void *)row;
        uint16_t *o = out + (size_t)y * w;
        if (im->xmap && bpc == 8) {
            for (unsigned x = 0; x < w; x++)
                o[x] = (uint16_t)vq_cambi_to10(row[im->xmap[x]], 8);
        } else if (im->xmap) {
            for (unsigned x = 0; x < w; x++)
                o[x] = (uint16_t)vq_cambi_to10(r16[im->xmap[x]], bpc);
        } else if (bpc == 8) {
            for (unsigned x = 0; x < w; x++)
                o[x] = (uint16_t)vq_cambi_to10(row[x], 8);
        } else {
            for (unsigned x = 0; x < w; x++)
                o[x] = (uint16_t)vq_cambi_to10(r16[x], bpc);
        }
    }
    if (!s->anti_dither)
        return;
    for (unsigned y = 0; y + 1 < h; y++) {
        uint16_t *a = out + (size_t)y * w, *b = a + w;
        for (unsigned x = 0; x + 1 < w; x++)
            a[x] = (uint16_t)((a[x] + a[x + 1] + b[x] + b[x + 1]) >> 2);
        a[w - 1] = (uint16_t)((a[w - 1] + b[w - 1]) >> 1);
    }
    uint16_t *a = out + (size_t)(h - 1) * w;
    for (unsigned x = 0; x + 1 < w; x++)
        a[x] = (uint16_t)((a[x] + a[x + 1]) >> 1);
}

/* ---- spatial mask ----------------------------------------------------------- */

/* 1 where a sample equals its right and lower neighbours (the picture's
 * last column and row count as equal). */
static void zero_deriv_row(const uint16_t *img, unsigned w, unsigned h,
                           unsigned r, uint8_t *d)
{
    const uint16_t *p = img + (size_t)r * w;
    const uint16_t *q = r + 1 < h ? p + w : p;
    for (unsigned x = 0; x + 1 < w; x++)
        d[x] = (uint8_t)((p[x] == p[x + 1]) & (p[x] == q[x]));
    d[w - 1] = (uint8_t)(p[w - 1] == q[w - 1]);
}

/* mask = (zero-derivative samples in the clipped 7x7 window) > index.
 * rows: 8 derivative rows of w and the column sums with R zeros on each
 * side. */
static void spatial_mask(const CambiPriv *s, const uint16_t *img, unsigned w, unsigned h,
                         unsigned index, uint8_t *mask, uint8_t *rows)
{
    const int R = VQ_CAMBI_MASK_RADIUS;
    uint8_t *vs = rows + 8 * (size_t)w + R; /* column sums over the 7 rows */
    memset(vs - R, 0, w + 2 * R);
    for (int r = 0; r < R && r < (int)h; r++) {
        uint8_t *d = rows + (size_t)(r & 7) * w;
        zero_deriv_row(img, w, h, (unsigned)r, d);
        for (unsigned x = 0; x < w; x++)
            vs[x] += d[x];
    }
    for (int i = 0; i < (int)h; i++) {
        if (i + R < (int)h) {
            uint8_t *d = rows + (size_t)((i + R) & 7) * w;
            zero_deriv_row(img, w, h, (unsigned)(i + R), d);
            for (unsigned x = 0; x < w; x++)
                vs[x] += d[x];
        }
        uint8_t *m = mask + (size_t)i * w;
        s->dsp.mask_row(m, vs - R, w, index);
        if (i - R >= 0) {
            const uint8_t *d = rows + (size_t)((i - R) & 7) * w;
            for (unsigned x = 0; x < w; x++)
                vs[x] -= d[x];
        }
    }
}

/* ---- scales ----------------------------------------------------------------- */

/* out = 3x3 mode filter of `in` (decimated by 2 first when dec), with
 * libvmaf's edges: first/last column keep the horizontal input, first/last
 * row the sample itself. */
static void mode_scale(const CambiPriv *s, const uint16_t *in, unsigned in_w,
                       int dec, uint16_t *out, unsigned w, unsigned h,
                       uint16_t *hb)
{
    for (unsigned y = 0; y < h; y++) {
        uint16_t *o = out + (size_t)y * w;
        if (dec) {
            const uint16_t *r = in + (size_t)(2 * y) * in_w;
            for (unsigned x = 0; x < w; x++)
                o[x] = r[2 * x];
        } else {
            memcpy(o, in + (size_t)y * in_w, w * sizeof(*o));
        }
    }
    for (unsigned y = 0; y < h; y++) {
        uint16_t *b = hb + (size_t)(y % 3) * w;
        s->dsp.hmode(b, out + (size_t)y * w, w);
        if (y >= 2)
            s->dsp.vmode(out + (size_t)(y - 1) * w, hb + (size_t)((y - 2) % 3) * w,
                     hb + (size_t)((y - 1) % 3) * w, b, w);
    }
}

size_t cambi_cpu_init(CambiPriv *s)
{
    vq_cambi_dsp_init(&s->dsp, vq_cpu_flags());
    size_t pix = 0, w = 0, pix0 = 0, w0 = 0;
    for (unsigned i = 0; i < s->n_images; i++) {
        const CambiImage *im = &s->img[i];
        size_t n = (size_t)im->w * im->h, n0 = (size_t)im->sw[0] * im->sh[0];
        pix = n > pix ? n : pix;
        w = im->w > w ? im->w : w;
        pix0 = n0 > pix0 ? n0 : pix0;
        w0 = im->sw[0] > w0 ? im->sw[0] : w0;
    }
    size_t size[SCR_END] = {
        [SCR_PRE] = pix * 2,
        [SCR_IMG] = pix * 2,
        [SCR_MASK] = pix,
        [SCR_MASK_S] = pix0,
        [SCR_HIST] = (size_t)s->luts.band * w0 * 2,
        [SCR_CVAL] = pix0 * sizeof(float),
        /* mask rows (8 + 1 bytes + margins) or mode rows (3 samples) or
         * event and zero rows (3 samples) */
        [SCR_ROWS] = 9 * w + 2 * VQ_CAMBI_MASK_RADIUS,
        [SCR_TOPK] = sizeof(CambiTopkHist),
    };
    size_t off = 0;
    for (unsigned k = 0; k < SCR_END; k++) {
        s->scratch_off[k] = off;
        off += align64(size[k]);
    }
    return off;
}

/* ---- one image ------------------------------------------------------------------- */

static void score_image(const CambiPriv *s, unsigned idx, const VqPlane *p,
                        unsigned bpc, uint8_t *scr, VqCambiAcc *acc,
                        uint16_t *heat)
{
    const CambiImage *im = &s->img[idx];
    uint16_t *pre = (uint16_t *)(void *)(scr + s->scratch_off[SCR_PRE]);
    uint16_t *img = (uint16_t *)(void *)(scr + s->scratch_off[SCR_IMG]);
    uint8_t *mask = scr + s->scratch_off[SCR_MASK];
    uint8_t *mask_s = scr + s->scratch_off[SCR_MASK_S];
    uint16_t *hist = (uint16_t *)(void *)(scr + s->scratch_off[SCR_HIST]);
    float *cval = (float *)(void *)(scr + s->scratch_off[SCR_CVAL]);
    uint8_t *rows = scr + s->scratch_off[SCR_ROWS];
    CambiTopkHist *topk = (CambiTopkHist *)(void *)(scr + s->scratch_off[SCR_TOPK]);

    acc->n_bad[idx] = count_bad(p, bpc);
    preprocess(s, im, p, bpc, pre);
    spatial_mask(s, pre, im->w, im->h, im->mask_index, mask, rows);

    /* scale k reads scale k - 1 (or the preprocessed picture) from one
     * buffer and writes the other */
    uint16_t *in = pre, *out = img;
    unsigned in_w = im->w;
    for (unsigned k = 0; k < VQ_CAMBI_SCALES; k++) {
        const unsigned w = im->sw[k], h = im->sh[k], sh = im->mask_shift[k];
        mode_scale(s, in, in_w, k || s->speedup, out, w, h,
                   (uint16_t *)(void *)rows);
        const uint8_t *m = mask;
        if (sh) {
            for (unsigned y = 0; y < h; y++)
                for (unsigned x = 0; x < w; x++)
                    mask_s[(size_t)y * w + x] =
                        mask[((size_t)y << sh) * im->w + ((size_t)x << sh)];
            m = mask_s;
        }
        cambi_cvalues(s, out, m, w, h, im->pad, hist, (uint16_t *)(void *)rows,
                      cval, topk);
        if (heat) {
            cambi_heatmap_row(s, cval, w * h, heat);
            heat += (size_t)w * h;
        }
        acc->topk_sum[idx][k] = cambi_topk_sum(cval, (uint64_t)w * h, im->k[k],
                                               topk);
        uint16_t *t = in;
        in = out;
        out = t;
        in_w = w;
    }
}

/* A ladder (docs/LADDER.md): with full_ref the reference's part of the
 * record (its scales' top-k sums, its out-of-range count) is a product
 * computed once per frame for every rendition (core/refcache.h), by
 * score_image as a pair run computes it. */
size_t cambi_ref_product_size(const VqFex *fex)
{
    const CambiPriv *s = fex->priv;
    return s->full_ref ? sizeof(VqCambiAcc) : 0;
}

typedef struct RefArg {
    const CambiPriv *s;
    const VqPlane *ref;
    unsigned bpc;
    uint8_t *scratch;
} RefArg;

static int ref_product(void *arg, void *product)
{
    const RefArg *a = arg;
    memset(product, 0, sizeof(VqCambiAcc));
    score_image(a->s, 1, a->ref, a->bpc, a->scratch, product, NULL);
    return 0;
}

int cambi_cpu_run(VqFex *fex, const VqFrame *ref, const VqFrame *dis,
                  unsigned index, void *acc, void *scratch)
{
    const CambiPriv *s = fex->priv;
    VqCambiAcc *a = acc;
    uint16_t *heat = s->heatmaps_path[0] ? (uint16_t *)(void *)(a + 1) : NULL;
    score_image(s, 0, &dis->plane[0], fex->fmt.bpc, scratch, a, heat);
    if (!s->full_ref)
        return 0;
    if (fex->cache) {
        RefArg ra = { s, &ref->plane[0], fex->fmt.bpc, scratch };
        const void *product;
        int err = vq_refcache_get(fex->cache, fex->share_user, index,
                                  ref_product, &ra, &product, fex->err);
        if (err)
            return err;
        if (product) {
            const VqCambiAcc *p = product;
            memcpy(a->topk_sum[1], p->topk_sum[1], sizeof(a->topk_sum[1]));
            a->n_bad[1] = p->n_bad[1];
            vq_refcache_put(fex->cache, fex->share_user, index);
            return 0;
        }
        /* no product to be had: computed here */
    }
    score_image(s, 1, &ref->plane[0], fex->fmt.bpc, scratch, a, NULL);
    return 0;
}
