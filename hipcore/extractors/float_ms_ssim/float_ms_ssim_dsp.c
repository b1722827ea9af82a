/*
 * float_ms_ssim's decimation row filter (float_ms_ssim_dsp.h), written once
 * and compiled for each instruction set.
 */
#include "float_ms_ssim_dsp.h"

#define FMS_SUB 4 /* vector blocks per step of the row filter */

/* Per output, the 81 products in libvmaf's order (kernel rows, then
 * columns), summed in double from 0. */
VQ_DSP_TEMPLATE void lpf_row(const float *const *even,
                             const float *const *odd, unsigned n, float *dst)
{
    const float k[VQ_FMS_LPF * VQ_FMS_LPF] = { VQ_FMS_LPF_TAPS };
    unsigned x = 0;
#if VQ_FSSIM_BLOCK
    /* FMS_SUB blocks at once: 81 dependent adds per output, so several
     * independent sums in flight hide the add latency */
    for (; x + FMS_SUB * VQ_FSSIM_BLOCK <= n; x += FMS_SUB * VQ_FSSIM_BLOCK) {
        VqFloatSsimVecD a[FMS_SUB];
        for (int b = 0; b < FMS_SUB; b++)
            a[b] = (VqFloatSsimVecD){ 0 };
        for (int v = 0; v < VQ_FMS_LPF; v++)
            for (int u = 0; u < VQ_FMS_LPF; u++) {
                const float *p = ((u & 1) ? odd[v] : even[v]) + (u >> 1) + x;
                float kk = k[v * VQ_FMS_LPF + u];
                for (int b = 0; b < FMS_SUB; b++)
                    VQ_FSSIM_ACC(a[b], p + b * VQ_FSSIM_BLOCK, kk);
            }
        for (int b = 0; b < FMS_SUB; b++)
            VQ_FSSIM_STORE(dst + x + b * VQ_FSSIM_BLOCK, a[b]);
    }
    for (; x + VQ_FSSIM_BLOCK <= n; x += VQ_FSSIM_BLOCK) {
        VqFloatSsimVecD a = { 0 };
        for (int v = 0; v < VQ_FMS_LPF; v++)
            for (int u = 0; u < VQ_FMS_LPF; u++)
                VQ_FSSIM_ACC(a, ((u & 1) ? odd[v] : even[v]) + (u >> 1) + x,
                             k[v * VQ_FMS_LPF + u]);
        VQ_FSSIM_STORE(dst + x, a);
    }
#endif
    for (; x < n; x++) {
        double a = 0.0;
        for (int v = 0; v < VQ_FMS_LPF; v++)
            for (int u = 0; u < VQ_FMS_LPF; u++)
                a += (double)(((u & 1) ? odd[v] : even[v])[(u >> 1) + x] *
                              k[v * VQ_FMS_LPF + u]);
        dst[x] = (float)a;
    }
}

#define FMS_VARIANT(isa, TARGET)                                              \
    TARGET decl_fms_lpf_row_fn(vq_float_ms_ssim_lpf_row_##isa)                          \
    {                                                                         \
        lpf_row(even, odd, n, dst);                                           \
    }

FMS_VARIANT(c, )
#if VQ_ARCH_X86_64
FMS_VARIANT(avx2, VQ_TARGET_AVX2)
FMS_VARIANT(avx512, VQ_TARGET_AVX512)
#endif

void vq_float_ms_ssim_dsp_init(VqFloatMsSsimDsp *c, unsigned flags)
{
    c->lpf_row = vq_float_ms_ssim_lpf_row_c;
#if VQ_ARCH_X86_64
    if (flags & VQ_CPU_AVX2)
        c->lpf_row = vq_float_ms_ssim_lpf_row_avx2;
    if (flags & VQ_CPU_AVX512)
        c->lpf_row = vq_float_ms_ssim_lpf_row_avx512;
#else
    (void)flags;
#endif
}
