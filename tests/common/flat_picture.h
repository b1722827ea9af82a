/* A flat 64x48 4:2:0 8-bit picture (luma one value, chroma 128), with its
 * own memory: the frames of the API tests whose expected values follow
 * from the luma levels alone. */
#ifndef VQHIP_TESTS_FLAT_PICTURE_H
#define VQHIP_TESTS_FLAT_PICTURE_H

#include <stdint.h>
#include <string.h>

#include "vqhip.h"

#define FLAT_W 64
#define FLAT_H 48

typedef struct FlatPicture {
    VqPicture pic;
    uint8_t mem[FLAT_W * FLAT_H * 3 / 2];
} FlatPicture;

static inline void flat_picture(FlatPicture *b, unsigned y)
{
    memset(b->mem, (int)y, FLAT_W * FLAT_H);
    memset(b->mem + FLAT_W * FLAT_H, 128, FLAT_W * FLAT_H / 2);
    b->pic = (VqPicture){ .fmt = VQ_PIX_FMT_420, .bpc = 8,
                          .w = FLAT_W, .h = FLAT_H,
                          .data = { b->mem, b->mem + FLAT_W * FLAT_H,
                                    b->mem + FLAT_W * FLAT_H * 5 / 4 },
                          .stride = { FLAT_W, FLAT_W / 2, FLAT_W / 2 } };
}

#endif
