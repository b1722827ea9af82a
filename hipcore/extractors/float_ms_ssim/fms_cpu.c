/*
 * float_ms_ssim's 9x9 decimation on the CPU. Each output row gathers its
 * nine mirrored source rows, each padded by mirroring and split into even
 * and odd columns, so that every one of the 81 taps reads a contiguous run
 * for a block of outputs.
 */
#include <string.h>

#include "fms_cpu.h"

#define FMS_BLOCK 8
#define FMS_PAD 4 /* half the filter */

/* Per output, the 81 products in libvmaf's order (kernel rows, then
 * columns), summed in double from 0. */
VQ_FSSIM_INLINE void lpf_row_body(const float *const *even,
                                  const float *const *odd, unsigned n,
                                  float *dst)
{
    const float k[VQ_FMS_LPF * VQ_FMS_LPF] = { VQ_FMS_LPF_TAPS };
    unsigned x = 0;
    for (; x + FMS_BLOCK <= n; x += FMS_BLOCK) {
        double a[FMS_BLOCK];
        for (int i = 0; i < FMS_BLOCK; i++)
            a[i] = 0.0;
        for (int v = 0; v < VQ_FMS_LPF; v++)
            for (int u = 0; u < VQ_FMS_LPF; u++) {
                const float *src = ((u & 1) ? odd[v] : even[v]) + (u >> 1) + x;
                float kk = k[v * VQ_FMS_LPF + u];
                for (int i = 0; i < FMS_BLOCK; i++)
                    a[i] += (double)(src[i] * kk);
            }
        for (int i = 0; i < FMS_BLOCK; i++)
            dst[x + i] = (float)a[i];
    }
    for (; x < n; x++) {
        double a = 0.0;
        for (int v = 0; v < VQ_FMS_LPF; v++)
            for (int u = 0; u < VQ_FMS_LPF; u++)
                a += (double)(((u & 1) ? odd[v] : even[v])[(u >> 1) + x] *
                              k[v * VQ_FMS_LPF + u]);
        dst[x] = (float)a;
    }
}

static void lpf_row_c(const float *const *even, const float *const *odd,
                      unsigned n, float *dst)
{
    lpf_row_body(even, odd, n, dst);
}

#if VQ_FSSIM_X86
__attribute__((target("avx2")))
static void lpf_row_avx2(const float *const *even, const float *const *odd,
                         unsigned n, float *dst)
{
    lpf_row_body(even, odd, n, dst);
}
#endif

int vq_fms_dsp_init(VqFmsDsp *dsp, int level)
{
    dsp->lpf_row = lpf_row_c;
    dsp->name = "c";
#if VQ_FSSIM_X86
    if (level >= VQ_FSSIM_DSP_AVX2 && __builtin_cpu_supports("avx2")) {
        dsp->lpf_row = lpf_row_avx2;
        dsp->name = "avx2";
        return VQ_FSSIM_DSP_AVX2;
    }
#else
    (void)level;
#endif
    return VQ_FSSIM_DSP_C;
}

/* Scratch: a source row, the padded row, and the split rows. */
static size_t split_len(unsigned w)
{
    return (w + 1) / 2 + FMS_PAD;
}

size_t vq_fms_lpf_scratch(unsigned w)
{
    return ((size_t)w + (w + 2 * FMS_PAD) +
            2 * VQ_FMS_LPF * split_len(w)) * sizeof(float);
}

void vq_fms_cpu_lpf(const VqFmsDsp *dsp, const VqFssimSrc *src, float *dst,
                    void *scratch)
{
    int w = (int)src->w, h = (int)src->h;
    unsigned ow = (src->w + 1) / 2, oh = (src->h + 1) / 2;
    size_t sl = split_len(src->w);
    float *row = scratch, *pad = row + w;
    const float *ev[VQ_FMS_LPF], *od[VQ_FMS_LPF];
    float *split = pad + w + 2 * FMS_PAD;
    for (unsigned oy = 0; oy < oh; oy++) {
        for (int v = 0; v < VQ_FMS_LPF; v++) {
            int sy = vq_fssim_mirror(2 * (int)oy + v - FMS_PAD, h);
            vq_fssim_load_row(src, (unsigned)sy, row);
            for (int j = 0; j < w + 2 * FMS_PAD; j++)
                pad[j] = row[vq_fssim_mirror(j - FMS_PAD, w)];
            float *e = split + (size_t)(2 * v) * sl, *o = e + sl;
            /* even: columns 2i - 4 (i < ow + 4); odd: 2i - 3 (i < ow + 3) */
            for (unsigned i = 0; i < ow + 4; i++)
                e[i] = pad[2 * i];
            for (unsigned i = 0; i < ow + 3; i++)
                o[i] = pad[2 * i + 1];
            ev[v] = e;
            od[v] = o;
        }
        dsp->lpf_row(ev, od, ow, dst + (size_t)oy * ow);
    }
}
