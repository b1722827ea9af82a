/* checkasm entries of SpEED's DSP table (extractors/common/speed_dsp.h). */
#include <string.h>

#include "checkasm.h"
#include "extractors/common/speed_dsp.h"

/* A filtered sample as the covariance sees it: within about +-300, with a
 * fractional part, or 0 / an extreme. */
static float sample(int mode)
{
    switch (mode) {
    case CA_FILL_ZERO: return 0.0f;
    case CA_FILL_MAX: return 300.0f;
    case CA_FILL_EXTREMES: return ca_rand() & 1 ? 300.0f : -300.0f;
    default: return (float)((int32_t)(ca_rand() % 600001) - 300000) / 997.0f;
    }
}

/* Random finite floats (accumulator start values, taps). */
static float any_float(void)
{
    return (float)((int32_t)(ca_rand() % 2000001) - 1000000) / 1013.0f;
}

static void check_vsum(CaFn ref_fn, CaFn new_fn, int bytes)
{
    for (int prev = 0; prev < 2; prev++)
        for (unsigned bpc = bytes == 1 ? 8 : 9; bpc <= (bytes == 1 ? 8u : 16u);
             bpc++)
            for (int mode = 0; mode < CA_FILL_MODES; mode++)
                for (unsigned i = 0; i < ca_n_widths; i++) {
                    const size_t w = ca_widths[i], n = w + 8;
                    void *c = ca_buf_alloc(bytes * w);
                    void *p = prev ? ca_buf_alloc(bytes * w) : NULL;
                    if (bytes == 1) {
                        ca_fill_u8(c, w, mode);
                        if (p)
                            ca_fill_u8(p, w, (mode + 1) % CA_FILL_MODES);
                    } else {
                        ca_fill_u16(c, w, bpc, mode);
                        if (p)
                            ca_fill_u16(p, w, bpc, (mode + 1) % CA_FILL_MODES);
                    }
                    float *a = ca_buf_alloc(4 * n), *b = ca_buf_alloc(4 * n);
                    for (size_t x = 0; x < n; x++)
                        a[x] = any_float();
                    memcpy(b, a, 4 * n);
                    const float f = any_float() / 1000.0f;
                    /* libvmaf's scaler: 2^(bpc - 8) */
                    const float sc = (float)(1u << (bpc - 8));
                    ca_context("%u-bit, %s, %s, w %zu", bpc,
                               prev ? "with previous row" : "current row",
                               ca_fill_names[mode], w);
                    if (bytes == 1) {
                        ((vq_speed_vsum_u8_fn)ref_fn)(a, c, p, f, w);
                        ((vq_speed_vsum_u8_fn)new_fn)(b, c, p, f, w);
                    } else {
                        ((vq_speed_vsum_u16_fn)ref_fn)(a, c, p, f, sc, w);
                        ((vq_speed_vsum_u16_fn)new_fn)(b, c, p, f, sc, w);
                    }
                    ca_check_u32("row", a, b, n);
                    ca_buf_free_all();
                }
}

static void check_vsum_u8(CaFn ref, CaFn fn)
{
    check_vsum(ref, fn, 1);
}

static void check_vsum_u16(CaFn ref, CaFn fn)
{
    check_vsum(ref, fn, 2);
}

enum { ACC = 25 * VQ_SPEED_COV_STRIDE, TRI = 25 * 26 / 2 };

/* The lower triangle of an accumulator, packed. */
static void triangle(uint64_t *out, const double *acc)
{
    for (int a = 0, k = 0; a < 25; a++)
        for (int b = 0; b <= a; b++, k++)
            memcpy(&out[k], &acc[a * VQ_SPEED_COV_STRIDE + b], 8);
}

static void check_cov_row(CaFn ref_fn, CaFn new_fn)
{
    vq_speed_cov_row_fn ref = (vq_speed_cov_row_fn)ref_fn;
    vq_speed_cov_row_fn fn = (vq_speed_cov_row_fn)new_fn;
    for (int mode = 0; mode < CA_FILL_MODES; mode++)
        for (unsigned i = 0; i < ca_n_widths; i++) {
            /* n window positions; rows of n + 4 samples, an odd stride */
            const size_t n = ca_widths[i] > 300 ? 301 : ca_widths[i];
            const ptrdiff_t stride = (ptrdiff_t)(n + 4 + (ca_rand() % 4));
            float *x = ca_buf_alloc(4 * (size_t)(4 * stride + (ptrdiff_t)n + 4));
            for (ptrdiff_t k = 0; k < 4 * stride + (ptrdiff_t)n + 4; k++)
                x[k] = sample(mode);
            float means[25];
            for (int k = 0; k < 25; k++)
                means[k] = mode == CA_FILL_RANDOM ? sample(mode) / 8.0f : 0.0f;
            double *a = ca_buf_alloc(8 * ACC), *b = ca_buf_alloc(8 * ACC);
            for (int k = 0; k < ACC; k++)
                a[k] = (double)any_float() * 1000.0;
            memcpy(b, a, 8 * ACC);
            ca_context("%s samples, n %zu, stride %td", ca_fill_names[mode], n,
                       stride);
            ref(a, x, stride, means, n);
            fn(b, x, stride, means, n);
            uint64_t ta[TRI], tb[TRI];
            triangle(ta, a);
            triangle(tb, b);
            ca_check_u64("covariance sums", ta, tb, TRI);
            ca_buf_free_all();
        }
}

enum { BENCH_W = 960 };

static void bench_vsum_u8(CaFn f)
{
    uint8_t *c = ca_buf_alloc(BENCH_W), *p = ca_buf_alloc(BENCH_W);
    ca_fill_u8(c, BENCH_W, CA_FILL_RANDOM);
    ca_fill_u8(p, BENCH_W, CA_FILL_RANDOM);
    float *row = ca_buf_alloc(4 * BENCH_W);
    vq_speed_vsum_u8_fn fn = (vq_speed_vsum_u8_fn)f;
    CA_BENCH(fn(row, c, p, 0.01f, BENCH_W));
}

static void bench_vsum_u16(CaFn f)
{
    uint16_t *c = ca_buf_alloc(2 * BENCH_W), *p = ca_buf_alloc(2 * BENCH_W);
    ca_fill_u16(c, BENCH_W, 10, CA_FILL_RANDOM);
    ca_fill_u16(p, BENCH_W, 10, CA_FILL_RANDOM);
    float *row = ca_buf_alloc(4 * BENCH_W);
    vq_speed_vsum_u16_fn fn = (vq_speed_vsum_u16_fn)f;
    CA_BENCH(fn(row, c, p, 0.01f, 4.0f, BENCH_W));
}

static void bench_cov_row(CaFn f)
{
    enum { N = 60, STRIDE = 64 };
    float *x = ca_buf_alloc(4 * 5 * STRIDE);
    for (int k = 0; k < 5 * STRIDE; k++)
        x[k] = sample(CA_FILL_RANDOM);
    float means[25] = { 0 };
    double *acc = ca_buf_alloc(8 * ACC);
    vq_speed_cov_row_fn fn = (vq_speed_cov_row_fn)f;
    CA_BENCH(fn(acc, x, STRIDE, means, N));
}

static const CaFunc speed_funcs[] = {
    { "vsum_u8", offsetof(VqSpeedDsp, vsum_u8), check_vsum_u8,
      bench_vsum_u8 },
    { "vsum_u16", offsetof(VqSpeedDsp, vsum_u16), check_vsum_u16,
      bench_vsum_u16 },
    { "cov_row", offsetof(VqSpeedDsp, cov_row), check_cov_row,
      bench_cov_row },
    { 0 }
};

CA_TABLE(speed, VqSpeedDsp, vq_speed_dsp_init, speed_funcs);
