/*
 * The float extractors' CPU input: a stored plane as floats, each sample
 * through vq_fpix (kernels/float_conv.h), as their GPU kernels read it.
 */
#ifndef VQHIP_EXTRACTORS_FLOAT_PLANE_H
#define VQHIP_EXTRACTORS_FLOAT_PLANE_H

#include <stddef.h>
#include <stdint.h>

#include "../../../kernels/float_conv.h"
#include "core/picture.h"

/* bps: bytes per sample (1 or 2); dst: p->w x p->h floats, rows packed */
static inline void vq_plane_to_float(const VqPlane *p, unsigned bps,
                                     float scale, float *restrict dst)
{
    for (unsigned y = 0; y < p->h; y++) {
        const uint8_t *row = p->data + (ptrdiff_t)y * p->stride;
        float *o = dst + (size_t)y * p->w;
        if (bps == 1)
            for (unsigned x = 0; x < p->w; x++)
                o[x] = vq_fpix(row[x], scale);
        else
            for (unsigned x = 0; x < p->w; x++)
                o[x] = vq_fpix(((const uint16_t *)(const void *)row)[x],
                               scale);
    }
}

#endif
