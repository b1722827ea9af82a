/* The search behind vq_sync_* (api/sync.c): the offset between the first
 * frames of two videos, from block means of their luma. */
#ifndef VQHIP_ALIGN_H
#define VQHIP_ALIGN_H

#include <stddef.h>
#include <stdint.h>

#include "vqhip.h"

typedef struct VqAlign {
    unsigned range, frames, need; /* need = range + frames per input */
    double min_confidence;
    unsigned w, h;                /* the first picture's size */
    unsigned block, gw, gh;       /* block side, grid size in blocks */
    unsigned n[2];                /* grids held: [0] reference, [1] distorted */
    float *grid[2];               /* need grids of gw * gh each */
    uint64_t *sum;                /* gw block sums of one grid row */
} VqAlign;

void vq_align_init(VqAlign *a, const VqSyncConfig *cfg);
/* 0, or -1 and a message in why. */
int vq_align_add(VqAlign *a, int distorted, const VqPicture *pic, char *why,
                 size_t why_size);
/* The grid of pic into slot `slot` (< need) of one input's storage, the
 * geometry set by the first picture; core/realign.c keeps its rings there.
 * 0, or -1 and a message in why. */
int vq_align_put(VqAlign *a, int distorted, unsigned slot,
                 const VqPicture *pic, char *why, size_t why_size);
float *vq_align_grid(const VqAlign *a, int distorted, unsigned slot);
/* For a reduction done elsewhere (the GPU's, api/sync.c): whether pic is
 * one the search takes (vq_align_check: 0, or -1 and a message; the first
 * picture sets the geometry), whether its luma is 16-bit (vq_align_wide),
 * whether an input's storage is full, and its next grid from the gw * gh
 * block sums (made floats as the CPU's reduction makes them). */
int vq_align_check(VqAlign *a, const VqPicture *pic, char *why,
                   size_t why_size);
int vq_align_wide(const VqPicture *pic);
int vq_align_full(const VqAlign *a, int distorted);
int vq_align_add_sums(VqAlign *a, int distorted, const VqPicture *pic,
                      const uint64_t *sums);
/* The mean squared difference of two grids (8-bit units squared). */
double vq_align_mse(const VqAlign *a, const float *x, const float *y);
void vq_align_find(const VqAlign *a, VqSyncResult *res);
void vq_align_free(VqAlign *a);

#endif
