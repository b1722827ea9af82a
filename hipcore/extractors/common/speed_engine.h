/*
 * The SpEED engine shared by speed_chroma and speed_temporal: options as
 * libvmaf 3.2.0's speed.c has them, the geometry and filters made once per
 * run, the CPU path of one image and of a reference/distorted pair, the
 * shared finalize of a pair, and the GPU driver (kernels/speed/speed.hip).
 */
#ifndef VQHIP_SPEED_ENGINE_H
#define VQHIP_SPEED_ENGINE_H

#include <stdbool.h>
#include <stddef.h>

#include "../../../kernels/speed/speed.h"
#include "gpu_fn.h"
#include "speed_dsp.h"

/* libvmaf's defaults (speed.c) */
#define VQ_SPEED_DEF_KERNELSCALE 1.0
#define VQ_SPEED_DEF_PRESCALE 1.0
#define VQ_SPEED_DEF_METHOD "nearest"
#define VQ_SPEED_DEF_SIGMA_NN 0.29
#define VQ_SPEED_DEF_NN_FLOOR 0.0
#define VQ_SPEED_DEF_MAX_VAL 1000.0

extern const char *const vq_speed_methods[]; /* valid speed_prescale_method */

typedef struct VqSpeedOpts {
    double kernelscale;
    double prescale;
    char method[VQ_OPT_STRING_SIZE];
    double sigma_nn;
    double nn_floor;
    int weight_var_mode; /* 0 for speed_temporal, which has no such option */
} VqSpeedOpts;

typedef struct VqSpeed {
    VqSpeedGeom g;
    VqSpeedAxis *rows, *cols; /* prescale tables; NULL without a prescale */
    float base_entropy;       /* entropy of a block with no signal */
    int weight_var_mode;
    size_t img_floats;        /* dw * dh */
    VqSpeedDsp dsp;           /* CPU row functions, chosen at setup */
} VqSpeed;

/* Checks the options and the plane size (w x h after libvmaf's chroma
 * rounding) and builds the geometry, filters and tables. name and plane
 * ("speed_chroma", "chroma plane") appear in messages; min_hint says what
 * frame size the smallest plane means. */
int vq_speed_setup(VqSpeed *sp, const VqSpeedOpts *o, unsigned w, unsigned h,
                   const char *name, const char *plane, const char *min_hint,
                   VqErrBuf *e);
void vq_speed_release(VqSpeed *sp);
/* Smallest plane side that leaves one block after speed_prescale and four
 * halvings (80 samples at prescale 1). */
unsigned vq_speed_min_side(double prescale);

/* ---- CPU path ----------------------------------------------------------- */

/* Results of one image: nb variances and entropies. */
typedef struct VqSpeedResult {
    float *var, *ent;
    bool singular;
} VqSpeedResult;

/* Scratch bytes vq_speed_cpu_image needs. */
size_t vq_speed_cpu_scratch(const VqSpeed *sp);
/* Estimates one image read through src (host planes). */
void vq_speed_cpu_image(const VqSpeed *sp, const VqSpeedSrc *src,
                        VqSpeedResult *res, void *scratch);
/* Fills a pair's record (vq_speed_pair_size(nb) bytes) from two results. */
void vq_speed_cpu_pair(const VqSpeed *sp, const VqSpeedResult *ref,
                       const VqSpeedResult *dis, void *rec);

/* ---- shared finalize ---------------------------------------------------- */

/* A pair's score as libvmaf's speed_extract_score returns it (0 when only
 * one side is singular); *singular: either side was. */
float vq_speed_pair_score(const VqSpeed *sp, const void *rec, bool *singular);

/* ---- GPU path ----------------------------------------------------------- */

/* Frames whose GPU work runs at once (desc gpu_sets): SpEED's kernels are
 * chains of dependent steps that fill little of a GPU, so several frames
 * share it. */
#define VQ_SPEED_GPU_SETS 4

/* The GPU driver (speed_gpu.c), built with a GPU platform only. */
typedef struct VqSpeedDev {
    VqSpeedAxis *rows, *cols;
    VqSpeedScratch scr;
    void *buf;
} VqSpeedDev;

int vq_speed_dev_init(VqSpeedDev *d, VqGpu *gpu, const VqSpeed *sp,
                      unsigned n_images, const char *who);
void vq_speed_dev_free(VqSpeedDev *d, VqGpu *gpu);
/* Estimates the images, then fills n_pairs records at rec_dev; returns the
 * launchers' status (for vq_fex_launch_check). */
int vq_speed_dev_run(const VqSpeedDev *d, VqGpu *gpu, const VqSpeed *sp,
                     const VqSpeedDevImages *img, unsigned n_pairs,
                     const unsigned *ref_img, const unsigned *dis_img,
                     void *rec_dev);

#endif
