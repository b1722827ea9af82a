/* checkasm entries of integer ADM's DSP table (adm_dsp.h). */
#include <string.h>

#include "checkasm.h"
#include "extractors/adm/adm_dsp.h"

/* Output rows of n values plus 8, the same random contents for all four. */
static void make_out(size_t n, int32_t *out[4])
{
    for (unsigned k = 0; k < 4; k++)
        out[k] = ca_buf_alloc(4 * (n + 8));
    ca_fill_bytes(out[0], 4 * (n + 8));
    for (unsigned k = 1; k < 4; k++)
        memcpy(out[k], out[0], 4 * (n + 8));
}

/* The same with int16 rows. */
static void make_out16(size_t n, int16_t *out[4])
{
    for (unsigned k = 0; k < 4; k++)
        out[k] = ca_buf_alloc(2 * (n + 8));
    ca_fill_bytes(out[0], 2 * (n + 8));
    for (unsigned k = 1; k < 4; k++)
        memcpy(out[k], out[0], 2 * (n + 8));
}

static void check_outputs(int32_t *out[4], size_t n)
{
    ca_check_i32("lo", out[0], out[2], n + 8);
    ca_check_i32("hi", out[1], out[3], n + 8);
}

static void check_outputs16(int16_t *out[4], size_t n)
{
    ca_check("lo", out[0], out[2], n + 8, 2, true);
    ca_check("hi", out[1], out[3], n + 8, 2, true);
}

static void check_vert0(CaFn ref_fn, CaFn new_fn, unsigned bpc0,
                        unsigned bpc1)
{
    for (unsigned bpc = bpc0; bpc <= bpc1; bpc++)
        for (int mode = 0; mode < CA_FILL_MODES; mode++)
            for (int with_hi = 0; with_hi < 2; with_hi++)
                for (unsigned i = 0; i < ca_n_widths; i++) {
                    int n = (int)ca_widths[i];
                    const void *r[4];
                    for (unsigned k = 0; k < 4; k++) {
                        if (bpc == 8) {
                            uint8_t *row = ca_buf_alloc((size_t)n);
                            ca_fill_u8(row, (size_t)n, mode);
                            r[k] = row;
                        } else {
                            uint16_t *row = ca_buf_alloc(2 * (size_t)n);
                            ca_fill_u16(row, (size_t)n, bpc, mode);
                            r[k] = row;
                        }
                    }
                    int16_t *out[4];
                    make_out16((size_t)n, out);
                    ca_context("%u-bit %s samples, n %d, with_hi %d", bpc,
                               ca_fill_names[mode], n, with_hi);
                    if (bpc == 8) {
                        vq_adm_dwt_vert0_u8_fn ref =
                            (vq_adm_dwt_vert0_u8_fn)ref_fn;
                        vq_adm_dwt_vert0_u8_fn fn =
                            (vq_adm_dwt_vert0_u8_fn)new_fn;
                        ref(r[0], r[1], r[2], r[3], n, (int)bpc, with_hi,
                            out[0], out[1]);
                        fn(r[0], r[1], r[2], r[3], n, (int)bpc, with_hi,
                           out[2], out[3]);
                    } else {
                        vq_adm_dwt_vert0_u16_fn ref =
                            (vq_adm_dwt_vert0_u16_fn)ref_fn;
                        vq_adm_dwt_vert0_u16_fn fn =
                            (vq_adm_dwt_vert0_u16_fn)new_fn;
                        ref(r[0], r[1], r[2], r[3], n, (int)bpc, with_hi,
                            out[0], out[1]);
                        fn(r[0], r[1], r[2], r[3], n, (int)bpc, with_hi,
                           out[2], out[3]);
                    }
                    check_outputs16(out, (size_t)n);
                    ca_buf_free_all();
                }
}

static void check_vert0_u8(CaFn ref, CaFn fn)
{
    check_vert0(ref, fn, 8, 8);
}

static void check_vert0_u16(CaFn ref, CaFn fn)
{
    check_vert0(ref, fn, 9, 16);
}

/* n int32 values: int16 ones (bits 16) or any (bits 32). */
static int32_t *make_values(size_t n, unsigned bits, int mode)
{
    int32_t *v = ca_buf_alloc(4 * n);
    const int32_t hi = bits == 16 ? 32767 : 2147483647, lo = -hi - 1;
    for (size_t i = 0; i < n; i++) {
        switch (mode) {
        case CA_FILL_ZERO: v[i] = 0; break;
        case CA_FILL_MAX: v[i] = hi; break;
        case CA_FILL_EXTREMES: v[i] = ca_rand() & 1 ? hi : lo; break;
        default:
            v[i] = (int32_t)ca_rand();
            if (bits == 16)
                v[i] = (int16_t)v[i];
            else if (ca_rand() & 1)
                v[i] >>= 8 + ca_rand() % 16; /* magnitudes of real bands */
        }
    }
    return v;
}

static void check_vert(CaFn ref_fn, CaFn new_fn)
{
    vq_adm_dwt_vert_fn ref = (vq_adm_dwt_vert_fn)ref_fn;
    vq_adm_dwt_vert_fn fn = (vq_adm_dwt_vert_fn)new_fn;
    static const int shifts[] = { 0, 15, 16 };
    for (unsigned s = 0; s < 3; s++)
        for (int mode = 0; mode < CA_FILL_MODES; mode++)
            for (int with_hi = 0; with_hi < 2; with_hi++)
                for (unsigned i = 0; i < ca_n_widths; i++) {
                    int n = (int)ca_widths[i];
                    const int32_t *r[4];
                    for (unsigned k = 0; k < 4; k++)
                        r[k] = make_values((size_t)n, 32, mode);
                    int32_t *out[4];
                    make_out((size_t)n, out);
                    ca_context("%s values, n %d, shift %d, with_hi %d",
                               ca_fill_names[mode], n, shifts[s], with_hi);
                    ref(r[0], r[1], r[2], r[3], n, shifts[s], with_hi, out[0],
                        out[1]);
                    fn(r[0], r[1], r[2], r[3], n, shifts[s], with_hi, out[2],
                       out[3]);
                    check_outputs(out, (size_t)n);
                    ca_buf_free_all();
                }
}

/* n int16 values. */
static int16_t *make_values16(size_t n, int mode)
{
    int16_t *v = ca_buf_alloc(2 * n);
    const int32_t *w = make_values(n, 16, mode);
    for (size_t i = 0; i < n; i++)
        v[i] = (int16_t)w[i];
    return v;
}

/* The horizontal passes: out[j0 .. j1) from t[2 j0 - 1 .. 2 j1 + 1]. */
static void check_horiz(CaFn ref_fn, CaFn new_fn, bool scale0)
{
    static const int shifts[] = { 15, 16 };
    for (unsigned s = 0; s < (scale0 ? 1u : 2u); s++)
        for (int mode = 0; mode < CA_FILL_MODES; mode++)
            for (unsigned i = 0; i < ca_n_widths; i++) {
                int j0 = (int)(ca_rand() % 3), j1 = j0 + (int)ca_widths[i];
                size_t n_t = 2 * (size_t)j1 + 2;
                /* t[-1] is the buffer's first value */
                const int32_t *t = scale0 ? NULL : make_values(n_t, 32, mode) + 1;
                const int16_t *t16 = scale0 ? make_values16(n_t, mode) + 1 : NULL;
                int32_t *out[4];
                make_out((size_t)j1, out);
                ca_context("%s values, j %d..%d, shift %d",
                           ca_fill_names[mode], j0, j1,
                           scale0 ? 16 : shifts[s]);
                if (scale0) {
                    vq_adm_dwt_horiz0_fn ref = (vq_adm_dwt_horiz0_fn)ref_fn;
                    vq_adm_dwt_horiz0_fn fn = (vq_adm_dwt_horiz0_fn)new_fn;
                    ref(t16, j0, j1, out[0]);
                    fn(t16, j0, j1, out[2]);
                } else {
                    vq_adm_dwt_horiz_fn ref = (vq_adm_dwt_horiz_fn)ref_fn;
                    vq_adm_dwt_horiz_fn fn = (vq_adm_dwt_horiz_fn)new_fn;
                    ref(t, j0, j1, shifts[s], out[0]);
                    fn(t, j0, j1, shifts[s], out[2]);
                }
                ca_check_i32("out", out[0], out[2], (size_t)j1 + 8);
                ca_buf_free_all();
            }
}

static void check_horiz0(CaFn ref, CaFn fn)
{
    check_horiz(ref, fn, true);
}

static void check_horiz_s123(CaFn ref, CaFn fn)
{
    check_horiz(ref, fn, false);
}

/* ---- bench: a 1080p row (960 outputs) ---------------------------------- */

enum { BENCH_N = 1920 };

static void bench_vert0_u8(CaFn f)
{
    vq_adm_dwt_vert0_u8_fn fn = (vq_adm_dwt_vert0_u8_fn)f;
    uint8_t *r[4];
    for (unsigned k = 0; k < 4; k++) {
        r[k] = ca_buf_alloc(BENCH_N);
        ca_fill_u8(r[k], BENCH_N, CA_FILL_RANDOM);
    }
    int16_t *out[4];
    make_out16(BENCH_N, out);
    CA_BENCH(fn(r[0], r[1], r[2], r[3], BENCH_N, 8, 1, out[0], out[1]));
}

static void bench_vert0_u16(CaFn f)
{
    vq_adm_dwt_vert0_u16_fn fn = (vq_adm_dwt_vert0_u16_fn)f;
    uint16_t *r[4];
    for (unsigned k = 0; k < 4; k++) {
        r[k] = ca_buf_alloc(2 * BENCH_N);
        ca_fill_u16(r[k], BENCH_N, 10, CA_FILL_RANDOM);
    }
    int16_t *out[4];
    make_out16(BENCH_N, out);
    CA_BENCH(fn(r[0], r[1], r[2], r[3], BENCH_N, 10, 1, out[0], out[1]));
}

static void bench_vert(CaFn f)
{
    vq_adm_dwt_vert_fn fn = (vq_adm_dwt_vert_fn)f;
    const int32_t *r[4];
    for (unsigned k = 0; k < 4; k++)
        r[k] = make_values(BENCH_N / 2, 16, CA_FILL_RANDOM);
    int32_t *out[4];
    make_out(BENCH_N / 2, out);
    CA_BENCH(fn(r[0], r[1], r[2], r[3], BENCH_N / 2, 16, 1, out[0], out[1]));
}

static void bench_horiz0(CaFn f)
{
    vq_adm_dwt_horiz0_fn fn = (vq_adm_dwt_horiz0_fn)f;
    const int16_t *t = make_values16(BENCH_N + 4, CA_FILL_RANDOM) + 1;
    int32_t *out[4];
    make_out(BENCH_N / 2, out);
    CA_BENCH(fn(t, 0, BENCH_N / 2, out[0]));
}

static void bench_horiz(CaFn f)
{
    vq_adm_dwt_horiz_fn fn = (vq_adm_dwt_horiz_fn)f;
    const int32_t *t = make_values(BENCH_N / 2 + 4, 16, CA_FILL_RANDOM) + 1;
    int32_t *out[4];
    make_out(BENCH_N / 4, out);
    CA_BENCH(fn(t, 0, BENCH_N / 4, 15, out[0]));
}

static const CaFunc adm_funcs[] = {
    { "dwt_vert0_u8", offsetof(VqAdmDsp, dwt_vert0_u8), check_vert0_u8,
      bench_vert0_u8 },
    { "dwt_vert0_u16", offsetof(VqAdmDsp, dwt_vert0_u16), check_vert0_u16,
      bench_vert0_u16 },
    { "dwt_vert", offsetof(VqAdmDsp, dwt_vert), check_vert, bench_vert },
    { "dwt_horiz0_lo", offsetof(VqAdmDsp, dwt_horiz0_lo), check_horiz0,
      bench_horiz0 },
    { "dwt_horiz0_hi", offsetof(VqAdmDsp, dwt_horiz0_hi), check_horiz0,
      bench_horiz0 },
    { "dwt_horiz_lo", offsetof(VqAdmDsp, dwt_horiz_lo), check_horiz_s123,
      bench_horiz },
    { "dwt_horiz_hi", offsetof(VqAdmDsp, dwt_horiz_hi), check_horiz_s123,
      bench_horiz },
    { 0 }
};

CA_TABLE(adm, VqAdmDsp, vq_adm_dsp_init, adm_funcs);
