/* Integer VIF, CPU path (vif.c owns the extractor): the frame driver in
 * vif_cpu.c, the row filters in vif_filter.c. */
#ifndef VQHIP_EXTRACTORS_VIF_CPU_H
#define VQHIP_EXTRACTORS_VIF_CPU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../../../kernels/vif/vif.h"
#include "../../picture.h"

/* Size of each scale: scale 0 is w x h, scale s + 1 is scale s halved
 * (rounded down). */
typedef struct VqVifDims {
    unsigned w[VQ_VIF_SCALES], h[VQ_VIF_SCALES];
} VqVifDims;

void vq_vif_dims(VqVifDims *d, unsigned w, unsigned h);

/* Per-worker scratch for frames of these dimensions. */
size_t vq_vif_cpu_scratch_size(const VqVifDims *d);

typedef struct VqVifParams {
    unsigned bpc;
    bool skip_scale0;
    double gain_limit;
    const uint16_t *log2_tab; /* VQ_VIF_LOG2_SIZE entries */
} VqVifParams;

/* Fills acc (zeroed by the caller) from the luma planes. */
void vq_vif_cpu_frame(const VqVifParams *p, const VqVifDims *d,
                      const VqPlane *ref, const VqPlane *dis, void *scratch,
                      VqVifAcc *acc);

/* ---- between vif_cpu.c, vif_filter.c and vif_terms.c ---- */

/* On x86-64 the row functions are also compiled for AVX2 and chosen at run
 * time, per row; the build itself stays at the SSE2 baseline. */
#if defined(__GNUC__) && defined(__x86_64__)
#define VQ_VIF_AVX2 1
#define VQ_VIF_TARGET_AVX2 __attribute__((target("avx2")))
#define VQ_VIF_USE_AVX2()                                                     \
    (!vq_vif_cpu_baseline_only && __builtin_cpu_supports("avx2"))
#else
#define VQ_VIF_AVX2 0
#define VQ_VIF_USE_AVX2() 0
#endif

/* Tests set this to run the baseline code on a CPU that has AVX2. */
extern bool vq_vif_cpu_baseline_only;

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
    /* the log-domain pixels of a row: their sigmas, then table indices */
    int32_t *lg[6];
} VqVifWork;

/* One row of the statistic at scale s: rows[k] (k < 2 * half + 1) are the
 * mirrored source rows around it, 8-bit when u8, else 16-bit. Leaves the
 * row's sigmas in w->s1, s2, s12. */
void vq_vif_stat_row_filter(unsigned s, bool u8, const void *const *rr,
                            const void *const *rd, unsigned w,
                            VqVifVRound rnd, VqVifWork *t);

/* One row of scale s + 1 from scale s: rows around an even row of scale s,
 * filtered with scale s + 1's taps, kept at even columns. */
void vq_vif_down_row_filter(unsigned s, bool u8, const void *const *rr,
                            const void *const *rd, unsigned w,
                            VqVifVRound rnd, VqVifWork *t, uint16_t *out_r,
                            uint16_t *out_d);

/* The per-pixel terms of n pixels' sigmas, added to acc; t provides the
 * buffers t->lg. Equals vq_vif_pixel on each pixel (tests/unit checks). */
void vq_vif_cpu_stat_sums(const VqVifParams *p, const int32_t *s1,
                          const int32_t *s2, const int32_t *s12, unsigned n,
                          VqVifWork *t, VqVifScaleAcc *acc);

/* The batch form of vq_vif_log_terms for m log-domain pixels (idx: 3 * m
 * int32 of scratch), for tests; false where it is not built or the CPU
 * cannot run it. */
bool vq_vif_cpu_log_terms_batch(const VqVifParams *p, unsigned m,
                                const int32_t *s1, const int32_t *s2,
                                const int32_t *s12, int32_t *idx,
                                VqVifScaleAcc *acc);

#endif
