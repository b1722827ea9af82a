/*
 * speed_temporal's accumulator record: one SpEED pair record (the
 * reference and distorted frame differences), vq_speed_pair_size(nb) bytes:
 * the singular flags, then one term per 5x5 block (kernels/speed/speed.h).
 * Frame 0 has no record content (its score is 0).
 */
#ifndef VQHIP_KERNELS_SPEED_TEMPORAL_H
#define VQHIP_KERNELS_SPEED_TEMPORAL_H

#include "../speed/speed.h"

#define VQ_SPEED_TEMPORAL_PAIRS 1

#endif
