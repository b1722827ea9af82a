/*
 * Integer VIF, the CPU path's DSP functions and their variants (see
 * hipcore/cpu.h). vq_vif_dsp_init fills a table once, at extractor init:
 * the C functions first, then those of each instruction set the flags
 * allow. Every variant is bit-identical to the C function (tests/checkasm).
 */
#ifndef VQHIP_EXTRACTORS_VIF_DSP_H
#define VQHIP_EXTRACTORS_VIF_DSP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/cpu.h"
#include "../../../kernels/vif/vif.h"
#include "core/picture.h"

/* Integer VIF, CPU path (vif.c owns the extractor): the frame driver in
 * vif_cpu.c, the row filters in vif_filter.c. */
/* Size of each scale: scale 0 is w x h, scale s + 1 is scale s halved
 * (rounded down). */
typedef struct VqVifDims {
    unsigned w[VQ_VIF_SCALES], h[VQ_VIF_SCALES];
} VqVifDims;

void vq_vif_dims(VqVifDims *d, unsigned w, unsigned h);

/* Scratch of a frame of these dimensions: the images of scales 1..3
 * (image size) and the filters' row buffers (row size); a whole frame
 * (vq_vif_cpu_frame) takes both, images first (scratch size). */
size_t vq_vif_cpu_image_size(const VqVifDims *d);
size_t vq_vif_cpu_row_size(const VqVifDims *d);
size_t vq_vif_cpu_scratch_size(const VqVifDims *d);

typedef struct VqVifParams {
    unsigned bpc;
    bool skip_scale0;
    double gain_limit;
    const uint16_t *log2_tab; /* VQ_VIF_LOG2_SIZE entries */
} VqVifParams;

struct VqVifDsp;

/* Fills acc (zeroed by the caller) from the luma planes, with the row
 * functions of dsp (vif_dsp.h). */
void vq_vif_cpu_frame(const struct VqVifDsp *dsp, const VqVifParams *p,
                      const VqVifDims *d, const VqPlane *ref,
                      const VqPlane *dis, void *scratch, VqVifAcc *acc);

/* Rows [y0, y1) of scale s: their statistic's sums added to acc, and the
 * rows of scale s + 1 made from them (the even rows' halves). Rows are
 * independent: any split of a scale into row ranges, run in any order or
 * concurrently (each with its own row buffers), once the previous scale is
 * complete, gives the same images and, summed, the same acc, for frames at
 * least VQ_VIF_SPLIT_MIN_W wide. (Narrower rows than a filter, at the last
 * scales of tiny frames, read values earlier rows left in the row buffers,
 * as libvmaf does: those frames run as one range.) images and rows:
 * vq_vif_cpu_image_size and _row_size bytes. */
#define VQ_VIF_SPLIT_MIN_W 256
void vq_vif_cpu_scale_rows(const struct VqVifDsp *dsp, const VqVifParams *p,
                           const VqVifDims *d, unsigned s, const VqPlane *ref,
                           const VqPlane *dis, void *images, void *rows,
                           unsigned y0, unsigned y1, VqVifScaleAcc *acc);

/* ---- between vif_cpu.c, vif_filter.c and vif_terms.c ---- */

#define VQ_VIF_PAD 8 /* the widest half filter: room for mirrored borders */
#define VQ_VIF_MAX_TAPS 17

/* What the vertical pass leaves for the horizontal one: mu1, mu2 and the
 * 16-bit halves of xx, yy, xy. */
enum { VQ_VIF_MU1, VQ_VIF_MU2, VQ_VIF_XX_HI, VQ_VIF_XX_LO, VQ_VIF_YY_HI,
       VQ_VIF_YY_LO, VQ_VIF_XY_HI, VQ_VIF_XY_LO, VQ_VIF_ROWS };

/* Working memory of one frame, carved from the scratch buffer. Row buffers
 * with borders point at column 0 and have VQ_VIF_PAD elements each side. */
typedef struct VqVifWork {
    uint16_t *img[2][VQ_VIF_SCALES]; /* [ref/dis][scale], scales 1..3 */
    uint16_t *v[VQ_VIF_ROWS];        /* vertical pass, with borders */
    uint32_t *sum[VQ_VIF_ROWS];      /* one pass's 32-bit sums */
    int32_t *s1, *s2, *s12;          /* sigma1_sq, sigma2_sq, sigma12 */
    uint16_t *d_ref, *d_dis;         /* next scale's vertical pass */
    int32_t *lg[3];  /* the log-domain pixels of a row: their sigmas */
    int32_t *lg_idx; /* 3 * w: scratch of the table's log_terms */
} VqVifWork;

/* The per-pixel terms of n pixels' sigmas, added to acc; t provides the
 * buffers t->lg and t->lg_idx. Equals vq_vif_pixel on each pixel (tests/vif/vif_test.c checks). */
void vq_vif_cpu_stat_sums(const struct VqVifDsp *dsp, const VqVifParams *p,
                          const int32_t *s1, const int32_t *s2,
                          const int32_t *s12, unsigned n, VqVifWork *t,
                          VqVifScaleAcc *acc);

/* Points wk's buffers into scratch (vq_vif_cpu_scratch_size bytes). Row
 * buffers with borders have room for VQ_VIF_SLACK more values after the
 * right border (vector loads at the last columns reach one beyond it). */
void vq_vif_work_layout(const VqVifDims *d, void *scratch, VqVifWork *wk);
/* Points wk's row buffers into rows (vq_vif_cpu_row_size bytes). */
void vq_vif_row_layout(const VqVifDims *d, void *rows, VqVifWork *wk);
#define VQ_VIF_SLACK 32

/* Mirrored borders of a row buffer (half values each side), in libvmaf's
 * order (vif_filter.c). */
void vq_vif_pad16(uint16_t *p, unsigned w, unsigned half);

/* ---- for the SIMD row functions (vif_simd_tmpl.h, vif_cols.c) ---- */

/* Scale s's filter as pairs of taps that PMADDWD multiplies together:
 * rows ka[p], kb[p] of the filter window (vertical), columns off[p] and
 * off[p] + 1 around the output (horizontal), taps tap2[p] = a | b << 16.
 * Every tap is below 2^15 (scale 3's centre tap is split in two halves);
 * an odd tap count ends with a pair whose second tap is 0. */
#define VQ_VIF_MAX_PAIRS 9
typedef struct VqVifPairs {
    unsigned n;
    unsigned char ka[VQ_VIF_MAX_PAIRS], kb[VQ_VIF_MAX_PAIRS];
    int off[VQ_VIF_MAX_PAIRS];
    uint32_t tap2[VQ_VIF_MAX_PAIRS];
} VqVifPairs;

/* The columns [j0, j1) of the row functions, one at a time, on rows whose
 * 16-bit values are stored XOR 0x8000 (t->v, t->d_ref, t->d_dis): the
 * vertical passes of the statistic and of the down row, the horizontal
 * pass with the sigmas, and the down row's outputs j0 / 2 .. j1 / 2 - 1
 * (j0 even). */
void vq_vif_vert_stat_cols(unsigned s, bool u8, const void *const *rr,
                           const void *const *rd, unsigned j0, unsigned j1,
                           VqVifVRound rnd, VqVifWork *t);
void vq_vif_horiz_stat_cols(unsigned s, VqVifWork *t, unsigned j0,
                            unsigned j1);
void vq_vif_vert_down_cols(unsigned s, bool u8, const void *const *rr,
                           const void *const *rd, unsigned j0, unsigned j1,
                           VqVifVRound rnd, VqVifWork *t);
void vq_vif_horiz_down_cols(unsigned s, VqVifWork *t, unsigned j0,
                            unsigned j1, uint16_t *out_r, uint16_t *out_d);
/* The split's horizontal passes (stat_ref_row, stat_dis_row) and one
 * picture's down row (its padded vertical row `row`), column by column. */
void vq_vif_horiz_ref_cols(unsigned s, const VqVifWork *t, unsigned j0,
                           unsigned j1, uint32_t *m1, int32_t *s1);
void vq_vif_horiz_dis_cols(unsigned s, VqVifWork *t, unsigned j0,
                           unsigned j1, const uint32_t *m1);
void vq_vif_horiz_down_one_cols(unsigned s, const uint16_t *row,
                                unsigned j0, unsigned j1, uint16_t *out);

/* One row of the statistic at scale s: rr[k], rd[k] (k < 2 * half + 1) are
 * the mirrored source rows around it, 8-bit when u8 (scale 0 only), else
 * 16-bit. Leaves the row's sigmas in t->s1, s2, s12 (w values); uses
 * t->v and t->sum. */
#define decl_vif_stat_row_fn(name)                                            \
    void(name)(unsigned s, bool u8, const void *const *rr,                    \
               const void *const *rd, unsigned w, VqVifVRound rnd,            \
               VqVifWork *t)
typedef decl_vif_stat_row_fn(*vq_vif_stat_row_fn);

/* One row of scale s + 1 from scale s (s < 3): rr, rd are the rows around
 * an even row of scale s, filtered with scale s + 1's taps; out_r, out_d
 * get the w / 2 values at even columns. Uses t->d_ref, t->d_dis. */
#define decl_vif_down_row_fn(name)                                            \
    void(name)(unsigned s, bool u8, const void *const *rr,                    \
               const void *const *rd, unsigned w, VqVifVRound rnd,            \
               VqVifWork *t, uint16_t *out_r, uint16_t *out_d)
typedef decl_vif_down_row_fn(*vq_vif_down_row_fn);

/* The log-domain terms (vq_vif_log_terms) of m pixels, added to
 * acc->num_log and acc->den_log; idx is scratch for 3 * m int32. */
#define decl_vif_log_terms_fn(name)                                           \
    void(name)(const VqVifParams *p, unsigned m, const int32_t *l1,           \
               const int32_t *l2, const int32_t *l12, int32_t *idx,           \
               VqVifScaleAcc *acc)
typedef decl_vif_log_terms_fn(*vq_vif_log_terms_fn);

/* The plain terms of n pixels' sigmas: each pixel that is not in the log
 * domain (vq_vif_is_log) adds its clamped sigma2_sq to acc->num_non_log
 * and 1 to acc->den_non_log; the sigmas of the others are copied, in
 * order, to l1, l2, l12 (room for n + VQ_VIF_GATHER_SLACK values each).
 * Returns how many were copied. */
#define decl_vif_plain_terms_fn(name)                                         \
    unsigned(name)(const int32_t *s1, const int32_t *s2, const int32_t *s12,  \
                   unsigned n, int32_t *l1, int32_t *l2, int32_t *l12,        \
                   VqVifScaleAcc *acc)
typedef decl_vif_plain_terms_fn(*vq_vif_plain_terms_fn);
#define VQ_VIF_GATHER_SLACK 16

/* A ladder's VIF (docs/LADDER.md) splits stat_row in two: stat_ref_row,
 * from the reference's rows rr alone, gives the row's filtered reference
 * mean (the horizontal pass's 32-bit sums, mu1) in m1 and its sigma1_sq in
 * s1 (w values each), computed once for every rendition; stat_dis_row,
 * given the row's m1, leaves sigma2_sq and sigma12 in t->s2 and t->s12.
 * Together they give stat_row's values on rows wider than the filter's
 * half (no stale row buffer read). Use t->v and t->sum. */
#define decl_vif_stat_ref_row_fn(name)                                        \
    void(name)(unsigned s, bool u8, const void *const *rr, unsigned w,        \
               VqVifVRound rnd, VqVifWork *t, uint32_t *m1, int32_t *s1)
typedef decl_vif_stat_ref_row_fn(*vq_vif_stat_ref_row_fn);
#define decl_vif_stat_dis_row_fn(name)                                        \
    void(name)(unsigned s, bool u8, const void *const *rr,                    \
               const void *const *rd, unsigned w, VqVifVRound rnd,            \
               VqVifWork *t, const uint32_t *m1)
typedef decl_vif_stat_dis_row_fn(*vq_vif_stat_dis_row_fn);

/* down_row for one picture: rows around an even row of scale s, out gets
 * the w / 2 values of scale s + 1. Uses t->d_ref and t->d_dis. */
#define decl_vif_down_one_row_fn(name)                                        \
    void(name)(unsigned s, bool u8, const void *const *rows, unsigned w,      \
               VqVifVRound rnd, VqVifWork *t, uint16_t *out)
typedef decl_vif_down_one_row_fn(*vq_vif_down_one_row_fn);

typedef struct VqVifDsp {
    vq_vif_stat_row_fn stat_row;
    vq_vif_down_row_fn down_row;
    vq_vif_plain_terms_fn plain_terms;
    vq_vif_log_terms_fn log_terms;
    vq_vif_stat_ref_row_fn stat_ref_row;
    vq_vif_stat_dis_row_fn stat_dis_row;
    vq_vif_down_one_row_fn down_one_row;
} VqVifDsp;

void vq_vif_dsp_init(VqVifDsp *c, unsigned flags);

decl_vif_stat_row_fn(vq_vif_stat_row_c);
decl_vif_down_row_fn(vq_vif_down_row_c);
decl_vif_plain_terms_fn(vq_vif_plain_terms_c);
decl_vif_log_terms_fn(vq_vif_log_terms_c);
decl_vif_stat_ref_row_fn(vq_vif_stat_ref_row_c);
decl_vif_stat_dis_row_fn(vq_vif_stat_dis_row_c);
decl_vif_down_one_row_fn(vq_vif_down_one_row_c);
#if VQ_ARCH_X86_64
decl_vif_stat_row_fn(vq_vif_stat_row_avx2);
decl_vif_down_row_fn(vq_vif_down_row_avx2);
decl_vif_plain_terms_fn(vq_vif_plain_terms_avx2);
decl_vif_log_terms_fn(vq_vif_log_terms_avx2);
decl_vif_stat_row_fn(vq_vif_stat_row_avx512);
decl_vif_down_row_fn(vq_vif_down_row_avx512);
decl_vif_plain_terms_fn(vq_vif_plain_terms_avx512);
decl_vif_log_terms_fn(vq_vif_log_terms_avx512);
decl_vif_stat_ref_row_fn(vq_vif_stat_ref_row_avx2);
decl_vif_stat_dis_row_fn(vq_vif_stat_dis_row_avx2);
decl_vif_down_one_row_fn(vq_vif_down_one_row_avx2);
decl_vif_stat_ref_row_fn(vq_vif_stat_ref_row_avx512);
decl_vif_stat_dis_row_fn(vq_vif_stat_dis_row_avx512);
decl_vif_down_one_row_fn(vq_vif_down_one_row_avx512);
#endif

#endif
