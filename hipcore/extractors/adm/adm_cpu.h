/* Integer ADM, CPU path: the row buffers shared by its two files. */
#ifndef VQHIP_EXTRACTORS_ADM_CPU_H
#define VQHIP_EXTRACTORS_ADM_CPU_H

#include "adm_internal.h"

/* Per-scale working rows, in int32 (scale-0 values are int16 ones). */
typedef struct AdmRows {
    int32_t *lo[2], *hi[2];     /* vertical pass, index -1 .. in_w + 1 */
    int32_t *band[2][3];        /* h, v, d of the current row */
    int32_t *f_n, *f_m;         /* band-summed masking input, -1 .. w */
    int32_t *angle;             /* decoupling: angle test per column */
    int32_t *thr_n, *thr_m;     /* masking thresholds of one row */
    /* ring of three rows */
    int32_t *x_r[3][3], *x_a[3][3]; /* restored / additive per band */
    int32_t *hsum_n[3], *hsum_m[3]; /* horizontal 3-sums of f */
    int32_t *ctr_n[3], *ctr_m[3];   /* centre correction: ctr - f */
} AdmRows;

/* Input of one scale: the frame (scale 0) or the previous approximation. */
typedef struct AdmInput {
    const uint8_t *data[2];
    ptrdiff_t stride[2]; /* bytes */
    int bytes;           /* 1, 2 (frame samples) or 4 (int32 band) */
} AdmInput;

/* DWT of output row i of a scale: the approximation into a_out[img] (when
 * non-NULL) for all columns, the details into r->band for columns [c0, c1)
 * when with_hvd. */
void vq_adm_dwt_row(const AdmPriv *s, const VqAdmScale *sc, const AdmInput *in,
                    int i, int with_hvd, int c0, int c1, int32_t *a_out[2],
                    AdmRows *r);

#endif
