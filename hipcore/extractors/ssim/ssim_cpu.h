/*
 * ssim's CPU path (definition in kernels/ssim/ssim.h): rows are filtered
 * horizontally once each into a ring of nine (the window's height); each
 * output row is the vertical pass over the nine mirrored rows it needs,
 * then the pixel formula. The row functions have a C version and, on
 * x86-64, an AVX2 build of the same source, chosen once at init (integer
 * sums and the same IEEE double operations: bit-identical).
 */
#ifndef VQHIP_EXTRACTORS_SSIM_CPU_H
#define VQHIP_EXTRACTORS_SSIM_CPU_H

#include <stddef.h>
#include <stdint.h>

#include "../../../kernels/ssim/ssim.h"
#include "../../picture.h"

/* One filtered row: the horizontal sums of x, y, x^2, y^2, x y. */
typedef struct VqSsimHRow {
    uint32_t *hx, *hy;
    uint64_t *hxx, *hyy, *hxy;
} VqSsimHRow;

typedef struct VqSsimDsp {
    /* w outputs from padded rows: p[i] = sample mirror(i - 4), i < w + 8 */
    void (*hrow)(const uint32_t *px, const uint32_t *py, unsigned w,
                 const VqSsimHRow *out);
    /* the sum of q over w pixels from nine filtered rows */
    int64_t (*vrow)(const VqSsimHRow *const *rows, unsigned w, VqSsimConsts k);
    const char *name;
} VqSsimDsp;

enum { VQ_SSIM_DSP_C = 0, VQ_SSIM_DSP_AVX2 = 1, VQ_SSIM_DSP_BEST = 99 };

/* The best variant this CPU runs, at most `level`; returns its level. */
int vq_ssim_dsp_init(VqSsimDsp *dsp, int level);

size_t vq_ssim_cpu_scratch(unsigned w);
/* The frame's sum of q; bps = bytes per sample. */
int64_t vq_ssim_cpu_frame(const VqSsimDsp *dsp, const VqPlane *ref,
                          const VqPlane *dis, unsigned bps, VqSsimConsts k,
                          void *scratch);

#endif
