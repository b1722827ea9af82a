/*
 * Integer motion (libvmaf's "motion"): the sum of absolute values of the
 * 5x5-blurred luma difference between the current reference frame and the
 * one before it (two before with the five-frame window).
 *
 * Per output sample, as libvmaf's integer_motion.c computes it:
 *   vertical pass on the difference d = prev - cur:
 *     v = (sum_k tap[k] * d[row k] + 2^(bpc-1)) >> bpc
 *   horizontal pass on v:
 *     s = (sum_k tap[k] * v[col k] + 2^15) >> 16
 *   SAD += |s|
 * with taps mirrored at the edges (index -i -> i, size-1+i -> size-1-i).
 * Both passes carry the same fixed-point scale: s is the blurred difference
 * times 256 at every bit depth.
 */
#ifndef VQHIP_KERNELS_MOTION_H
#define VQHIP_KERNELS_MOTION_H

#include "vq_kernel_api.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Taps from libvmaf's integer_motion.h (they sum to 65536); the filter is
 * symmetric, so the helpers below add mirrored pairs before multiplying. */
#define VQ_MOTION_TAP_OUTER 3571
#define VQ_MOTION_TAP_INNER 16004
#define VQ_MOTION_TAP_CENTER 26386
#define VQ_MOTION_RADIUS 2

/* Smallest plane side the mirrored 5-tap filter can serve without reading
 * outside the plane. */
#define VQ_MOTION_MIN_SIDE 3

/* Mirrored index for a tap at idx in [-2, size + 1] (size >= 3). */
static inline VQ_HOST_DEVICE int vq_motion_mirror(int idx, int size)
{
    if (idx < 0)
        return -idx;
    if (idx >= size)
        return 2 * size - idx - 2;
    return idx;
}

/* Vertical pass for bpc <= 12: |d| < 2^12, so the sum stays below 2^28 and
 * 32-bit arithmetic is exact. */
static inline VQ_HOST_DEVICE int32_t vq_motion_vblur32(int32_t d0, int32_t d1,
                                                       int32_t d2, int32_t d3,
                                                       int32_t d4, int shift)
{
    int32_t sum = VQ_MOTION_TAP_OUTER * (d0 + d4) +
                  VQ_MOTION_TAP_INNER * (d1 + d3) + VQ_MOTION_TAP_CENTER * d2;
    return (sum + (1 << (shift - 1))) >> shift;
}

/* Vertical pass for 16 bits: |d| < 2^16 makes the sum need 33 bits. */
static inline VQ_HOST_DEVICE int32_t vq_motion_vblur64(int32_t d0, int32_t d1,
                                                       int32_t d2, int32_t d3,
                                                       int32_t d4, int shift)
{
    int64_t sum = (int64_t)VQ_MOTION_TAP_OUTER * (d0 + d4) +
                  (int64_t)VQ_MOTION_TAP_INNER * (d1 + d3) +
                  (int64_t)VQ_MOTION_TAP_CENTER * d2;
    return (int32_t)((sum + ((int64_t)1 << (shift - 1))) >> shift);
}

/*
 * Horizontal pass and absolute value. The vertical results are below 2^16
 * in magnitude, so the exact sum needs 33 bits; it is computed in 32-bit
 * pieces instead: with v = 256 * hi + lo (lo in 0..255),
 *   sum = 256 * A + B,  A = sum tap * hi (|A| <= 2^24),  B = sum tap * lo
 * and floor((256 A + B + 2^15) / 2^16) = (A + ((B + 2^15) >> 8)) >> 8,
 * which equals libvmaf's 64-bit (sum + 2^15) >> 16 exactly.
 */
static inline VQ_HOST_DEVICE uint32_t vq_motion_hblur_abs(int32_t v0, int32_t v1,
                                                          int32_t v2, int32_t v3,
                                                          int32_t v4)
{
    int32_t a = VQ_MOTION_TAP_OUTER * ((v0 >> 8) + (v4 >> 8)) +
                VQ_MOTION_TAP_INNER * ((v1 >> 8) + (v3 >> 8)) +
                VQ_MOTION_TAP_CENTER * (v2 >> 8);
    int32_t b = VQ_MOTION_TAP_OUTER * ((v0 & 255) + (v4 & 255)) +
                VQ_MOTION_TAP_INNER * ((v1 & 255) + (v3 & 255)) +
                VQ_MOTION_TAP_CENTER * (v2 & 255);
    int32_t s = (a + ((b + (1 << 15)) >> 8)) >> 8;
    return (uint32_t)(s < 0 ? -s : s);
}

/*
 * Adds the SAD between prev and cur (luma planes of equal size, each side
 * >= VQ_MOTION_MIN_SIDE) to *sad, and copies cur into store (a w x h plane
 * with store_pitch bytes per row) for a later frame to use as its prev.
 * store must not be prev's memory. All pointers are device memory.
 */
int vq_motion_sad_launch(VqStream stream, const VqDevPlane *cur,
                         const VqDevPlane *prev, void *store,
                         size_t store_pitch, unsigned bpc, uint64_t *sad);

/* Only the copy of cur into store (frames without a previous frame). */
int vq_motion_store_launch(VqStream stream, const VqDevPlane *cur, void *store,
                           size_t store_pitch, unsigned bpc);

#ifdef __cplusplus
}
#endif

#endif
