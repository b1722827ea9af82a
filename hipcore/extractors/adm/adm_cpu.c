/*
 * Integer ADM, CPU path. Each scale streams over its output rows: the DWT of
 * row i (both pictures), the denominator of row i, decoupling and CSF of row
 * i, then the contrast masking of row i - 1, whose 3x3 neighbourhood is now
 * complete. Rows live in a ring of three; only the approximation band goes
 * to a full plane (the next scale's input).
 *
 * The masking threshold of libvmaf is a sum over three bands of eight
 * neighbours' |csf|/30 plus the centre's |csf|/15, all int32 additions; it
 * is regrouped here as box sums of the band-summed filter input, which is
 * the same integer.
 */
#include <stdlib.h>
#include <string.h>

#include "adm_priv.h"

static size_t align_elems(size_t n)
{
    return (n + 15) & ~(size_t)15;
}

size_t vq_adm_cpu_scratch_size(AdmPriv *s)
{
    const VqAdmParams *p = &s->p;
    size_t off = 0;
    for (int k = 0; k < 3; k++) {
        s->plane_stride[k] = align_elems((size_t)p->sc[k].w);
        s->scratch_off[k] = off;
        off += 2 * s->plane_stride[k] * (size_t)p->sc[k].h * sizeof(int32_t);
    }
    size_t in_row = align_elems((size_t)p->sc[0].in_w + 4);
    size_t row = align_elems((size_t)p->sc[0].w + 2);
    s->scratch_off[3] = off;
    s->rows_size = (4 * in_row + (6 + 5 + 3 * 10) * row) * sizeof(int32_t);
    return off + s->rows_size;
}

static void map_rows(const AdmPriv *s, void *rows, AdmRows *r)
{
    size_t in_row = align_elems((size_t)s->p.sc[0].in_w + 4);
    size_t row = align_elems((size_t)s->p.sc[0].w + 2);
    int32_t *q = rows;
    for (int i = 0; i < 2; i++) {
        r->lo[i] = q + 1;
        q += in_row;
        r->hi[i] = q + 1;
        q += in_row;
    }
    for (int i = 0; i < 2; i++)
        for (int b = 0; b < 3; b++) {
            r->band[i][b] = q;
            q += row;
        }
    r->f_n = q + 1;
    q += row;
    r->f_m = q + 1;
    q += row;
    r->angle = q;
    q += row;
    r->thr_n = q;
    q += row;
    r->thr_m = q;
    q += row;
    for (int k = 0; k < 3; k++) {
        for (int b = 0; b < 3; b++) {
            r->x_r[k][b] = q;
            q += row;
            r->x_a[k][b] = q;
            q += row;
        }
        r->hsum_n[k] = q;
        q += row;
        r->hsum_m[k] = q;
        q += row;
        r->ctr_n[k] = q;
        q += row;
        r->ctr_m[k] = q;
        q += row;
    }
}

/* The decoupling/CSF region: libvmaf computes it one sample (plus filter
 * taps) beyond the scored region, which covers every masking neighbour. */
static void csf_span(int n, int *lo, int *hi)
{
    int l = (int)(n * 0.1 - 0.5 - 1);
    int r = n - l + 2;
    *lo = l < 0 ? 0 : l;
    *hi = r > n ? n : r;
}

/* ---- denominator --------------------------------------------------------- */

static void den_row(const AdmPriv *s, const VqAdmScale *sc, const AdmRows *r,
                    VqAdmAcc *acc)
{
    for (int b = 0; b < 3; b++) {
        uint64_t sum =
            sc->scale == 0
                ? s->dsp.den0(r->band[0][b], sc->left, sc->right)
                : s->dsp.den123(r->band[0][b], sc->left, sc->right,
                                sc->den_sq_shift, sc->den_sq_add,
                                sc->den_cub_shift, sc->den_cub_add);
        acc->den[sc->scale][b] +=
            vq_adm_row_unsigned(sum, sc->den_row_shift, sc->den_row_add);
    }
}

/* ---- decoupling and CSF ---------------------------------------------------- */

static void decouple_csf_row(const AdmPriv *s, const VqAdmScale *sc,
                             AdmRows *r, int k, int c0, int c1)
{
    const int32_t *const o[3] = { r->band[0][0], r->band[0][1], r->band[0][2] };
    const int32_t *const t[3] = { r->band[1][0], r->band[1][1], r->band[1][2] };
    const VqAdmDecouple dp = { s->recip + 32768, s->p.egl, s->p.egl_int,
                               s->p.cos1_sq };
    if (sc->scale == 0) {
        s->dsp.decouple0(o, t, c0, c1, &dp, r->x_r[k], r->x_a[k]);
        s->dsp.csf0((const int32_t *const *)r->x_a[k],
                    (const int32_t *const *)r->x_r[k], sc->rfactor, c0, c1,
                    r->f_n, r->f_m, r->ctr_n[k], r->ctr_m[k]);
    } else {
        s->dsp.decouple123(o, t, c0, c1, &dp, r->x_r[k], r->x_a[k]);
        s->dsp.csf123((const int32_t *const *)r->x_a[k],
                      (const int32_t *const *)r->x_r[k], sc->rfactor, c0, c1,
                      r->f_n, r->f_m, r->ctr_n[k], r->ctr_m[k]);
    }
}

static void box3_rows(const int32_t *restrict fn, const int32_t *restrict fm,
                      int j0, int j1, int32_t *restrict hn, int32_t *restrict hm,
                      int32_t *restrict cn, int32_t *restrict cm)
{
    for (int j = j0; j < j1; j++) {
        hn[j] = (int32_t)((uint32_t)fn[j - 1] + (uint32_t)fn[j] + (uint32_t)fn[j + 1]);
        hm[j] = (int32_t)((uint32_t)fm[j - 1] + (uint32_t)fm[j] + (uint32_t)fm[j + 1]);
        cn[j] = (int32_t)((uint32_t)cn[j] - (uint32_t)fn[j]);
        cm[j] = (int32_t)((uint32_t)cm[j] - (uint32_t)fm[j]);
    }
}

/* Horizontal 3-sums of the masking input over the scored columns, and the
 * centre correction (centre tap minus the box's centre). */
static void mask_sums(const VqAdmScale *sc, AdmRows *r, int k, int c0, int c1)
{
    int32_t *f_n = r->f_n, *f_m = r->f_m;
    if (c0 == 0) {
        f_n[-1] = f_n[1];
        f_m[-1] = f_m[1];
    }
    if (c1 == sc->w) {
        f_n[sc->w] = f_n[sc->w - 1];
        f_m[sc->w] = f_m[sc->w - 1];
    }
    box3_rows(r->f_n, r->f_m, sc->left, sc->right, r->hsum_n[k], r->hsum_m[k],
              r->ctr_n[k], r->ctr_m[k]);
}

/* ---- contrast masking ---------------------------------------------------- */

/* Masking thresholds of row i (3x3 box of the band-summed input minus the
 * centre, plus the centre tap) for the non-AIM and AIM passes. */
static void thresholds(const VqAdmScale *sc, const AdmRows *r, int i,
                       int32_t *restrict thr_n, int32_t *restrict thr_m)
{
    int up = vq_adm_mirror(i - 1, sc->h) % 3, mid = i % 3,
        dn = vq_adm_mirror(i + 1, sc->h) % 3;
    const int32_t *restrict n0 = r->hsum_n[up], *restrict n1 = r->hsum_n[mid],
                            *restrict n2 = r->hsum_n[dn], *restrict cn = r->ctr_n[mid];
    const int32_t *restrict m0 = r->hsum_m[up], *restrict m1 = r->hsum_m[mid],
                            *restrict m2 = r->hsum_m[dn], *restrict cm = r->ctr_m[mid];
    const int j0 = sc->left, j1 = sc->right;
    for (int j = j0; j < j1; j++) {
        thr_n[j] = (int32_t)((uint32_t)n0[j] + (uint32_t)n1[j] + (uint32_t)n2[j] +
                             (uint32_t)cn[j]);
        thr_m[j] = (int32_t)((uint32_t)m0[j] + (uint32_t)m1[j] + (uint32_t)m2[j] +
                             (uint32_t)cm[j]);
    }
}

static void add_signed(int64_t *acc, int64_t v)
{
    *acc = (int64_t)((uint64_t)*acc + (uint64_t)v);
}

static void cm_row(const AdmPriv *s, const VqAdmScale *sc, AdmRows *r, int i,
                   VqAdmAcc *acc)
{
    thresholds(sc, r, i, r->thr_n, r->thr_m);
    int mid = i % 3, k = sc->scale;
    for (int b = 0; b < 3; b++) {
        uint32_t rf = sc->rfactor[b];
        int cs = sc->cm_cub_shift[b];
        int64_t ca = sc->cm_cub_add[b];
        uint64_t sum_n, sum_m = 0;
        if (k == 0) {
            sum_n = s->dsp.cm0(r->x_r[mid][b], r->thr_n, rf, b, cs, ca,
                               sc->left, sc->right);
            if (!s->p.skip_aim)
                sum_m = s->dsp.cm0(r->x_a[mid][b], r->thr_m, rf, b, cs, ca,
                                   sc->left, sc->right);
        } else {
            sum_n = s->dsp.cm123(r->x_r[mid][b], r->thr_n, rf, cs, ca,
                                 sc->left, sc->right);
            if (!s->p.skip_aim)
                sum_m = s->dsp.cm123(r->x_a[mid][b], r->thr_m, rf, cs, ca,
                                     sc->left, sc->right);
        }
        add_signed(&acc->num[k][b],
                   vq_adm_row_signed(sum_n, sc->cm_row_shift, sc->cm_row_add));
        add_signed(&acc->aim[k][b],
                   vq_adm_row_signed(sum_m, sc->cm_row_shift, sc->cm_row_add));
    }
}

/* ---- one scale ----------------------------------------------------------- */

/* Output rows [a, b) of one scale: their approximation rows, denominator
 * and masking sums. The masking of row i needs the CSF of rows i - 1 and
 * i + 1, so rows a - 1 and b are decoupled too (not scored). */
static void adm_scale(const AdmPriv *s, const VqAdmScale *sc,
                      const AdmInput *in, int32_t *out[2], size_t out_stride,
                      AdmRows *r, int a, int b, VqAdmAcc *acc,
                      const AdmProduct *prod)
{
    int k = sc->scale;
    int hvd = !(k == 0 && s->p.skip_scale0);
    int c0, c1, r0, r1;
    csf_span(sc->w, &c0, &c1);
    csf_span(sc->h, &r0, &r1);
    int i0 = a > 0 ? a - 1 : 0, i1 = b < sc->h ? b + 1 : sc->h;
    for (int i = i0; i < i1; i++) {
        int own = i >= a && i < b;
        int32_t *a_out[2] = { NULL, NULL };
        if (out && own) {
            a_out[0] = prod ? NULL : out[0] + (size_t)i * out_stride;
            a_out[1] = out[1] + (size_t)i * out_stride;
        }
        int in_csf = hvd && i >= r0 && i < r1;
        if (!own && !in_csf)
            continue;
        /* with a product, the reference's row is read from it */
        for (int q = 0; prod && in_csf && q < 3; q++)
            r->band[0][q] = prod->band[k][q] + (size_t)i * sc->w;
        vq_adm_dwt_row(s, sc, in, i, in_csf, c0, c1, a_out, r, prod ? 2 : 3);
        if (!in_csf)
            continue;
        if (!prod && own && i >= sc->top && i < sc->bottom)
            den_row(s, sc, r, acc);
        decouple_csf_row(s, sc, r, i % 3, c0, c1);
        mask_sums(sc, r, i % 3, c0, c1);
        if (i - 1 >= a && i - 1 < b && i - 1 >= sc->top && i - 1 < sc->bottom)
            cm_row(s, sc, r, i - 1, acc);
    }
    if (hvd && b == sc->h && sc->h - 1 >= sc->top && sc->h - 1 < sc->bottom)
        cm_row(s, sc, r, sc->h - 1, acc);
}

/* Rows [a, b) of scale k's reference part: its approximation and detail
 * rows into the product, its denominator into den. */
void vq_adm_cpu_ref_rows(const AdmPriv *s, int k, const VqPlane *ref,
                         const AdmProduct *prod, void *rows, int a, int b,
                         VqAdmAcc *den)
{
    AdmRows r;
    map_rows(s, rows, &r);
    const VqAdmScale *sc = &s->p.sc[k];
    AdmInput in;
    memset(&in, 0, sizeof(in));
    if (k == 0) {
        in.data[0] = ref->data;
        in.stride[0] = ref->stride;
        in.bytes = s->p.bpc > 8 ? 2 : 1;
    } else {
        in.data[0] = (const uint8_t *)prod->approx[k - 1];
        in.stride[0] = (ptrdiff_t)(s->plane_stride[k - 1] * sizeof(int32_t));
        in.bytes = 4;
    }
    int hvd = !(k == 0 && s->p.skip_scale0);
    int c0, c1, r0, r1;
    csf_span(sc->w, &c0, &c1);
    csf_span(sc->h, &r0, &r1);
    for (int i = a; i < b; i++) {
        int32_t *a_out[2] = { NULL, NULL };
        if (k < 3)
            a_out[0] = prod->approx[k] + (size_t)i * s->plane_stride[k];
        int in_csf = hvd && i >= r0 && i < r1;
        for (int q = 0; in_csf && q < 3; q++)
            r.band[0][q] = prod->band[k][q] + (size_t)i * sc->w;
        if (!a_out[0] && !in_csf)
            continue;
        vq_adm_dwt_row(s, sc, &in, i, in_csf, c0, c1, a_out, &r, 1);
        if (in_csf && i >= sc->top && i < sc->bottom)
            den_row(s, sc, &r, den);
    }
}

void vq_adm_cpu_scale_rows(const AdmPriv *s, int k, const VqPlane *ref,
                           const VqPlane *dis, void *planes, void *rows,
                           int a, int b, VqAdmAcc *acc)
{
    vq_adm_cpu_scale_rows_with(s, k, ref, dis, planes, rows, a, b, acc, NULL);
}

void vq_adm_cpu_scale_rows_with(const AdmPriv *s, int k, const VqPlane *ref,
                                const VqPlane *dis, void *planes, void *rows,
                                int a, int b, VqAdmAcc *acc,
                                const AdmProduct *prod)
{
    AdmRows r;
    map_rows(s, rows, &r);
    const VqAdmScale *sc = &s->p.sc[k];
    AdmInput in;
    if (k == 0) {
        in.data[0] = ref->data;
        in.data[1] = dis->data;
        in.stride[0] = ref->stride;
        in.stride[1] = dis->stride;
        in.bytes = s->p.bpc > 8 ? 2 : 1;
    } else {
        size_t st = s->plane_stride[k - 1];
        const int32_t *prev = (const int32_t *)((char *)planes +
                                                s->scratch_off[k - 1]);
        in.data[0] = (const uint8_t *)prev;
        in.data[1] = (const uint8_t *)(prev + st * (size_t)s->p.sc[k - 1].h);
        in.stride[0] = in.stride[1] = (ptrdiff_t)(st * sizeof(int32_t));
        in.bytes = 4;
    }
    int32_t *out[2] = { NULL, NULL };
    size_t stride = 0;
    if (k < 3) {
        stride = s->plane_stride[k];
        out[0] = (int32_t *)((char *)planes + s->scratch_off[k]);
        out[1] = out[0] + stride * (size_t)sc->h;
    }
    adm_scale(s, sc, &in, k < 3 ? out : NULL, stride, &r, a, b, acc, prod);
}

void vq_adm_cpu_frame(const AdmPriv *s, const VqPlane *ref, const VqPlane *dis,
                      VqAdmAcc *acc, void *scratch)
{
    void *rows = (char *)scratch + s->scratch_off[3];
    for (int k = 0; k < 4; k++)
        vq_adm_cpu_scale_rows(s, k, ref, dis, scratch, rows, 0, s->p.sc[k].h,
                              acc);
}

/* One scale of a frame split into row bands, each band a part
 * (vq_fex_parallel) with its own sums. A band decouples one row more on
 * each side than it scores: bands of fewer rows than ADM_BAND_ROWS would
 * spend too much on those. */
#define ADM_MAX_PARTS 64
#define ADM_BAND_ROWS 24

typedef struct AdmBands {
    const AdmPriv *s;
    int scale, n;
    const VqPlane *ref, *dis;
    void *planes;
    VqAdmAcc acc[ADM_MAX_PARTS];
} AdmBands;

static void adm_band(void *arg, unsigned part, void *rows)
{
    AdmBands *b = arg;
    int h = b->s->p.sc[b->scale].h;
    int y0 = (int)((int64_t)h * part / b->n);
    int y1 = (int)((int64_t)h * (part + 1) / b->n);
    vq_adm_cpu_scale_rows(b->s, b->scale, b->ref, b->dis, b->planes, rows, y0,
                          y1, &b->acc[part]);
}

void vq_adm_add_acc(VqAdmAcc *to, const VqAdmAcc *a)
{
    for (int k = 0; k < 4; k++)
        for (int b = 0; b < 3; b++) {
            to->num[k][b] = (int64_t)((uint64_t)to->num[k][b] + (uint64_t)a->num[k][b]);
            to->aim[k][b] = (int64_t)((uint64_t)to->aim[k][b] + (uint64_t)a->aim[k][b]);
            to->den[k][b] += a->den[k][b];
        }
}

int adm_cpu_run(VqFex *fex, const VqFrame *ref, const VqFrame *dis,
                unsigned index, void *acc, void *scratch)
{
    const AdmPriv *s = fex->priv;
    if (fex->cache) {
        int shared = adm_cpu_run_shared(fex, ref, dis, index, acc, scratch);
        if (shared <= 0)
            return shared;
        /* no product to be had: the frame is computed here */
    }
    unsigned threads = vq_fex_threads(fex);
    if (threads < 2) {
        vq_adm_cpu_frame(s, &ref->plane[0], &dis->plane[0], acc, scratch);
        return 0;
    }
    AdmBands *b = malloc(sizeof(*b));
    if (!b)
        return vq_fail(fex->err, VQ_ENOMEM, "adm: out of memory");
    b->s = s;
    b->ref = &ref->plane[0];
    b->dis = &dis->plane[0];
    b->planes = scratch;
    int err = 0;
    for (int k = 0; k < 4 && !err; k++) {
        b->scale = k;
        b->n = (int)vq_fex_bands(fex, (unsigned)s->p.sc[k].h, ADM_BAND_ROWS,
                                 ADM_MAX_PARTS);
        memset(b->acc, 0, sizeof(b->acc));
        err = vq_fex_parallel(fex, (unsigned)b->n, adm_band, b);
        /* integer sums: the same in any order; added in band order */
        for (int part = 0; !err && part < b->n; part++)
            vq_adm_add_acc(acc, &b->acc[part]);
    }
    free(b);
    return err ? vq_fail(fex->err, err, "adm: out of memory") : 0;
}
