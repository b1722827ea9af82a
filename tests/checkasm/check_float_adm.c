/* checkasm entries of float_adm's DSP table (float_adm_dsp.h). */
#include <math.h>
#include <string.h>

#include "checkasm.h"
#include "extractors/float_adm/float_adm_priv.h"

/* A band coefficient by fill mode: ordinary, zero, large, or a mix of
 * zeros, signs and tiny values (the reciprocal's and the angle test's
 * corner cases). */
static float coef(int mode)
{
    switch (mode) {
    case CA_FILL_ZERO: return 0.0f;
    case CA_FILL_MAX: return 180.0f;
    case CA_FILL_EXTREMES: {
        static const float v[] = { 0.0f, -0.0f, 1e-30f, -1e-30f, 1e-38f,
                                   180.0f, -180.0f, 3.0f };
        return v[ca_rand() % 8];
    }
    default: return (float)((int)(ca_rand() % 20001) - 10000) / 100.0f;
    }
}

static float *coef_row(size_t n, int mode)
{
    float *r = ca_buf_alloc(n * sizeof(float));
    for (size_t j = 0; j < n; j++)
        r[j] = coef(mode);
    return r;
}

static void make_out(float **a, float **b, int nq, size_t n)
{
    for (int q = 0; q < nq; q++) {
        a[q] = ca_buf_alloc(n * sizeof(float));
        b[q] = ca_buf_alloc(n * sizeof(float));
        ca_fill_bytes(a[q], n * sizeof(float));
        memcpy(b[q], a[q], n * sizeof(float));
    }
}

/* Dimension records with what the row functions read: the angle constant,
 * the gain limit (a float, or not: then restored in double), p. */
static void make_dims(VqFloatAdmDims *d, int variant)
{
    memset(d, 0, sizeof(*d));
    const double c = cos(3.14159265358979323846 / 180.0);
    d->cos_1deg_sq = (float)(c * c);
    d->gain_limit = variant == 1 ? 1.2 : variant == 2 ? 1.0 : 100.0;
    d->gain_f = (float)d->gain_limit;
    d->gain_exact = (double)d->gain_f == d->gain_limit;
    d->p_norm = variant == 1 ? 2.5f : 3.0f;
    d->cube = variant != 1;
    d->bypass_cm = variant == 2;
}

static const float rfs[3] = { 0.0125f, 0.0125f, 0.0061f };

static void check_csf_row(CaFn ref_fn, CaFn new_fn)
{
    vq_float_adm_csf_row_fn ref = (vq_float_adm_csf_row_fn)ref_fn;
    vq_float_adm_csf_row_fn fn = (vq_float_adm_csf_row_fn)new_fn;
    for (int v = 0; v < 3; v++)
        for (int mode = 0; mode < CA_FILL_MODES; mode++)
            for (unsigned i = 0; i < ca_n_widths; i++) {
                const size_t w = ca_widths[i];
                VqFloatAdmDims d;
                make_dims(&d, v);
                float *ref_b[3], *dis_b[3], *a[12], *b[12];
                for (int k = 0; k < 3; k++) {
                    ref_b[k] = coef_row(w, mode);
                    dis_b[k] = coef_row(w, mode);
                }
                make_out(a, b, 12, w + 8);
                ca_context("gain %g, %s, w %zu", d.gain_limit,
                           ca_fill_names[mode], w);
                ref(&d, rfs, vq_float_adm_rcp_tab, ref_b, dis_b, a, 0, (int)w);
                fn(&d, rfs, vq_float_adm_rcp_tab, ref_b, dis_b, b, 0, (int)w);
                for (int q = 0; q < 12; q++)
                    ca_check_u32("csf", a[q], b[q], w + 8);
                ca_buf_free_all();
            }
}

static void check_cm_row(CaFn ref_fn, CaFn new_fn)
{
    vq_float_adm_cm_row_fn ref = (vq_float_adm_cm_row_fn)ref_fn;
    vq_float_adm_cm_row_fn fn = (vq_float_adm_cm_row_fn)new_fn;
    for (int v = 0; v < 3; v++)
        for (int mode = 0; mode < CA_FILL_MODES; mode++)
            for (unsigned i = 0; i < ca_n_widths; i++) {
                const size_t w = ca_widths[i];
                if (w < 3)
                    continue;
                VqFloatAdmDims d;
                make_dims(&d, v);
                float *rows[3][12], *a[6], *b[6];
                for (int r = 0; r < 3; r++)
                    for (int q = 0; q < 12; q++) {
                        rows[r][q] = coef_row(w, mode);
                        /* filter values are magnitudes */
                        if ((q >= 3 && q < 6) || q >= 9)
                            for (size_t j = 0; j < w; j++)
                                rows[r][q][j] = vq_float_adm_csf_f(rows[r][q][j]);
                    }
                make_out(a, b, 6, w + 8);
                ca_context("p %g, bypass %d, %s, w %zu", d.p_norm,
                           d.bypass_cm, ca_fill_names[mode], w);
                ref(&d, rows[0], rows[1], rows[2], 1, (int)w - 1, a);
                fn(&d, rows[0], rows[1], rows[2], 1, (int)w - 1, b);
                for (int q = 0; q < 6; q++)
                    ca_check_u32("terms", a[q], b[q], w + 8);
                ca_buf_free_all();
            }
}

static void check_den_row(CaFn ref_fn, CaFn new_fn)
{
    vq_float_adm_den_row_fn ref = (vq_float_adm_den_row_fn)ref_fn;
    vq_float_adm_den_row_fn fn = (vq_float_adm_den_row_fn)new_fn;
    for (int v = 0; v < 2; v++)
        for (int mode = 0; mode < CA_FILL_MODES; mode++)
            for (unsigned i = 0; i < ca_n_widths; i++) {
                const size_t w = ca_widths[i];
                VqFloatAdmDims d;
                make_dims(&d, v);
                float *bands[3], *a[3], *b[3];
                for (int k = 0; k < 3; k++)
                    bands[k] = coef_row(w, mode);
                make_out(a, b, 3, w + 8);
                ca_context("p %g, %s, w %zu", d.p_norm, ca_fill_names[mode],
                           w);
                ref(&d, rfs, bands, 0, (int)w, a);
                fn(&d, rfs, bands, 0, (int)w, b);
                for (int q = 0; q < 3; q++)
                    ca_check_u32("den", a[q], b[q], w + 8);
                ca_buf_free_all();
            }
}

enum { BENCH_W = 960 };

static void bench_csf_row(CaFn f)
{
    vq_float_adm_csf_row_fn fn = (vq_float_adm_csf_row_fn)f;
    VqFloatAdmDims d;
    make_dims(&d, 0);
    float *ref_b[3], *dis_b[3], *a[12], *b[12];
    for (int k = 0; k < 3; k++) {
        ref_b[k] = coef_row(BENCH_W, CA_FILL_RANDOM);
        dis_b[k] = coef_row(BENCH_W, CA_FILL_RANDOM);
    }
    make_out(a, b, 12, BENCH_W);
    CA_BENCH(fn(&d, rfs, vq_float_adm_rcp_tab, ref_b, dis_b, a, 0, BENCH_W));
}

static void bench_cm_row(CaFn f)
{
    vq_float_adm_cm_row_fn fn = (vq_float_adm_cm_row_fn)f;
    VqFloatAdmDims d;
    make_dims(&d, 0);
    float *rows[3][12], *a[6], *b[6];
    for (int r = 0; r < 3; r++)
        for (int q = 0; q < 12; q++)
            rows[r][q] = coef_row(BENCH_W, CA_FILL_RANDOM);
    make_out(a, b, 6, BENCH_W);
    CA_BENCH(fn(&d, rows[0], rows[1], rows[2], 1, BENCH_W - 1, a));
}

static void bench_den_row(CaFn f)
{
    vq_float_adm_den_row_fn fn = (vq_float_adm_den_row_fn)f;
    VqFloatAdmDims d;
    make_dims(&d, 0);
    float *bands[3], *a[3], *b[3];
    for (int k = 0; k < 3; k++)
        bands[k] = coef_row(BENCH_W, CA_FILL_RANDOM);
    make_out(a, b, 3, BENCH_W);
    CA_BENCH(fn(&d, rfs, bands, 0, BENCH_W, a));
}

static const CaFunc float_adm_funcs[] = {
    { "csf_row", offsetof(VqFloatAdmDsp, csf_row), check_csf_row, bench_csf_row },
    { "cm_row", offsetof(VqFloatAdmDsp, cm_row), check_cm_row, bench_cm_row },
    { "den_row", offsetof(VqFloatAdmDsp, den_row), check_den_row, bench_den_row },
    { 0 }
};

CA_TABLE(float_adm, VqFloatAdmDsp, vq_float_adm_dsp_init, float_adm_funcs);
