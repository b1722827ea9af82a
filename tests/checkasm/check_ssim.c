/* checkasm entries of integer ssim's DSP table (ssim_dsp.h). */
#include <string.h>

#include "checkasm.h"
#include "extractors/ssim/ssim_dsp.h"

static const unsigned depths[] = { 8, 10, 12, 16 };
#define N_DEPTHS (sizeof(depths) / sizeof(depths[0]))

static uint32_t *make_samples(size_t n, unsigned bpc, int mode)
{
    uint16_t *s = ca_buf_alloc(n * sizeof(uint16_t));
    ca_fill_u16(s, n, bpc, mode);
    uint32_t *r = ca_buf_alloc(n * sizeof(uint32_t));
    for (size_t i = 0; i < n; i++)
        r[i] = s[i];
    return r;
}

/* A filtered row's five arrays, each in its own buffer a little longer
 * than w, with random contents (the same in a and b). */
static void make_hrows(unsigned w, VqSsimHRow *a, VqSsimHRow *b)
{
    uint32_t **a32[2] = { &a->hx, &a->hy }, **b32[2] = { &b->hx, &b->hy };
    uint64_t **a64[3] = { &a->hxx, &a->hyy, &a->hxy };
    uint64_t **b64[3] = { &b->hxx, &b->hyy, &b->hxy };
    for (int k = 0; k < 2; k++) {
        *a32[k] = ca_buf_alloc((w + 16) * 4);
        *b32[k] = ca_buf_alloc((w + 16) * 4);
        ca_fill_bytes(*a32[k], (w + 16) * 4);
        memcpy(*b32[k], *a32[k], (w + 16) * 4);
    }
    for (int k = 0; k < 3; k++) {
        *a64[k] = ca_buf_alloc((w + 8) * 8);
        *b64[k] = ca_buf_alloc((w + 8) * 8);
        ca_fill_bytes(*a64[k], (w + 8) * 8);
        memcpy(*b64[k], *a64[k], (w + 8) * 8);
    }
}

static void check_hrow(CaFn ref_fn, CaFn new_fn)
{
    vq_ssim_hrow_fn ref = (vq_ssim_hrow_fn)ref_fn;
    vq_ssim_hrow_fn fn = (vq_ssim_hrow_fn)new_fn;
    for (unsigned d = 0; d < N_DEPTHS; d++)
        for (int mode = 0; mode < CA_FILL_MODES; mode++)
            for (unsigned i = 0; i < ca_n_widths; i++) {
                unsigned w = ca_widths[i], bpc = depths[d];
                const uint32_t *px = make_samples(w + 8, bpc, mode);
                const uint32_t *py = make_samples(w + 8, bpc,
                                                  (mode + 1) % CA_FILL_MODES);
                VqSsimHRow a, b;
                make_hrows(w, &a, &b);
                ca_context("%u-bit %s samples, w %u", bpc,
                           ca_fill_names[mode], w);
                ref(px, py, w, &a);
                fn(px, py, w, &b);
                ca_check_u32("hx", a.hx, b.hx, w + 16);
                ca_check_u32("hy", a.hy, b.hy, w + 16);
                ca_check_u64("hxx", a.hxx, b.hxx, w + 8);
                ca_check_u64("hyy", a.hyy, b.hyy, w + 8);
                ca_check_u64("hxy", a.hxy, b.hxy, w + 8);
                ca_buf_free_all();
            }
}

/* Nine filtered rows made by the C hrow from samples, as the frame driver
 * makes them. */
static void make_window(unsigned w, unsigned bpc, int mode,
                        const VqSsimHRow **rows)
{
    for (int j = 0; j < VQ_SSIM_TAPS; j++) {
        VqSsimHRow *r = ca_buf_alloc(sizeof(*r)), spare;
        make_hrows(w, r, &spare);
        const uint32_t *px = make_samples(w + 8, bpc, mode);
        const uint32_t *py = make_samples(w + 8, bpc, (mode + j) % CA_FILL_MODES);
        vq_ssim_hrow_c(px, py, w, r);
        rows[j] = r;
    }
}

static void check_vrow(CaFn ref_fn, CaFn new_fn)
{
    vq_ssim_vrow_fn ref = (vq_ssim_vrow_fn)ref_fn;
    vq_ssim_vrow_fn fn = (vq_ssim_vrow_fn)new_fn;
    for (unsigned d = 0; d < N_DEPTHS; d++)
        for (int mode = 0; mode < CA_FILL_MODES; mode++)
            for (unsigned i = 0; i < ca_n_widths; i++) {
                unsigned w = ca_widths[i], bpc = depths[d];
                const VqSsimHRow *rows[VQ_SSIM_TAPS];
                make_window(w, bpc, mode, rows);
                VqSsimConsts k = vq_ssim_consts(bpc);
                ca_context("%u-bit %s samples, w %u", bpc,
                           ca_fill_names[mode], w);
                int64_t a = ref(rows, w, k), b = fn(rows, w, k);
                ca_check_i64("sum", &a, &b, 1);
                ca_buf_free_all();
            }
}

static void bench_hrow(CaFn f)
{
    vq_ssim_hrow_fn fn = (vq_ssim_hrow_fn)f;
    const uint32_t *px = make_samples(1928, 8, CA_FILL_RANDOM);
    const uint32_t *py = make_samples(1928, 8, CA_FILL_RANDOM);
    VqSsimHRow a, b;
    make_hrows(1920, &a, &b);
    CA_BENCH(fn(px, py, 1920, &a));
}

static void bench_vrow(CaFn f)
{
    vq_ssim_vrow_fn fn = (vq_ssim_vrow_fn)f;
    const VqSsimHRow *rows[VQ_SSIM_TAPS];
    make_window(1920, 8, CA_FILL_RANDOM, rows);
    volatile int64_t sink;
    CA_BENCH(sink = fn(rows, 1920, vq_ssim_consts(8)));
    (void)sink;
}

static const CaFunc ssim_funcs[] = {
    { "hrow", offsetof(VqSsimDsp, hrow), check_hrow, bench_hrow },
    { "vrow", offsetof(VqSsimDsp, vrow), check_vrow, bench_vrow },
    { 0 }
};

CA_TABLE(ssim, VqSsimDsp, vq_ssim_dsp_init, ssim_funcs);
