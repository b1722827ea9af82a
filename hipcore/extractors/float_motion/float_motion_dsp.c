/*
 * float_motion: the plane functions of the CPU path (float_motion_dsp.h),
 * written with the vector helpers of float_simd.h and compiled once per
 * instruction set. Each value is one chain of IEEE operations in a fixed
 * order (no FMA contraction in this build), so every variant equals the C
 * function bit for bit.
 */
#include "../common/float_simd.h"
#include "float_motion_dsp.h"

/* libvmaf's convolution: per row the vertical pass into vrow (with r
 * mirrored values on each side), then the horizontal pass. */
VQ_DSP_TEMPLATE void blur(const float *restrict src, unsigned w, unsigned h,
                          const VqFloatMotionTaps *t, float *restrict vrow,
                          float *restrict dst)
{
    const int r = t->n / 2, n = t->n;
    float *restrict acc = vrow + r;
    const float *rows[VQ_FMOTION_MAX_TAPS];
    for (unsigned i = 0; i < h; i++) {
        for (int k = 0; k < n; k++)
            rows[k] = src + (size_t)vq_fconv_mirror((int)i - r + k, (int)h) * w;
        /* eight columns at a time, the sums in registers (float_simd.h) */
        unsigned j = 0;
        for (; j + 8 <= w; j += 8) {
            vq_vf8 s = { 0 }, x;
            for (int k = 0; k < n; k++) {
                VQ_VLOAD(x, rows[k] + j);
                s += t->f[k] * x;
            }
            VQ_VSTORE(acc + j, s);
        }
        for (; j < w; j++) {
            float s = 0.0f;
            for (int k = 0; k < n; k++)
                s += t->f[k] * rows[k][j];
            acc[j] = s;
        }
        for (int m = 1; m <= r; m++) {
            acc[-m] = acc[m];
            acc[w - 1 + m] = acc[w - 1 - m];
        }
        float *restrict out = dst + (size_t)i * w;
        for (j = 0; j + 8 <= w; j += 8) {
            vq_vf8 s = { 0 }, x;
            for (int k = 0; k < n; k++) {
                VQ_VLOAD(x, vrow + j + k);
                s += t->f[k] * x;
            }
            VQ_VSTORE(out + j, s);
        }
        for (; j < w; j++)
            out[j] = vq_fconv_dot(t->f, n, vrow + j, 1);
    }
}

/* Row sums of |a - b|, eight rows at a time (independent chains; each
 * row's own order is kept). */
VQ_DSP_TEMPLATE void sad_rows(const float *a, const float *b, unsigned w,
                              unsigned h, float *rows)
{
    unsigned y = 0;
    for (; y + 8 <= h; y += 8) {
        float s[8] = { 0 };
        const float *pa = a + (size_t)y * w, *pb = b + (size_t)y * w;
        for (unsigned x = 0; x < w; x++)
            for (unsigned k = 0; k < 8; k++)
                s[k] += vq_float_motion_term(pa[k * w + x], pb[k * w + x]);
        for (unsigned k = 0; k < 8; k++)
            rows[y + k] = s[k];
    }
    for (; y < h; y++) {
        float s = 0.0f;
        const float *pa = a + (size_t)y * w, *pb = b + (size_t)y * w;
        for (unsigned x = 0; x < w; x++)
            s += vq_float_motion_term(pa[x], pb[x]);
        rows[y] = s;
    }
}

#define FMOTION_VARIANT(isa, TARGET)                                          \
    TARGET decl_fmotion_blur_fn(vq_float_motion_blur_##isa)                        \
    {                                                                         \
        blur(src, w, h, t, vrow, dst);                                        \
    }

FMOTION_VARIANT(c, )
/* sad_rows has the C function only: its eight chains run across rows, and
 * the wider builds (gathers of one column of eight rows) measured slower. */
decl_fmotion_sad_rows_fn(vq_float_motion_sad_rows_c)
{
    sad_rows(a, b, w, h, rows);
}
#if VQ_ARCH_X86_64
FMOTION_VARIANT(avx2, VQ_TARGET_AVX2)
FMOTION_VARIANT(avx512, VQ_TARGET_AVX512)
#endif

void vq_float_motion_dsp_init(VqFloatMotionDsp *c, unsigned flags)
{
    c->blur = vq_float_motion_blur_c;
    c->sad_rows = vq_float_motion_sad_rows_c;
#if VQ_ARCH_X86_64
    if (flags & VQ_CPU_AVX2)
        c->blur = vq_float_motion_blur_avx2;
    if (flags & VQ_CPU_AVX512)
        c->blur = vq_float_motion_blur_avx512;
#else
    (void)flags;
#endif
}
