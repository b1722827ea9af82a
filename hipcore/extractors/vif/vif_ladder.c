/*
 * Integer VIF in a ladder on the CPU (docs/LADDER.md): the ladder's pass
 * (VqFexDesc.ladder_run) computes the records of every rendition's frame
 * at once. Per scale, each row band goes in chunks of a few rows: the
 * reference's filtered mean and sigma1_sq of the chunk's rows (the split
 * row function stat_ref_row, once), then every rendition's rest of those
 * rows (stat_dis_row and the terms), while the chunk is in the cache. The
 * split functions give stat_row's and down_row's values, so each
 * rendition's record is its pair run's. Frames too small for them (rows
 * narrower than a filter read stale row buffers) are not shared.
 */
#include "base/threadpool.h"
#include "vif_priv.h"

#define PASS_BAND_ROWS 16
#define PASS_CHUNK_ROWS 8 /* the reference's rows kept: 8 x w x 8 bytes */

/* The pass's work memory: the scale images (the reference's and each
 * rendition's, scales 1..3), per band its row buffers and chunk rows, and
 * the bands' sums per rendition. NULL base: just the size. */
typedef struct PassWork {
    uint16_t *ref_img[VQ_VIF_SCALES];
    uint16_t *dis_img[VQ_LADDER_PASS_MAX][VQ_VIF_SCALES];
    uint8_t *band;        /* parts x band_bytes */
    size_t band_bytes;    /* row buffers, then m1 and s1 of a chunk */
    size_t row_bytes;
    VqVifScaleAcc *acc;   /* [rendition][part] */
} PassWork;

static void *take(uint8_t *base, size_t *off, size_t bytes)
{
    size_t at = *off;
    *off = (at + bytes + 63) & ~(size_t)63;
    return base ? base + at : NULL;
}

static size_t pass_layout(const VqVifDims *d, unsigned n, unsigned parts,
                          void *work, PassWork *pw)
{
    uint8_t *base = work;
    size_t off = 0;
    for (unsigned s = 1; s < VQ_VIF_SCALES; s++) {
        size_t bytes = (size_t)d->w[s] * d->h[s] * sizeof(uint16_t);
        pw->ref_img[s] = take(base, &off, bytes);
        for (unsigned i = 0; i < n; i++)
            pw->dis_img[i][s] = take(base, &off, bytes);
    }
    pw->row_bytes = (vq_vif_cpu_row_size(d) + 63) & ~(size_t)63;
    pw->band_bytes = pw->row_bytes +
                     (size_t)PASS_CHUNK_ROWS * d->w[0] * 2 * sizeof(uint32_t);
    pw->band = take(base, &off, parts * pw->band_bytes);
    pw->acc = take(base, &off, (size_t)n * parts * sizeof(VqVifScaleAcc));
    return off;
}

size_t vif_ladder_work_size(const VqFex *fex, unsigned n, unsigned parts)
{
    const VifPriv *s = fex->priv;
    if (s->dims.w[0] < VQ_VIF_SPLIT_MIN_W || s->dims.h[VQ_VIF_SCALES - 1] < 2 ||
        !n || n > VQ_LADDER_PASS_MAX || !parts)
        return 0;
    PassWork unused;
    return pass_layout(&s->dims, n, parts, NULL, &unused);
}

typedef struct Pass {
    const VifPriv *s;
    VqVifParams p;
    const VqLadderPass *lp;
    PassWork w;
    unsigned scale, parts;
} Pass;

/* n rows around `first` of an image of h rows, mirrored at its edges
 * (every scale has 2 rows at least here). */
static void rows_at(const uint8_t *base, ptrdiff_t stride, int first,
                    unsigned n, unsigned h, const void **out)
{
    for (unsigned k = 0; k < n; k++)
        out[k] = base + (ptrdiff_t)vq_vif_mirror(first + (int)k, (int)h) *
                            stride;
}

/* Scale s's image of the reference (i < 0) or of rendition i. */
static const uint8_t *image(const Pass *ps, int i, unsigned s,
                            ptrdiff_t *stride)
{
    if (s == 0) {
        const VqPlane *pl = i < 0 ? &ps->lp->ref->plane[0]
                                  : &ps->lp->dis[i]->plane[0];
        *stride = pl->stride;
        return pl->data;
    }
    *stride = (ptrdiff_t)(ps->s->dims.w[s] * sizeof(uint16_t));
    return (const uint8_t *)(i < 0 ? ps->w.ref_img[s] : ps->w.dis_img[i][s]);
}

static void pass_band(void *arg, unsigned part)
{
    Pass *ps = arg;
    const VqVifDims *d = &ps->s->dims;
    const VqVifDsp *dsp = &ps->s->dsp;
    unsigned s = ps->scale, w = d->w[s], h = d->h[s];
    unsigned y0 = (unsigned)((uint64_t)h * part / ps->parts);
    unsigned y1 = (unsigned)((uint64_t)h * (part + 1) / ps->parts);
    uint8_t *band = ps->w.band + part * ps->w.band_bytes;
    VqVifWork t;
    vq_vif_row_layout(d, band, &t);
    uint32_t *m1 = (uint32_t *)(void *)(band + ps->w.row_bytes);
    int32_t *s1 = (int32_t *)(void *)(m1 + (size_t)PASS_CHUNK_ROWS * d->w[0]);
    bool stat = !(s == 0 && ps->p.skip_scale0), down = s + 1 < VQ_VIF_SCALES;
    bool u8 = s == 0 && ps->p.bpc == 8;
    int half = VQ_VIF_HALF(s), half_down = down ? VQ_VIF_HALF(s + 1) : 0;
    VqVifVRound rnd = vq_vif_vround(s, ps->p.bpc);
    const void *rr[VQ_VIF_MAX_TAPS], *rd[VQ_VIF_MAX_TAPS];
    ptrdiff_t rstride, dstride;
    const uint8_t *rsrc = image(ps, -1, s, &rstride);
    for (unsigned c0 = y0; c0 < y1; c0 += PASS_CHUNK_ROWS) {
        unsigned c1 = c0 + PASS_CHUNK_ROWS < y1 ? c0 + PASS_CHUNK_ROWS : y1;
        for (unsigned i = c0; i < c1; i++) {
            size_t o = (size_t)(i - c0) * w;
            if (stat) {
                rows_at(rsrc, rstride, (int)i - half, 2 * half + 1, h, rr);
                dsp->stat_ref_row(s, u8, rr, w, rnd, &t, m1 + o, s1 + o);
            }
            if (down && !(i & 1) && i / 2 < d->h[s + 1]) {
                rows_at(rsrc, rstride, (int)i - half_down, 2 * half_down + 1,
                        h, rr);
                dsp->down_one_row(s, u8, rr, w, rnd, &t,
                                  ps->w.ref_img[s + 1] +
                                      (size_t)(i / 2) * d->w[s + 1]);
            }
        }
        for (unsigned q = 0; q < ps->lp->n; q++) {
            if (!ps->lp->dis[q])
                continue;
            const uint8_t *dsrc = image(ps, (int)q, s, &dstride);
            VqVifScaleAcc *acc = &ps->w.acc[(size_t)q * ps->parts + part];
            for (unsigned i = c0; i < c1; i++) {
                size_t o = (size_t)(i - c0) * w;
                if (stat) {
                    rows_at(rsrc, rstride, (int)i - half, 2 * half + 1, h, rr);
                    rows_at(dsrc, dstride, (int)i - half, 2 * half + 1, h, rd);
                    dsp->stat_dis_row(s, u8, rr, rd, w, rnd, &t, m1 + o);
                    vq_vif_cpu_stat_sums(dsp, &ps->p, s1 + o, t.s2, t.s12, w,
                                         &t, acc);
                }
                if (down && !(i & 1) && i / 2 < d->h[s + 1]) {
                    rows_at(dsrc, dstride, (int)i - half_down,
                            2 * half_down + 1, h, rd);
                    dsp->down_one_row(s, u8, rd, w, rnd, &t,
                                      ps->w.dis_img[q][s + 1] +
                                          (size_t)(i / 2) * d->w[s + 1]);
                }
            }
        }
    }
}

int vif_ladder_run(const VqFex *fex, const VqLadderPass *lp)
{
    Pass ps = { .s = fex->priv, .lp = lp };
    ps.p = vif_cpu_params(ps.s, fex->fmt.bpc);
    pass_layout(&ps.s->dims, lp->n, lp->parts, lp->work, &ps.w);
    for (unsigned sc = 0; sc < VQ_VIF_SCALES; sc++) {
        unsigned h = ps.s->dims.h[sc], parts = h / PASS_BAND_ROWS;
        ps.scale = sc;
        ps.parts = parts < 1 ? 1 : parts > lp->parts ? lp->parts : parts;
        memset(ps.w.acc, 0, (size_t)lp->n * ps.parts * sizeof(VqVifScaleAcc));
        vq_parallel_for(lp->pool, ps.parts, pass_band, &ps);
        /* integer sums: the same in any order; added in band order */
        for (unsigned q = 0; q < lp->n; q++) {
            if (!lp->dis[q])
                continue;
            VqVifScaleAcc *out = &((VqVifAcc *)lp->acc[q])->scale[sc];
            for (unsigned k = 0; k < ps.parts; k++) {
                const VqVifScaleAcc *a = &ps.w.acc[(size_t)q * ps.parts + k];
                out->num_log += a->num_log;
                out->den_log += a->den_log;
                out->num_non_log += a->num_non_log;
                out->den_non_log += a->den_non_log;
            }
        }
    }
    return 0;
}
