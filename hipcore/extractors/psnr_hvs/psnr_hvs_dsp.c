/*
 * psnr_hvs's DSP function (psnr_hvs_dsp.h): the blocks of a plane in
 * libvmaf's order, eight at a time side by side (vq_hvs_block_terms with
 * L = 8, which a compiler vectorizes across the blocks; a row's last blocks
 * one at a time), then their terms added one by one to the plane's float
 * sum, as libvmaf does. The variants compile the same source for AVX2 and
 * AVX-512: every block's operations and order are the same in any vector
 * width, so the sum is the same float.
 */
#include "psnr_hvs_dsp.h"

/* Samples of n blocks starting at block column bx into lane layout. */
VQ_DSP_TEMPLATE void load_blocks(const uint8_t *p, ptrdiff_t stride,
                                 unsigned bps, unsigned bx, unsigned by, int n,
                                 int32_t *b)
{
    for (int l = 0; l < n; l++) {
        unsigned x0 = (bx + (unsigned)l) * VQ_HVS_STEP, y0 = by * VQ_HVS_STEP;
        for (unsigned i = 0; i < 8; i++) {
            const uint8_t *row = p + (ptrdiff_t)(y0 + i) * stride;
            for (unsigned j = 0; j < 8; j++)
                b[(i * 8 + j) * n + l] =
                    bps == 1 ? row[x0 + j]
                             : ((const uint16_t *)(const void *)row)[x0 + j];
        }
    }
}

VQ_DSP_TEMPLATE float plane_body(const uint8_t *r, ptrdiff_t rs,
                                 const uint8_t *d, ptrdiff_t ds, unsigned bps,
                                 unsigned nbx, unsigned nby,
                                 const VqHvsTables *tab)
{
    float sum = 0;
    int32_t bs[64 * VQ_HVS_LANES], bd[64 * VQ_HVS_LANES];
    float t[64 * VQ_HVS_LANES];
    for (unsigned by = 0; by < nby; by++) {
        unsigned bx = 0;
        for (; bx + VQ_HVS_LANES <= nbx; bx += VQ_HVS_LANES) {
            load_blocks(r, rs, bps, bx, by, VQ_HVS_LANES, bs);
            load_blocks(d, ds, bps, bx, by, VQ_HVS_LANES, bd);
            vq_hvs_block_terms(bs, bd, tab, t, VQ_HVS_LANES);
            for (unsigned k = 0; k < 64 * VQ_HVS_LANES; k++)
                sum += t[k]; /* libvmaf's order: block by block, term by term */
        }
        for (; bx < nbx; bx++) {
            load_blocks(r, rs, bps, bx, by, 1, bs);
            load_blocks(d, ds, bps, bx, by, 1, bd);
            vq_hvs_block_terms(bs, bd, tab, t, 1);
            for (unsigned k = 0; k < 64; k++)
                sum += t[k];
        }
    }
    return sum;
}

#define PSNR_HVS_VARIANT(isa, TARGET)                                         \
    TARGET decl_psnr_hvs_plane_fn(vq_psnr_hvs_plane_##isa)                    \
    {                                                                         \
        return plane_body(ref, ref_stride, dis, dis_stride, bps, nbx, nby,    \
                          tab);                                               \
    }

PSNR_HVS_VARIANT(c, )
#if VQ_ARCH_X86_64
PSNR_HVS_VARIANT(avx2, VQ_TARGET_AVX2)
PSNR_HVS_VARIANT(avx512, VQ_TARGET_AVX512)
#endif

void vq_psnr_hvs_dsp_init(VqPsnrHvsDsp *c, unsigned flags)
{
    c->plane = vq_psnr_hvs_plane_c;
#if VQ_ARCH_X86_64
    if (flags & VQ_CPU_AVX2)
        c->plane = vq_psnr_hvs_plane_avx2;
    if (flags & VQ_CPU_AVX512)
        c->plane = vq_psnr_hvs_plane_avx512;
#else
    (void)flags;
#endif
}
