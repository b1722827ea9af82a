/* The drop and repeat detector behind vq_realign_* (api/realign.c): rings
 * of luma block-mean grids (core/align.c's) of both inputs, from the frame
 * before the head pair to window + 1 frames past it. */
#ifndef VQHIP_REALIGN_H
#define VQHIP_REALIGN_H

#include "core/align.h"

typedef struct VqRealignState {
    VqAlign g;                  /* its storage: cap grids per input */
    unsigned window, cap;       /* cap = window + 2 */
    double ratio, min_gap;
    unsigned long long added[2], head[2]; /* [0] reference, [1] distorted */
    int offset;
} VqRealignState;

void vq_realign_state_init(VqRealignState *s, const VqRealignConfig *cfg);
/* 0; 1: the ring is full (window + 1 frames past the head); -1 and why. */
int vq_realign_state_add(VqRealignState *s, int distorted,
                         const VqPicture *pic, char *why, size_t why_size);
/* 0: pair the head frames; 1 and *ev: one head frame left out; -1: an
 * input has no frame. */
int vq_realign_state_decide(VqRealignState *s, VqRealignEvent *ev);
/* 0, or -1 when an input has no head frame. */
int vq_realign_state_pop(VqRealignState *s);
void vq_realign_state_free(VqRealignState *s);

#endif
