/*
 * motion_v2 (the HIP fork of libvmaf's single-pass motion): the SAD of the
 * 5x5-blurred luma difference of two reference frames, computed as libvmaf's
 * integer_motion.c pipeline defines it (the blur is linear, so the
 * difference is blurred, never a frame):
 *   d = prev - cur
 *   v = (sum_k tap[k] d[row k] + 2^(bpc-1)) >> bpc      (vertical)
 *   s = (sum_k tap[k] v[col k] + 2^15) >> 16             (horizontal)
 *   SAD = sum |s|
 * with mirrored taps (index -i -> i, size-1+i -> size-1-i) and 64-bit
 * sums. This is a second, plain implementation of what the motion extractor
 * computes with 16-bit pieces; the two must give the same SAD on every
 * input (tests/speed/motion_v2_test.c).
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

/* libvmaf's integer_motion.h filter (sums to 65536). */
#define VQ_MOTION_V2_TAPS { 3571, 16004, 26386, 16004, 3571 }
#define VQ_MOTION_V2_MIN_SIDE 3

static inline VQ_HOST_DEVICE int vq_motion_v2_mirror(int i, int n)
{
    return i < 0 ? -i : (i >= n ? 2 * n - i - 2 : i);
}

/* Vertical pass on five differences, rows i - 2 .. i + 2. */
static inline VQ_HOST_DEVICE int32_t vq_motion_v2_vert(const int32_t d[5],
                                                       unsigned bpc)
{
    const int64_t tap[5] = VQ_MOTION_V2_TAPS;
    int64_t acc = 0;
    for (int k = 0; k < 5; k++)
        acc += tap[k] * d[k];
    return (int32_t)((acc + ((int64_t)1 << (bpc - 1))) >> bpc);
}

/* Horizontal pass on five vertical results, its absolute value. */
static inline VQ_HOST_DEVICE uint32_t vq_motion_v2_hor_abs(const int32_t v[5])
{
    const int64_t tap[5] = VQ_MOTION_V2_TAPS;
    int64_t acc = 0;
    for (int k = 0; k < 5; k++)
        acc += tap[k] * v[k];
    const int32_t s = (int32_t)((acc + (1 << 15)) >> 16);
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
