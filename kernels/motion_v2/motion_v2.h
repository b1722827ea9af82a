/*
 * motion_v2 (the HIP fork of libvmaf's single-pass motion): the SAD of the
 * 5x5-blurred luma difference of two reference frames, computed as libvmaf's
 * integer_motion.c pipeline defines it (the blur is linear, so the
 * difference is blurred, never a frame):
 *   d = prev - cur
 *   v = (sum_k tap[k] d[row k] + 2^(bpc-1)) >> bpc      (vertical)
 *   s = (sum_k tap[k] v[col k] + 2^15) >> 16             (horizontal)
 *   SAD = sum |s|
 * with mirrored taps (index -i -> i, size-1+i -> size-1-i). libvmaf sums in
 * 64 bits; here the products are split into 16-bit halves instead
 * (vq_motion_v2_round_shift), a second implementation of what the motion
 * extractor computes from 8-bit pieces of its inputs; the two must give the
 * same SAD on every input (tests/speed/motion_v2_test.c).
 */
#ifndef VQHIP_KERNELS_MOTION_V2_H
#define VQHIP_KERNELS_MOTION_V2_H

#include "../vq_kernel_api.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The accumulator record: the frame's SAD (0 before the first scored
 * frame). */
typedef struct VqMotionV2Acc {
    uint64_t sad;
} VqMotionV2Acc;

/* libvmaf's integer_motion.h filter (sums to 65536); symmetric, so mirrored
 * pairs are added before multiplying. */
#define VQ_MOTION_V2_TAP0 3571
#define VQ_MOTION_V2_TAP1 16004
#define VQ_MOTION_V2_TAP2 26386
#define VQ_MOTION_V2_MIN_SIDE 3

static inline VQ_HOST_DEVICE int vq_motion_v2_mirror(int i, int n)
{
    return i < 0 ? -i : (i >= n ? 2 * n - i - 2 : i);
}

/*
 * floor((p0 + p1 + p2 + 2^(n-1)) / 2^n), n <= 16, in 32-bit arithmetic for
 * products p that fit 32 bits while their sum needs 33: each p is split as
 * p = 2^n (p >> n) + (p & (2^n - 1)), so the sum is 2^n hi + lo with
 * 0 <= lo < 2^(n+2).
 */
static inline VQ_HOST_DEVICE int32_t vq_motion_v2_round_shift(int32_t p0,
                                                              int32_t p1,
                                                              int32_t p2,
                                                              int n)
{
    const int32_t mask = (1 << n) - 1;
    const int32_t hi = (p0 >> n) + (p1 >> n) + (p2 >> n);
    const int32_t lo = (p0 & mask) + (p1 & mask) + (p2 & mask) + (1 << (n - 1));
    return hi + (lo >> n);
}

/* Vertical pass on the differences of rows i - 2 .. i + 2 (|d| < 2^bpc,
 * 8 <= bpc <= 16): pair sums below 2^17, each product below 2^31; up to 14
 * bits the whole sum stays below 2^30. */
static inline VQ_HOST_DEVICE int32_t vq_motion_v2_vert(int32_t d0, int32_t d1,
                                                       int32_t d2, int32_t d3,
                                                       int32_t d4, int bpc)
{
    const int32_t p0 = VQ_MOTION_V2_TAP0 * (d0 + d4);
    const int32_t p1 = VQ_MOTION_V2_TAP1 * (d1 + d3);
    const int32_t p2 = VQ_MOTION_V2_TAP2 * d2;
    if (bpc <= 14)
        return (p0 + p1 + p2 + (1 << (bpc - 1))) >> bpc;
    return vq_motion_v2_round_shift(p0, p1, p2, bpc);
}

/* Horizontal pass on five vertical results (|v| < 2^16), its absolute
 * value. */
static inline VQ_HOST_DEVICE uint32_t vq_motion_v2_hor_abs(int32_t v0,
                                                           int32_t v1,
                                                           int32_t v2,
                                                           int32_t v3,
                                                           int32_t v4)
{
    const int32_t s = vq_motion_v2_round_shift(VQ_MOTION_V2_TAP0 * (v0 + v4),
                                               VQ_MOTION_V2_TAP1 * (v1 + v3),
                                               VQ_MOTION_V2_TAP2 * v2, 16);
    return (uint32_t)(s < 0 ? -s : s);
}

/* Adds the SAD of prev against cur (device planes of equal size, sides >=
 * VQ_MOTION_V2_MIN_SIDE) to *sad and copies cur into store (store_pitch
 * bytes per row; no overlap with cur or prev). */
int vq_motion_v2_sad_launch(VqStream stream, const VqDevPlane *cur,
                            const VqDevPlane *prev, void *store,
                            size_t store_pitch, unsigned bpc, uint64_t *sad);
/* Only the copy (frames before the first scored one). */
int vq_motion_v2_store_launch(VqStream stream, const VqDevPlane *cur,
                              void *store, size_t store_pitch, unsigned bpc);

#ifdef __cplusplus
}
#endif

#endif
