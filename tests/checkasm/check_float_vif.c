/* checkasm entries of float_vif's DSP table (float_vif_dsp.h). */
#include <math.h>
#include <string.h>

#include "checkasm.h"
#include "extractors/float_vif/float_vif_dsp.h"

static const int tap_counts[] = { 3, 5, 9, 17, 33, 65 };

/* A float sample as the extractor sees them (v - 128), by fill mode. */
static float sample(int mode)
{
    switch (mode) {
    case CA_FILL_ZERO: return 0.0f;
    case CA_FILL_MAX: return 127.0f;
    case CA_FILL_EXTREMES: return ca_rand() & 1 ? 127.0f : -128.0f;
    default: return (float)(ca_rand() % 65536) * (255.0f / 65536.0f) - 128.0f;
    }
}

static float *float_row(size_t n, int mode)
{
    float *r = ca_buf_alloc(n * sizeof(float));
    for (size_t j = 0; j < n; j++)
        r[j] = sample(mode);
    return r;
}

/* Normalized random taps, as the extractor's Gaussians are. */
static void make_taps(float *f, int n)
{
    float sum = 0;
    for (int k = 0; k < n; k++)
        sum += f[k] = 1.0f + (float)(ca_rand() % 1000);
    for (int k = 0; k < n; k++)
        f[k] /= sum;
}

/* nq output rows of n floats, the same random bytes for both functions. */
static void make_out(float **a, float **b, int nq, size_t n)
{
    for (int q = 0; q < nq; q++) {
        a[q] = ca_buf_alloc(n * sizeof(float));
        b[q] = ca_buf_alloc(n * sizeof(float));
        ca_fill_bytes(a[q], n * sizeof(float));
        memcpy(b[q], a[q], n * sizeof(float));
    }
}

static void check_vert(CaFn ref_fn, CaFn new_fn)
{
    vq_float_vif_vert_fn ref = (vq_float_vif_vert_fn)ref_fn;
    vq_float_vif_vert_fn fn = (vq_float_vif_vert_fn)new_fn;
    for (size_t t = 0; t < sizeof(tap_counts) / sizeof(int); t++)
        for (int nq = 2; nq <= 5; nq += 3)
            for (int mode = 0; mode < CA_FILL_MODES; mode++)
                for (unsigned i = 0; i < ca_n_widths; i++) {
                    const int n = tap_counts[t];
                    const size_t w = ca_widths[i];
                    float f[VQ_FVIF_MAX_TAPS];
                    make_taps(f, n);
                    const float *ra[VQ_FVIF_MAX_TAPS], *rb[VQ_FVIF_MAX_TAPS];
                    for (int k = 0; k < n; k++) {
                        ra[k] = float_row(w, mode);
                        rb[k] = float_row(w, mode);
                    }
                    float *a[5], *b[5];
                    make_out(a, b, nq, w + 8);
                    ca_context("%d taps, %d quantities, %s, w %zu", n, nq,
                               ca_fill_names[mode], w);
                    ref(ra, rb, f, n, (unsigned)w, nq, a);
                    fn(ra, rb, f, n, (unsigned)w, nq, b);
                    for (int q = 0; q < nq; q++)
                        ca_check_u32("vertical", a[q], b[q], w + 8);
                    ca_buf_free_all();
                }
}

static void check_horiz(CaFn ref_fn, CaFn new_fn)
{
    vq_float_vif_horiz_fn ref = (vq_float_vif_horiz_fn)ref_fn;
    vq_float_vif_horiz_fn fn = (vq_float_vif_horiz_fn)new_fn;
    for (size_t t = 0; t < sizeof(tap_counts) / sizeof(int); t++)
        for (int mode = 0; mode < CA_FILL_MODES; mode++)
            for (unsigned i = 0; i < ca_n_widths; i++) {
                const int n = tap_counts[t];
                const size_t w = ca_widths[i];
                float f[VQ_FVIF_MAX_TAPS];
                make_taps(f, n);
                const float *v = float_row(w + (size_t)n - 1, mode) + n / 2;
                float *a[1], *b[1];
                make_out(a, b, 1, w + 8);
                ca_context("%d taps, %s, w %zu", n, ca_fill_names[mode], w);
                ref(v, (unsigned)w, f, n, a[0]);
                fn(v, (unsigned)w, f, n, b[0]);
                ca_check_u32("horizontal", a[0], b[0], w + 8);
                ca_buf_free_all();
            }
}

/* Filtered values whose variances and covariance cover every branch of
 * the statistic: zero, tiny, negative (rounding) and ordinary ones. */
static void make_stats_in(float *in[5], size_t w, int mode)
{
    for (int q = 0; q < 5; q++)
        in[q] = ca_buf_alloc(w * sizeof(float));
    for (size_t j = 0; j < w; j++) {
        float m1 = sample(mode), m2 = sample(mode);
        float v1 = 0, v2 = 0, c12 = 0;
        switch (ca_rand() % 4) {
        case 0: break;
        case 1: v1 = 1e-11f * (float)(ca_rand() % 100); v2 = v1; break;
        case 2: v1 = 3.0f * (float)(ca_rand() % 1000) / 1000.0f;
                v2 = 2.0f * v1; c12 = -v1; break;
        default: v1 = (float)(ca_rand() % 5000) / 7.0f;
                 v2 = (float)(ca_rand() % 5000) / 7.0f;
                 c12 = (float)((int)(ca_rand() % 4000) - 2000) / 3.0f;
        }
        if (mode == CA_FILL_EXTREMES && ca_rand() % 3 == 0)
            v1 = -1.0f;
        in[0][j] = m1;
        in[1][j] = m2;
        in[2][j] = m1 * m1 + v1;
        in[3][j] = m2 * m2 + v2;
        in[4][j] = m1 * m2 + c12;
    }
}

static void check_stats(CaFn ref_fn, CaFn new_fn)
{
    vq_float_vif_stats_fn ref = (vq_float_vif_stats_fn)ref_fn;
    vq_float_vif_stats_fn fn = (vq_float_vif_stats_fn)new_fn;
    /* libvmaf's defaults (den in float), and a sigma_nsq that is not a
     * power of two with a gain limit (den in double) */
    const VqFloatVifConst cs[2] = {
        { 2.0, (float)(4.0 / (255.0 * 255.0)), 100.0f, 1 },
        { 1.5, (float)(2.25 / (255.0 * 255.0)), 1.2f, 0 },
    };
    const float up[2] = { 2.0f, 1.5f };
    for (int k = 0; k < 2; k++)
        for (int mode = 0; mode < CA_FILL_MODES; mode++)
            for (unsigned i = 0; i < ca_n_widths; i++) {
                const size_t w = ca_widths[i];
                float *in[5], *a[2], *b[2];
                make_stats_in(in, w, mode);
                make_out(a, b, 2, w + 8);
                ca_context("sigma_nsq %g, %s, w %zu", cs[k].sigma_nsq,
                           ca_fill_names[mode], w);
                ref(&cs[k], up[k], in[0], in[1], in[2], in[3], in[4],
                    (unsigned)w, a[0], a[1]);
                fn(&cs[k], up[k], in[0], in[1], in[2], in[3], in[4],
                   (unsigned)w, b[0], b[1]);
                ca_check_u32("num", a[0], b[0], w + 8);
                ca_check_u32("den", a[1], b[1], w + 8);
                ca_buf_free_all();
            }
}

enum { BENCH_W = 1920 };

static void bench_vert(CaFn f)
{
    vq_float_vif_vert_fn fn = (vq_float_vif_vert_fn)f;
    float taps[17], *o[5], *o2[5];
    make_taps(taps, 17);
    const float *ra[17], *rb[17];
    for (int k = 0; k < 17; k++) {
        ra[k] = float_row(BENCH_W, CA_FILL_RANDOM);
        rb[k] = float_row(BENCH_W, CA_FILL_RANDOM);
    }
    make_out(o, o2, 5, BENCH_W);
    CA_BENCH(fn(ra, rb, taps, 17, BENCH_W, 5, o));
}

static void bench_horiz(CaFn f)
{
    vq_float_vif_horiz_fn fn = (vq_float_vif_horiz_fn)f;
    float taps[17], *o[1], *o2[1];
    make_taps(taps, 17);
    const float *v = float_row(BENCH_W + 16, CA_FILL_RANDOM) + 8;
    make_out(o, o2, 1, BENCH_W);
    CA_BENCH(fn(v, BENCH_W, taps, 17, o[0]));
}

static void bench_stats(CaFn f)
{
    vq_float_vif_stats_fn fn = (vq_float_vif_stats_fn)f;
    const VqFloatVifConst c = { 2.0, (float)(4.0 / (255.0 * 255.0)), 100.0f, 1 };
    float *in[5], *o[2], *o2[2];
    make_stats_in(in, BENCH_W, CA_FILL_RANDOM);
    make_out(o, o2, 2, BENCH_W);
    CA_BENCH(fn(&c, 2.0f, in[0], in[1], in[2], in[3], in[4], BENCH_W, o[0],
                o[1]));
}

static const CaFunc float_vif_funcs[] = {
    { "vert", offsetof(VqFloatVifDsp, vert), check_vert, bench_vert },
    { "horiz", offsetof(VqFloatVifDsp, horiz), check_horiz, bench_horiz },
    { "stats", offsetof(VqFloatVifDsp, stats), check_stats, bench_stats },
    { 0 }
};

CA_TABLE(float_vif, VqFloatVifDsp, vq_float_vif_dsp_init, float_vif_funcs);
