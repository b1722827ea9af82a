/* checkasm entries of float_moment's DSP table (float_moment_dsp.h). */
#include "checkasm.h"
#include "extractors/float_moment/float_moment_dsp.h"

static void check_sums(CaFn ref_fn, CaFn new_fn, unsigned bpc0, unsigned bpc1)
{
    vq_float_moment_sums_fn ref = (vq_float_moment_sums_fn)ref_fn;
    vq_float_moment_sums_fn fn = (vq_float_moment_sums_fn)new_fn;
    const unsigned bps = bpc0 > 8 ? 2 : 1;
    for (unsigned bpc = bpc0; bpc <= bpc1; bpc++)
        for (int mode = 0; mode < CA_FILL_MODES; mode++)
            for (unsigned i = 0; i <= ca_n_widths; i++) {
                /* and the widest plane at the largest values */
                const unsigned w = i < ca_n_widths ? ca_widths[i] : 16384;
                const unsigned h = i < ca_n_widths ? 1 + ca_rand() % 9 : 3;
                const int m = i < ca_n_widths ? mode : CA_FILL_MAX;
                const size_t stride = (size_t)(w + ca_rand() % 7) * bps;
                uint8_t *p = ca_buf_alloc(stride * h);
                for (unsigned y = 0; y < h; y++) {
                    if (bps == 1)
                        ca_fill_u8(p + y * stride, w, m);
                    else
                        ca_fill_u16((uint16_t *)(void *)(p + y * stride), w,
                                    bpc, m);
                }
                uint64_t a[2], b[2];
                ca_fill_bytes(a, sizeof(a));
                b[0] = ~a[0];
                b[1] = ~a[1];
                ca_context("%u-bit, %s samples, %ux%u", bpc, ca_fill_names[m],
                           w, h);
                ref(p, (ptrdiff_t)stride, w, h, &a[0], &a[1]);
                fn(p, (ptrdiff_t)stride, w, h, &b[0], &b[1]);
                ca_check_u64("sums", a, b, 2);
                ca_buf_free_all();
            }
}

static void check_sums_u8(CaFn ref, CaFn fn)
{
    check_sums(ref, fn, 8, 8);
}

static void check_sums_u16(CaFn ref, CaFn fn)
{
    check_sums(ref, fn, 9, 16);
}

enum { BENCH_W = 1920, BENCH_H = 16 };

static void bench_sums(CaFn f, unsigned bps)
{
    vq_float_moment_sums_fn fn = (vq_float_moment_sums_fn)f;
    uint8_t *p = ca_buf_alloc((size_t)BENCH_W * BENCH_H * bps);
    if (bps == 1)
        ca_fill_u8(p, (size_t)BENCH_W * BENCH_H, CA_FILL_RANDOM);
    else
        ca_fill_u16((uint16_t *)(void *)p, (size_t)BENCH_W * BENCH_H, 10,
                    CA_FILL_RANDOM);
    uint64_t s, q;
    CA_BENCH(fn(p, (ptrdiff_t)(BENCH_W * bps), BENCH_W, BENCH_H, &s, &q));
}

static void bench_sums_u8(CaFn f)
{
    bench_sums(f, 1);
}

static void bench_sums_u16(CaFn f)
{
    bench_sums(f, 2);
}

static const CaFunc fmoment_funcs[] = {
    { "sums_u8", offsetof(VqFloatMomentDsp, sums_u8), check_sums_u8,
      bench_sums_u8 },
    { "sums_u16", offsetof(VqFloatMomentDsp, sums_u16), check_sums_u16,
      bench_sums_u16 },
    { 0 }
};

CA_TABLE(float_moment, VqFloatMomentDsp, vq_float_moment_dsp_init, fmoment_funcs);
