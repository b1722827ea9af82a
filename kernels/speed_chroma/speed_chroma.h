/*
 * speed_chroma's accumulator record: two SpEED pair records (U, then V),
 * each vq_speed_pair_size(nb) bytes: the singular flags of the reference
 * and distorted plane, then one term per 5x5 block (kernels/speed/speed.h).
 */
#ifndef VQHIP_KERNELS_SPEED_CHROMA_H
#define VQHIP_KERNELS_SPEED_CHROMA_H

#include "../speed/speed.h"

#define VQ_SPEED_CHROMA_PAIRS 2

#endif
