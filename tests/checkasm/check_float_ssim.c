/* checkasm entries of float_ssim's (float_ssim_dsp.h) and float_ms_ssim's
 * (float_ms_ssim_dsp.h) DSP tables. */
#include <string.h>

#include "checkasm.h"
#include "extractors/float_ms_ssim/float_ms_ssim_dsp.h"
#include "extractors/float_ssim/float_ssim_dsp.h"

/* Values as the filters see them: 8-bit samples, 10-bit samples / 4,
 * squares of samples, the outputs of earlier filter passes (any float of
 * that range), and near-extreme ones. */
enum { V_U8, V_U10, V_SQUARE, V_FILTERED, V_EXTREME, V_KINDS };
static const char *const kind_names[] = { "8-bit", "10-bit / 4", "squares",
                                          "filtered", "extremes" };

static float value(int kind)
{
    switch (kind) {
    case V_U8: return (float)(ca_rand() & 255);
    case V_U10: return (float)(ca_rand() & 1023) / 4.0f;
    case V_SQUARE: return (float)(ca_rand() % 65026);
    case V_FILTERED: return (float)(ca_rand() % 2560000) / 10000.0f - 0.5f;
    default: return (ca_rand() & 1) ? 255.0f : (ca_rand() & 1) ? 0.0f : 254.99998f;
    }
}

static float *make_row(size_t n, int kind)
{
    float *r = ca_buf_alloc(n * sizeof(float));
    for (size_t i = 0; i < n; i++)
        r[i] = value(kind);
    return r;
}

/* Output buffers: a little longer than the output, the same random bytes
 * in both, compared whole. */
static void make_out(size_t bytes, void **a, void **b)
{
    *a = ca_buf_alloc(bytes + 64);
    *b = ca_buf_alloc(bytes + 64);
    ca_fill_bytes(*a, bytes + 64);
    memcpy(*b, *a, bytes + 64);
}

static void check_hconv(CaFn ref_fn, CaFn new_fn)
{
    vq_float_ssim_hconv_fn ref = (vq_float_ssim_hconv_fn)ref_fn;
    vq_float_ssim_hconv_fn fn = (vq_float_ssim_hconv_fn)new_fn;
    for (int kind = 0; kind < V_KINDS; kind++)
        for (unsigned i = 0; i < ca_n_widths; i++) {
            unsigned n = ca_widths[i];
            const float *src = make_row(n + VQ_FSSIM_WIN - 1, kind);
            void *a, *b;
            make_out(n * sizeof(float), &a, &b);
            ca_context("%s, n %u", kind_names[kind], n);
            ref(src, n, a);
            fn(src, n, b);
            ca_check_u32("dst", a, b, n + 16);
            ca_buf_free_all();
        }
}

static void check_vconv(CaFn ref_fn, CaFn new_fn)
{
    vq_float_ssim_vconv_fn ref = (vq_float_ssim_vconv_fn)ref_fn;
    vq_float_ssim_vconv_fn fn = (vq_float_ssim_vconv_fn)new_fn;
    for (int kind = 0; kind < V_KINDS; kind++)
        for (unsigned i = 0; i < ca_n_widths; i++) {
            unsigned n = ca_widths[i];
            const float *rows[VQ_FSSIM_WIN];
            for (int v = 0; v < VQ_FSSIM_WIN; v++)
                rows[v] = make_row(n, kind);
            void *a, *b;
            make_out(n * sizeof(float), &a, &b);
            ca_context("%s, n %u", kind_names[kind], n);
            ref(rows, n, a);
            fn(rows, n, b);
            ca_check_u32("dst", a, b, n + 16);
            ca_buf_free_all();
        }
}

/* Statistics as the map gives them (mu and the filtered squares close to
 * mu^2, so that the sigmas are small, zero or slightly negative) and
 * arbitrary ones. */
static void check_pixels(CaFn ref_fn, CaFn new_fn)
{
    vq_float_ssim_pixels_fn ref = (vq_float_ssim_pixels_fn)ref_fn;
    vq_float_ssim_pixels_fn fn = (vq_float_ssim_pixels_fn)new_fn;
    VqFloatSsimConsts k = vq_float_ssim_consts();
    for (int kind = 0; kind < V_KINDS; kind++)
        for (int plausible = 0; plausible < 2; plausible++)
            for (unsigned i = 0; i < ca_n_widths; i++) {
                unsigned n = ca_widths[i];
                float *v[5];
                for (int m = 0; m < 5; m++)
                    v[m] = make_row(n, kind);
                for (unsigned x = 0; plausible && x < n; x++) {
                    float e = (float)((int)(ca_rand() % 9) - 4);
                    v[2][x] = v[0][x] * v[0][x] + e;
                    v[3][x] = v[1][x] * v[1][x] + (kind == V_EXTREME ? 0 : e);
                    v[4][x] = v[0][x] * v[1][x] - e;
                }
                void *out[2][3];
                for (int q = 0; q < 3; q++)
                    make_out(n * sizeof(double), &out[0][q], &out[1][q]);
                ca_context("%s, %s statistics, n %u", kind_names[kind],
                           plausible ? "plausible" : "arbitrary", n);
                ref((const float *const *)v, n, k, out[0][0], out[0][1],
                    out[0][2]);
                fn((const float *const *)v, n, k, out[1][0], out[1][1],
                   out[1][2]);
                ca_check_u64("l", out[0][0], out[1][0], n + 8);
                ca_check_u64("c", out[0][1], out[1][1], n + 8);
                ca_check_u64("s", out[0][2], out[1][2], n + 8);
                ca_buf_free_all();
            }
}

static void check_lpf_row(CaFn ref_fn, CaFn new_fn)
{
    vq_float_ms_ssim_lpf_row_fn ref = (vq_float_ms_ssim_lpf_row_fn)ref_fn;
    vq_float_ms_ssim_lpf_row_fn fn = (vq_float_ms_ssim_lpf_row_fn)new_fn;
    for (int kind = 0; kind < V_KINDS; kind++)
        for (unsigned i = 0; i < ca_n_widths; i++) {
            unsigned n = ca_widths[i];
            const float *even[VQ_FMS_LPF], *odd[VQ_FMS_LPF];
            for (int v = 0; v < VQ_FMS_LPF; v++) {
                even[v] = make_row(n + 4, kind);
                odd[v] = make_row(n + 3, kind);
            }
            void *a, *b;
            make_out(n * sizeof(float), &a, &b);
            ca_context("%s, n %u", kind_names[kind], n);
            ref(even, odd, n, a);
            fn(even, odd, n, b);
            ca_check_u32("dst", a, b, n + 16);
            ca_buf_free_all();
        }
}

static void bench_hconv(CaFn f)
{
    vq_float_ssim_hconv_fn fn = (vq_float_ssim_hconv_fn)f;
    const float *src = make_row(1920, V_U8);
    float *dst = ca_buf_alloc(1910 * sizeof(float));
    CA_BENCH(fn(src, 1910, dst));
}

static void bench_vconv(CaFn f)
{
    vq_float_ssim_vconv_fn fn = (vq_float_ssim_vconv_fn)f;
    const float *rows[VQ_FSSIM_WIN];
    for (int v = 0; v < VQ_FSSIM_WIN; v++)
        rows[v] = make_row(1910, V_FILTERED);
    float *dst = ca_buf_alloc(1910 * sizeof(float));
    CA_BENCH(fn(rows, 1910, dst));
}

static void bench_pixels(CaFn f)
{
    vq_float_ssim_pixels_fn fn = (vq_float_ssim_pixels_fn)f;
    const float *v[5];
    for (int m = 0; m < 5; m++)
        v[m] = make_row(1910, V_FILTERED);
    double *o = ca_buf_alloc(3 * 1910 * sizeof(double));
    CA_BENCH(fn(v, 1910, vq_float_ssim_consts(), o, o + 1910, o + 2 * 1910));
}

static void bench_lpf_row(CaFn f)
{
    vq_float_ms_ssim_lpf_row_fn fn = (vq_float_ms_ssim_lpf_row_fn)f;
    const float *even[VQ_FMS_LPF], *odd[VQ_FMS_LPF];
    for (int v = 0; v < VQ_FMS_LPF; v++) {
        even[v] = make_row(964, V_U8);
        odd[v] = make_row(963, V_U8);
    }
    float *dst = ca_buf_alloc(960 * sizeof(float));
    CA_BENCH(fn(even, odd, 960, dst));
}

static const CaFunc float_ssim_funcs[] = {
    { "hconv", offsetof(VqFloatSsimDsp, hconv), check_hconv, bench_hconv },
    { "vconv", offsetof(VqFloatSsimDsp, vconv), check_vconv, bench_vconv },
    { "pixels", offsetof(VqFloatSsimDsp, pixels), check_pixels, bench_pixels },
    { 0 }
};

CA_TABLE(float_ssim, VqFloatSsimDsp, vq_float_ssim_dsp_init, float_ssim_funcs);

static const CaFunc float_ms_ssim_funcs[] = {
    { "lpf_row", offsetof(VqFloatMsSsimDsp, lpf_row), check_lpf_row, bench_lpf_row },
    { 0 }
};

CA_TABLE(float_ms_ssim, VqFloatMsSsimDsp, vq_float_ms_ssim_dsp_init, float_ms_ssim_funcs);
