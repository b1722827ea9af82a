/*
 * float_ssim's row functions (float_ssim_dsp.h), written once and compiled
 * for each instruction set: the filters keep VQ_FSSIM_BLOCK sums in vector
 * registers, the pixel terms are the shared vq_float_ssim_pixel.
 */
#include "float_ssim_dsp.h"

VQ_DSP_TEMPLATE void hconv(const float *src, unsigned n, float *dst)
{
    const float g[VQ_FSSIM_WIN] = { VQ_FSSIM_GAUSS_TAPS };
    unsigned x = 0;
#if VQ_FSSIM_BLOCK
    for (; x + VQ_FSSIM_BLOCK <= n; x += VQ_FSSIM_BLOCK) {
        VqFloatSsimVecD a = { 0 };
        for (int u = 0; u < VQ_FSSIM_WIN; u++)
            VQ_FSSIM_ACC(a, src + x + u, g[u]);
        VQ_FSSIM_STORE(dst + x, a);
    }
#endif
    for (; x < n; x++) {
        double a = 0.0;
        for (int u = 0; u < VQ_FSSIM_WIN; u++)
            a += (double)(src[x + u] * g[u]);
        dst[x] = (float)a;
    }
}

VQ_DSP_TEMPLATE void vconv(const float *const *rows, unsigned n, float *dst)
{
    const float g[VQ_FSSIM_WIN] = { VQ_FSSIM_GAUSS_TAPS };
    unsigned x = 0;
#if VQ_FSSIM_BLOCK
    for (; x + VQ_FSSIM_BLOCK <= n; x += VQ_FSSIM_BLOCK) {
        VqFloatSsimVecD a = { 0 };
        for (int v = 0; v < VQ_FSSIM_WIN; v++)
            VQ_FSSIM_ACC(a, rows[v] + x, g[v]);
        VQ_FSSIM_STORE(dst + x, a);
    }
#endif
    for (; x < n; x++) {
        double a = 0.0;
        for (int v = 0; v < VQ_FSSIM_WIN; v++)
            a += (double)(rows[v][x] * g[v]);
        dst[x] = (float)a;
    }
}

VQ_DSP_TEMPLATE void pixels(const float *const *v, unsigned n,
                            VqFloatSsimConsts k, double *l, double *c, double *s)
{
    const float *mr = v[0], *md = v[1], *rr = v[2], *dd = v[3], *rd = v[4];
    for (unsigned x = 0; x < n; x++)
        vq_float_ssim_pixel(mr[x], md[x], rr[x], dd[x], rd[x], k, &l[x], &c[x],
                       &s[x]);
}

#define FSSIM_VARIANT(isa, TARGET)                                            \
    TARGET decl_fssim_hconv_fn(vq_float_ssim_hconv_##isa)                          \
    {                                                                         \
        hconv(src, n, dst);                                                   \
    }                                                                         \
    TARGET decl_fssim_vconv_fn(vq_float_ssim_vconv_##isa)                          \
    {                                                                         \
        vconv(rows, n, dst);                                                  \
    }                                                                         \
    TARGET decl_fssim_pixels_fn(vq_float_ssim_pixels_##isa)                        \
    {                                                                         \
        pixels(v, n, k, l, c, s);                                             \
    }

FSSIM_VARIANT(c, )
#if VQ_ARCH_X86_64
FSSIM_VARIANT(avx2, VQ_TARGET_AVX2)
FSSIM_VARIANT(avx512, VQ_TARGET_AVX512)
#endif

void vq_float_ssim_dsp_init(VqFloatSsimDsp *c, unsigned flags)
{
    c->hconv = vq_float_ssim_hconv_c;
    c->vconv = vq_float_ssim_vconv_c;
    c->pixels = vq_float_ssim_pixels_c;
#if VQ_ARCH_X86_64
    if (flags & VQ_CPU_AVX2) {
        c->hconv = vq_float_ssim_hconv_avx2;
        c->vconv = vq_float_ssim_vconv_avx2;
        c->pixels = vq_float_ssim_pixels_avx2;
    }
    if (flags & VQ_CPU_AVX512) {
        c->hconv = vq_float_ssim_hconv_avx512;
        c->vconv = vq_float_ssim_vconv_avx512;
        c->pixels = vq_float_ssim_pixels_avx512;
    }
#else
    (void)flags;
#endif
}
