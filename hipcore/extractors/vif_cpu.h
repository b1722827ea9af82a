/* Integer VIF, CPU path: one frame's accumulator record (vif.c owns the
 * extractor; this file the filtering). */
#ifndef VQHIP_EXTRACTORS_VIF_CPU_H
#define VQHIP_EXTRACTORS_VIF_CPU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../../kernels/vif.h"
#include "../picture.h"

/* Size of each scale: scale 0 is w x h, scale s + 1 is scale s halved
 * (rounded down). */
typedef struct VqVifDims {
    unsigned w[VQ_VIF_SCALES], h[VQ_VIF_SCALES];
} VqVifDims;

void vq_vif_dims(VqVifDims *d, unsigned w, unsigned h);

/* Per-worker scratch for frames of scale-0 size w x h. */
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

#endif
