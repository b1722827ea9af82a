/*
 * Deterministic synthetic luma content for the motion tests: the same
 * frames are written to raw files (for libvmaf's reference numbers) and fed
 * to vqhip.
 */
#ifndef VQHIP_TESTS_MOTION_FRAMES_H
#define VQHIP_TESTS_MOTION_FRAMES_H

#include <stdint.h>

enum {
    PATTERN_NOISE = 0,   /* uniform noise over the full range, every frame */
    PATTERN_MOVING,      /* moving smooth gradient with light noise */
    PATTERN_EXTREMES,    /* stripes of 0 and max that swap every frame */
};

static inline uint32_t motion_test_hash(uint32_t a, uint32_t b, uint32_t c)
{
    uint32_t h = a * 0x9E3779B1u ^ (b + 0x7F4A7C15u) * 0x85EBCA77u ^
                 (c + 0x165667B1u) * 0xC2B2AE3Du;
    h ^= h >> 15;
    h *= 0x2C1B3C6Du;
    h ^= h >> 12;
    h *= 0x297A2D39u;
    h ^= h >> 15;
    return h;
}

/* Sample (x, y) of frame k, in [0, 2^bpc - 1]. */
static inline unsigned motion_test_sample(unsigned pattern, unsigned bpc,
                                          unsigned k, unsigned x, unsigned y)
{
    const unsigned maxv = (1u << bpc) - 1;
    switch (pattern) {
    case PATTERN_NOISE:
        return motion_test_hash(x, y, k) & maxv;
    case PATTERN_MOVING: {
        unsigned v = (x * 7 + y * 3 + k * 11) % 200;
        v = v * maxv / 255 + (motion_test_hash(x, y, k) & (maxv >> 5));
        return v > maxv ? maxv : v;
    }
    default: {
        unsigned stripe = ((x / 2) + (y / 3) + k) & 1;
        if (motion_test_hash(x / 4, y / 4, k / 3) % 7 == 0)
            return motion_test_hash(x, y, k) & maxv;
        return stripe ? maxv : 0;
    }
    }
}

#endif
