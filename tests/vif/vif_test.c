/*
 * Integer VIF, CPU internals:
 *  - the optimized CPU frame (vif_cpu.c, vif_filter.c, vif_terms.c) against
 *    a plain model written here from libvmaf's integer_vif.c semantics
 *    (64-bit sums, separable filter, mirrored borders, vq_vif_pixel), on
 *    random and extreme frames of several sizes and every bit depth;
 *  - the SIMD variants' log-domain terms against vq_vif_log_terms, on
 *    random, realistic and extreme sigmas;
 *  - a ladder's split row functions (stat_ref_row + stat_dis_row,
 *    down_one_row) against stat_row and down_row;
 * each with the DSP table of every instruction set this CPU has (C first).
 *  - vq_vif_filt_halves against vq_vif_filt.
 * The model is the same algorithm the first CPU path had when it matched
 * libvmaf on all golden clips; it is kept simple so that it is obviously
 * that algorithm.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu.h"
#include "extractors/vif/vif_dsp.h"

#include "../common/unit_check.h"

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint32_t rnd32(void)
{
    return (uint32_t)(vq_test_xorshift(&rng) >> 11);
}

static uint16_t log2_tab[VQ_VIF_LOG2_SIZE];

static void make_table(void)
{
    /* libvmaf's log_generate(): round(log2f(i) * 2048) */
    for (unsigned i = 0; i < VQ_VIF_LOG2_SIZE; i++)
        log2_tab[i] = (uint16_t)round(log2f((float)(i + VQ_VIF_LOG2_BASE)) *
                                      2048);
}

/* ---- the plain model ---- */

static const uint16_t model_taps[4][17] = {
    { VQ_VIF_TAPS_0 }, { VQ_VIF_TAPS_1 }, { VQ_VIF_TAPS_2 }, { VQ_VIF_TAPS_3 }
};

/* One scale: statistic sums, and the next scale's image (w/2 x h/2). */
static void model_scale(const uint32_t *ref, const uint32_t *dis, unsigned w,
                        unsigned h, unsigned s, unsigned bpc, double limit,
                        bool stat, VqVifScaleAcc *acc, uint32_t *next_r,
                        uint32_t *next_d)
{
    VqVifVRound rnd = vq_vif_vround(s, bpc);
    int half = VQ_VIF_HALF(s);
    const uint16_t *f = model_taps[s];
    uint64_t *v = malloc(sizeof(uint64_t) * 5 * w);
    for (unsigned i = 0; stat && i < h; i++) {
        for (unsigned j = 0; j < w; j++) {
            uint64_t a[5] = { 0 };
            for (int k = -half; k <= half; k++) {
                unsigned y = (unsigned)vq_vif_mirror((int)i + k, (int)h);
                uint64_t r = ref[y * w + j], d = dis[y * w + j];
                uint64_t c = f[k + half];
                a[0] += c * r;
                a[1] += c * d;
                a[2] += c * r * r;
                a[3] += c * d * d;
                a[4] += c * r * d;
            }
            v[j * 5 + 0] = (a[0] + rnd.mu_add) >> rnd.mu_shift;
            v[j * 5 + 1] = (a[1] + rnd.mu_add) >> rnd.mu_shift;
            for (int q = 2; q < 5; q++)
                v[j * 5 + q] = (uint32_t)((a[q] + rnd.sq_add) >> rnd.sq_shift);
        }
        for (unsigned j = 0; j < w; j++) {
            uint64_t a[5] = { 0 };
            for (int k = -half; k <= half; k++) {
                unsigned x = (unsigned)vq_vif_mirror((int)j + k, (int)w);
                for (int q = 0; q < 5; q++)
                    a[q] += f[k + half] * v[x * 5 + q];
            }
            uint32_t m1 = (uint32_t)a[0], m2 = (uint32_t)a[1];
            vq_vif_pixel(log2_tab, vq_vif_sigma(a[2], m1, m1),
                         vq_vif_sigma(a[3], m2, m2), vq_vif_sigma(a[4], m1, m2),
                         limit, acc);
        }
    }
    free(v);
    if (s == 3)
        return;
    const uint16_t *g = model_taps[s + 1];
    int hd = VQ_VIF_HALF(s + 1);
    uint64_t *t = malloc(sizeof(uint64_t) * 2 * w);
    for (unsigned i = 0; i < h / 2; i++) {
        for (unsigned j = 0; j < w; j++) {
            uint64_t ar = 0, ad = 0;
            for (int k = -hd; k <= hd; k++) {
                unsigned y = (unsigned)vq_vif_mirror(2 * (int)i + k, (int)h);
                ar += g[k + hd] * (uint64_t)ref[y * w + j];
                ad += g[k + hd] * (uint64_t)dis[y * w + j];
            }
            t[2 * j] = (ar + rnd.mu_add) >> rnd.mu_shift;
            t[2 * j + 1] = (ad + rnd.mu_add) >> rnd.mu_shift;
        }
        for (unsigned j = 0; j < w / 2; j++) {
            uint64_t ar = 0, ad = 0;
            for (int k = -hd; k <= hd; k++) {
                unsigned x = (unsigned)vq_vif_mirror(2 * (int)j + k, (int)w);
                ar += g[k + hd] * t[2 * x];
                ad += g[k + hd] * t[2 * x + 1];
            }
            next_r[i * (w / 2) + j] = (uint32_t)((ar + 32768) >> 16);
            next_d[i * (w / 2) + j] = (uint32_t)((ad + 32768) >> 16);
        }
    }
    free(t);
}

static void model_frame(const uint32_t *ref, const uint32_t *dis, unsigned w,
                        unsigned h, unsigned bpc, double limit, bool skip0,
                        VqVifAcc *acc)
{
    uint32_t *r = malloc(sizeof(uint32_t) * w * h);
    uint32_t *d = malloc(sizeof(uint32_t) * w * h);
    uint32_t *nr = malloc(sizeof(uint32_t) * w * h);
    uint32_t *nd = malloc(sizeof(uint32_t) * w * h);
    memcpy(r, ref, sizeof(uint32_t) * w * h);
    memcpy(d, dis, sizeof(uint32_t) * w * h);
    for (unsigned s = 0; s < 4; s++) {
        model_scale(r, d, w, h, s, bpc, limit, !(s == 0 && skip0),
                    &acc->scale[s], nr, nd);
        uint32_t *x = r;
        r = nr;
        nr = x;
        x = d;
        d = nd;
        nd = x;
        w /= 2;
        h /= 2;
    }
    free(r);
    free(d);
    free(nr);
    free(nd);
}

/* ---- tests ---- */

static VqVifDsp dsp; /* the table under test */

static void test_frame(unsigned w, unsigned h, unsigned bpc, int fill,
                       double limit, bool skip0)
{
    unsigned maxv = (1u << bpc) - 1, bps = bpc > 8 ? 2 : 1;
    size_t stride = (size_t)w * bps + 14;
    uint8_t *pr = malloc(stride * h), *pd = malloc(stride * h);
    uint32_t *mr = malloc(sizeof(uint32_t) * w * h);
    uint32_t *md = malloc(sizeof(uint32_t) * w * h);
    for (size_t i = 0; i < stride * h; i++) {
        pr[i] = (uint8_t)rnd32();
        pd[i] = (uint8_t)rnd32();
    }
    for (unsigned y = 0; y < h; y++)
        for (unsigned x = 0; x < w; x++) {
            unsigned r, d;
            if (fill == 0) { /* independent noise */
                r = rnd32() % (maxv + 1);
                d = rnd32() % (maxv + 1);
            } else if (fill == 1) { /* extremes */
                r = rnd32() & 1 ? maxv : 0;
                d = rnd32() & 1 ? maxv : rnd32() & 1;
            } else { /* smooth ramp plus small noise */
                r = (x * 5 + y * 3) % (maxv + 1);
                int dv = (int)r + (int)(rnd32() % 9) - 4;
                d = dv < 0 ? 0 : dv > (int)maxv ? maxv : (unsigned)dv;
            }
            mr[y * w + x] = r;
            md[y * w + x] = d;
            if (bps == 1) {
                pr[y * stride + x] = (uint8_t)r;
                pd[y * stride + x] = (uint8_t)d;
            } else {
                ((uint16_t *)(void *)(pr + y * stride))[x] = (uint16_t)r;
                ((uint16_t *)(void *)(pd + y * stride))[x] = (uint16_t)d;
            }
        }
    VqVifDims dims;
    vq_vif_dims(&dims, w, h);
    void *scratch = aligned_alloc(64, (vq_vif_cpu_scratch_size(&dims) + 63) &
                                          ~(size_t)63);
    VqVifParams p = { .bpc = bpc, .skip_scale0 = skip0, .gain_limit = limit,
                      .log2_tab = log2_tab };
    VqPlane a = { pr, (ptrdiff_t)stride, w, h }, b = { pd, (ptrdiff_t)stride, w, h };
    VqVifAcc got, want;
    memset(&got, 0, sizeof(got));
    memset(&want, 0, sizeof(want));
    vq_vif_cpu_frame(&dsp, &p, &dims, &a, &b, scratch, &got);
    model_frame(mr, md, w, h, bpc, limit, skip0, &want);
    for (unsigned s = 0; s < 4; s++) {
        const VqVifScaleAcc *g = &got.scale[s], *e = &want.scale[s];
        CHECK_MSG(!memcmp(g, e, sizeof(*g)),
              "%ux%u %u-bit fill %d egl %g skip %d scale %u: cpu "
              "%lld %lld %lld %lld, model %lld %lld %lld %lld",
              w, h, bpc, fill, limit, skip0, s, (long long)g->num_log,
              (long long)g->den_log, (long long)g->num_non_log,
              (long long)g->den_non_log, (long long)e->num_log,
              (long long)e->den_log, (long long)e->num_non_log,
              (long long)e->den_non_log);
    }
    free(scratch);
    free(pr);
    free(pd);
    free(mr);
    free(md);
}

static int32_t pick(uint32_t kind, int32_t lo)
{
    static const int32_t edges[] = { 0, 1, -1, 2, 131071, 131072, 131073,
                                     65536, 2147483647, -2147483647 - 1,
                                     2147352576, 1 << 30 };
    if (kind % 4 == 0)
        return edges[rnd32() % (sizeof(edges) / sizeof(edges[0]))];
    int32_t v = (int32_t)rnd32();
    if (kind % 4 == 1)
        v >>= rnd32() % 31;
    return v < lo ? lo : v;
}

static void test_log_terms(double limit)
{
    enum { N = 257 };
    int32_t s1[N], s2[N], s12[N], idx[3 * N];
    VqVifParams p = { .bpc = 8, .gain_limit = limit, .log2_tab = log2_tab };
    for (unsigned round = 0; round < 4000; round++) {
        unsigned m = 1 + rnd32() % N;
        for (unsigned q = 0; q < m; q++) {
            s1[q] = pick(rnd32(), VQ_VIF_SIGMA_NSQ);
            if (s1[q] < VQ_VIF_SIGMA_NSQ)
                s1[q] = VQ_VIF_SIGMA_NSQ;
            s2[q] = pick(rnd32(), -2147483647 - 1);
            if (rnd32() % 3 == 0) { /* realistic: |sigma12| near sqrt(s1 s2) */
                double c = sqrt((double)s1[q] * (s2[q] > 0 ? s2[q] : 1));
                double f = (double)(rnd32() % 2200) / 2000.0;
                s12[q] = (int32_t)fmin(c * f, 2147483647.0);
            } else {
                s12[q] = pick(rnd32(), -2147483647 - 1);
            }
        }
        VqVifScaleAcc got = { 0, 0, 0, 0 }, want = { 0, 0, 0, 0 };
        dsp.log_terms(&p, m, s1, s2, s12, idx, &got);
        for (unsigned q = 0; q < m; q++) {
            VqVifLogTerms lt = vq_vif_log_terms(log2_tab, s1[q], s2[q], s12[q],
                                                limit);
            want.num_log += lt.num;
            want.den_log += lt.den;
        }
        CHECK_MSG(got.num_log == want.num_log && got.den_log == want.den_log,
              "log terms (egl %g, %u pixels): table %lld %lld, helper %lld "
              "%lld", limit, m, (long long)got.num_log, (long long)got.den_log,
              (long long)want.num_log, (long long)want.den_log);
    }
}

/* ---- a ladder's split of the row functions (vif_dsp.h) ---- */

static void *fill_buf(size_t bytes)
{
    uint8_t *p = aligned_alloc(64, (bytes + 63) & ~(size_t)63);
    for (size_t i = 0; i < bytes; i++)
        p[i] = (uint8_t)rnd32();
    return p;
}

/* n random rows of w samples (8-bit when u8), as the filters read them. */
static void split_rows(const void **rows, void *store, unsigned n, unsigned w,
                       bool u8, unsigned bpc)
{
    for (unsigned k = 0; k < n; k++) {
        if (u8) {
            uint8_t *r = (uint8_t *)store + (size_t)k * w;
            for (unsigned j = 0; j < w; j++)
                r[j] = (uint8_t)rnd32();
            rows[k] = r;
        } else {
            uint16_t *r = (uint16_t *)store + (size_t)k * w;
            for (unsigned j = 0; j < w; j++)
                r[j] = (uint16_t)(rnd32() % (1u << bpc));
            rows[k] = r;
        }
    }
}

/* stat_ref_row + stat_dis_row give stat_row's sigmas, down_one_row
 * down_row's rows, with the table under test. */
static void test_split(unsigned s, unsigned bpc, unsigned w)
{
    bool u8 = s == 0 && bpc == 8;
    unsigned n = 2 * VQ_VIF_HALF(s) + 1;
    void *sr = malloc((size_t)n * w * 2), *sd = malloc((size_t)n * w * 2);
    const void *rr[VQ_VIF_MAX_TAPS], *rd[VQ_VIF_MAX_TAPS];
    split_rows(rr, sr, n, w, u8, bpc);
    split_rows(rd, sd, n, w, u8, bpc);
    VqVifDims d;
    vq_vif_dims(&d, w, 1);
    size_t size = vq_vif_cpu_scratch_size(&d);
    void *wa = fill_buf(size), *wb = fill_buf(size);
    VqVifWork ta, tb;
    vq_vif_work_layout(&d, wa, &ta);
    vq_vif_work_layout(&d, wb, &tb);
    uint32_t *m1 = malloc(4 * (size_t)w);
    int32_t *s1 = malloc(4 * (size_t)w);
    VqVifVRound rnd = vq_vif_vround(s, bpc);
    dsp.stat_row(s, u8, rr, rd, w, rnd, &ta);
    dsp.stat_ref_row(s, u8, rr, w, rnd, &tb, m1, s1);
    dsp.stat_dis_row(s, u8, rr, rd, w, rnd, &tb, m1);
    CHECK_MSG(!memcmp(ta.s1, s1, 4 * (size_t)w) &&
                  !memcmp(ta.s2, tb.s2, 4 * (size_t)w) &&
                  !memcmp(ta.s12, tb.s12, 4 * (size_t)w),
              "split statistic, scale %u, %u-bit, w %u", s, bpc, w);
    if (s + 1 < VQ_VIF_SCALES) {
        uint16_t *o[4];
        for (unsigned k = 0; k < 4; k++)
            o[k] = calloc(w / 2 + 1, 2);
        dsp.down_row(s, u8, rr, rd, w, rnd, &ta, o[0], o[1]);
        dsp.down_one_row(s, u8, rr, w, rnd, &tb, o[2]);
        dsp.down_one_row(s, u8, rd, w, rnd, &tb, o[3]);
        CHECK_MSG(!memcmp(o[0], o[2], w) && !memcmp(o[1], o[3], w),
                  "split down row, scale %u, %u-bit, w %u", s, bpc, w);
        for (unsigned k = 0; k < 4; k++)
            free(o[k]);
    }
    free(m1);
    free(s1);
    free(wa);
    free(wb);
    free(sr);
    free(sd);
}

static void test_splits(void)
{
    static const unsigned widths[] = { 9, 16, 31, 32, 33, 63, 64, 65, 100,
                                       255, 256, 300, 1920 };
    static const unsigned depths[] = { 8, 10, 12, 16 };
    for (unsigned s = 0; s < VQ_VIF_SCALES; s++)
        for (unsigned b = 0; b < 4; b++)
            for (unsigned i = 0; i < sizeof(widths) / sizeof(widths[0]); i++)
                test_split(s, depths[b], widths[i]);
}

static void test_filt_halves(void)
{
    for (unsigned i = 0; i < 1000000; i++) {
        uint32_t hi = rnd32() % (65536u * 65535u + 1);
        uint32_t lo = rnd32() % (65536u * 65535u + 1);
        uint64_t sum = ((uint64_t)hi << 16) + lo;
        CHECK_MSG(vq_vif_filt_halves(hi, lo) == vq_vif_filt(sum),
              "filt halves %u %u", hi, lo);
    }
}

int main(void)
{
    make_table();
    test_filt_halves();
    static const unsigned sizes[][2] = { { 16, 16 }, { 17, 16 }, { 33, 17 },
                                         { 37, 45 }, { 64, 48 }, { 131, 70 } };
    static const unsigned depths[] = { 8, 10, 12, 16 };
    /* the C table, then each instruction set the CPU has on top */
    unsigned have = vq_cpu_flags_detected();
    for (unsigned level = 0; level <= VQ_CPU_N_FLAGS; level++) {
        unsigned flags = (1u << level) - 1, top = flags & ~(flags >> 1);
        char names[64];
        if ((flags & have) != flags) {
            printf("%s: not on this CPU\n", vq_cpu_flag_name(top));
            continue;
        }
        printf("table for: %s\n",
               flags ? vq_cpu_flags_string(flags, names, sizeof(names)) : "c");
        vq_vif_dsp_init(&dsp, flags);
        test_log_terms(100.0);
        test_log_terms(1.0);
        test_log_terms(1.37);
        test_splits();
        for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++)
            for (unsigned d = 0; d < 4; d++)
                for (int fill = 0; fill < 3; fill++)
                    test_frame(sizes[s][0], sizes[s][1], depths[d], fill,
                               fill == 2 ? 1.0 : 100.0, s == 2 && fill == 0);
    }
    printf("%u failure(s)\n", n_fail);
    return n_fail ? 1 : 0;
}
