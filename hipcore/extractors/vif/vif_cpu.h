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

struct VqVifDsp;

/* Fills acc (zeroed by the caller) from the luma planes, with the row
 * functions of dsp (vif_dsp.h). */
void vq_vif_cpu_frame(const struct VqVifDsp *dsp, const VqVifParams *p,
                      const VqVifDims *d, const VqPlane *ref,
                      const VqPlane *dis, void *scratch, VqVifAcc *acc);

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
 * buffers t->lg and t->lg_idx. Equals vq_vif_pixel on each pixel (tests/unit checks). */
void vq_vif_cpu_stat_sums(const struct VqVifDsp *dsp, const VqVifParams *p,
                          const int32_t *s1, const int32_t *s2,
                          const int32_t *s12, unsigned n, VqVifWork *t,
                          VqVifScaleAcc *acc);

/* Points wk's buffers into scratch (vq_vif_cpu_scratch_size bytes). */
void vq_vif_work_layout(const VqVifDims *d, void *scratch, VqVifWork *wk);

#endif
