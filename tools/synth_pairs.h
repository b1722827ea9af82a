#ifndef VQHIP_TOOLS_SYNTH_PAIRS_H
#define VQHIP_TOOLS_SYNTH_PAIRS_H
/* Generated 8-bit 4:2:0 frame pairs for the soak and latency tools: a
 * moving pattern (reference) and a noisy copy (distorted), the same bytes
 * on every machine (a fixed linear congruential sequence). */

#include <stddef.h>

#include "vqhip.h"

/* The bytes synth_pairs() needs for k pairs of w x h. */
size_t synth_pairs_size(unsigned w, unsigned h, unsigned k);
/* Fills buf (synth_pairs_size bytes) and points ref[i], dis[i] (i < k)
 * into it. */
void synth_pairs(unsigned char *buf, unsigned w, unsigned h, unsigned k,
                 VqPicture *ref, VqPicture *dis);

#endif
