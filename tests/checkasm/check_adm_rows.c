/* checkasm entries of integer ADM's row functions (adm_dsp.h): the
 * denominator, decoupling, CSF and contrast masking. */
#include <math.h>
#include <string.h>

#include "../../kernels/adm/adm.h"
#include "checkasm.h"
#include "extractors/adm/adm_dsp.h"

/* Band values of a row: int16 ones (bits 16), any int32 (bits 32), or
 * int32 ones of the magnitudes of real bands, below 2^26 (bits 26). */
static int32_t *values(size_t n, unsigned bits, int mode)
{
    int32_t *v = ca_buf_alloc(4 * n + 64);
    const int32_t hi = bits == 16 ? 32767 : 2147483647, lo = -hi - 1;
    for (size_t i = 0; i < n; i++) {
        switch (mode) {
        case CA_FILL_ZERO: v[i] = 0; break;
        case CA_FILL_MAX: v[i] = hi; break;
        case CA_FILL_EXTREMES: v[i] = ca_rand() & 1 ? hi : lo; break;
        default:
            v[i] = (int32_t)ca_rand();
            if (bits == 16)
                v[i] = (int16_t)v[i] >> (ca_rand() % 8);
            else if (bits == 26)
                v[i] >>= 6 + ca_rand() % 20;
            else if (ca_rand() & 1)
                v[i] >>= 8 + ca_rand() % 16;
        }
        if (mode == CA_FILL_RANDOM && ca_rand() % 8 == 0)
            v[i] = 0; /* o = 0 has its own branch */
    }
    return v;
}

/* k rows of n values with room for 8 more, the same random contents in
 * a and b. */
static void out_rows(size_t n, unsigned k, int32_t **a, int32_t **b)
{
    for (unsigned i = 0; i < k; i++) {
        a[i] = ca_buf_alloc(4 * (n + 8));
        b[i] = ca_buf_alloc(4 * (n + 8));
        ca_fill_bytes(a[i], 4 * (n + 8));
        memcpy(b[i], a[i], 4 * (n + 8));
    }
}

static int32_t recip_tab[65537];

static const VqAdmDecouple *decouple_params(double egl)
{
    static VqAdmDecouple p;
    for (int32_t d = 0; d <= 32768; d++) {
        recip_tab[32768 + d] = vq_adm_recip(d);
        recip_tab[32768 - d] = -vq_adm_recip(d);
    }
    p.recip = recip_tab + 32768;
    p.egl = egl;
    p.egl_int = egl == (int32_t)egl ? (int32_t)egl : 0;
    const double deg = 3.14159265358979323846 / 180.0;
    p.cos1_sq = (float)(cos(deg) * cos(deg));
    return &p;
}

/* t near o for some columns (the angle test's interesting side) */
static void near_copy(const int32_t *o, int32_t *t, size_t n, unsigned bits)
{
    for (size_t i = 0; i < n; i++)
        if (ca_rand() % 3 == 0) {
            int64_t v = (int64_t)o[i] * (int64_t)(ca_rand() % 2400) / 2000;
            if (bits == 16)
                v = v > 32767 ? 32767 : v < -32768 ? -32768 : v;
            t[i] = (int32_t)v;
        }
}

static void check_decouple(CaFn ref_fn, CaFn new_fn, bool scale0)
{
    vq_adm_decouple_fn ref = (vq_adm_decouple_fn)ref_fn;
    vq_adm_decouple_fn fn = (vq_adm_decouple_fn)new_fn;
    static const double egls[] = { 100.0, 1.0, 1.37, 1e7 };
    const unsigned bit_sets[] = { scale0 ? 16u : 26u, scale0 ? 16u : 32u };
    for (unsigned e = 0; e < 4; e++)
        for (unsigned bs = 0; bs < 2; bs++)
            for (int mode = 0; mode < CA_FILL_MODES; mode++)
                for (unsigned i = 0; i < ca_n_widths; i++) {
                    int c0 = (int)(ca_rand() % 3), c1 = c0 + (int)ca_widths[i];
                    unsigned bits = bit_sets[bs];
                    const int32_t *o[3], *t[3];
                    for (int b = 0; b < 3; b++) {
                        int32_t *ob = values((size_t)c1, bits, mode);
                        int32_t *tb = values((size_t)c1, bits, mode);
                        near_copy(ob, tb, (size_t)c1, bits);
                        o[b] = ob;
                        t[b] = tb;
                    }
                    int32_t *xa[2][3], *xr[2][3];
                    out_rows((size_t)c1, 3, xr[0], xr[1]);
                    out_rows((size_t)c1, 3, xa[0], xa[1]);
                    const VqAdmDecouple *p = decouple_params(egls[e]);
                    ca_context("egl %g, %u-bit %s values, columns %d..%d",
                               egls[e], bits, ca_fill_names[mode], c0, c1);
                    ref(o, t, c0, c1, p, xr[0], xa[0]);
                    fn(o, t, c0, c1, p, xr[1], xa[1]);
                    for (int b = 0; b < 3; b++) {
                        ca_check_i32("restored", xr[0][b], xr[1][b],
                                     (size_t)c1 + 8);
                        ca_check_i32("additive", xa[0][b], xa[1][b],
                                     (size_t)c1 + 8);
                    }
                    ca_buf_free_all();
                }
}

static void check_decouple0(CaFn ref, CaFn fn)
{
    check_decouple(ref, fn, true);
}

static void check_decouple123(CaFn ref, CaFn fn)
{
    check_decouple(ref, fn, false);
}

/* CSF weights: realistic ones and random ones of the scale's range. */
static uint32_t pick_rf(bool scale0)
{
    if (ca_rand() % 2)
        return scale0 ? ca_rand() & 0xffff : ca_rand();
    return scale0 ? 15000 + ca_rand() % 30000 : 100000000 + ca_rand() % 500000000;
}

static void check_csf(CaFn ref_fn, CaFn new_fn, bool scale0)
{
    vq_adm_csf_fn ref = (vq_adm_csf_fn)ref_fn;
    vq_adm_csf_fn fn = (vq_adm_csf_fn)new_fn;
    for (unsigned round = 0; round < 2; round++)
        for (int mode = 0; mode < CA_FILL_MODES; mode++)
            for (unsigned i = 0; i < ca_n_widths; i++) {
                int c0 = (int)(ca_rand() % 3), c1 = c0 + (int)ca_widths[i];
                unsigned bits = scale0 ? 16 : round ? 32 : 26;
                const int32_t *xa[3], *xr[3];
                uint32_t rf[3];
                for (int b = 0; b < 3; b++) {
                    xa[b] = values((size_t)c1, bits, mode);
                    xr[b] = values((size_t)c1, bits, mode);
                    rf[b] = pick_rf(scale0);
                }
                int32_t *out[2][4];
                out_rows((size_t)c1, 4, out[0], out[1]);
                ca_context("%u-bit %s values, columns %d..%d", bits,
                           ca_fill_names[mode], c0, c1);
                ref(xa, xr, rf, c0, c1, out[0][0], out[0][1], out[0][2],
                    out[0][3]);
                fn(xa, xr, rf, c0, c1, out[1][0], out[1][1], out[1][2],
                   out[1][3]);
                static const char *const names[] = { "f_n", "f_m", "ctr_n",
                                                      "ctr_m" };
                for (int k = 0; k < 4; k++)
                    ca_check_i32(names[k], out[0][k], out[1][k], (size_t)c1 + 8);
                ca_buf_free_all();
            }
}

static void check_csf0(CaFn ref, CaFn fn)
{
    check_csf(ref, fn, true);
}

static void check_csf123(CaFn ref, CaFn fn)
{
    check_csf(ref, fn, false);
}

/* A cube shift and its rounding constant (adm_params.c's ranges, and a
 * random constant). */
static void pick_cub(int *shift, int64_t *add)
{
    *shift = (int)(ca_rand() % 40);
    *add = ca_rand() % 4 ? (*shift ? (int64_t)1 << (*shift - 1) : 0)
                         : (int64_t)ca_rand64();
}

static void check_cm(CaFn ref_fn, CaFn new_fn, bool scale0)
{
    for (unsigned round = 0; round < 4; round++)
        for (int mode = 0; mode < CA_FILL_MODES; mode++)
            for (unsigned i = 0; i < ca_n_widths; i++) {
                int j0 = (int)(ca_rand() % 3), j1 = j0 + (int)ca_widths[i];
                const int32_t *x = values((size_t)j1, scale0 ? 16 : 32, mode);
                /* thresholds: sums of |csf| / 30 (small, >= 0) or any */
                int32_t *thr = values((size_t)j1, 32, mode);
                if (round < 2)
                    for (int j = 0; j < j1; j++)
                        thr[j] = (int32_t)(ca_rand() % (scale0 ? 20000 : 1u << 24));
                uint32_t rf = pick_rf(scale0);
                int shift, band = (int)(ca_rand() % 3);
                int64_t add;
                pick_cub(&shift, &add);
                uint64_t a, b;
                ca_context("%s values, columns %d..%d, band %d, shift %d",
                           ca_fill_names[mode], j0, j1, band, shift);
                if (scale0) {
                    a = ((vq_adm_cm0_fn)ref_fn)(x, thr, rf, band, shift, add, j0, j1);
                    b = ((vq_adm_cm0_fn)new_fn)(x, thr, rf, band, shift, add, j0, j1);
                } else {
                    a = ((vq_adm_cm123_fn)ref_fn)(x, thr, rf, shift, add, j0, j1);
                    b = ((vq_adm_cm123_fn)new_fn)(x, thr, rf, shift, add, j0, j1);
                }
                ca_check_u64("sum", &a, &b, 1);
                ca_buf_free_all();
            }
}

static void check_cm0(CaFn ref, CaFn fn)
{
    check_cm(ref, fn, true);
}

static void check_cm123(CaFn ref, CaFn fn)
{
    check_cm(ref, fn, false);
}

static void check_den(CaFn ref_fn, CaFn new_fn, bool scale0)
{
    for (unsigned round = 0; round < 4; round++)
        for (int mode = 0; mode < CA_FILL_MODES; mode++)
            for (unsigned i = 0; i < ca_n_widths; i++) {
                int j0 = (int)(ca_rand() % 3), j1 = j0 + (int)ca_widths[i];
                const int32_t *o = values((size_t)j1, round & 1 ? 32 : 16, mode);
                int sq_shift = (int)(ca_rand() % 40), cub_shift = (int)(ca_rand() % 40);
                uint64_t sq_add = sq_shift ? (uint64_t)1 << (sq_shift - 1) : 0;
                uint64_t cub_add = cub_shift ? (uint64_t)1 << (cub_shift - 1) : 0;
                if (round >= 2) {
                    sq_add = ca_rand64();
                    cub_add = ca_rand64();
                }
                uint64_t a, b;
                ca_context("%s values, columns %d..%d, shifts %d %d",
                           ca_fill_names[mode], j0, j1, sq_shift, cub_shift);
                if (scale0) {
                    a = ((vq_adm_den0_fn)ref_fn)(o, j0, j1);
                    b = ((vq_adm_den0_fn)new_fn)(o, j0, j1);
                } else {
                    a = ((vq_adm_den123_fn)ref_fn)(o, j0, j1, sq_shift, sq_add,
                                                   cub_shift, cub_add);
                    b = ((vq_adm_den123_fn)new_fn)(o, j0, j1, sq_shift, sq_add,
                                                   cub_shift, cub_add);
                }
                ca_check_u64("sum", &a, &b, 1);
                ca_buf_free_all();
            }
}

static void check_den0(CaFn ref, CaFn fn)
{
    check_den(ref, fn, true);
}

static void check_den123(CaFn ref, CaFn fn)
{
    check_den(ref, fn, false);
}

/* ---- bench: a 1080p scale-0 band row (960 columns) ---------------------- */

enum { BENCH_N = 960 };

static void bench_decouple(CaFn f, unsigned bits)
{
    vq_adm_decouple_fn fn = (vq_adm_decouple_fn)f;
    const int32_t *o[3], *t[3];
    for (int b = 0; b < 3; b++) {
        int32_t *ob = values(BENCH_N, bits, CA_FILL_RANDOM);
        int32_t *tb = values(BENCH_N, bits, CA_FILL_RANDOM);
        near_copy(ob, tb, BENCH_N, bits);
        o[b] = ob;
        t[b] = tb;
    }
    int32_t *xa[2][3], *xr[2][3];
    out_rows(BENCH_N, 3, xr[0], xr[1]);
    out_rows(BENCH_N, 3, xa[0], xa[1]);
    const VqAdmDecouple *p = decouple_params(100.0);
    CA_BENCH(fn(o, t, 0, BENCH_N, p, xr[0], xa[0]));
}

static void bench_decouple0(CaFn f)
{
    bench_decouple(f, 16);
}

static void bench_decouple123(CaFn f)
{
    bench_decouple(f, 26);
}

static void bench_csf(CaFn f, unsigned bits)
{
    vq_adm_csf_fn fn = (vq_adm_csf_fn)f;
    const int32_t *xa[3], *xr[3];
    uint32_t rf[3] = { 30000, 30000, 20000 };
    for (int b = 0; b < 3; b++) {
        xa[b] = values(BENCH_N, bits, CA_FILL_RANDOM);
        xr[b] = values(BENCH_N, bits, CA_FILL_RANDOM);
    }
    int32_t *out[2][4];
    out_rows(BENCH_N, 4, out[0], out[1]);
    CA_BENCH(fn(xa, xr, rf, 0, BENCH_N, out[0][0], out[0][1], out[0][2],
                out[0][3]));
}

static void bench_csf0(CaFn f)
{
    bench_csf(f, 16);
}

static void bench_csf123(CaFn f)
{
    bench_csf(f, 26);
}

static void bench_cm0(CaFn f)
{
    const int32_t *x = values(BENCH_N, 16, CA_FILL_RANDOM);
    const int32_t *thr = values(BENCH_N, 16, CA_FILL_RANDOM);
    CA_BENCH(((vq_adm_cm0_fn)f)(x, thr, 30000, 0, 14, 8192, 0, BENCH_N));
}

static void bench_cm123(CaFn f)
{
    const int32_t *x = values(BENCH_N, 26, CA_FILL_RANDOM);
    const int32_t *thr = values(BENCH_N, 16, CA_FILL_RANDOM);
    CA_BENCH(((vq_adm_cm123_fn)f)(x, thr, 300000000, 14, 8192, 0, BENCH_N));
}

static void bench_den0(CaFn f)
{
    const int32_t *o = values(BENCH_N, 16, CA_FILL_RANDOM);
    CA_BENCH(((vq_adm_den0_fn)f)(o, 0, BENCH_N));
}

static void bench_den123(CaFn f)
{
    const int32_t *o = values(BENCH_N, 26, CA_FILL_RANDOM);
    CA_BENCH(((vq_adm_den123_fn)f)(o, 0, BENCH_N, 10, 512, 12, 2048));
}

static const CaFunc adm_row_funcs[] = {
    { "den0", offsetof(VqAdmDsp, den0), check_den0, bench_den0 },
    { "den123", offsetof(VqAdmDsp, den123), check_den123, bench_den123 },
    { "decouple0", offsetof(VqAdmDsp, decouple0), check_decouple0,
      bench_decouple0 },
    { "decouple123", offsetof(VqAdmDsp, decouple123), check_decouple123,
      bench_decouple123 },
    { "csf0", offsetof(VqAdmDsp, csf0), check_csf0, bench_csf0 },
    { "csf123", offsetof(VqAdmDsp, csf123), check_csf123, bench_csf123 },
    { "cm0", offsetof(VqAdmDsp, cm0), check_cm0, bench_cm0 },
    { "cm123", offsetof(VqAdmDsp, cm123), check_cm123, bench_cm123 },
    { 0 }
};

CA_TABLE(adm_rows, VqAdmDsp, vq_adm_dsp_init, adm_row_funcs);
