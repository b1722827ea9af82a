/*
 * psnr_hvs, CPU path: per plane, the blocks in libvmaf's order, eight at a
 * time side by side (vq_hvs_block_terms with L = 8, which a compiler
 * vectorizes across the blocks; the row's last blocks one at a time), then
 * their terms added one by one to the plane's float sum, as libvmaf does.
 * On x86-64 the plane function is also compiled for AVX2 (the same source:
 * the same bits) and chosen once, at start.
 */
#include "psnr_hvs_internal.h"

#if defined(__x86_64__) && defined(__GNUC__)
#define HVS_AVX2 1
#else
#define HVS_AVX2 0
#endif

/* Samples of n blocks starting at block column bx into lane layout. */
static inline void load_blocks(const VqPlane *p, unsigned bps, unsigned bx,
                               unsigned by, int n, int32_t *b)
{
    for (int l = 0; l < n; l++) {
        unsigned x0 = (bx + (unsigned)l) * VQ_HVS_STEP, y0 = by * VQ_HVS_STEP;
        for (unsigned i = 0; i < 8; i++) {
            const uint8_t *row = p->data + (ptrdiff_t)(y0 + i) * p->stride;
            for (unsigned j = 0; j < 8; j++)
                b[(i * 8 + j) * n + l] =
                    bps == 1 ? row[x0 + j]
                             : ((const uint16_t *)(const void *)row)[x0 + j];
        }
    }
}

static inline __attribute__((always_inline)) float
plane_body(const VqPlane *r, const VqPlane *d, unsigned bps, unsigned nbx,
           unsigned nby, const VqHvsTables *tab)
{
    float sum = 0;
    int32_t bs[64 * VQ_HVS_LANES], bd[64 * VQ_HVS_LANES];
    float t[64 * VQ_HVS_LANES];
    for (unsigned by = 0; by < nby; by++) {
        unsigned bx = 0;
        for (; bx + VQ_HVS_LANES <= nbx; bx += VQ_HVS_LANES) {
            load_blocks(r, bps, bx, by, VQ_HVS_LANES, bs);
            load_blocks(d, bps, bx, by, VQ_HVS_LANES, bd);
            vq_hvs_block_terms(bs, bd, tab, t, VQ_HVS_LANES);
            for (unsigned k = 0; k < 64 * VQ_HVS_LANES; k++)
                sum += t[k]; /* libvmaf's order: block by block, term by term */
        }
        for (; bx < nbx; bx++) {
            load_blocks(r, bps, bx, by, 1, bs);
            load_blocks(d, bps, bx, by, 1, bd);
            vq_hvs_block_terms(bs, bd, tab, t, 1);
            for (unsigned k = 0; k < 64; k++)
                sum += t[k];
        }
    }
    return sum;
}

static float plane_c(const VqPlane *r, const VqPlane *d, unsigned bps,
                     unsigned nbx, unsigned nby, const VqHvsTables *tab)
{
    return plane_body(r, d, bps, nbx, nby, tab);
}

#if HVS_AVX2
__attribute__((target("avx2"))) static float
plane_avx2(const VqPlane *r, const VqPlane *d, unsigned bps, unsigned nbx,
           unsigned nby, const VqHvsTables *tab)
{
    return plane_body(r, d, bps, nbx, nby, tab);
}
#endif

unsigned vq_psnr_hvs_plane_variants(VqHvsPlaneFn *fns, const char **names)
{
    unsigned n = 0;
    fns[n] = plane_c;
    names[n++] = "c";
#if HVS_AVX2
    if (__builtin_cpu_supports("avx2")) {
        fns[n] = plane_avx2;
        names[n++] = "avx2";
    }
#endif
    return n;
}
