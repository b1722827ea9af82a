/* ssim's CPU path; see ssim_cpu.h. */
#include <string.h>

#include "ssim_cpu.h"

#if defined(__GNUC__) && defined(__x86_64__)
#define SSIM_X86 1
#define SSIM_INLINE static inline __attribute__((always_inline))
#else
#define SSIM_X86 0
#define SSIM_INLINE static inline
#endif

/* Blocks of SSIM_BLOCK outputs in GCC/Clang vector types (exact integer
 * sums: any evaluation order gives the same result). */
#if defined(__GNUC__)
#define SSIM_BLOCK 8
typedef uint32_t VecU32 __attribute__((vector_size(SSIM_BLOCK * 4)));
typedef uint64_t VecU64 __attribute__((vector_size(SSIM_BLOCK * 8)));
#define SSIM_LOAD(v, p) memcpy(&(v), (p), sizeof(v))
#define SSIM_STORE(p, v) memcpy((p), &(v), sizeof(v))
#else
#define SSIM_BLOCK 0
#endif

SSIM_INLINE void hrow_body(const uint32_t *px, const uint32_t *py, unsigned w,
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

SSIM_INLINE int64_t vrow_body(const VqSsimHRow *const *r, unsigned w,
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

static void hrow_c(const uint32_t *px, const uint32_t *py, unsigned w,
                   const VqSsimHRow *o)
{
    hrow_body(px, py, w, o);
}

static int64_t vrow_c(const VqSsimHRow *const *r, unsigned w, VqSsimConsts k)
{
    return vrow_body(r, w, k);
}

#if SSIM_X86
__attribute__((target("avx2")))
static void hrow_avx2(const uint32_t *px, const uint32_t *py, unsigned w,
                      const VqSsimHRow *o)
{
    hrow_body(px, py, w, o);
}

__attribute__((target("avx2")))
static int64_t vrow_avx2(const VqSsimHRow *const *r, unsigned w,
                         VqSsimConsts k)
{
    return vrow_body(r, w, k);
}
#endif

int vq_ssim_dsp_init(VqSsimDsp *dsp, int level)
{
    dsp->hrow = hrow_c;
    dsp->vrow = vrow_c;
    dsp->name = "c";
#if SSIM_X86
    if (level >= VQ_SSIM_DSP_AVX2 && __builtin_cpu_supports("avx2")) {
        dsp->hrow = hrow_avx2;
        dsp->vrow = vrow_avx2;
        dsp->name = "avx2";
        return VQ_SSIM_DSP_AVX2;
    }
#else
    (void)level;
#endif
    return VQ_SSIM_DSP_C;
}

/* Scratch: two padded sample rows, then the ring of nine filtered rows. */
static size_t align64(size_t n)
{
    return (n + 63) & ~(size_t)63;
}

static size_t pad_bytes(unsigned w)
{
    return align64(((size_t)w + 2 * VQ_SSIM_HALF) * sizeof(uint32_t));
}

static size_t row_bytes(unsigned w)
{
    return 2 * align64((size_t)w * 4) + 3 * align64((size_t)w * 8);
}

size_t vq_ssim_cpu_scratch(unsigned w)
{
    return 2 * pad_bytes(w) + VQ_SSIM_TAPS * row_bytes(w);
}

static void hrow_at(uint8_t *ring, unsigned w, unsigned slot, VqSsimHRow *r)
{
    size_t a = align64((size_t)w * 4), b = align64((size_t)w * 8);
    uint8_t *p = ring + slot * row_bytes(w);
    r->hx = (uint32_t *)(void *)p;
    r->hy = (uint32_t *)(void *)(p + a);
    r->hxx = (uint64_t *)(void *)(p + 2 * a);
    r->hyy = (uint64_t *)(void *)(p + 2 * a + b);
    r->hxy = (uint64_t *)(void *)(p + 2 * a + 2 * b);
}

static void load_padded(const VqPlane *p, unsigned bps, unsigned y,
                        uint32_t *dst)
{
    const uint8_t *row = p->data + (ptrdiff_t)y * p->stride;
    const uint16_t *r16 = (const uint16_t *)(const void *)row;
    int w = (int)p->w;
    uint32_t *mid = dst + VQ_SSIM_HALF;
    if (bps == 1)
        for (int x = 0; x < w; x++)
            mid[x] = row[x];
    else
        for (int x = 0; x < w; x++)
            mid[x] = r16[x];
    for (int i = 1; i <= VQ_SSIM_HALF; i++) {
        mid[-i] = mid[vq_ssim_mirror(-i, w)];
        mid[w - 1 + i] = mid[vq_ssim_mirror(w - 1 + i, w)];
    }
}

int64_t vq_ssim_cpu_frame(const VqSsimDsp *dsp, const VqPlane *ref,
                          const VqPlane *dis, unsigned bps, VqSsimConsts k,
                          void *scratch)
{
    unsigned w = ref->w, h = ref->h;
    uint8_t *base = scratch;
    uint32_t *px = (uint32_t *)(void *)base;
    uint32_t *py = (uint32_t *)(void *)(base + pad_bytes(w));
    VqSsimHRow slot[VQ_SSIM_TAPS];
    for (unsigned s = 0; s < VQ_SSIM_TAPS; s++)
        hrow_at(base + 2 * pad_bytes(w), w, s, &slot[s]);
    int64_t sum = 0;
    unsigned next = 0; /* the next source row to filter */
    for (unsigned oy = 0; oy < h; oy++) {
        /* the ring holds source rows next - 9 .. next - 1, which cover
         * every mirrored row output oy reads (for h < 9 all of them) */
        unsigned last = oy + VQ_SSIM_HALF < h ? oy + VQ_SSIM_HALF : h - 1;
        for (; next <= last; next++) {
            load_padded(ref, bps, next, px);
            load_padded(dis, bps, next, py);
            dsp->hrow(px, py, w, &slot[next % VQ_SSIM_TAPS]);
        }
        const VqSsimHRow *rows[VQ_SSIM_TAPS];
        for (int j = 0; j < VQ_SSIM_TAPS; j++)
            rows[j] = &slot[vq_ssim_mirror((int)oy + j - VQ_SSIM_HALF, (int)h) %
                            VQ_SSIM_TAPS];
        sum += dsp->vrow(rows, w, k);
    }
    return sum;
}
