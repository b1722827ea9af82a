/*
 * CAMBI's host side: options and everything derived from them at init
 * (shared by the CPU path, the GPU path and the finalize).
 */
#ifndef VQHIP_CAMBI_PRIV_H
#define VQHIP_CAMBI_PRIV_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "../../../kernels/cambi/cambi.h"
#include "core/extractor.h"
#include "cambi_dsp.h"

#define CAMBI_MIN_SIDE 216     /* libvmaf: width or height at least this */
#define CAMBI_RECIP_SIZE 4226  /* libvmaf's reciprocal table: window <= 65 */

/* One image scored: the distorted one, and with full_ref the reference. */
typedef struct CambiImage {
    unsigned w, h;                  /* scored size (encode or source size) */
    unsigned window, pad;           /* window adjusted to the size */
    unsigned mask_index;
    unsigned sw[VQ_CAMBI_SCALES], sh[VQ_CAMBI_SCALES]; /* scale sizes */
    unsigned mask_shift[VQ_CAMBI_SCALES]; /* scale -> full-size mask */
    uint64_t k[VQ_CAMBI_SCALES];    /* c-values kept by the pooling */
    int *xmap, *ymap;               /* resampling; NULL: the frame's size */
} CambiImage;

/* Pooling histograms: level 1 (filled along with the c-values), then the
 * levels 2 and 3 (cambi_cvalues.c). */
typedef struct CambiTopkHist {
    uint32_t cnt1[512];
    uint64_t sum1[512];
    uint32_t cnt[1024];
    uint64_t sum[1024];
} CambiTopkHist;

typedef struct CambiPriv {
    /* options (libvmaf's names) */
    double max_val;
    int enc_width, enc_height, enc_bitdepth, src_width, src_height;
    int window_size;
    double topk, cambi_topk, tvi_threshold, vis_lum_threshold;
    int max_log_contrast;
    char heatmaps_path[VQ_OPT_STRING_SIZE]; /* "": no heatmaps */
    bool full_ref;
    char eotf[VQ_OPT_STRING_SIZE], cambi_eotf[VQ_OPT_STRING_SIZE];
    int high_res_speedup;

    /* derived in init */
    unsigned n_images;
    bool speedup;         /* cambi_high_res_speedup applies at this size */
    bool anti_dither;     /* encode bit depth below 10 */
    VqCambiLuts luts;
    float recip[CAMBI_RECIP_SIZE];
    CambiImage img[2];
    size_t heat_size[VQ_CAMBI_SCALES]; /* bytes of each scale's heatmap */
    double heat_scale;
    FILE *heat[VQ_CAMBI_SCALES];
    size_t scratch_off[9];             /* CPU scratch layout */
    VqCambiDsp dsp;                    /* CPU variants, chosen at init */
} CambiPriv;

/* cambi_params.c: libvmaf's tables and sizes. */
int cambi_params_init(VqFex *fex, const VqFormat *fmt);
void cambi_params_free(CambiPriv *s);
/* libvmaf's reciprocal table (CAMBI_RECIP_SIZE entries). */
void cambi_recip_fill(float *recip);
/* tvi_for_diff computed for diff (1..32) and eotf ("bt1886", "pq"); the
 * value carried for the default threshold goes to *carried. -1: no value. */
int cambi_tvi_for_diff(int diff, double tvi, const char *eotf, int *carried);

/* cambi_cpu.c: chooses the SIMD variant, lays out the per-worker
 * scratch and returns its size. */
size_t cambi_cpu_init(CambiPriv *s);
/* cambi_cpu.c: in a ladder, the size of the reference's per-frame
 * product (0 without full_ref: nothing to share) */
size_t cambi_ref_product_size(const VqFex *fex);
int cambi_cpu_run(VqFex *fex, const VqFrame *ref, const VqFrame *dis,
                  unsigned index, void *acc, void *scratch);

/* cambi_cvalues.c */
/* c-values of one w x h scale (rows: 3 w samples of scratch) and their
 * level-1 pooling statistics. */
void cambi_cvalues(const CambiPriv *s, const uint16_t *img,
                   const uint8_t *mask, unsigned w, unsigned h, unsigned pad,
                   uint16_t *hist, uint16_t *rows, float *c,
                   CambiTopkHist *t);
/* Level-1 statistics of any array (what cambi_cvalues fills). */
void cambi_topk_level1(const float *c, uint64_t n, CambiTopkHist *t);
/* Exact sum (2^-24 units) of the k largest of the n c-values whose level-1
 * statistics are in t. Reorders c. */
uint64_t cambi_topk_sum(float *c, uint64_t n, uint64_t k, CambiTopkHist *t);

/* cambi_heatmap.c */
int cambi_heatmaps_open(VqFex *fex);
void cambi_heatmaps_close(CambiPriv *s);
void cambi_heatmap_row(const CambiPriv *s, const float *c, unsigned n,
                       uint16_t *out);
int cambi_heatmaps_write(VqFex *fex, const void *acc, unsigned index);

/* cambi_gpu.c */
int cambi_gpu_init(VqFex *fex, struct VqGpu *gpu);
int cambi_gpu_run(VqFex *fex, struct VqGpu *gpu,
                  const struct VqDevFrame *ref, const struct VqDevFrame *dis,
                  unsigned index, void *acc_dev);
void cambi_gpu_close(VqFex *fex, struct VqGpu *gpu);
/* a ladder's split with full_ref (VqFexDesc.gpu_ref_size): the product is
 * the reference image's half of the record */
size_t cambi_gpu_ref_size(const VqFex *fex);
int cambi_gpu_ref_run(VqFex *fex, struct VqGpu *gpu,
                      const struct VqDevFrame *ref, unsigned index,
                      void *prod);
int cambi_gpu_run_split(VqFex *fex, struct VqGpu *gpu,
                        const struct VqDevFrame *ref,
                        const struct VqDevFrame *dis, unsigned index,
                        const void *prod, void *acc_dev);

#endif
