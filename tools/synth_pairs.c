#include <string.h>

#include "synth_pairs.h"

static void plane_sizes(unsigned w, unsigned h, size_t *ysz, size_t *csz)
{
    *ysz = (size_t)w * h;
    *csz = (size_t)((w + 1) / 2) * ((h + 1) / 2);
}

size_t synth_pairs_size(unsigned w, unsigned h, unsigned k)
{
    size_t ysz, csz;
    plane_sizes(w, h, &ysz, &csz);
    return 2 * (size_t)k * (ysz + 2 * csz);
}

void synth_pairs(unsigned char *buf, unsigned w, unsigned h, unsigned k,
                 VqPicture *ref, VqPicture *dis)
{
    size_t ysz, csz;
    plane_sizes(w, h, &ysz, &csz);
    unsigned seed = 1;
    for (unsigned j = 0; j < 2 * k; j++) {
        unsigned char *p = buf + j * (ysz + 2 * csz);
        for (size_t y = 0; y < h; y++)
            for (size_t x = 0; x < w; x++) {
                seed = seed * 1103515245u + 12345u;
                unsigned v = (unsigned)((x * 2 + y + j / 2 * 9) & 255);
                p[y * w + x] = (unsigned char)(j & 1 ? (v + (seed >> 28)) & 255
                                                     : v);
            }
        memset(p + ysz, 128, 2 * csz);
        ptrdiff_t cs = (ptrdiff_t)(w + 1) / 2;
        *(j & 1 ? &dis[j / 2] : &ref[j / 2]) = (VqPicture){
            .fmt = VQ_PIX_FMT_420, .bpc = 8, .w = w, .h = h,
            .data = { p, p + ysz, p + ysz + csz },
            .stride = { (ptrdiff_t)w, cs, cs } };
    }
}
