/*
 * ssim's row functions (ssim_dsp.h), written once and compiled for each
 * instruction set.
 */
#include <string.h>

#include "ssim_dsp.h"

/* Blocks of SSIM_BLOCK outputs in GCC/Clang vector types (exact integer
 * sums: any evaluation order gives the same result). */
#if defined(__GNUC__) || defined(__clang__)
#define SSIM_BLOCK 8
typedef uint32_t VecU32 __attribute__((vector_size(SSIM_BLOCK * 4)));
typedef uint64_t VecU64 __attribute__((vector_size(SSIM_BLOCK * 8)));
#define SSIM_LOAD(v, p) memcpy(&(v), (p), sizeof(v))
#define SSIM_STORE(p, v) memcpy((p), &(v), sizeof(v))
#else
#define SSIM_BLOCK 0
#endif

VQ_DSP_TEMPLATE void hrow(const uint32_t *px, const uint32_t *py, unsigned w,
                          const VqSsimHRow *o)
{
    const uint32_t g[VQ_SSIM_TAPS] = { VQ_SSIM_TAP_LIST };
    unsigned x = 0;
#if SSIM_BLOCK
    for (; x + SSIM_BLOCK <= w; x += SSIM_BLOCK) {
        VecU32 sx = { 0 }, sy = { 0 };
        VecU64 sxx = { 0 }, syy = { 0 }, sxy = { 0 };
        for (int i = 0; i < VQ_SSIM_TAPS; i++) {
            VecU32 a, b;
            SSIM_LOAD(a, px + x + i);
            SSIM_LOAD(b, py + x + i);
            sx += g[i] * a;
            sy += g[i] * b;
            /* products of 16-bit samples fit 32 bits */
            sxx += __builtin_convertvector(a * a, VecU64) * g[i];
            syy += __builtin_convertvector(b * b, VecU64) * g[i];
            sxy += __builtin_convertvector(a * b, VecU64) * g[i];
        }
        SSIM_STORE(o->hx + x, sx);
        SSIM_STORE(o->hy + x, sy);
        SSIM_STORE(o->hxx + x, sxx);
        SSIM_STORE(o->hyy + x, syy);
        SSIM_STORE(o->hxy + x, sxy);
    }
#endif
    for (; x < w; x++) {
        uint32_t sx = 0, sy = 0;
        uint64_t sxx = 0, syy = 0, sxy = 0;
        for (int i = 0; i < VQ_SSIM_TAPS; i++) {
            uint32_t a = px[x + i], b = py[x + i];
            sx += g[i] * a;
            sy += g[i] * b;
            sxx += (uint64_t)g[i] * (a * a);
            syy += (uint64_t)g[i] * (b * b);
            sxy += (uint64_t)g[i] * (a * b);
        }
        o->hx[x] = sx;
        o->hy[x] = sy;
        o->hxx[x] = sxx;
        o->hyy[x] = syy;
        o->hxy[x] = sxy;
    }
}

VQ_DSP_TEMPLATE int64_t vrow(const VqSsimHRow *const *r, unsigned w,
                             VqSsimConsts k)
{
    const uint32_t g[VQ_SSIM_TAPS] = { VQ_SSIM_TAP_LIST };
    int64_t sum = 0;
    unsigned x = 0;
#if SSIM_BLOCK
    for (; x + SSIM_BLOCK <= w; x += SSIM_BLOCK) {
        VecU32 sx = { 0 }, sy = { 0 }; /* <= 65536 * 65535 */
        VecU64 sxx = { 0 }, syy = { 0 }, sxy = { 0 };
        for (int j = 0; j < VQ_SSIM_TAPS; j++) {
            VecU32 a, b;
            VecU64 c, d, e;
            SSIM_LOAD(a, r[j]->hx + x);
            SSIM_LOAD(b, r[j]->hy + x);
            SSIM_LOAD(c, r[j]->hxx + x);
            SSIM_LOAD(d, r[j]->hyy + x);
            SSIM_LOAD(e, r[j]->hxy + x);
            sx += g[j] * a;
            sy += g[j] * b;
            sxx += c * g[j];
            syy += d * g[j];
            sxy += e * g[j];
        }
        for (int i = 0; i < SSIM_BLOCK; i++)
            sum += vq_ssim_pixel(sx[i], sy[i], sxx[i], syy[i], sxy[i], k);
    }
#endif
    for (; x < w; x++) {
        uint32_t sx = 0, sy = 0;
        uint64_t sxx = 0, syy = 0, sxy = 0;
        for (int j = 0; j < VQ_SSIM_TAPS; j++) {
            sx += g[j] * r[j]->hx[x];
            sy += g[j] * r[j]->hy[x];
            sxx += g[j] * r[j]->hxx[x];
            syy += g[j] * r[j]->hyy[x];
            sxy += g[j] * r[j]->hxy[x];
        }
        sum += vq_ssim_pixel(sx, sy, sxx, syy, sxy, k);
    }
    return sum;
}

#define SSIM_VARIANT(isa, TARGET)                                             \
    TARGET decl_ssim_hrow_fn(vq_ssim_hrow_##isa)                              \
    {                                                                         \
        hrow(px, py, w, out);                                                 \
    }                                                                         \
    TARGET decl_ssim_vrow_fn(vq_ssim_vrow_##isa)                              \
    {                                                                         \
        return vrow(rows, w, k);                                              \
    }

SSIM_VARIANT(c, )
#if VQ_ARCH_X86_64
SSIM_VARIANT(avx2, VQ_TARGET_AVX2)
SSIM_VARIANT(avx512, VQ_TARGET_AVX512)
#endif

void vq_ssim_dsp_init(VqSsimDsp *c, unsigned flags)
{
    c->hrow = vq_ssim_hrow_c;
    c->vrow = vq_ssim_vrow_c;
#if VQ_ARCH_X86_64
    if (flags & VQ_CPU_AVX2) {
        c->hrow = vq_ssim_hrow_avx2;
        c->vrow = vq_ssim_vrow_avx2;
    }
    if (flags & VQ_CPU_AVX512) {
        c->hrow = vq_ssim_hrow_avx512;
        c->vrow = vq_ssim_vrow_avx512;
    }
#else
    (void)flags;
#endif
}
