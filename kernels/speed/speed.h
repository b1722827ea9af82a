/*
 * SpEED (libvmaf's speed.c), shared by speed_chroma and speed_temporal: the
 * geometry, the per-sample arithmetic of the CPU path and the kernels, the
 * accumulator record and the typed launchers.
 *
 * Per image (a chroma plane, or a difference of two luma frames):
 *   1. samples as floats: v / scaler - 128 (scaler 1, 4, 16, 256 for 8, 10,
 *      12, 16 bits), or prev - cur of two such samples;
 *   2. with speed_prescale != 1 (libvmaf's 1e-3 test), resampled to the
 *      scaled size (nearest, bilinear, bicubic, lanczos4; the source
 *      positions and weights of each output row and column are tables made
 *      on the host);
 *   3. Gaussian anti-alias filter (vertical, then horizontal, mirrored
 *      edges), kept at every 16th row and column only: libvmaf filters the
 *      whole frame and then decimates, but a sample of the filtered image
 *      depends only on its own taps, so the kept samples are computed alone
 *      with the same sums;
 *   4. the scale-4 Gaussian on that small image, subtracted from it;
 *   5. parameter estimation on 5x5 blocks (speed_linalg.h): covariance of
 *      the 25 block positions (means summed in float, products in double),
 *      its eigenvalues, per block a solve, a variance and an entropy;
 *   6. per block of a reference/distorted pair, the term
 *      |H_ref log2(1 + V) - H_dis log2(1 + V')|, summed in block order by
 *      the shared finalize.
 */
#ifndef VQHIP_KERNELS_SPEED_H
#define VQHIP_KERNELS_SPEED_H

#include "speed_linalg.h"

#ifdef __cplusplus
extern "C" {
#endif

#define VQ_SPEED_B 5               /* block side */
#define VQ_SPEED_PAIRS 325         /* covariance entries on and below the diagonal */
#define VQ_SPEED_SCALES 4          /* the frame is decimated by 2^4 */
#define VQ_SPEED_MAX_TAPS 64
#define VQ_SPEED_INTERP_TAPS 9     /* lanczos4: 9 source samples per axis */

enum {
    VQ_SPEED_SCALE_NONE = 0,       /* the scaled image is the source */
    VQ_SPEED_SCALE_NEAREST,
    VQ_SPEED_SCALE_BILINEAR,
    VQ_SPEED_SCALE_BICUBIC,
    VQ_SPEED_SCALE_LANCZOS4,
};

/* Source positions and weights of one scaled row or column. nearest: idx[0];
 * bilinear: idx[0], idx[1], w[0] = the fraction; bicubic: 4 taps; lanczos4:
 * 9 taps. */
typedef struct VqSpeedAxis {
    int32_t idx[VQ_SPEED_INTERP_TAPS];
    float w[VQ_SPEED_INTERP_TAPS];
} VqSpeedAxis;

/* Everything the per-sample code needs, passed to kernels by value. */
typedef struct VqSpeedGeom {
    int32_t src_w, src_h;   /* the plane read */
    int32_t sw, sh;         /* scaled size */
    int32_t dw, dh;         /* decimated: sw >> 4, sh >> 4 */
    int32_t tw, th;         /* truncated to whole blocks */
    int32_t nbh, nbv, nb;   /* blocks across, down, total */
    int32_t subw, subh;     /* covariance window: tw - 4, th - 4 */
    int32_t method;         /* VQ_SPEED_SCALE_* */
    int32_t aa_taps, f4_taps;
    float sigma_nn;
    float aa[VQ_SPEED_MAX_TAPS]; /* anti-alias filter */
    float f4[VQ_SPEED_MAX_TAPS]; /* scale-4 filter */
} VqSpeedGeom;

/* Mirrored index as libvmaf's filters: -i for i < 0, 2n - i - 2 past the
 * end (one reflection; the sizes accepted keep it inside). */
static inline VQ_HOST_DEVICE int vq_speed_mirror(int i, int n)
{
    return i < 0 ? -i : (i >= n ? 2 * n - i - 2 : i);
}

/* libvmaf's picture_copy: v / scaler + (-128), exact in float. */
static inline VQ_HOST_DEVICE float vq_speed_level(unsigned v, int bytes,
                                                  float scaler)
{
    return bytes == 1 ? (float)v + -128.0f : (float)v / scaler + -128.0f;
}

/* A source image: the plane cur, or prev - cur (speed_temporal). Host and
 * device addresses alike; kernels get device planes only. */
typedef struct VqSpeedSrc {
    const uint8_t *cur, *prev;
    size_t cur_pitch, prev_pitch;
    int32_t bytes;          /* per sample */
    float scaler;
} VqSpeedSrc;

static inline VQ_HOST_DEVICE unsigned vq_speed_raw(const uint8_t *p,
                                                   size_t pitch, int bytes,
                                                   int y, int x)
{
    const uint8_t *row = p + (size_t)y * pitch;
    return bytes == 1 ? row[x] : ((const uint16_t *)(const void *)row)[x];
}

static inline VQ_HOST_DEVICE float vq_speed_src_px(const VqSpeedSrc *s, int y,
                                                   int x)
{
    const float c = vq_speed_level(vq_speed_raw(s->cur, s->cur_pitch,
                                                s->bytes, y, x),
                                   s->bytes, s->scaler);
    if (!s->prev)
        return c;
    return vq_speed_level(vq_speed_raw(s->prev, s->prev_pitch, s->bytes, y, x),
                          s->bytes, s->scaler) - c;
}

/* A sample of the scaled image, as libvmaf's vif_scale_frame_s, from the
 * table entries of its row and column. */
static inline VQ_HOST_DEVICE float vq_speed_scaled_px(const VqSpeedSrc *s,
                                                      int method,
                                                      const VqSpeedAxis *ry,
                                                      const VqSpeedAxis *cx)
{
    switch (method) {
    case VQ_SPEED_SCALE_NEAREST:
        return vq_speed_src_px(s, ry->idx[0], cx->idx[0]);
    case VQ_SPEED_SCALE_BILINEAR: {
        const float dy = ry->w[0], dx = cx->w[0];
        const float r1x1 = vq_speed_src_px(s, ry->idx[0], cx->idx[0]);
        const float r1x2 = vq_speed_src_px(s, ry->idx[0], cx->idx[1]);
        const float r2x1 = vq_speed_src_px(s, ry->idx[1], cx->idx[0]);
        const float r2x2 = vq_speed_src_px(s, ry->idx[1], cx->idx[1]);
        return (1 - dy) * (1 - dx) * r1x1 + (1 - dy) * dx * r1x2 +
               dy * (1 - dx) * r2x1 + dy * dx * r2x2;
    }
    case VQ_SPEED_SCALE_BICUBIC: {
        float v = 0.0f;
        for (int j = 0; j < 4; j++)
            for (int i = 0; i < 4; i++)
                v += vq_speed_src_px(s, ry->idx[j], cx->idx[i]) *
                     (cx->w[i] * ry->w[j]);
        return v;
    }
    default: /* lanczos4 */
        break;
    }
    float v = 0.0f, wsum = 0.0f;
    for (int j = 0; j < 9; j++)
        for (int i = 0; i < 9; i++) {
            const float w = cx->w[i] * ry->w[j];
            wsum += w;
            v += vq_speed_src_px(s, ry->idx[j], cx->idx[i]) * w;
        }
    return v / wsum;
}

/* Anti-aliased sample (i, j) of the decimated image: the vertical pass at
 * row 16 i for each column the horizontal pass at column 16 j reads. rows
 * and cols: the prescale tables (unused for VQ_SPEED_SCALE_NONE). */
static inline VQ_HOST_DEVICE float vq_speed_aa_sample(const VqSpeedGeom *g,
                                                      const VqSpeedSrc *s,
                                                      const VqSpeedAxis *rows,
                                                      const VqSpeedAxis *cols,
                                                      int i, int j)
{
    const int r = g->aa_taps / 2;
    float out = 0;
    for (int kc = 0; kc < g->aa_taps; kc++) {
        const int x = vq_speed_mirror(16 * j - r + kc, g->sw);
        float t = 0;
        for (int kr = 0; kr < g->aa_taps; kr++) {
            const int y = vq_speed_mirror(16 * i - r + kr, g->sh);
            const float v = g->method == VQ_SPEED_SCALE_NONE
                          ? vq_speed_src_px(s, y, x)
                          : vq_speed_scaled_px(s, g->method, rows + y,
                                               cols + x);
            t += g->aa[kr] * v;
        }
        out += g->aa[kc] * t;
    }
    return out;
}

/* Vertical pass of the scale-4 filter at (i, j) of the dw x dh image x0. */
static inline VQ_HOST_DEVICE float vq_speed_f4_v(const VqSpeedGeom *g,
                                                 const float *x0, int i, int j)
{
    const int r = g->f4_taps / 2;
    float acc = 0;
    for (int k = 0; k < g->f4_taps; k++)
        acc += g->f4[k] * x0[vq_speed_mirror(i - r + k, g->dh) * g->dw + j];
    return acc;
}

/* Horizontal pass on the vertical results t, subtracted from x0: the
 * sample of the image whose blocks are estimated. */
static inline VQ_HOST_DEVICE float vq_speed_f4_h_sub(const VqSpeedGeom *g,
                                                     const float *x0,
                                                     const float *t, int i,
                                                     int j)
{
    const int r = g->f4_taps / 2;
    float acc = 0;
    for (int k = 0; k < g->f4_taps; k++)
        acc += g->f4[k] * t[i * g->dw + vq_speed_mirror(j - r + k, g->dw)];
    return x0[i * g->dw + j] - acc;
}

/* (row, column) of covariance entry p (0..324): x >= y, row-major over the
 * lower triangle. */
static inline VQ_HOST_DEVICE void vq_speed_pair_xy(int p, int *x, int *y)
{
    int r = 0;
    while ((r + 1) * (r + 2) / 2 <= p)
        r++;
    *x = r;
    *y = p - r * (r + 1) / 2;
}

/* The 25 samples of block b, row-major, from the image x (stride dw). */
static inline VQ_HOST_DEVICE void vq_speed_block_samples(const VqSpeedGeom *g,
                                                         const float *x, int b,
                                                         float *y)
{
    const int bi = b / g->nbh, bj = b % g->nbh;
    for (int k = 0; k < VQ_SPEED_N; k++)
        y[k] = x[(bi * VQ_SPEED_B + k / VQ_SPEED_B) * g->dw + bj * VQ_SPEED_B +
                 k % VQ_SPEED_B];
}

/* One block's term of a reference/distorted pair (libvmaf's
 * get_speed_score), for speed_weight_var_mode 0..6. */
static inline VQ_HOST_DEVICE float vq_speed_term(float ent_r, float var_r,
                                                 float ent_d, float var_d,
                                                 float base, int mode)
{
    if (ent_r < base && ent_d < base)
        return 0.0f;
    float sr, sd;
    switch (mode) {
    case 1:
        sr = (float)(ent_r * vq_speed_log2(1 + var_r));
        sd = (float)(ent_d * vq_speed_log2(1 + var_r));
        break;
    case 2:
        sr = (float)(ent_r * vq_speed_log2(1 + var_d));
        sd = (float)(ent_d * vq_speed_log2(1 + var_d));
        break;
    case 3:
        sr = (float)(ent_r * vq_speed_log2(1 + (var_r + var_d) / 2.0));
        sd = (float)(ent_d * vq_speed_log2(1 + (var_r + var_d) / 2.0));
        break;
    case 4:
        sr = (float)(ent_r * vq_speed_log2(1 + var_r));
        sd = (float)(ent_d * vq_speed_log2(1 + (var_r + var_d) / 2.0));
        break;
    case 5:
        sr = (float)(ent_r * vq_speed_log2(1 + var_r));
        sd = (float)(ent_d * vq_speed_log2(1 + (0.75 * var_r + 0.25 * var_d)));
        break;
    case 6:
        sr = (float)(ent_r * vq_speed_log2(1 + var_r));
        sd = (float)(ent_d * vq_speed_log2(1 + (0.25 * var_r + 0.75 * var_d)));
        break;
    default:
        sr = (float)(ent_r * vq_speed_log2(1 + var_r));
        sd = (float)(ent_d * vq_speed_log2(1 + var_d));
        break;
    }
    return vq_speed_absf(sr - sd);
}

/* The accumulator record of one reference/distorted pair: whether each
 * side's covariance was singular, then one term per block. */
typedef struct VqSpeedPairHead {
    int32_t singular_ref, singular_dis;
    int32_t pad[2];
} VqSpeedPairHead;

static inline VQ_HOST_DEVICE size_t vq_speed_pair_size(int nb)
{
    return (sizeof(VqSpeedPairHead) + (size_t)nb * sizeof(float) + 15) &
           ~(size_t)15;
}

static inline VQ_HOST_DEVICE float *vq_speed_pair_terms(void *head)
{
    return (float *)((VqSpeedPairHead *)head + 1);
}

/*
 * Launchers. n images share one geometry. Device scratch per image: x0 (the
 * decimated image, then the one whose blocks are estimated) and t (the
 * scale-4 filter's vertical pass), img_stride floats apart; means and eig
 * VQ_SPEED_VEC_STRIDE floats apart; cov, p and r VQ_SPEED_MAT_STRIDE apart.
 */
#define VQ_SPEED_VEC_STRIDE 32
#define VQ_SPEED_MAT_STRIDE 640

typedef struct VqSpeedDevImages {
    VqDevPlane cur[4], prev[4]; /* prev[k].data NULL: image k is cur[k] */
    unsigned n;
    unsigned bpc;
} VqSpeedDevImages;

typedef struct VqSpeedScratch {
    float *x0, *t, *means, *cov, *eig, *p, *r;
    size_t img_stride;
} VqSpeedScratch;

int vq_speed_estimate_launch(VqStream stream, const VqSpeedGeom *g,
                             const VqSpeedDevImages *img,
                             const VqSpeedAxis *rows, const VqSpeedAxis *cols,
                             const VqSpeedScratch *scr);

/* Pair k of n_pairs compares image ref_img[k] with dis_img[k] and writes
 * its record at rec + k * vq_speed_pair_size(g->nb). */
int vq_speed_terms_launch(VqStream stream, const VqSpeedGeom *g,
                          const VqSpeedScratch *scr, unsigned n_pairs,
                          const unsigned *ref_img, const unsigned *dis_img,
                          float base_entropy, int weight_var_mode, void *rec);

/* Copies a plane (w x h samples of bytes each) to dst with its pitch. */
int vq_speed_copy_launch(VqStream stream, const VqDevPlane *src, void *dst,
                         size_t dst_pitch, int bytes);

#ifdef __cplusplus
}
#endif

#endif
