/*
 * SpEED's CPU path: one image from its source planes to per-block variances
 * and entropies, and a pair's record. The arithmetic per sample and per
 * matrix element is kernels/speed/speed*.h's, shared with the kernels; the
 * loops here only choose an order that is fast on a CPU without changing any
 * element's sequence of operations:
 *   - anti-alias filter without prescale: the vertical sums of a kept row
 *     for all columns at once (each column's sum runs over the taps in
 *     order), then the horizontal sums at the kept columns;
 *   - means: the 25 sums advance together, each in libvmaf's row-major
 *     order;
 *   - covariance: per window position, the 25 centred samples in double,
 *     then every entry of the lower triangle takes its next product; each
 *     entry's sum is libvmaf's sequence (scalar kernel order), while the
 *     entries of a row of the triangle advance side by side in vectors.
 * The row loops are speed_dsp.c's, chosen for the CPU at setup.
 */
#include <stdlib.h>
#include <string.h>

#include "speed_engine.h"

#define ALIGN_FLOATS(n) (((n) + 15) & ~(size_t)15)
#define ACC_DOUBLES (VQ_SPEED_N * VQ_SPEED_COV_STRIDE)

_Static_assert(VQ_SPEED_N == 25 && VQ_SPEED_B == 5,
               "speed_dsp.c's covariance rows are for 5x5 windows");

typedef struct ImgScratch {
    float *x0, *t, *row;
    float *means, *cov, *work, *d, *sd, *v, *x, *eig, *p, *r, *tz, *tq, *tmp;
    double *acc;
} ImgScratch;

static void carve(const VqSpeed *sp, void *base, ImgScratch *s)
{
    const size_t img = ALIGN_FLOATS(sp->img_floats);
    const size_t mat = ALIGN_FLOATS(VQ_SPEED_N * VQ_SPEED_N);
    const size_t vec = ALIGN_FLOATS(VQ_SPEED_N);
    double *dp = base;
    s->acc = dp;
    dp += ACC_DOUBLES;
    float *fp = (float *)dp;
    s->x0 = fp; fp += img;
    s->t = fp; fp += img;
    s->row = fp; fp += ALIGN_FLOATS((size_t)sp->g.sw);
    s->means = fp; fp += vec;
    s->cov = fp; fp += mat;
    s->work = fp; fp += mat;
    s->d = fp; fp += vec;
    s->sd = fp; fp += vec;
    s->v = fp; fp += vec;
    s->x = fp; fp += vec;
    s->eig = fp; fp += vec;
    s->p = fp; fp += mat;
    s->r = fp; fp += mat;
    s->tz = fp; fp += mat;
    s->tq = fp; fp += mat;
    s->tmp = fp;
}

size_t vq_speed_cpu_scratch(const VqSpeed *sp)
{
    const size_t mat = ALIGN_FLOATS(VQ_SPEED_N * VQ_SPEED_N);
    const size_t vec = ALIGN_FLOATS(VQ_SPEED_N);
    return sizeof(double) * ACC_DOUBLES +
           sizeof(float) * (2 * ALIGN_FLOATS(sp->img_floats) +
                            ALIGN_FLOATS((size_t)sp->g.sw) + 7 * mat + 6 * vec);
}

/* ---- anti-alias filter at the kept samples ------------------------------ */

/* row[x] += f * sample (y, x) for every column x of the plane. */
static void vsum_row(const VqSpeedDsp *dsp, float *row, const VqSpeedSrc *s,
                     int y, float f, int w)
{
    const uint8_t *c = s->cur + (size_t)y * s->cur_pitch;
    const uint8_t *p = s->prev ? s->prev + (size_t)y * s->prev_pitch : NULL;
    if (s->bytes == 1)
        dsp->vsum_u8(row, c, p, f, (size_t)w);
    else
        dsp->vsum_u16(row, (const uint16_t *)(const void *)c,
                      (const uint16_t *)(const void *)p, f, s->scaler,
                      (size_t)w);
}

static void antialias(const VqSpeed *sp, const VqSpeedSrc *src,
                      const ImgScratch *s)
{
    const VqSpeedGeom *g = &sp->g;
    const int r = g->aa_taps / 2;
    if (g->method != VQ_SPEED_SCALE_NONE) {
        for (int i = 0; i < g->dh; i++)
            for (int j = 0; j < g->dw; j++)
                s->x0[i * g->dw + j] =
                    vq_speed_aa_sample(g, src, sp->rows, sp->cols, i, j);
        return;
    }
    for (int i = 0; i < g->dh; i++) {
        for (int x = 0; x < g->sw; x++)
            s->row[x] = 0;
        for (int k = 0; k < g->aa_taps; k++)
            vsum_row(&sp->dsp, s->row, src,
                     vq_speed_mirror(16 * i - r + k, g->sh), g->aa[k], g->sw);
        for (int j = 0; j < g->dw; j++) {
            float out = 0;
            for (int k = 0; k < g->aa_taps; k++)
                out += g->aa[k] * s->row[vq_speed_mirror(16 * j - r + k, g->sw)];
            s->x0[i * g->dw + j] = out;
        }
    }
}

/* ---- parameter estimation ----------------------------------------------- */

static void means_of(const VqSpeedGeom *g, const float *x, float *means)
{
    float acc[VQ_SPEED_N];
    for (int k = 0; k < VQ_SPEED_N; k++)
        acc[k] = 0;
    for (int i = 0; i < g->subh; i++)
        for (int j = 0; j < g->subw; j++) {
            const float *at = x + (size_t)i * g->dw + j;
            for (int k = 0; k < VQ_SPEED_N; k++)
                acc[k] += at[(k / VQ_SPEED_B) * g->dw + k % VQ_SPEED_B];
        }
    const float n = (float)((size_t)g->subw * (size_t)g->subh);
    for (int k = 0; k < VQ_SPEED_N; k++)
        means[k] = acc[k] / n;
}

static void covariance(const VqSpeedDsp *dsp, const VqSpeedGeom *g,
                       const float *x, const float *means, double *acc,
                       float *cov)
{
    for (int k = 0; k < ACC_DOUBLES; k++)
        acc[k] = 0;
    for (int i = 0; i < g->subh; i++)
        dsp->cov_row(acc, x + (size_t)i * g->dw, g->dw, means,
                     (size_t)g->subw);
    const double n = (double)((size_t)g->subw * (size_t)g->subh);
    for (int a = 0; a < VQ_SPEED_N; a++)
        for (int b = 0; b <= a; b++) {
            const float c = (float)(acc[a * VQ_SPEED_COV_STRIDE + b] / n);
            cov[a * VQ_SPEED_N + b] = c;
            cov[b * VQ_SPEED_N + a] = c;
        }
}

void vq_speed_cpu_image(const VqSpeed *sp, const VqSpeedSrc *src,
                        VqSpeedResult *res, void *scratch)
{
    const VqSpeedGeom *g = &sp->g;
    ImgScratch s;
    carve(sp, scratch, &s);
    antialias(sp, src, &s);
    for (int i = 0; i < g->dh; i++)
        for (int j = 0; j < g->dw; j++)
            s.t[i * g->dw + j] = vq_speed_f4_v(g, s.x0, i, j);
    for (int i = 0; i < g->dh; i++)
        for (int j = 0; j < g->dw; j++)
            s.x0[i * g->dw + j] = vq_speed_f4_h_sub(g, s.x0, s.t, i, j);

    means_of(g, s.x0, s.means);
    covariance(&sp->dsp, g, s.x0, s.means, s.acc, s.cov);
    memcpy(s.work, s.cov, sizeof(float) * VQ_SPEED_N * VQ_SPEED_N);
    vq_speed_tridiagonal(s.work, s.d, s.sd, s.v, s.x);
    vq_speed_tridiag_eig(s.d, s.sd);
    memcpy(s.eig, s.d, sizeof(float) * VQ_SPEED_N);
    vq_speed_qr(s.cov, s.p, s.r, s.tz, s.tq, s.tmp);
    res->singular = vq_speed_singular(s.eig, s.r);
    for (int b = 0; b < g->nb; b++) {
        float y[VQ_SPEED_N];
        vq_speed_block_samples(g, s.x0, b, y);
        vq_speed_block(s.p, s.r, s.eig, res->singular, y, g->sigma_nn,
                       &res->var[b], &res->ent[b]);
    }
}

void vq_speed_cpu_pair(const VqSpeed *sp, const VqSpeedResult *ref,
                       const VqSpeedResult *dis, void *rec)
{
    VqSpeedPairHead *h = rec;
    h->singular_ref = ref->singular;
    h->singular_dis = dis->singular;
    float *terms = vq_speed_pair_terms(rec);
    for (int b = 0; b < sp->g.nb; b++)
        terms[b] = vq_speed_term(ref->ent[b], ref->var[b], dis->ent[b],
                                 dis->var[b], sp->base_entropy,
                                 sp->weight_var_mode);
}

float vq_speed_pair_score(const VqSpeed *sp, const void *rec, bool *singular)
{
    const VqSpeedPairHead *h = rec;
    const float *terms = (const float *)(h + 1);
    *singular = h->singular_ref || h->singular_dis;
    if (!h->singular_ref != !h->singular_dis)
        return 0.0f;
    float score = 0;
    for (int b = 0; b < sp->g.nb; b++)
        score += terms[b];
    return score / (float)sp->g.nb;
}
