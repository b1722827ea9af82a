/* checkasm entries of float_ansnr's DSP table (float_ansnr_dsp.h). */
#include <string.h>

#include "checkasm.h"
#include "extractors/float_ansnr/float_ansnr_dsp.h"

static void check_conv(CaFn ref_fn, CaFn new_fn, unsigned bpc0, unsigned bpc1)
{
    for (unsigned bpc = bpc0; bpc <= bpc1; bpc++)
        for (int mode = 0; mode < CA_FILL_MODES; mode++)
            for (unsigned i = 0; i < ca_n_widths; i++) {
                const unsigned w = ca_widths[i];
                const size_t n = (size_t)w + 12;
                const float inv_scale = 1.0f / (float)(1u << (bpc - 8));
                void *src = ca_buf_alloc(bpc > 8 ? 2 * w : w);
                if (bpc > 8)
                    ca_fill_u16(src, w, bpc, mode);
                else
                    ca_fill_u8(src, w, mode);
                float *a = ca_buf_alloc(4 * n), *b = ca_buf_alloc(4 * n);
                ca_fill_bytes(a, 4 * n);
                memcpy(b, a, 4 * n);
                ca_context("%u-bit, %s samples, w %u", bpc, ca_fill_names[mode],
                           w);
                if (bpc > 8) {
                    ((vq_float_ansnr_conv_u16_fn)ref_fn)(a, src, inv_scale, w);
                    ((vq_float_ansnr_conv_u16_fn)new_fn)(b, src, inv_scale, w);
                } else {
                    ((vq_float_ansnr_conv_u8_fn)ref_fn)(a, src, inv_scale, w);
                    ((vq_float_ansnr_conv_u8_fn)new_fn)(b, src, inv_scale, w);
                }
                ca_check_u32("row", a, b, n);
                ca_buf_free_all();
            }
}

static void check_conv_u8(CaFn ref, CaFn fn)
{
    check_conv(ref, fn, 8, 8);
}

static void check_conv_u16(CaFn ref, CaFn fn)
{
    check_conv(ref, fn, 9, 16);
}

static void check_filter(CaFn ref_fn, CaFn new_fn, int taps)
{
    for (int mode = 0; mode < CA_FILL_MODES; mode++)
        for (unsigned i = 0; i < ca_n_widths; i++) {
            const unsigned w = ca_widths[i];
            const float *r[5];
            for (int k = 0; k < taps; k++) {
                float *row = ca_buf_alloc(4 * ((size_t)w + 4));
                for (unsigned x = 0; x < w + 4; x++)
                    row[x] = ca_fill_centred(mode);
                r[k] = row;
            }
            const size_t n = (size_t)w + 8;
            float *a = ca_buf_alloc(4 * n), *b = ca_buf_alloc(4 * n);
            ca_fill_bytes(a, 4 * n);
            memcpy(b, a, 4 * n);
            ca_context("%d taps, %s samples, w %u", taps, ca_fill_names[mode],
                       w);
            if (taps == 3) {
                ((vq_float_ansnr_ref3_fn)ref_fn)(a, r, w);
                ((vq_float_ansnr_ref3_fn)new_fn)(b, r, w);
            } else {
                ((vq_float_ansnr_dis5_fn)ref_fn)(a, r, w);
                ((vq_float_ansnr_dis5_fn)new_fn)(b, r, w);
            }
            ca_check_u32("filtered row", a, b, n);
            ca_buf_free_all();
        }
}

static void check_ref3(CaFn ref, CaFn fn)
{
    check_filter(ref, fn, 3);
}

static void check_dis5(CaFn ref, CaFn fn)
{
    check_filter(ref, fn, 5);
}

enum { BENCH_W = 1920 };

static void bench_conv_u8(CaFn f)
{
    vq_float_ansnr_conv_u8_fn fn = (vq_float_ansnr_conv_u8_fn)f;
    uint8_t *src = ca_buf_alloc(BENCH_W);
    ca_fill_u8(src, BENCH_W, CA_FILL_RANDOM);
    float *r = ca_buf_alloc(4 * (BENCH_W + 4));
    CA_BENCH(fn(r, src, 1.0f, BENCH_W));
}

static void bench_conv_u16(CaFn f)
{
    vq_float_ansnr_conv_u16_fn fn = (vq_float_ansnr_conv_u16_fn)f;
    uint16_t *src = ca_buf_alloc(2 * BENCH_W);
    ca_fill_u16(src, BENCH_W, 10, CA_FILL_RANDOM);
    float *r = ca_buf_alloc(4 * (BENCH_W + 4));
    CA_BENCH(fn(r, src, 0.25f, BENCH_W));
}

static void bench_filter(CaFn f, int taps)
{
    const float *r[5];
    for (int k = 0; k < taps; k++) {
        float *row = ca_buf_alloc(4 * (BENCH_W + 4));
        for (unsigned x = 0; x < BENCH_W + 4; x++)
            row[x] = ca_fill_centred(CA_FILL_RANDOM);
        r[k] = row;
    }
    float *out = ca_buf_alloc(4 * BENCH_W);
    if (taps == 3) {
        vq_float_ansnr_ref3_fn fn = (vq_float_ansnr_ref3_fn)f;
        CA_BENCH(fn(out, r, BENCH_W));
    } else {
        vq_float_ansnr_dis5_fn fn = (vq_float_ansnr_dis5_fn)f;
        CA_BENCH(fn(out, r, BENCH_W));
    }
}

static void bench_ref3(CaFn f)
{
    bench_filter(f, 3);
}

static void bench_dis5(CaFn f)
{
    bench_filter(f, 5);
}

static const CaFunc fansnr_funcs[] = {
    { "conv_u8", offsetof(VqFloatAnsnrDsp, conv_u8), check_conv_u8,
      bench_conv_u8 },
    { "conv_u16", offsetof(VqFloatAnsnrDsp, conv_u16), check_conv_u16,
      bench_conv_u16 },
    { "ref3", offsetof(VqFloatAnsnrDsp, ref3), check_ref3, bench_ref3 },
    { "dis5", offsetof(VqFloatAnsnrDsp, dis5), check_dis5, bench_dis5 },
    { 0 }
};

CA_TABLE(float_ansnr, VqFloatAnsnrDsp, vq_float_ansnr_dsp_init, fansnr_funcs);
