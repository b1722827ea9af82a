/*
 * Banding test pictures: a dark gradient quantised to few levels, the
 * content CAMBI is used for. Deterministic integer arithmetic only, so that
 * `cambi_test --dump` writes the very frames the reference numbers were
 * made from with libvmaf's vmaf tool.
 *
 * Luma: a diagonal ramp across the dark end of the range, drifting a few
 * samples per frame, quantised to steps of `step` codes (8-bit: 1 code,
 * 10-bit: 4 codes, i.e. 8-bit precision in a 10-bit picture, as a
 * banding encode leaves it); a noisy rectangle (no banding there: the
 * spatial mask is 0) and a flat bright bar. The reference ("source") is
 * the same ramp before quantisation (10-bit precision: 8-bit pictures get
 * half-code dithering), so that full_ref has something to subtract.
 * Chroma: flat mid grey.
 */
#ifndef VQHIP_TESTS_CAMBI_FRAMES_H
#define VQHIP_TESTS_CAMBI_FRAMES_H

#include <stdint.h>
#include <stdlib.h>

static inline uint32_t cambi_frames_hash(uint32_t x)
{
    x ^= x >> 16;
    x *= 0x7feb352dU;
    x ^= x >> 15;
    x *= 0x846ca68bU;
    x ^= x >> 16;
    return x;
}

/* Sample (x, y) of frame f; dis: 1 distorted (quantised), 0 reference. */
static inline unsigned cambi_frames_luma(unsigned w, unsigned h, unsigned bpc,
                                         unsigned x, unsigned y, unsigned f,
                                         int dis)
{
    const unsigned one = 1u << (bpc - 8); /* one 8-bit code */
    /* ramp in 1/1024 of an 8-bit code: from 18 to 18 + 48 codes */
    uint64_t num = (uint64_t)(x + 3 * f) * 700 + (uint64_t)y * 300;
    uint64_t den = (uint64_t)(w + 3 * f) * 1000 + 1;
    uint64_t ramp = (18u << 10) + num * (48u << 10) / den;
    unsigned v;
    if (dis) {
        unsigned step = bpc == 8 ? 1 : 4;        /* in units of 1/one code */
        v = (unsigned)((ramp * one) >> 10);       /* floor at this depth */
        v -= v % step;
    } else {
        uint64_t fine = ramp * one;               /* 1/1024 of a sample */
        uint32_t dither = cambi_frames_hash(x * 7919u + y * 104729u + f) & 1023;
        v = (unsigned)((fine + (bpc == 8 ? dither : 512)) >> 10);
    }
    /* a noisy rectangle and a flat bright bar */
    if (x >= w / 8 && x < w / 4 && y >= h / 6 && y < h / 3)
        v += (cambi_frames_hash(x + 4099u * y + 65537u * f) % 9) * one;
    if (y >= h - h / 10)
        v = 200 * one;
    unsigned max = (1u << bpc) - 1;
    return v > max ? max : v;
}

/* Fills a planar 4:2:0 picture of w x h (chroma (w+1)/2 x (h+1)/2). */
static inline void cambi_frames_fill(void *const planes[3], unsigned w,
                                     unsigned h, unsigned bpc, unsigned f,
                                     int dis)
{
    const unsigned cw = (w + 1) / 2, ch = (h + 1) / 2;
    for (unsigned y = 0; y < h; y++)
        for (unsigned x = 0; x < w; x++) {
            unsigned v = cambi_frames_luma(w, h, bpc, x, y, f, dis);
            if (bpc > 8)
                ((uint16_t *)planes[0])[(size_t)y * w + x] = (uint16_t)v;
            else
                ((uint8_t *)planes[0])[(size_t)y * w + x] = (uint8_t)v;
        }
    for (unsigned p = 1; p < 3; p++)
        for (size_t i = 0; i < (size_t)cw * ch; i++) {
            if (bpc > 8)
                ((uint16_t *)planes[p])[i] = (uint16_t)(128u << (bpc - 8));
            else
                ((uint8_t *)planes[p])[i] = 128;
        }
}

#endif
