/*
 * float_ms_ssim's 9x9 decimation on the CPU. Each output row gathers its
 * nine mirrored source rows, each padded by mirroring and split into even
 * and odd columns, so that every one of the 81 taps reads a contiguous run
 * for a block of outputs.
 */
#include "fms_cpu.h"

#define FMS_PAD 4 /* half the filter */
#define FMS_SUB 4 /* vector blocks per step of the row filter */

/* Per output, the 81 products in libvmaf's order (kernel rows, then
 * columns), summed in double from 0. */
VQ_FSSIM_INLINE void lpf_row_body(const float *const *even,
                                  const float *const *odd, unsigned n,
                                  float *dst)
{
    const float k[VQ_FMS_LPF * VQ_FMS_LPF] = { VQ_FMS_LPF_TAPS };
    unsigned x = 0;
#if VQ_FSSIM_BLOCK
    /* FMS_SUB blocks at once: 81 dependent adds per output, so several
     * independent sums in flight hide the add latency */
    for (; x + FMS_SUB * VQ_FSSIM_BLOCK <= n; x += FMS_SUB * VQ_FSSIM_BLOCK) {
        VqFssimVecD a[FMS_SUB];
        for (int b = 0; b < FMS_SUB; b++)
            a[b] = (VqFssimVecD){ 0 };
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
        VqFssimVecD a = { 0 };
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

/* Scratch: a source row, then a ring of split rows: an output row reads
 * the nine rows 2y - 4 .. 2y + 4 (mirrored into the picture), so sixteen
 * slots indexed by row & 15 hold them without collisions, and each source
 * row is split about once. */
#define FMS_RING 16

static size_t split_len(unsigned w)
{
    return (w + 1) / 2 + FMS_PAD;
}

size_t vq_fms_lpf_scratch(unsigned w)
{
    return ((size_t)w + 2 * FMS_RING * split_len(w)) * sizeof(float);
}

/* even[i] = column 2i - 4, odd[i] = column 2i - 3 of row, mirrored. */
static void split_row(const float *row, int w, float *even, float *odd,
                      unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        int c = 2 * (int)i - FMS_PAD;
        even[i] = row[c >= 0 && c < w ? c : vq_fssim_mirror(c, w)];
        c++;
        odd[i] = row[c >= 0 && c < w ? c : vq_fssim_mirror(c, w)];
    }
}

void vq_fms_cpu_lpf(const VqFmsDsp *dsp, const VqFssimSrc *src, float *dst,
                    void *scratch)
{
    int w = (int)src->w, h = (int)src->h;
    unsigned ow = (src->w + 1) / 2, oh = (src->h + 1) / 2;
    size_t sl = split_len(src->w);
    float *row = scratch, *ring = row + w;
    int tag[FMS_RING];
    for (int i = 0; i < FMS_RING; i++)
        tag[i] = -1;
    const float *ev[VQ_FMS_LPF], *od[VQ_FMS_LPF];
    for (unsigned oy = 0; oy < oh; oy++) {
        for (int v = 0; v < VQ_FMS_LPF; v++) {
            int sy = vq_fssim_mirror(2 * (int)oy + v - FMS_PAD, h);
            int slot = sy & (FMS_RING - 1);
            float *e = ring + (size_t)(2 * slot) * sl, *o = e + sl;
            if (tag[slot] != sy) {
                vq_fssim_load_row(src, (unsigned)sy, row);
                /* even: i < ow + 4, odd: i < ow + 3 (one more is harmless) */
                split_row(row, w, e, o, ow + FMS_PAD);
                tag[slot] = sy;
            }
            ev[v] = e;
            od[v] = o;
        }
        dsp->lpf_row(ev, od, ow, dst + (size_t)oy * ow);
    }
}
