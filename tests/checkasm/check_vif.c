/* checkasm entries of integer VIF's DSP table (vif_dsp.h). */
#include <math.h>
#include <string.h>

#include "checkasm.h"
#include "extractors/vif/vif_dsp.h"

static const unsigned depths[] = { 8, 9, 10, 12, 14, 16 };
#define N_DEPTHS (sizeof(depths) / sizeof(depths[0]))

/* n random rows of w samples, each in its own buffer: 8-bit when u8. */
static void make_rows(const void **rows, unsigned n, unsigned w, bool u8,
                      unsigned bpc, int mode)
{
    for (unsigned k = 0; k < n; k++) {
        if (u8) {
            uint8_t *r = ca_buf_alloc(w);
            ca_fill_u8(r, w, mode);
            rows[k] = r;
        } else {
            uint16_t *r = ca_buf_alloc(2 * (size_t)w);
            ca_fill_u16(r, w, bpc, mode);
            rows[k] = r;
        }
    }
}

/* Two work areas for rows of w samples, with the same random contents (the
 * filters read stale values at the border of rows narrower than a filter,
 * as libvmaf does). */
static void make_work(unsigned w, VqVifWork *a, VqVifWork *b)
{
    VqVifDims d;
    vq_vif_dims(&d, w, 1);
    size_t size = vq_vif_cpu_scratch_size(&d);
    void *sa = ca_buf_alloc(size), *sb = ca_buf_alloc(size);
    ca_fill_bytes(sa, size);
    memcpy(sb, sa, size);
    vq_vif_work_layout(&d, sa, a);
    vq_vif_work_layout(&d, sb, b);
}

static void check_stat_row(CaFn ref_fn, CaFn new_fn)
{
    vq_vif_stat_row_fn ref = (vq_vif_stat_row_fn)ref_fn;
    vq_vif_stat_row_fn fn = (vq_vif_stat_row_fn)new_fn;
    for (unsigned s = 0; s < VQ_VIF_SCALES; s++)
        for (unsigned b = 0; b < N_DEPTHS; b++)
            for (int mode = 0; mode < CA_FILL_MODES; mode++)
                for (unsigned i = 0; i < ca_n_widths; i++) {
                    unsigned w = ca_widths[i], bpc = depths[b];
                    unsigned n = 2 * VQ_VIF_HALF(s) + 1;
                    bool u8 = s == 0 && bpc == 8;
                    const void *rr[VQ_VIF_MAX_TAPS], *rd[VQ_VIF_MAX_TAPS];
                    make_rows(rr, n, w, u8, bpc, mode);
                    make_rows(rd, n, w, u8, bpc, mode);
                    VqVifWork ta, tb;
                    make_work(w, &ta, &tb);
                    VqVifVRound rnd = vq_vif_vround(s, bpc);
                    ca_context("scale %u, %u-bit %s samples, w %u", s, bpc,
                               ca_fill_names[mode], w);
                    ref(s, u8, rr, rd, w, rnd, &ta);
                    fn(s, u8, rr, rd, w, rnd, &tb);
                    ca_check_i32("sigma1_sq", ta.s1, tb.s1, w);
                    ca_check_i32("sigma2_sq", ta.s2, tb.s2, w);
                    ca_check_i32("sigma12", ta.s12, tb.s12, w);
                    ca_buf_free_all();
                }
}

static void check_down_row(CaFn ref_fn, CaFn new_fn)
{
    vq_vif_down_row_fn ref = (vq_vif_down_row_fn)ref_fn;
    vq_vif_down_row_fn fn = (vq_vif_down_row_fn)new_fn;
    for (unsigned s = 0; s + 1 < VQ_VIF_SCALES; s++)
        for (unsigned b = 0; b < N_DEPTHS; b++)
            for (int mode = 0; mode < CA_FILL_MODES; mode++)
                for (unsigned i = 0; i < ca_n_widths; i++) {
                    unsigned w = ca_widths[i], bpc = depths[b];
                    unsigned n = 2 * VQ_VIF_HALF(s + 1) + 1;
                    bool u8 = s == 0 && bpc == 8;
                    const void *rr[VQ_VIF_MAX_TAPS], *rd[VQ_VIF_MAX_TAPS];
                    make_rows(rr, n, w, u8, bpc, mode);
                    make_rows(rd, n, w, u8, bpc, mode);
                    VqVifWork ta, tb;
                    make_work(w, &ta, &tb);
                    /* outputs with room for 8 more values, compared whole */
                    size_t n_out = w / 2 + 8;
                    uint16_t *out[4];
                    for (unsigned k = 0; k < 4; k++)
                        out[k] = ca_buf_alloc(2 * n_out);
                    ca_fill_bytes(out[0], 2 * n_out);
                    for (unsigned k = 1; k < 4; k++)
                        memcpy(out[k], out[0], 2 * n_out);
                    VqVifVRound rnd = vq_vif_vround(s, bpc);
                    ca_context("scale %u to %u, %u-bit %s samples, w %u", s,
                               s + 1, bpc, ca_fill_names[mode], w);
                    ref(s, u8, rr, rd, w, rnd, &ta, out[0], out[1]);
                    fn(s, u8, rr, rd, w, rnd, &tb, out[2], out[3]);
                    ca_check_u16("reference row", out[0], out[2], n_out);
                    ca_check_u16("distorted row", out[1], out[3], n_out);
                    ca_buf_free_all();
                }
}

/* ---- a ladder's split (stat_ref_row, stat_dis_row, down_one_row) ------- */

/* Scale s's rows at bit depth bpc, w wide, two work areas alike. */
typedef struct SplitIn {
    unsigned s, bpc, w;
    bool u8;
    const void *rr[VQ_VIF_MAX_TAPS], *rd[VQ_VIF_MAX_TAPS];
    VqVifWork ta, tb;
    VqVifVRound rnd;
} SplitIn;

static void split_in(SplitIn *in, unsigned s, unsigned taps_of, unsigned b,
                     int mode, unsigned i)
{
    in->s = s;
    in->bpc = depths[b];
    in->w = ca_widths[i];
    in->u8 = s == 0 && in->bpc == 8;
    unsigned n = 2 * VQ_VIF_HALF(taps_of) + 1;
    make_rows(in->rr, n, in->w, in->u8, in->bpc, mode);
    make_rows(in->rd, n, in->w, in->u8, in->bpc, mode);
    make_work(in->w, &in->ta, &in->tb);
    in->rnd = vq_vif_vround(s, in->bpc);
    ca_context("scale %u, %u-bit %s samples, w %u", s, in->bpc,
               ca_fill_names[mode], in->w);
}

/* Two output buffers of `bytes` bytes filled alike: the first, *b. */
static void *twin_out(size_t bytes, void **b)
{
    void *a = ca_buf_alloc(bytes);
    *b = ca_buf_alloc(bytes);
    ca_fill_bytes(a, bytes);
    memcpy(*b, a, bytes);
    return a;
}

static void check_stat_ref_row(CaFn ref_fn, CaFn new_fn)
{
    vq_vif_stat_ref_row_fn ref = (vq_vif_stat_ref_row_fn)ref_fn;
    vq_vif_stat_ref_row_fn fn = (vq_vif_stat_ref_row_fn)new_fn;
    for (unsigned s = 0; s < VQ_VIF_SCALES; s++)
        for (unsigned b = 0; b < N_DEPTHS; b++)
            for (int mode = 0; mode < CA_FILL_MODES; mode++)
                for (unsigned i = 0; i < ca_n_widths; i++) {
                    SplitIn in;
                    split_in(&in, s, s, b, mode, i);
                    size_t bytes = 4 * ((size_t)in.w + 8);
                    void *m1b, *s1b;
                    void *m1a = twin_out(bytes, &m1b);
                    void *s1a = twin_out(bytes, &s1b);
                    ref(s, in.u8, in.rr, in.w, in.rnd, &in.ta, m1a, s1a);
                    fn(s, in.u8, in.rr, in.w, in.rnd, &in.tb, m1b, s1b);
                    ca_check_u32("mu1", m1a, m1b, in.w + 8);
                    ca_check_i32("sigma1_sq", s1a, s1b, in.w + 8);
                    ca_buf_free_all();
                }
}

static void check_stat_dis_row(CaFn ref_fn, CaFn new_fn)
{
    vq_vif_stat_dis_row_fn ref = (vq_vif_stat_dis_row_fn)ref_fn;
    vq_vif_stat_dis_row_fn fn = (vq_vif_stat_dis_row_fn)new_fn;
    for (unsigned s = 0; s < VQ_VIF_SCALES; s++)
        for (unsigned b = 0; b < N_DEPTHS; b++)
            for (int mode = 0; mode < CA_FILL_MODES; mode++)
                for (unsigned i = 0; i < ca_n_widths; i++) {
                    SplitIn in;
                    split_in(&in, s, s, b, mode, i);
                    /* any mu1: the function takes it as given */
                    uint32_t *m1 = ca_buf_alloc(4 * (size_t)in.w);
                    for (unsigned j = 0; j < in.w; j++)
                        m1[j] = ca_rand();
                    ref(s, in.u8, in.rr, in.rd, in.w, in.rnd, &in.ta, m1);
                    fn(s, in.u8, in.rr, in.rd, in.w, in.rnd, &in.tb, m1);
                    ca_check_i32("sigma2_sq", in.ta.s2, in.tb.s2, in.w);
                    ca_check_i32("sigma12", in.ta.s12, in.tb.s12, in.w);
                    ca_buf_free_all();
                }
}

static void check_down_one_row(CaFn ref_fn, CaFn new_fn)
{
    vq_vif_down_one_row_fn ref = (vq_vif_down_one_row_fn)ref_fn;
    vq_vif_down_one_row_fn fn = (vq_vif_down_one_row_fn)new_fn;
    for (unsigned s = 0; s + 1 < VQ_VIF_SCALES; s++)
        for (unsigned b = 0; b < N_DEPTHS; b++)
            for (int mode = 0; mode < CA_FILL_MODES; mode++)
                for (unsigned i = 0; i < ca_n_widths; i++) {
                    SplitIn in;
                    split_in(&in, s, s + 1, b, mode, i);
                    size_t n_out = in.w / 2 + 8;
                    void *ob;
                    void *oa = twin_out(2 * n_out, &ob);
                    ref(s, in.u8, in.rr, in.w, in.rnd, &in.ta, oa);
                    fn(s, in.u8, in.rr, in.w, in.rnd, &in.tb, ob);
                    ca_check_u16("row", oa, ob, n_out);
                    ca_buf_free_all();
                }
}

/* ---- log_terms --------------------------------------------------------- */

static uint16_t log2_tab[VQ_VIF_LOG2_SIZE];

static void make_log2_tab(void)
{
    for (unsigned i = 0; i < VQ_VIF_LOG2_SIZE; i++)
        log2_tab[i] = (uint16_t)round(
            (float)log2((double)(i + VQ_VIF_LOG2_BASE)) * 2048.0f);
}

/* A sigma: an edge case, a random 32-bit value or a smaller one; >= lo. */
static int32_t pick_sigma(int32_t lo)
{
    static const int32_t edges[] = { 0, 1, -1, 2, 131071, 131072, 131073,
                                     65536, 2147483647, -2147483647 - 1,
                                     2147352576, 1 << 30 };
    uint32_t kind = ca_rand() % 4;
    int32_t v;
    if (kind == 0)
        v = edges[ca_rand() % (sizeof(edges) / sizeof(edges[0]))];
    else
        v = (int32_t)ca_rand();
    if (kind == 1)
        v >>= ca_rand() % 31;
    return v < lo ? lo : v;
}

/* m log-domain pixels (sigma1_sq >= VQ_VIF_SIGMA_NSQ), a third of them
 * realistic (|sigma12| near sqrt(sigma1_sq sigma2_sq)). */
static void make_sigmas(unsigned m, int32_t *s1, int32_t *s2, int32_t *s12)
{
    for (unsigned q = 0; q < m; q++) {
        s1[q] = pick_sigma(VQ_VIF_SIGMA_NSQ);
        s2[q] = pick_sigma(-2147483647 - 1);
        if (ca_rand() % 3 == 0) {
            double c = sqrt((double)s1[q] * (s2[q] > 0 ? s2[q] : 1));
            double f = (double)(ca_rand() % 2200) / 2000.0;
            s12[q] = (int32_t)fmin(c * f, 2147483647.0);
        } else {
            s12[q] = pick_sigma(-2147483647 - 1);
        }
    }
}

/* ---- plain_terms ------------------------------------------------------- */

static void check_plain_terms(CaFn ref_fn, CaFn new_fn)
{
    vq_vif_plain_terms_fn ref = (vq_vif_plain_terms_fn)ref_fn;
    vq_vif_plain_terms_fn fn = (vq_vif_plain_terms_fn)new_fn;
    for (unsigned round = 0; round < 8; round++)
        for (unsigned i = 0; i <= ca_n_widths; i++) {
            unsigned n = i ? ca_widths[i - 1] : 0;
            size_t room = 4 * ((size_t)n + VQ_VIF_GATHER_SLACK);
            int32_t *s[3], *g[2][3];
            for (unsigned k = 0; k < 3; k++)
                s[k] = ca_buf_alloc(4 * (size_t)n);
            /* sigma1_sq: log domain or not at random (round 0: all
             * plain, round 1: all log), the others anything */
            for (unsigned j = 0; j < n; j++) {
                int lg = round == 0 ? 0 : round == 1 ? 1 : (int)(ca_rand() & 1);
                s[0][j] = lg ? pick_sigma(VQ_VIF_SIGMA_NSQ)
                             : pick_sigma(-2147483647 - 1) %
                                   VQ_VIF_SIGMA_NSQ;
                s[1][j] = pick_sigma(-2147483647 - 1);
                s[2][j] = pick_sigma(-2147483647 - 1);
            }
            for (unsigned v = 0; v < 2; v++)
                for (unsigned k = 0; k < 3; k++)
                    g[v][k] = ca_buf_alloc(room);
            VqVifScaleAcc a, b;
            ca_fill_bytes(&a, sizeof(a)); /* the terms are added */
            b = a;
            ca_context("%u pixels, round %u", n, round);
            unsigned ma = ref(s[0], s[1], s[2], n, g[0][0], g[0][1], g[0][2],
                              &a);
            unsigned mb = fn(s[0], s[1], s[2], n, g[1][0], g[1][1], g[1][2],
                             &b);
            ca_check_u32("count", &ma, &mb, 1);
            ca_check_i64("accumulators", &a, &b, 4);
            if (ma == mb)
                for (unsigned k = 0; k < 3; k++)
                    ca_check_i32("gathered sigmas", g[0][k], g[1][k], ma);
            ca_buf_free_all();
        }
}

static void check_log_terms(CaFn ref_fn, CaFn new_fn)
{
    vq_vif_log_terms_fn ref = (vq_vif_log_terms_fn)ref_fn;
    vq_vif_log_terms_fn fn = (vq_vif_log_terms_fn)new_fn;
    static const double limits[] = { 100.0, 1.0, 1.37 };
    make_log2_tab();
    for (unsigned round = 0; round < 8; round++)
        for (unsigned l = 0; l < 3; l++)
            for (unsigned i = 0; i <= ca_n_widths; i++) {
                unsigned m = i ? ca_widths[i - 1] : 0;
                int32_t *s1 = ca_buf_alloc(4 * (size_t)m);
                int32_t *s2 = ca_buf_alloc(4 * (size_t)m);
                int32_t *s12 = ca_buf_alloc(4 * (size_t)m);
                int32_t *idx = ca_buf_alloc(12 * (size_t)m);
                make_sigmas(m, s1, s2, s12);
                VqVifParams p = { .bpc = 8, .gain_limit = limits[l],
                                  .log2_tab = log2_tab };
                VqVifScaleAcc a, b;
                ca_fill_bytes(&a, sizeof(a)); /* the terms are added */
                b = a;
                ca_context("egl %g, %u pixels", limits[l], m);
                ref(&p, m, s1, s2, s12, idx, &a);
                fn(&p, m, s1, s2, s12, idx, &b);
                ca_check_i64("accumulators", &a, &b, 4);
                ca_buf_free_all();
            }
}

/* ---- bench: a 1080p row ------------------------------------------------ */

enum { BENCH_W = 1920 };

static void bench_stat_row(CaFn f)
{
    vq_vif_stat_row_fn fn = (vq_vif_stat_row_fn)f;
    const void *rr[17], *rd[17];
    make_rows(rr, 17, BENCH_W, true, 8, CA_FILL_RANDOM);
    make_rows(rd, 17, BENCH_W, true, 8, CA_FILL_RANDOM);
    VqVifWork ta, tb;
    make_work(BENCH_W, &ta, &tb);
    VqVifVRound rnd = vq_vif_vround(0, 8);
    CA_BENCH(fn(0, true, rr, rd, BENCH_W, rnd, &ta));
}

static void bench_down_row(CaFn f)
{
    vq_vif_down_row_fn fn = (vq_vif_down_row_fn)f;
    const void *rr[9], *rd[9];
    make_rows(rr, 9, BENCH_W, true, 8, CA_FILL_RANDOM);
    make_rows(rd, 9, BENCH_W, true, 8, CA_FILL_RANDOM);
    VqVifWork ta, tb;
    make_work(BENCH_W, &ta, &tb);
    uint16_t *o1 = ca_buf_alloc(BENCH_W), *o2 = ca_buf_alloc(BENCH_W);
    VqVifVRound rnd = vq_vif_vround(0, 8);
    CA_BENCH(fn(0, true, rr, rd, BENCH_W, rnd, &ta, o1, o2));
}

static void bench_plain_terms(CaFn f)
{
    vq_vif_plain_terms_fn fn = (vq_vif_plain_terms_fn)f;
    size_t room = 4 * (BENCH_W + VQ_VIF_GATHER_SLACK);
    int32_t *s1 = ca_buf_alloc(4 * BENCH_W), *s2 = ca_buf_alloc(4 * BENCH_W);
    int32_t *s12 = ca_buf_alloc(4 * BENCH_W);
    int32_t *g1 = ca_buf_alloc(room), *g2 = ca_buf_alloc(room);
    int32_t *g12 = ca_buf_alloc(room);
    make_sigmas(BENCH_W, s1, s2, s12);
    for (unsigned j = 0; j < BENCH_W; j += 2)
        s1[j] %= VQ_VIF_SIGMA_NSQ;
    VqVifScaleAcc acc = { 0, 0, 0, 0 };
    CA_BENCH(fn(s1, s2, s12, BENCH_W, g1, g2, g12, &acc));
}

static void bench_log_terms(CaFn f)
{
    vq_vif_log_terms_fn fn = (vq_vif_log_terms_fn)f;
    make_log2_tab();
    int32_t *s1 = ca_buf_alloc(4 * BENCH_W), *s2 = ca_buf_alloc(4 * BENCH_W);
    int32_t *s12 = ca_buf_alloc(4 * BENCH_W);
    int32_t *idx = ca_buf_alloc(12 * BENCH_W);
    make_sigmas(BENCH_W, s1, s2, s12);
    VqVifParams p = { .bpc = 8, .gain_limit = 100.0, .log2_tab = log2_tab };
    VqVifScaleAcc acc = { 0, 0, 0, 0 };
    CA_BENCH(fn(&p, BENCH_W, s1, s2, s12, idx, &acc));
}

static const CaFunc vif_funcs[] = {
    { "stat_row", offsetof(VqVifDsp, stat_row), check_stat_row,
      bench_stat_row },
    { "down_row", offsetof(VqVifDsp, down_row), check_down_row,
      bench_down_row },
    { "plain_terms", offsetof(VqVifDsp, plain_terms), check_plain_terms,
      bench_plain_terms },
    { "log_terms", offsetof(VqVifDsp, log_terms), check_log_terms,
      bench_log_terms },
    { "stat_ref_row", offsetof(VqVifDsp, stat_ref_row), check_stat_ref_row,
      NULL },
    { "stat_dis_row", offsetof(VqVifDsp, stat_dis_row), check_stat_dis_row,
      NULL },
    { "down_one_row", offsetof(VqVifDsp, down_one_row), check_down_one_row,
      NULL },
    { 0 }
};

CA_TABLE(vif, VqVifDsp, vq_vif_dsp_init, vif_funcs);
