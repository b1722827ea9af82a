/* checkasm entries of integer PSNR's DSP table (psnr_dsp.h). */
#include <string.h>

#include "checkasm.h"
#include "extractors/psnr/psnr_dsp.h"

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

static void check_one(vq_psnr_sse_fn ref, vq_psnr_sse_fn fn, unsigned w,
                      unsigned h, unsigned bpc, int mode_r, int mode_d)
{
    ptrdiff_t rs, ds;
    const uint8_t *r = make_plane(w, h, bpc, mode_r, &rs);
    const uint8_t *d = make_plane(w, h, bpc, mode_d, &ds);
    ca_context("%ux%u, %u-bit, %s reference, %s distorted", w, h, bpc,
               ca_fill_names[mode_r], ca_fill_names[mode_d]);
    uint64_t a = ref(r, rs, d, ds, w, h), b = fn(r, rs, d, ds, w, h);
    ca_check_u64("sse", &a, &b, 1);
    ca_buf_free_all();
}

static void check_depths(CaFn ref_fn, CaFn new_fn, unsigned bpc0,
                         unsigned bpc1)
{
    vq_psnr_sse_fn ref = (vq_psnr_sse_fn)ref_fn;
    vq_psnr_sse_fn fn = (vq_psnr_sse_fn)new_fn;
    for (unsigned bpc = bpc0; bpc <= bpc1; bpc++) {
        for (int mr = 0; mr < CA_FILL_MODES; mr++)
            for (int md = 0; md < CA_FILL_MODES; md++)
                for (unsigned i = 0; i < ca_n_widths; i++)
                    check_one(ref, fn, ca_widths[i], 1 + ca_rand() % 3, bpc,
                              mr, md);
        /* the widest frame, largest errors: the row sums' bound */
        check_one(ref, fn, 16384, 2, bpc, CA_FILL_MAX, CA_FILL_ZERO);
    }
}

static void check_sse_u8(CaFn ref, CaFn fn)
{
    check_depths(ref, fn, 8, 8);
}

static void check_sse_u16(CaFn ref, CaFn fn)
{
    check_depths(ref, fn, 9, 16);
}

static void bench_sse(CaFn f, unsigned bpc)
{
    vq_psnr_sse_fn fn = (vq_psnr_sse_fn)f;
    ptrdiff_t rs, ds;
    const uint8_t *r = make_plane(1920, 16, bpc, CA_FILL_RANDOM, &rs);
    const uint8_t *d = make_plane(1920, 16, bpc, CA_FILL_RANDOM, &ds);
    volatile uint64_t sink;
    CA_BENCH(sink = fn(r, rs, d, ds, 1920, 16));
    (void)sink;
}

static void bench_sse_u8(CaFn f)
{
    bench_sse(f, 8);
}

static void bench_sse_u16(CaFn f)
{
    bench_sse(f, 10);
}

static const CaFunc psnr_funcs[] = {
    { "sse_u8", offsetof(VqPsnrDsp, sse_u8), check_sse_u8, bench_sse_u8 },
    { "sse_u16", offsetof(VqPsnrDsp, sse_u16), check_sse_u16, bench_sse_u16 },
    { 0 }
};

CA_TABLE(psnr, VqPsnrDsp, vq_psnr_dsp_init, psnr_funcs);
