/*
 * float_motion (libvmaf's float_motion.c, motion.c): the mean absolute
 * difference between the blurred reference luma of a frame and of the frame
 * before it. Per plane scored (luma; with motion_add_uv also both chroma
 * planes):
 *   blur:  the plane as floats (kernels/float_conv.h), filtered with a
 *          separable 5-tap (or 3-tap, or identity) filter, vertical pass
 *          first, mirrored borders;
 *   terms: |prev - cur| per sample, summed in float per row left to right;
 *          the row sums are the accumulator record, and the shared finalize
 *          adds them top to bottom as libvmaf does;
 *   half:  with motion_add_scale1, the same at half size, both blurred
 *          planes first resized bilinearly (kernels/float_resize.h).
 */
#ifndef VQHIP_KERNELS_FLOAT_MOTION_H
#define VQHIP_KERNELS_FLOAT_MOTION_H

#include "../float_conv.h"
#include "../float_resize.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Taps from libvmaf motion_tools.h (FILTER_5_s, FILTER_3_s, and the
 * identity FILTER_5_NO_OP_s): double literals, rounded to float where they
 * initialize float arrays, as there. */
#define VQ_FMOTION_TAPS5 0.054488685, 0.244201342, 0.402619947, \
                         0.244201342, 0.054488685
#define VQ_FMOTION_TAPS3 0.166378498, 0.667243004, 0.166378498
#define VQ_FMOTION_TAPS1 0.0, 0.0, 1.0, 0.0, 0.0
#define VQ_FMOTION_MAX_TAPS 5

typedef struct VqFloatMotionTaps {
    float f[VQ_FMOTION_MAX_TAPS];
    int n; /* 3 or 5 */
} VqFloatMotionTaps;

/* The smallest plane the mirrored 5-tap filter serves (one reflection). */
#define VQ_FMOTION_MIN_SIDE 3

/* libvmaf refuses motion_add_scale1 when the half width exceeds this
 * (VIF_BILINEAR_MAX_WIDTH). */
#define VQ_FMOTION_HALF_MAX_W 7680

#define VQ_FMOTION_MAX_PLANES 3

/*
 * Geometry of a run, fixed at init: the planes and levels scored, their
 * sizes, and where each one's row sums sit in the record. The record is
 * n_floats floats: for plane p and level l (0: full size, 1: half size),
 * h[p][l] row sums at offset off[p][l].
 */
typedef struct VqFloatMotionDims {
    unsigned np, nl;
    unsigned w[VQ_FMOTION_MAX_PLANES][2], h[VQ_FMOTION_MAX_PLANES][2];
    unsigned off[VQ_FMOTION_MAX_PLANES][2];
    unsigned n_floats;
} VqFloatMotionDims;

/* |a - b| added to a row sum: libvmaf adds fabs() in double to its float
 * accumulator, which rounds to the float sum (double rounding of a sum of
 * two floats is innocuous). */
static inline VQ_HOST_DEVICE float vq_float_motion_term(float a, float b)
{
    return fabsf(a - b);
}

/* Blurs a plane of bpc-bit samples into a float image (dst_pitch bytes per
 * row). */
int vq_float_motion_blur_launch(VqStream stream, const VqDevPlane *src,
                           unsigned bpc, VqFloatMotionTaps taps, float *dst,
                           size_t dst_pitch);

/* Resizes a w x h float image to dw x dh bilinearly: tx has dw entries, ty
 * dh entries (device memory, vq_fresize_axis). */
int vq_float_motion_half_launch(VqStream stream, const float *src, size_t pitch,
                           unsigned w, unsigned h, const VqFResizeTap *tx,
                           const VqFResizeTap *ty, float *dst,
                           size_t dst_pitch, unsigned dw, unsigned dh);

/* Row sums of |a - b| over two w x h float images into rows[0 .. h). */
int vq_float_motion_sad_launch(VqStream stream, const float *a, const float *b,
                          size_t pitch, unsigned w, unsigned h, float *rows);

#ifdef __cplusplus
}
#endif

#endif
