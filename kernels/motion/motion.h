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

#include "../vq_kernel_api.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The accumulator record: the frame's SAD (0 before the first scored
 * frame). */
typedef struct VqMotionAcc {
    uint64_t sad;
} VqMotionAcc;

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

/* Vertical pass for bpc <= 12: |d| < 2^12, so pair sums fit 16 bits and
 * the total stays below 2^28 (32-bit arithmetic is exact). The 16-bit
 * operand types let compilers use 16x16->32 multiplies. */
static inline VQ_HOST_DEVICE int32_t vq_motion_vblur32(int16_t d0, int16_t d1,
                                                       int16_t d2, int16_t d3,
                                                       int16_t d4, int shift)
{
    const int16_t outer = (int16_t)(d0 + d4), inner = (int16_t)(d1 + d3);
    const int32_t sum = (int32_t)outer * VQ_MOTION_TAP_OUTER +
                        (int32_t)inner * VQ_MOTION_TAP_INNER +
                        (int32_t)d2 * VQ_MOTION_TAP_CENTER;
    return (sum + (1 << (shift - 1))) >> shift;
}

/*
 * A 5-tap pass whose exact sum needs 33 bits, computed in 16- and 32-bit
 * pieces: with x = 256 * hi + lo (hi = x >> 8 in [-256, 255], lo = x & 255)
 *   sum = 256 * A + B,  A = sum tap * hi (|A| <= 2^24),  B = sum tap * lo
 * and floor((256 A + B + 2^15) / 2^16) = (A + ((B + 2^15) >> 8)) >> 8,
 * which equals libvmaf's 64-bit (sum + 2^15) >> 16. Serves the CPU's
 * horizontal passes (|v| < 2^16; the GPU's takes the 64-bit sum itself) and
 * the vertical pass at 16 bits on both (|d| < 2^16, shift 16).
 */
static inline VQ_HOST_DEVICE int16_t vq_motion_hi(int32_t x)
{
    return (int16_t)(x >> 8);
}

static inline VQ_HOST_DEVICE int16_t vq_motion_lo(int32_t x)
{
    return (int16_t)(x & 255);
}

static inline VQ_HOST_DEVICE int32_t vq_motion_blur_split(
    int16_t h0, int16_t h1, int16_t h2, int16_t h3, int16_t h4,
    int16_t l0, int16_t l1, int16_t l2, int16_t l3, int16_t l4)
{
    const int16_t ho = (int16_t)(h0 + h4), hi = (int16_t)(h1 + h3);
    const int16_t lo = (int16_t)(l0 + l4), li = (int16_t)(l1 + l3);
    const int32_t a = (int32_t)ho * VQ_MOTION_TAP_OUTER +
                      (int32_t)hi * VQ_MOTION_TAP_INNER +
                      (int32_t)h2 * VQ_MOTION_TAP_CENTER;
    const int32_t b = (int32_t)lo * VQ_MOTION_TAP_OUTER +
                      (int32_t)li * VQ_MOTION_TAP_INNER +
                      (int32_t)l2 * VQ_MOTION_TAP_CENTER;
    return (a + ((b + (1 << 15)) >> 8)) >> 8;
}

/* Vertical pass at 16 bits (shift 16). */
static inline VQ_HOST_DEVICE int32_t vq_motion_vblur16(int32_t d0, int32_t d1,
                                                       int32_t d2, int32_t d3,
                                                       int32_t d4)
{
    return vq_motion_blur_split(vq_motion_hi(d0), vq_motion_hi(d1),
                                vq_motion_hi(d2), vq_motion_hi(d3),
                                vq_motion_hi(d4), vq_motion_lo(d0),
                                vq_motion_lo(d1), vq_motion_lo(d2),
                                vq_motion_lo(d3), vq_motion_lo(d4));
}

/* Horizontal pass and absolute value, from the pieces of 5 taps. */
static inline VQ_HOST_DEVICE uint32_t vq_motion_hblur_abs(
    int16_t h0, int16_t h1, int16_t h2, int16_t h3, int16_t h4,
    int16_t l0, int16_t l1, int16_t l2, int16_t l3, int16_t l4)
{
    const int32_t s = vq_motion_blur_split(h0, h1, h2, h3, h4,
                                           l0, l1, l2, l3, l4);
    return (uint32_t)(s < 0 ? -s : s);
}

/*
 * Adds the SAD between prev and cur (luma planes of equal size, each side
 * >= VQ_MOTION_MIN_SIDE) to *sad, and copies cur into store (a w x h plane
 * with store_pitch bytes per row) for a later frame to use as its prev.
 * store must not overlap cur or prev. All pointers are device memory.
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
