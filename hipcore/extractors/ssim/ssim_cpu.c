/* ssim's CPU path: the frame driver, and the CPU stage. */
#include "ssim_priv.h"

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

int ssim_cpu_run(VqFex *fex, const VqFrame *ref, const VqFrame *dis,
                 unsigned index, void *acc, void *scratch)
{
    (void)index;
    const SsimPriv *s = fex->priv;
    ((VqSsimAcc *)acc)->sum =
        vq_ssim_cpu_frame(&s->dsp, &ref->plane[0], &dis->plane[0],
                          fex->fmt.bytes_per_sample, s->k, scratch);
    return 0;
}
