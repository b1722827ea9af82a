/* checkasm entries of CAMBI's DSP table (cambi_dsp.h). */
#include <string.h>

#include "../../kernels/cambi/cambi.h"
#include "checkasm.h"
#include "extractors/cambi/cambi_dsp.h"
#include "extractors/cambi/cambi_priv.h"

/* n random values below max + 1, or ties: values from {0, 1, max} */
static uint16_t *make_u16(size_t n, unsigned max, int ties)
{
    uint16_t *p = ca_buf_alloc(2 * n);
    static const unsigned few[3] = { 0, 1 };
    for (size_t i = 0; i < n; i++)
        p[i] = (uint16_t)(ties ? (ca_rand() % 3 == 2 ? max : few[ca_rand() % 2])
                               : ca_rand() % (max + 1));
    return p;
}

static void check_terms(CaFn ref_fn, CaFn new_fn)
{
    vq_cambi_terms_fn ref = (vq_cambi_terms_fn)ref_fn;
    vq_cambi_terms_fn fn = (vq_cambi_terms_fn)new_fn;
    float *recip = ca_buf_alloc(CAMBI_RECIP_SIZE * sizeof(float));
    cambi_recip_fill(recip);
    /* counts as windows of 65x65 hold them: p0 + pm < 4226 */
    static const unsigned maxes[] = { 1, 7, 300, 2112 };
    for (unsigned m = 0; m < 4; m++)
        for (int ties = 0; ties < 2; ties++)
            for (unsigned i = 0; i < ca_n_widths; i++) {
                size_t n = ca_widths[i], n_out = n + 4;
                const uint16_t *h0 = make_u16(n, maxes[m], ties);
                const uint16_t *h1 = make_u16(n, maxes[m], ties);
                const uint16_t *h2 = make_u16(n, maxes[m], ties);
                float *a = ca_buf_alloc(n_out * sizeof(float));
                float *b = ca_buf_alloc(n_out * sizeof(float));
                /* earlier contrast steps' maxima: zero or some term */
                for (size_t k = 0; k < n_out; k++)
                    a[k] = ca_rand() % 2 ? 0.0f
                         : vq_cambi_term(1 + (int)(ca_rand() % 9),
                                         1 + ca_rand() % 2000,
                                         ca_rand() % 2000,
                                         recip[1 + ca_rand() % 4000]);
                memcpy(b, a, n_out * sizeof(float));
                int wt = 1 + (int)(ca_rand() % 9);
                ca_context("n %zu, counts to %u%s, weight %d", n, maxes[m],
                           ties ? " (ties)" : "", wt);
                ref(a, h0, h1, h2, (unsigned)n, wt, recip);
                fn(b, h0, h1, h2, (unsigned)n, wt, recip);
                ca_check_u32("c", a, b, n_out);
                ca_buf_free_all();
                recip = ca_buf_alloc(CAMBI_RECIP_SIZE * sizeof(float));
                cambi_recip_fill(recip);
            }
}

static void check_hmode(CaFn ref_fn, CaFn new_fn)
{
    vq_cambi_hmode_fn ref = (vq_cambi_hmode_fn)ref_fn;
    vq_cambi_hmode_fn fn = (vq_cambi_hmode_fn)new_fn;
    for (int ties = 0; ties < 2; ties++)
        for (unsigned i = 0; i < ca_n_widths; i++) {
            size_t w = ca_widths[i], n_out = w + 8;
            const uint16_t *r = make_u16(w, 1024, ties);
            uint16_t *a = ca_buf_alloc(2 * n_out), *b = ca_buf_alloc(2 * n_out);
            ca_fill_bytes(a, 2 * n_out);
            memcpy(b, a, 2 * n_out);
            ca_context("w %zu%s", w, ties ? " (ties)" : "");
            ref(a, r, (unsigned)w);
            fn(b, r, (unsigned)w);
            ca_check_u16("b", a, b, n_out);
            ca_buf_free_all();
        }
}

static void check_vmode(CaFn ref_fn, CaFn new_fn)
{
    vq_cambi_vmode_fn ref = (vq_cambi_vmode_fn)ref_fn;
    vq_cambi_vmode_fn fn = (vq_cambi_vmode_fn)new_fn;
    for (int ties = 0; ties < 2; ties++)
        for (unsigned i = 0; i < ca_n_widths; i++) {
            size_t w = ca_widths[i], n_out = w + 8;
            const uint16_t *b0 = make_u16(w, 1024, ties);
            const uint16_t *b1 = make_u16(w, 1024, ties);
            const uint16_t *b2 = make_u16(w, 1024, ties);
            uint16_t *a = ca_buf_alloc(2 * n_out), *b = ca_buf_alloc(2 * n_out);
            ca_fill_bytes(a, 2 * n_out);
            memcpy(b, a, 2 * n_out);
            ca_context("w %zu%s", w, ties ? " (ties)" : "");
            ref(a, b0, b1, b2, (unsigned)w);
            fn(b, b0, b1, b2, (unsigned)w);
            ca_check_u16("o", a, b, n_out);
            ca_buf_free_all();
        }
}

static void check_mask_row(CaFn ref_fn, CaFn new_fn)
{
    vq_cambi_mask_row_fn ref = (vq_cambi_mask_row_fn)ref_fn;
    vq_cambi_mask_row_fn fn = (vq_cambi_mask_row_fn)new_fn;
    static const unsigned index[] = { 0, 7, 16, 24, 31, 48 };
    for (unsigned k = 0; k < 6; k++)
        for (unsigned i = 0; i < ca_n_widths; i++) {
            size_t w = ca_widths[i], n_out = w + 8;
            uint8_t *v = ca_buf_alloc(w + 6);
            for (size_t x = 0; x < w + 6; x++)
                v[x] = (uint8_t)(k & 1 ? 7 * (ca_rand() % 2) : ca_rand() % 8);
            uint8_t *a = ca_buf_alloc(n_out), *b = ca_buf_alloc(n_out);
            ca_fill_bytes(a, n_out);
            memcpy(b, a, n_out);
            ca_context("w %zu, index %u", w, index[k]);
            ref(a, v, (unsigned)w, index[k]);
            fn(b, v, (unsigned)w, index[k]);
            ca_check("m", a, b, n_out, 1, false);
            ca_buf_free_all();
        }
}

static void check_add_run(CaFn ref_fn, CaFn new_fn)
{
    vq_cambi_add_run_fn ref = (vq_cambi_add_run_fn)ref_fn;
    vq_cambi_add_run_fn fn = (vq_cambi_add_run_fn)new_fn;
    for (unsigned i = 0; i < ca_n_widths; i++)
        for (unsigned k = 0; k < 8; k++) {
            int w = (int)ca_widths[i], n_out = w + 8;
            int a = (int)(ca_rand() % (unsigned)w);
            int b = k & 1 ? a : a + (int)(ca_rand() % (unsigned)(w - a));
            int pad = 1 + (int)(ca_rand() % 63), sign = k & 2 ? -1 : 1;
            uint16_t *x = ca_buf_alloc(2 * (size_t)n_out);
            uint16_t *y = ca_buf_alloc(2 * (size_t)n_out);
            ca_fill_bytes(x, 2 * (size_t)n_out);
            memcpy(y, x, 2 * (size_t)n_out);
            ca_context("w %d, run %d..%d, pad %d, sign %d", w, a, b, pad, sign);
            ref(x, a, b, pad, w, sign);
            fn(y, a, b, pad, w, sign);
            ca_check_u16("row", x, y, (size_t)n_out);
            ca_buf_free_all();
        }
}

static void bench_terms(CaFn f)
{
    vq_cambi_terms_fn fn = (vq_cambi_terms_fn)f;
    float *recip = ca_buf_alloc(CAMBI_RECIP_SIZE * sizeof(float));
    cambi_recip_fill(recip);
    const uint16_t *h0 = make_u16(1920, 2000, 0), *h1 = make_u16(1920, 2000, 0);
    const uint16_t *h2 = make_u16(1920, 2000, 0);
    float *c = ca_buf_alloc(1920 * sizeof(float));
    CA_BENCH(fn(c, h0, h1, h2, 1920, 4, recip));
}

static void bench_hmode(CaFn f)
{
    vq_cambi_hmode_fn fn = (vq_cambi_hmode_fn)f;
    const uint16_t *r = make_u16(1920, 1024, 0);
    uint16_t *b = ca_buf_alloc(2 * 1920);
    CA_BENCH(fn(b, r, 1920));
}

static void bench_vmode(CaFn f)
{
    vq_cambi_vmode_fn fn = (vq_cambi_vmode_fn)f;
    const uint16_t *b0 = make_u16(1920, 1024, 0), *b1 = make_u16(1920, 1024, 0);
    const uint16_t *b2 = make_u16(1920, 1024, 0);
    uint16_t *o = ca_buf_alloc(2 * 1920);
    CA_BENCH(fn(o, b0, b1, b2, 1920));
}

static void bench_mask_row(CaFn f)
{
    vq_cambi_mask_row_fn fn = (vq_cambi_mask_row_fn)f;
    uint8_t *v = ca_buf_alloc(1926), *m = ca_buf_alloc(1920);
    for (unsigned x = 0; x < 1926; x++)
        v[x] = (uint8_t)(ca_rand() % 8);
    CA_BENCH(fn(m, v, 1920, 16));
}

static void bench_add_run(CaFn f)
{
    vq_cambi_add_run_fn fn = (vq_cambi_add_run_fn)f;
    uint16_t *row = ca_buf_alloc(2 * 1920);
    CA_BENCH(fn(row, 900, 940, 16, 1920, 1));
}

static const CaFunc cambi_funcs[] = {
    { "terms", offsetof(VqCambiDsp, terms), check_terms, bench_terms },
    { "hmode", offsetof(VqCambiDsp, hmode), check_hmode, bench_hmode },
    { "vmode", offsetof(VqCambiDsp, vmode), check_vmode, bench_vmode },
    { "mask_row", offsetof(VqCambiDsp, mask_row), check_mask_row,
      bench_mask_row },
    { "add_run", offsetof(VqCambiDsp, add_run), check_add_run, bench_add_run },
    { 0 }
};

CA_TABLE(cambi, VqCambiDsp, vq_cambi_dsp_init, cambi_funcs);
