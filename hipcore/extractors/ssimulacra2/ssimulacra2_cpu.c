/*
 * ssimulacra2's CPU path. Every value comes from the helpers in
 * kernels/ssimulacra2/ssimulacra2.h with the kernels' operands, so the
 * record equals the GPU's bit for bit; only the order of independent work
 * differs. Rows are streamed: the horizontal pass runs on HB rows at once
 * (one per vector lane) on a transposed copy, the vertical pass keeps one
 * recursion state per column and reads the horizontal rows from a ring,
 * the sums keep one accumulator per column and segment. The row loops take
 * restrict pointers and constants by value so that the compiler vectorizes
 * them; vectorized or not, each lane does the same IEEE operations.
 */
/* The row loops hold comparisons and divisions that gcc if-converts only
 * when it may ignore floating-point traps: values are unchanged (nothing
 * here reads exception flags), the loops vectorize. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("no-trapping-math")
#endif

/* This file is also compiled for other instruction sets by
 * ssimulacra2_cpu_*.c, which define S2_CPU_FRAME (the entry point's name)
 * and S2_CPU_VARIANT (leave out what is shared). */
#ifndef S2_CPU_FRAME
#define S2_CPU_FRAME vq_ssimulacra2_cpu_frame_c
#define S2_CPU_PART vq_ssimulacra2_cpu_part_c
#endif

/* What a pass computes: the whole frame, or a ladder's part of it
 * (VQ_S2_REF_PART, VQ_S2_DIS_PART). */
#define S2_WHOLE 0

#include <stdint.h>
#include <string.h>

#include "ssimulacra2_priv.h"

#define HB 8     /* rows per horizontal block */
#if defined(__GNUC__) && !defined(__clang__)
#define S2_UNROLL _Pragma("GCC unroll 4")
#else
#define S2_UNROLL
#endif
#define RING 32  /* ring rows: n-6 .. n+4 and the block ahead */
#define TOFF (VQ_S2_RADIUS + 5) /* left zero margin: input n - 6 from n = -4 */
#define TLEN(w) ((size_t)(w) + TOFF + VQ_S2_RADIUS - 1) /* + right margin */
#define ALIGN_F 16

static size_t pitch_of(unsigned w)
{
    return ((size_t)w + ALIGN_F - 1) / ALIGN_F * ALIGN_F;
}

typedef struct Scratch {
    float *xyb;          /* 6 planes of the current scale, pitch p0 */
    float *lin[2];       /* next scales' linear planes (ping-pong) */
    size_t lin_plane[2];
    float *ring;         /* [blur][RING][p0] */
    float *state;        /* [blur][6][p0]: y_k[n-1], y_k[n-2] per column */
    float *brow;         /* [blur][p0]: blurred row n */
    double *col;         /* [sum][p0] */
    float *lrow;         /* [image][2 rows][3][p0]: linear rows of prepare */
    float *chroma;       /* [2][p0]: interpolated Cb, Cr of one row */
    float *tk;           /* [TLEN(w) * HB]: transposed input of one blur,
                            zero margins */
    float *to;           /* [w * HB]: transposed output */
    float *zero, *sink;  /* [p0]: a row of zeros, a row nobody reads */
    size_t p0, plane0;
} Scratch;

static size_t carve(Scratch *s, const VqSsimulacra2Dims *d, uint8_t *base)
{
    size_t p0 = pitch_of(d->w[0]);
    size_t off = 0;
    memset(s, 0, sizeof(*s));
#define TAKE(ptr, type, count)                                              \
    do {                                                                    \
        ptr = base ? (type *)(void *)(base + off) : NULL;                   \
        off += ((count) * sizeof(type) + 63) & ~(size_t)63;                 \
    } while (0)
    s->p0 = p0;
    s->plane0 = p0 * d->h[0];
    TAKE(s->xyb, float, 6 * s->plane0);
    for (unsigned i = 0; i < 2; i++) {
        unsigned sc = i + 1;
        s->lin_plane[i] = sc < d->n_scales ? pitch_of(d->w[sc]) * d->h[sc] : 0;
        TAKE(s->lin[i], float, 6 * s->lin_plane[i]);
    }
    TAKE(s->ring, float, (size_t)VQ_S2_BLURS * RING * p0);
    TAKE(s->state, float, (size_t)VQ_S2_BLURS * 6 * p0);
    TAKE(s->brow, float, (size_t)VQ_S2_BLURS * p0);
    TAKE(s->col, double, (size_t)VQ_S2_SUMS * p0);
    TAKE(s->lrow, float, (size_t)2 * 2 * 3 * p0);
    TAKE(s->chroma, float, (size_t)2 * p0);
    TAKE(s->tk, float, TLEN(d->w[0]) * HB);
    TAKE(s->to, float, (size_t)d->w[0] * HB);
    TAKE(s->zero, float, p0);
    TAKE(s->sink, float, p0);
#undef TAKE
    return off;
}

#ifndef S2_CPU_VARIANT
size_t vq_ssimulacra2_cpu_scratch_size(const VqSsimulacra2Dims *d)
{
    Scratch s;
    return carve(&s, d, NULL);
}
#endif

/* Where the linear planes of scale sc (>= 1) live. */
static float *lin_of(const Scratch *s, unsigned sc)
{
    return s->lin[(sc - 1) & 1];
}

/* ---- prepare: YUV or linear -> XYB, and the next scale's linear planes --- */

/* One row to linear RGB planes; hbd: 16-bit luma samples. The branch is
 * the same for the whole row (the compiler makes two loops). */
static void convert_row(const VqSsimulacra2Color c, const uint8_t *restrict y, int hbd,
                        const float *restrict cb, const float *restrict cr,
                        float *restrict r, float *restrict g, float *restrict b,
                        unsigned w)
{
    const uint16_t *y16 = (const uint16_t *)(const void *)y;
    for (unsigned x = 0; x < w; x++) {
        float rgb[3];
        vq_ssimulacra2_yuv_linear(&c, hbd ? (float)y16[x] : (float)y[x], cb[x], cr[x],
                         rgb);
        r[x] = rgb[0];
        g[x] = rgb[1];
        b[x] = rgb[2];
    }
}

/* Linear sRGB of row y of a YUV picture: the chroma interpolation (exact,
 * so its order is free) per sample, then the conversion over the row. */
static void yuv_row(const VqSsimulacra2Color *c, const VqFormat *fmt, const VqFrame *f,
                    unsigned y, unsigned w, float *chroma, float *o, size_t p0)
{
    int hbd = fmt->bytes_per_sample == 2;
    const VqPlane *pl = f->plane;
    float *cb = chroma, *cr = chroma + p0;
    if (c->gray) {
        memset(chroma, 0, 2 * p0 * sizeof(float));
    } else {
        int y0, fy, cw = (int)fmt->sw[1], ch = (int)fmt->sh[1];
        vq_ssimulacra2_chroma_pos((int)y, c->ss_y, c->phase_y, &y0, &fy);
        for (unsigned x = 0; x < w; x++) {
            int x0, fx;
            vq_ssimulacra2_chroma_pos((int)x, c->ss_x, c->phase_x, &x0, &fx);
            cb[x] = vq_ssimulacra2_chroma(pl[1].data, (size_t)pl[1].stride, hbd, cw, ch,
                                 x0, fx, y0, fy);
            cr[x] = vq_ssimulacra2_chroma(pl[2].data, (size_t)pl[2].stride, hbd, cw, ch,
                                 x0, fx, y0, fy);
        }
    }
    const uint8_t *row = pl[0].data + (size_t)y * (size_t)pl[0].stride;
    convert_row(*c, row, hbd, cb, cr, o, o + p0, o + 2 * p0, w);
}

static void xyb_row(float nb, const float *restrict r, const float *restrict g,
                    const float *restrict b, float *restrict ox,
                    float *restrict oy, float *restrict ob, unsigned w)
{
    for (unsigned x = 0; x < w; x++) {
        float rgb[3] = { r[x], g[x], b[x] }, xyb[3];
        vq_ssimulacra2_xyb(rgb, nb, xyb);
        ox[x] = xyb[0];
        oy[x] = xyb[1];
        ob[x] = xyb[2];
    }
}

static void down_row(const float *restrict a, const float *restrict b,
                     float *restrict o, unsigned w)
{
    for (unsigned bx = 0; 2 * bx < w; bx++) {
        unsigned x0 = 2 * bx, x1 = x0 + 1 < w ? x0 + 1 : w - 1;
        o[bx] = vq_ssimulacra2_down(a[x0], a[x1], b[x0], b[x1]);
    }
}

/* XYB planes of scale sc and, unless it is the last, the next scale's
 * linear planes: row pairs, as the prepare kernels' 2x2 blocks. */
static void prepare(const VqSsimulacra2Params *par, const VqSsimulacra2Dims *d,
                    const VqFormat *fmt, const VqFrame *const *pic,
                    Scratch *s, unsigned sc, int part, const VqS2Product *prod)
{
    unsigned w = d->w[sc], h = d->h[sc];
    size_t p0 = s->p0;
    const float *lin = sc ? lin_of(s, sc) : NULL;
    size_t lpitch = pitch_of(w), lplane = sc ? s->lin_plane[(sc - 1) & 1] : 0;
    int next = sc + 1 < d->n_scales;
    float *nl = next ? lin_of(s, sc + 1) : NULL;
    size_t npitch = next ? pitch_of(d->w[sc + 1]) : 0;
    size_t nplane = next ? s->lin_plane[sc & 1] : 0;
    for (unsigned by = 0; 2 * by < h; by++) {
        unsigned ys[2] = { 2 * by, 2 * by + 1 < h ? 2 * by + 1 : h - 1 };
        for (unsigned m = 0; m < 2; m++) {
            /* a ladder's part: the reference's planes or the distorted
             * picture's only */
            if ((part == VQ_S2_REF_PART && m) ||
                (part == VQ_S2_DIS_PART && !m))
                continue;
            float *lr = s->lrow + (size_t)m * 6 * p0; /* [row][channel] */
            for (unsigned r = 0; r < 2; r++) {
                float *o = lr + (size_t)r * 3 * p0;
                if (!lin) {
                    yuv_row(&par->color[m], fmt, pic[m], ys[r], w, s->chroma, o,
                            p0);
                    continue;
                }
                for (unsigned ch = 0; ch < 3; ch++)
                    memcpy(o + ch * p0,
                           lin + (m * 3 + ch) * lplane + (size_t)ys[r] * lpitch,
                           w * sizeof(float));
            }
            for (unsigned r = 0; r < 2 && 2 * by + r < h; r++) {
                const float *l = lr + (size_t)r * 3 * p0;
                float *o = s->xyb + (size_t)(m * 3) * s->plane0 +
                           (size_t)(2 * by + r) * p0;
                size_t plane = s->plane0;
                if (part == VQ_S2_REF_PART) {
                    plane = prod->pitch[sc] * h;
                    o = prod->xyb[sc] + (size_t)(2 * by + r) * prod->pitch[sc];
                }
                xyb_row(par->neg_bias_cbrt, l, l + p0, l + 2 * p0, o,
                        o + plane, o + 2 * plane, w);
            }
            for (unsigned ch = 0; next && ch < 3; ch++)
                down_row(lr + ch * p0, lr + (3 + ch) * p0,
                         nl + (m * 3 + ch) * nplane + (size_t)by * npitch, w);
        }
    }
}

/* ---- the recursive Gaussian ------------------------------------------------ */

/* Horizontal pass on HB transposed rows: t holds input x of lane r at
 * (x + TOFF) * HB + r, zero outside 0..w-1; output n at n * HB + r. Single
 * steps or groups of four, as libjxl (vq_ssimulacra2_blur_h4_at). */
static void blur_lanes(const VqSsimulacra2Blur bl, const float *restrict t,
                       float *restrict to, unsigned w)
{
    float p[3][HB] = { { 0 } }, pp[3][HB] = { { 0 } };
    int iw = (int)w, n = -(VQ_S2_RADIUS - 1);
    while (n < iw) {
        const float *l = t + (size_t)(n + TOFF - VQ_S2_RADIUS - 1) * HB;
        const float *r = t + (size_t)(n + TOFF + VQ_S2_RADIUS - 1) * HB;
        float *o = to + (size_t)(n < 0 ? 0 : n) * HB; /* n < 0: overwritten */
        if (vq_ssimulacra2_blur_h4_at(n, iw)) {
            /* vq_ssimulacra2_blur_h4 with the lanes innermost (they vectorize) */
            float sum[4][HB], y[3][4][HB];
            for (int i = 0; i < 4; i++)
                for (int k = 0; k < HB; k++)
                    sum[i][k] = l[i * HB + k] + r[i * HB + k];
            S2_UNROLL
            for (int c = 0; c < 3; c++) {
                S2_UNROLL
                for (int j = 0; j < 4; j++)
                    for (int k = 0; k < HB; k++)
                        y[c][j][k] = vq_ssimulacra2_blur_h4_term(
                            &bl, c, j, sum[0][k], sum[1][k], sum[2][k],
                            sum[3][k], p[c][k], pp[c][k]);
                for (int k = 0; k < HB; k++) {
                    pp[c][k] = y[c][2][k];
                    p[c][k] = y[c][3][k];
                }
            }
            for (int j = 0; j < 4; j++)
                for (int k = 0; k < HB; k++)
                    o[j * HB + k] = y[0][j][k] + (y[1][j][k] + y[2][j][k]);
            n += 4;
            continue;
        }
        for (int k = 0; k < HB; k++) {
            float sp[3] = { p[0][k], p[1][k], p[2][k] };
            float spp[3] = { pp[0][k], pp[1][k], pp[2][k] };
            o[k] = vq_ssimulacra2_blur_h_step(&bl, l[k] + r[k], sp, spp);
            for (int i = 0; i < 3; i++) {
                p[i][k] = sp[i];
                pp[i][k] = spp[i];
            }
        }
        n++;
    }
}

/* Lane r of the transposed input of blurred plane k from one row pair. */
static void fill_lane(int k, const float *restrict a, const float *restrict b,
                      float *restrict t, unsigned w)
{
    /* one loop per k, so that each is a plain vectorizable loop */
#define FILL(K)                                                             \
    for (unsigned x = 0; x < w; x++)                                        \
        t[(size_t)x * HB] = vq_ssimulacra2_blur_input(K, a[x], b[x]);                \
    break
    switch (k) {
    case 0: FILL(0);
    case 1: FILL(1);
    case 2: FILL(2);
    case 3: FILL(3);
    default: FILL(4);
    }
#undef FILL
}

/* Horizontal pass of rows y0 .. y0 + HB - 1 of channel c into the ring,
 * for the blurred planes in mask (bit k); A and B: rows pa and pb floats
 * apart. */
static void blur_rows(const VqSsimulacra2Blur *bl, const Scratch *s, const float *A,
                      size_t pa, const float *B, size_t pb, unsigned w,
                      unsigned h, unsigned y0, unsigned mask)
{
    size_t p0 = s->p0;
    for (int k = 0; k < VQ_S2_BLURS; k++) {
        if (!(mask >> k & 1))
            continue;
        memset(s->tk, 0, TLEN(w) * HB * sizeof(float));
        for (unsigned r = 0; r < HB && y0 + r < h; r++)
            fill_lane(k, A + (size_t)(y0 + r) * pa, B + (size_t)(y0 + r) * pb,
                      s->tk + (size_t)TOFF * HB + r, w);
        blur_lanes(*bl, s->tk, s->to, w);
        for (unsigned r = 0; r < HB && y0 + r < h; r++) {
            float *o = s->ring + ((size_t)k * RING + (y0 + r) % RING) * p0;
            for (unsigned x = 0; x < w; x++)
                o[x] = s->to[(size_t)x * HB + r];
        }
    }
}

/* Vertical pass, step n, of one blurred plane over all columns (a missing
 * row is the zero row; a discarded output goes to the sink row). */
static void blur_col_step(const VqSsimulacra2Blur bl, const float *restrict top,
                          const float *restrict bot, float *restrict p0s,
                          float *restrict p1s, float *restrict p2s,
                          float *restrict q0s, float *restrict q1s,
                          float *restrict q2s, float *restrict out, unsigned w)
{
    for (unsigned x = 0; x < w; x++) {
        float p[3] = { p0s[x], p1s[x], p2s[x] }, pp[3] = { q0s[x], q1s[x], q2s[x] };
        out[x] = vq_ssimulacra2_blur_v_step(&bl, top[x] + bot[x], p, pp);
        p0s[x] = p[0];
        p1s[x] = p[1];
        p2s[x] = p[2];
        q0s[x] = pp[0];
        q1s[x] = pp[1];
        q2s[x] = pp[2];
    }
}

/* ---- terms and sums ---------------------------------------------------------- */

static void terms_row(const float *restrict blur, size_t p0,
                      const float *restrict a, const float *restrict b,
                      double *restrict c0, double *restrict c1,
                      double *restrict c2, double *restrict c3,
                      double *restrict c4, double *restrict c5, unsigned w)
{
    const float *restrict s11 = blur, *restrict s22 = blur + p0,
                          *restrict s12 = blur + 2 * p0,
                          *restrict mu1 = blur + 3 * p0,
                          *restrict mu2 = blur + 4 * p0;
    for (unsigned x = 0; x < w; x++) {
        double t[VQ_S2_SUMS];
        vq_ssimulacra2_terms(mu1[x], mu2[x], s11[x], s22[x], s12[x], a[x], b[x], t);
        c0[x] += t[0];
        c1[x] += t[1];
        c2[x] += t[2];
        c3[x] += t[3];
        c4[x] += t[4];
        c5[x] += t[5];
    }
}

/* The segment's sums: chunks of columns in order, then the chunks. */
static void segment_sums(const double *col, size_t p0, unsigned w,
                         double *rec, const VqSsimulacra2Dims *d, unsigned sc,
                         unsigned c, unsigned j)
{
    for (unsigned q = 0; q < VQ_S2_SUMS; q++) {
        const double *v = col + q * p0;
        double seg = 0.0;
        for (unsigned x0 = 0; x0 < w; x0 += VQ_S2_CHUNK) {
            unsigned x1 = x0 + VQ_S2_CHUNK < w ? x0 + VQ_S2_CHUNK : w;
            double cs = 0.0;
            for (unsigned x = x0; x < x1; x++)
                cs += v[x];
            seg += cs;
        }
        rec[vq_ssimulacra2_rec_index(d, sc, c, q, j)] = seg;
    }
}

/* The blurred planes a pass computes (bit k: libjxl's img1^2, img2^2,
 * img1*img2, img1, img2): a ladder's reference part the two of the
 * reference alone, its distorted part the other three. */
static unsigned blur_mask(int part)
{
    return part == VQ_S2_REF_PART   ? 1u << 0 | 1u << 3
           : part == VQ_S2_DIS_PART ? 1u << 1 | 1u << 2 | 1u << 4
                                    : (1u << VQ_S2_BLURS) - 1;
}

static void channel(const VqSsimulacra2Params *par, const VqSsimulacra2Dims *d, Scratch *s,
                    unsigned sc, unsigned c, double *rec, int part,
                    const VqS2Product *prod)
{
    unsigned w = d->w[sc], h = d->h[sc];
    size_t p0 = s->p0;
    const float *A = s->xyb + c * s->plane0, *B = s->xyb + (3 + c) * s->plane0;
    size_t pa = p0, pb = p0, pplane = 0;
    if (part) {
        pa = prod->pitch[sc];
        pplane = pa * h;
    }
    if (part == VQ_S2_DIS_PART)
        A = prod->xyb[sc] + c * pplane; /* the reference's, as computed */
    if (part == VQ_S2_REF_PART) {
        A = prod->xyb[sc] + c * pplane;
        B = A, pb = pa; /* not read: the reference's blurs only */
    }
    unsigned mask = blur_mask(part);
    memset(s->state, 0, (size_t)VQ_S2_BLURS * 6 * p0 * sizeof(float));
    memset(s->zero, 0, p0 * sizeof(float));
    int ih = (int)h;
    for (int n = -(VQ_S2_RADIUS - 1); n < ih; n++) {
        int r = n + VQ_S2_RADIUS - 1, t = n - VQ_S2_RADIUS - 1;
        if (r < ih && r % HB == 0)
            blur_rows(&par->blur, s, A, pa, B, pb, w, h, (unsigned)r, mask);
        for (int k = 0; k < VQ_S2_BLURS; k++) {
            if (!(mask >> k & 1))
                continue;
            const float *ring = s->ring + (size_t)k * RING * p0;
            float *st = s->state + (size_t)k * 6 * p0;
            blur_col_step(par->blur,
                          t >= 0 ? ring + (unsigned)t % RING * p0 : s->zero,
                          r < ih ? ring + (unsigned)r % RING * p0 : s->zero,
                          st, st + p0, st + 2 * p0, st + 3 * p0, st + 4 * p0,
                          st + 5 * p0,
                          n >= 0 ? s->brow + (size_t)k * p0 : s->sink, w);
        }
        if (n < 0)
            continue;
        size_t po = c * pplane + (size_t)n * pa; /* row n in the product */
        if (part == VQ_S2_REF_PART) {
            memcpy(prod->s11[sc] + po, s->brow, w * sizeof(float));
            memcpy(prod->mu1[sc] + po, s->brow + 3 * p0, w * sizeof(float));
            continue;
        }
        if (part == VQ_S2_DIS_PART) {
            memcpy(s->brow, prod->s11[sc] + po, w * sizeof(float));
            memcpy(s->brow + 3 * p0, prod->mu1[sc] + po, w * sizeof(float));
        }
        double *col = s->col;
        if (n % VQ_S2_SEG == 0)
            memset(col, 0, (size_t)VQ_S2_SUMS * p0 * sizeof(double));
        terms_row(s->brow, p0, A + (size_t)n * pa, B + (size_t)n * pb, col,
                  col + p0, col + 2 * p0, col + 3 * p0, col + 4 * p0,
                  col + 5 * p0, w);
        if (n % VQ_S2_SEG == VQ_S2_SEG - 1 || n == ih - 1)
            segment_sums(col, p0, w, rec, d, sc, c, (unsigned)n / VQ_S2_SEG);
    }
}

void S2_CPU_PART(const VqSsimulacra2Params *par, const VqSsimulacra2Dims *d,
                 const VqFormat *fmt, const VqFrame *ref, const VqFrame *dis,
                 void *scratch, double *rec, int part, const VqS2Product *prod)
{
    Scratch s;
    carve(&s, d, scratch);
    const VqFrame *pic[2] = { ref, dis };
    for (unsigned sc = 0; sc < d->n_scales; sc++) {
        prepare(par, d, fmt, pic, &s, sc, part, prod);
        for (unsigned c = 0; c < 3; c++)
            channel(par, d, &s, sc, c, rec, part, prod);
    }
}

void S2_CPU_FRAME(const VqSsimulacra2Params *par, const VqSsimulacra2Dims *d,
                  const VqFormat *fmt, const VqFrame *ref, const VqFrame *dis,
                  void *scratch, double *rec)
{
    S2_CPU_PART(par, d, fmt, ref, dis, scratch, rec, S2_WHOLE, NULL);
}

/* The CPU stage: once, not in the variants that recompile this file. */
#ifndef S2_CPU_VARIANT
int ssimulacra2_cpu_run(VqFex *fex, const VqFrame *ref, const VqFrame *dis,
               unsigned index, void *acc, void *scratch)
{
    const S2Priv *s = fex->priv;
    if (fex->cache) {
        int shared = ssimulacra2_cpu_run_shared(fex, ref, dis, index, acc,
                                                scratch);
        if (shared <= 0)
            return shared;
        /* no product to be had: the frame is computed here */
    }
    s->cpu_frame(&s->par, &s->dims, &fex->fmt, ref, dis, scratch, acc);
    return 0;
}
#endif
