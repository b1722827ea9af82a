/*
 * libvmaf's float image resizers (vif_tools.c: vif_scale_frame_s), used by
 * float_vif's vif_prescale and float_motion's motion_add_scale1.
 *
 * For every method the source positions and weights depend only on the
 * output column (or row), so they are tabulated once per axis on the host
 * (vq_fresize_axis) exactly as libvmaf computes them per pixel; the CPU
 * path and the kernels then combine table entries with the same float
 * operations in the same order (vq_fresize_pixel).
 */
#ifndef VQHIP_KERNELS_FLOAT_RESIZE_H
#define VQHIP_KERNELS_FLOAT_RESIZE_H

#include <math.h>

#include "vq_kernel_api.h"

#ifdef __cplusplus
extern "C" {
#endif

/* libvmaf's method numbers do not matter here; the names do (option). */
typedef enum VqFResizeMethod {
    VQ_FRESIZE_NEAREST = 0,
    VQ_FRESIZE_BILINEAR,
    VQ_FRESIZE_BICUBIC,
    VQ_FRESIZE_LANCZOS4,
} VqFResizeMethod;

/* Taps per axis: nearest 1, bilinear 2, bicubic 4, lanczos4 9. */
#define VQ_FRESIZE_MAX_TAPS 9

static inline VQ_HOST_DEVICE int vq_fresize_taps(VqFResizeMethod m)
{
    return m == VQ_FRESIZE_NEAREST ? 1 : m == VQ_FRESIZE_BILINEAR ? 2
         : m == VQ_FRESIZE_BICUBIC ? 4 : 9;
}

/* One output column (or row): source indices and weights. Bilinear keeps
 * libvmaf's fraction d in w[0]; bicubic and lanczos4 their kernel values. */
typedef struct VqFResizeTap {
    int idx[VQ_FRESIZE_MAX_TAPS];
    float w[VQ_FRESIZE_MAX_TAPS];
} VqFResizeTap;

/* libvmaf's mirror() takes and returns float. */
static inline VQ_HOST_DEVICE float vq_fresize_mirror(float i, float left,
                                                     float right)
{
    return i < left ? -i : i > right ? 2 * right - i : i;
}

static inline VQ_HOST_DEVICE float vq_fresize_bicubic_w(float t)
{
    const float a = -0.75f;
    if (t < 0)
        t = -t;
    if (t < 1)
        return ((a + 2) * t - (a + 3)) * t * t + 1;
    if (t < 2)
        return (((t - 5) * t + 8) * t - 4) * a;
    return 0;
}

/* Host only: sin() is the host libm's (the tables carry the values). */
static inline float vq_fresize_lanczos_w(float x, float a)
{
    const double pi = 3.14159265358979323846;
    if (x == 0.0)
        return 1.0;
    if (x > -a && x < a)
        return a * sin(pi * x) * sin(pi * x / a) / (pi * pi * x * x);
    return 0.0;
}

/* Output position o of an axis resized from n to dn samples (n != dn).
 * Host only, like the weights it tabulates. */
static inline VqFResizeTap vq_fresize_axis(VqFResizeMethod m,
                                                          int n, int dn, int o)
{
    VqFResizeTap t;
    for (int k = 0; k < VQ_FRESIZE_MAX_TAPS; k++) {
        t.idx[k] = 0;
        t.w[k] = 0.0f;
    }
    float ratio = (float)n / dn;
    if (m == VQ_FRESIZE_NEAREST) {
        t.idx[0] = (int)(o * ratio);
        return t;
    }
    float pos = (o + 0.5) * ratio - 0.5;
    if (m == VQ_FRESIZE_BILINEAR) {
        t.idx[0] = (int)vq_fresize_mirror((float)floor(pos), 0, n - 1);
        t.idx[1] = (int)vq_fresize_mirror((float)ceil(pos), 0, n - 1);
        t.w[0] = pos - t.idx[0];
        return t;
    }
    int p0 = (int)floor(pos);
    float d = pos - p0;
    if (m == VQ_FRESIZE_BICUBIC) {
        for (int i = -1; i <= 2; i++) {
            t.idx[i + 1] = (int)vq_fresize_mirror((float)(p0 + i), 0, n - 1);
            t.w[i + 1] = vq_fresize_bicubic_w(i - d);
        }
        return t;
    }
    for (int i = -4; i <= 4; i++) {
        t.idx[i + 4] = (int)vq_fresize_mirror((float)(p0 + i), 0, n - 1);
        t.w[i + 4] = vq_fresize_lanczos_w(i - d, 4.0f);
    }
    return t;
}

/* One output sample from a float image (row y at src + y * stride). */
static inline VQ_HOST_DEVICE float vq_fresize_pixel(VqFResizeMethod m,
                                                    const float *src,
                                                    ptrdiff_t stride,
                                                    const VqFResizeTap *tx,
                                                    const VqFResizeTap *ty)
{
    if (m == VQ_FRESIZE_NEAREST)
        return src[ty->idx[0] * stride + tx->idx[0]];
    if (m == VQ_FRESIZE_BILINEAR) {
        const float *r1 = src + ty->idx[0] * stride;
        const float *r2 = src + ty->idx[1] * stride;
        float dx = tx->w[0], dy = ty->w[0];
        int x1 = tx->idx[0], x2 = tx->idx[1];
        return (1 - dy) * (1 - dx) * r1[x1] + (1 - dy) * dx * r1[x2] +
               dy * (1 - dx) * r2[x1] + dy * dx * r2[x2];
    }
    if (m == VQ_FRESIZE_BICUBIC) {
        float v = 0.0;
        for (int j = 0; j < 4; j++)
            for (int i = 0; i < 4; i++) {
                float weight = tx->w[i] * ty->w[j];
                v += src[ty->idx[j] * stride + tx->idx[i]] * weight;
            }
        return v;
    }
    float v = 0.0, wsum = 0.0;
    for (int j = 0; j < 9; j++)
        for (int i = 0; i < 9; i++) {
            float weight = tx->w[i] * ty->w[j];
            wsum += weight;
            v += src[ty->idx[j] * stride + tx->idx[i]] * weight;
        }
    return v / wsum;
}

#ifdef __cplusplus
}
#endif

#endif
