/*
 * ssim's CPU path (definition in kernels/ssim/ssim.h): rows are filtered
 * horizontally once each into a ring of nine (the window's height); each
 * output row is the vertical pass over the nine mirrored rows it needs,
 * then the pixel formula (the row functions of ssim_dsp.h).
 */
#ifndef VQHIP_EXTRACTORS_SSIM_CPU_H
#define VQHIP_EXTRACTORS_SSIM_CPU_H

#include <stddef.h>
#include <stdint.h>

#include "../../../kernels/ssim/ssim.h"
#include "core/picture.h"
#include "ssim_dsp.h"

size_t vq_ssim_cpu_scratch(unsigned w);
/* The frame's sum of q; bps = bytes per sample. */
int64_t vq_ssim_cpu_frame(const VqSsimDsp *dsp, const VqPlane *ref,
                          const VqPlane *dis, unsigned bps, VqSsimConsts k,
                          void *scratch);

#endif
