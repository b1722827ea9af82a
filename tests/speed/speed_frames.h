/*
 * Synthetic reference/distorted frames for the SpEED and motion_v2 tests,
 * from integer arithmetic only (the same samples on every machine, so
 * expected values made with libvmaf elsewhere stay valid).
 */
#ifndef VQHIP_TESTS_SPEED_FRAMES_H
#define VQHIP_TESTS_SPEED_FRAMES_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "vqhip.h"

enum {
    PAT_TEXTURE,  /* moving triangle waves plus noise; distorted adds more */
    PAT_NOISE,    /* independent noise everywhere */
    PAT_FLAT,     /* one grey level: every covariance is singular */
    PAT_FLAT_REF_U, /* texture, but the reference U plane is flat */
    PAT_EXTREMES, /* 0 or the maximum, at random */
};

static inline uint32_t frames_hash(uint32_t x)
{
    x ^= x >> 16;
    x *= 0x7feb352dU;
    x ^= x >> 15;
    x *= 0x846ca68bU;
    x ^= x >> 16;
    return x;
}

static inline unsigned frames_tri(unsigned u, unsigned period)
{
    u %= period;
    return u < period / 2 ? u : period - u;
}

/* Sample (x, y) of plane c of frame t; dis: the distorted picture. */
static inline unsigned frames_sample(int pattern, unsigned bpc, unsigned c,
                                     unsigned x, unsigned y, unsigned t,
                                     int dis)
{
    const unsigned max = (1u << bpc) - 1;
    const uint32_t h = frames_hash((x * 7919u) ^ (y * 104729u) ^
                                   (t * 1299709u) ^ (c * 15485863u) ^
                                   (dis ? 0x9e3779b9u : 0u));
    switch (pattern) {
    case PAT_NOISE:
        return h % (max + 1);
    case PAT_FLAT:
        return max / 2 + 1;
    case PAT_EXTREMES:
        return h & 1 ? max : 0;
    default:
        break;
    }
    if (pattern == PAT_FLAT_REF_U && c == 1 && !dis)
        return max / 3;
    /* in 8-bit units: coarse blocks (SpEED works on the frame decimated
     * by 16), finer blocks and a wave moving with t, fine noise; the
     * distorted picture adds coarse and fine errors */
    const unsigned xm = x + t * 3, ym = y + t;
    long v = 30 + (long)(frames_hash((xm / 16) * 131u + (ym / 16) * 7u +
                                     c * 1009u) % 110) +
             (long)(frames_hash((xm / 5) * 17u + (ym / 7) * 3u + c) % 40) +
             (long)frames_tri(x * 3 + y + t * 5 + c * 11, 48) + (long)(h % 8);
    if (dis)
        v += (long)(frames_hash((x / 20) * 59u + (y / 12) * 11u + c * 3u +
                                t * 5u) % 41) - 20 + (long)((h >> 8) % 9) - 4;
    v <<= bpc - 8;
    v += (long)((h >> 16) & ((1u << (bpc - 8)) - 1));
    return v < 0 ? 0 : v > (long)max ? max : (unsigned)v;
}

typedef struct FramesPic {
    VqPicture pic;
    uint8_t *buf[3];
} FramesPic;

/* Allocates and fills one picture in FFmpeg's layout ((w+1)/2 chroma). */
static inline int frames_make(FramesPic *p, VqPixFmt fmt, unsigned bpc,
                              unsigned w, unsigned h, int pattern, unsigned t,
                              int dis)
{
    memset(p, 0, sizeof(*p));
    const unsigned bps = bpc > 8 ? 2 : 1;
    const unsigned sx = fmt == VQ_PIX_FMT_444 ? 0 : 1;
    const unsigned sy = fmt == VQ_PIX_FMT_420 ? 1 : 0;
    p->pic.fmt = fmt;
    p->pic.bpc = bpc;
    p->pic.w = w;
    p->pic.h = h;
    const unsigned np = fmt == VQ_PIX_FMT_GRAY ? 1 : 3;
    for (unsigned c = 0; c < np; c++) {
        const unsigned pw = c ? (w + sx) >> sx : w, ph = c ? (h + sy) >> sy : h;
        const size_t stride = (size_t)pw * bps + 32; /* padding, filled */
        p->buf[c] = malloc(stride * ph);
        if (!p->buf[c])
            return -1;
        memset(p->buf[c], 0xa5, stride * ph);
        for (unsigned y = 0; y < ph; y++)
            for (unsigned x = 0; x < pw; x++) {
                unsigned v = frames_sample(pattern, bpc, c, x, y, t, dis);
                uint8_t *row = p->buf[c] + y * stride;
                if (bps == 1)
                    row[x] = (uint8_t)v;
                else
                    ((uint16_t *)(void *)row)[x] = (uint16_t)v;
            }
        p->pic.data[c] = p->buf[c];
        p->pic.stride[c] = (ptrdiff_t)stride;
    }
    return 0;
}

static inline void frames_free(FramesPic *p)
{
    for (int c = 0; c < 3; c++)
        free(p->buf[c]);
    memset(p, 0, sizeof(*p));
}

#endif
