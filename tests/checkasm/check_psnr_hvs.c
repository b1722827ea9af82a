/* checkasm entries of psnr_hvs's DSP table (psnr_hvs_dsp.h). */
#include <string.h>

#include "checkasm.h"
#include "extractors/psnr_hvs/psnr_hvs_dsp.h"

/* A w x h plane with a random stride, its last row ending the buffer. */
static uint8_t *make_plane(unsigned w, unsigned h, unsigned bpc, int mode,
                           ptrdiff_t *stride)
{
    size_t bps = bpc > 8 ? 2 : 1, row = w * bps;
    *stride = (ptrdiff_t)(row + bps * (ca_rand() % 16));
    uint8_t *p = ca_buf_alloc((size_t)*stride * (h - 1) + row);
    for (unsigned y = 0; y < h; y++) {
        uint8_t *r = p + (size_t)*stride * y;
        if (bps == 1)
            ca_fill_u8(r, w, mode);
        else
            ca_fill_u16((uint16_t *)(void *)r, w, bpc, mode);
    }
    return p;
}

static void make_tables(VqHvsTables *t)
{
    for (int k = 0; k < 64; k++) {
        t->csf[k] = 0.05f + (float)(ca_rand() % 1000) / 400.0f;
        t->mask[k] = (float)((t->csf[k] * 0.3885746225901003) *
                             (t->csf[k] * 0.3885746225901003));
    }
}

static void check_one(vq_psnr_hvs_plane_fn ref, vq_psnr_hvs_plane_fn fn,
                      unsigned nbx, unsigned nby, unsigned bpc, int mode_r,
                      int mode_d)
{
    unsigned w = 7 * nbx + 1 + ca_rand() % 7, h = 7 * nby + 1 + ca_rand() % 7;
    ptrdiff_t rs, ds;
    const uint8_t *r = make_plane(w, h, bpc, mode_r, &rs);
    const uint8_t *d = make_plane(w, h, bpc, mode_d, &ds);
    VqHvsTables t;
    make_tables(&t);
    ca_context("%u x %u blocks (%ux%u), %u-bit, %s reference, %s distorted",
               nbx, nby, w, h, bpc, ca_fill_names[mode_r],
               ca_fill_names[mode_d]);
    unsigned bps = bpc > 8 ? 2 : 1;
    float a = ref(r, rs, d, ds, bps, nbx, nby, &t);
    float b = fn(r, rs, d, ds, bps, nbx, nby, &t);
    uint32_t ua, ub;
    memcpy(&ua, &a, sizeof(ua));
    memcpy(&ub, &b, sizeof(ub));
    ca_check_u32("sum", &ua, &ub, 1);
    ca_buf_free_all();
}

static void check_plane(CaFn ref_fn, CaFn new_fn)
{
    vq_psnr_hvs_plane_fn ref = (vq_psnr_hvs_plane_fn)ref_fn;
    vq_psnr_hvs_plane_fn fn = (vq_psnr_hvs_plane_fn)new_fn;
    for (unsigned bpc = 8; bpc <= 12; bpc++)
        for (int mr = 0; mr < CA_FILL_MODES; mr++)
            for (int md = 0; md < CA_FILL_MODES; md++)
                for (unsigned nbx = 1; nbx <= 19; nbx += 3)
                    check_one(ref, fn, nbx, 1 + ca_rand() % 3, bpc, mr, md);
    /* a wide plane: many full batches of blocks */
    check_one(ref, fn, 585, 2, 10, CA_FILL_RANDOM, CA_FILL_RANDOM);
}

static void bench_plane(CaFn f)
{
    vq_psnr_hvs_plane_fn fn = (vq_psnr_hvs_plane_fn)f;
    ptrdiff_t rs, ds;
    const uint8_t *r = make_plane(1920, 22, 8, CA_FILL_RANDOM, &rs);
    const uint8_t *d = make_plane(1920, 22, 8, CA_FILL_RANDOM, &ds);
    VqHvsTables t;
    make_tables(&t);
    volatile float sink;
    CA_BENCH(sink = fn(r, rs, d, ds, 1, 273, 3, &t));
    (void)sink;
}

static const CaFunc psnr_hvs_funcs[] = {
    { "plane", offsetof(VqPsnrHvsDsp, plane), check_plane, bench_plane },
    { 0 }
};

CA_TABLE(psnr_hvs, VqPsnrHvsDsp, vq_psnr_hvs_dsp_init, psnr_hvs_funcs);
