/* Integer ADM: state shared by the extractor's files. */
#ifndef VQHIP_EXTRACTORS_ADM_PRIV_H
#define VQHIP_EXTRACTORS_ADM_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../../../kernels/adm/adm.h"
#include "../common/gpu_fn.h"
#include "adm_dsp.h"

/* adm_csf_mode values (libvmaf integer_adm.h: ADM_CSF_MODE). */
enum {
    ADM_CSF_WATSON97 = 0,
    ADM_CSF_BARTEN = 1,
    ADM_CSF_BLEND = 2,
    ADM_CSF_BLEND_MAE = 3,
};

typedef struct AdmPriv {
    /* options */
    bool debug;
    double csf_scale;
    double csf_diag_scale;
    double dlm_weight;
    double enhn_gain_limit;
    double norm_view_dist;
    int ref_display_height;
    int csf_mode;
    double noise_weight;
    bool skip_aim;
    bool skip_scale0;
    double min_val;

    /* derived in init */
    VqAdmParams p;
    float rfactor[4][3];     /* CSF weights as floats (denominator) */
    int32_t *recip;          /* 2^30 / d, d = -32768..32768 (CPU path) */
    size_t plane_stride[4];  /* CPU scratch: next-scale plane stride */
    size_t scratch_off[8];
    size_t rows_size;        /* CPU scratch: the row buffers (a part's) */
    VqAdmDsp dsp;            /* the CPU path's functions, chosen once */
} AdmPriv;

/* adm_params.c: the CSF weights and fixed-point shifts for a w x h frame;
 * fails with a message for settings libvmaf's integer ADM cannot compute. */
int vq_adm_setup(AdmPriv *s, unsigned w, unsigned h, unsigned bpc,
                 VqErrBuf *err);

/* adm_params.c: per-scale num, aim and den from the accumulators, as
 * libvmaf's float arithmetic turns them into scores. */
void vq_adm_scale_scores(const AdmPriv *s, const VqAdmAcc *acc, int scale,
                         float *num, float *aim, float *den);

/* adm_cpu.c: the scratch of a frame (the approximation planes of scales
 * 0..2, then the row buffers, s->rows_size bytes, at s->scratch_off[3]),
 * a whole frame, and output rows [a, b) of scale k (their sums added to
 * acc): rows are independent once scale k - 1 is complete, so any split
 * of a scale into row ranges, each with its own row buffers, run in any
 * order or concurrently, gives the same planes and, summed, the same acc. */
size_t vq_adm_cpu_scratch_size(AdmPriv *s);
void vq_adm_cpu_frame(const AdmPriv *s, const VqPlane *ref,
                      const VqPlane *dis, VqAdmAcc *acc, void *scratch);
void vq_adm_cpu_scale_rows(const AdmPriv *s, int k, const VqPlane *ref,
                           const VqPlane *dis, void *planes, void *rows,
                           int a, int b, VqAdmAcc *acc);
/* The same with the reference's part from a ladder's product (NULL: the
 * whole, as vq_adm_cpu_scale_rows): only the distorted picture's DWT runs,
 * the reference's bands and approximation are read from prod, and the
 * denominator is left to the product's. */
struct AdmProduct;
void vq_adm_cpu_scale_rows_with(const AdmPriv *s, int k, const VqPlane *ref,
                                const VqPlane *dis, void *planes, void *rows,
                                int a, int b, VqAdmAcc *acc,
                                const struct AdmProduct *prod);

/* adm_gpu.c. Sets of device buffers (desc gpu_sets): frames whose kernels
 * run at once, on lanes of their own. */
#define VQ_ADM_GPU_SETS 2
/* The GPU path (adm_gpu.c), built with a GPU platform only. */
int vq_adm_gpu_init(VqFex *fex, VqGpu *gpu);
int vq_adm_gpu_run(VqFex *fex, VqGpu *gpu, const VqDevFrame *ref,
                   const VqDevFrame *dis, unsigned index, void *acc_dev);
/* a ladder's split (VqFexDesc.gpu_ref_size) */
size_t vq_adm_gpu_ref_size(const VqFex *fex);
int vq_adm_gpu_ref_run(VqFex *fex, VqGpu *gpu, const VqDevFrame *ref,
                       unsigned index, void *prod);
int vq_adm_gpu_run_split(VqFex *fex, VqGpu *gpu, const VqDevFrame *ref,
                         const VqDevFrame *dis, unsigned index,
                         const void *prod, void *acc_dev);
void vq_adm_gpu_close(VqFex *fex, VqGpu *gpu);

/* Integer ADM, CPU path: the row buffers shared by its two files. */
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

/* DWT of output row i of a scale, for the pictures of imgs (bit 0: the
 * reference, bit 1: the distorted one): the approximation into a_out[img]
 * (when non-NULL) for all columns, the details into r->band[img] for
 * columns [c0, c1) when with_hvd. */
void vq_adm_dwt_row(const AdmPriv *s, const VqAdmScale *sc, const AdmInput *in,
                    int i, int with_hvd, int c0, int c1, int32_t *a_out[2],
                    AdmRows *r, unsigned imgs);

/* A ladder's ADM (adm_share.c): the reference's part of a frame, computed
 * once for every rendition: per scale its detail bands (w x h each, the
 * columns and rows of the decoupling region written), its approximation
 * planes (scales 0..2, s->plane_stride) and its denominator sums. */
typedef struct AdmProduct {
    VqAdmAcc *den; /* den only */
    int32_t *band[4][3];
    int32_t *approx[3];
} AdmProduct;

/* adm_cpu.c: rows [a, b) of scale k's reference part into prod (its den
 * sums added to den), from the reference plane (k 0) or prod's previous
 * approximation. */
void vq_adm_cpu_ref_rows(const AdmPriv *s, int k, const VqPlane *ref,
                         const AdmProduct *prod, void *rows, int a, int b,
                         VqAdmAcc *den);
/* adm_share.c: the product's size for these frames (0: not shared), and
 * the frame from the ladder's product: 0 or an error, or 1 when none could
 * be had (the caller computes the frame). */
size_t adm_ref_product_size(const VqFex *fex);
int adm_cpu_run_shared(VqFex *fex, const VqFrame *ref, const VqFrame *dis,
                       unsigned index, void *acc, void *scratch);

/* adm_cpu.c; vq_adm_add_acc adds a band's sums (wrapping, as the
 * integer sums of any order) */
void vq_adm_add_acc(VqAdmAcc *to, const VqAdmAcc *a);
int adm_cpu_run(VqFex *fex, const VqFrame *ref, const VqFrame *dis,
                unsigned index, void *acc, void *scratch);

#endif
