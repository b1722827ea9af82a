/*
 * ssimulacra2 unit tests (CPU): the recursive Gaussian against the
 * Gaussian it stands for, scales, sizes it refuses, options, identical
 * inputs, gray against 4:4:4 with neutral chroma, colour description in
 * the picture against the same in the options, threads.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../common/unit_check.h"
#include "extractors/ssimulacra2/ssimulacra2_priv.h"
#include "picture.h"
#include "vqhip.h"

/* Impulse response of the recursion on a long line: a Gaussian of sigma
 * 1.5 to the accuracy of Charalampidis' approximation (measured: mass
 * 1.000001, variance 2.2504, peak 0.2646 against 1, 2.25, 0.2660). */
static void test_blur(void)
{
    VqSsimulacra2Blur bl;
    vq_ssimulacra2_blur_coeffs(&bl, 1.5);
    enum { L = 64, C = 32 };
    float in[L] = { 0 }, out[L];
    in[C] = 1.0f;
    float p[3] = { 0 }, pp[3] = { 0 };
    for (int n = -(VQ_S2_RADIUS - 1); n < L; n++) {
        int l = n - VQ_S2_RADIUS - 1, r = n + VQ_S2_RADIUS - 1;
        float s = (l >= 0 ? in[l] : 0.0f) + (r < L ? in[r] : 0.0f);
        float o = vq_ssimulacra2_blur_v_step(&bl, s, p, pp);
        if (n >= 0)
            out[n] = o;
    }
    double mass = 0, mean = 0, var = 0, peak = 0;
    for (int i = 0; i < L; i++) {
        mass += out[i];
        mean += i * (double)out[i];
        peak = out[i] > peak ? out[i] : peak;
    }
    mean /= mass;
    for (int i = 0; i < L; i++)
        var += (i - mean) * (i - mean) * out[i];
    var /= mass;
    printf("blur impulse: mass %.6f mean %.4f variance %.4f peak %.4f\n",
           mass, mean, var, peak);
    CHECK(fabs(mass - 1.0) < 1e-4);
    CHECK(fabs(mean - C) < 1e-3);
    CHECK(fabs(var - 2.25) < 0.01 * 2.25);
    /* Gaussian peak 1 / (sqrt(2 pi) sigma) = 0.2660 */
    CHECK(fabs(peak - 0.2660) < 0.01);
    /* outside the support N = 5 the response is (numerically) zero */
    CHECK(fabs(out[C + 7]) < 1e-4 && fabs(out[C - 7]) < 1e-4);
}

static void test_dims(void)
{
    VqSsimulacra2Dims d;
    vq_ssimulacra2_dims(&d, 8, 8);
    CHECK(d.n_scales == 2 && d.w[1] == 4 && d.h[1] == 4);
    vq_ssimulacra2_dims(&d, 1920, 1080);
    CHECK(d.n_scales == 6 && d.w[5] == 60 && d.h[5] == 34);
    CHECK(d.nseg[0] == 17 && d.nseg[5] == 1);
    CHECK(d.n_doubles == 3 * VQ_S2_SUMS * (17 + 9 + 5 + 3 + 2 + 1));
    vq_ssimulacra2_dims(&d, 15, 200);
    CHECK(d.n_scales == 3 && d.w[1] == 8 && d.h[1] == 100 && d.w[2] == 4);
}

typedef struct Pic {
    VqPicture pic;
    uint16_t *buf;
} Pic;

/* A 4:2:0 / 4:4:4 / gray picture with smooth content plus a pattern. */
static void make_pic(Pic *p, VqPixFmt fmt, unsigned bpc, unsigned w,
                     unsigned h, unsigned seed, int neutral_chroma)
{
    unsigned ssx = fmt == VQ_PIX_FMT_420 || fmt == VQ_PIX_FMT_422;
    unsigned ssy = fmt == VQ_PIX_FMT_420;
    unsigned cw = (w + ssx) >> ssx, ch = (h + ssy) >> ssy;
    unsigned np = fmt == VQ_PIX_FMT_GRAY ? 1 : 3;
    p->buf = calloc((size_t)w * h + 2 * (size_t)cw * ch, sizeof(uint16_t));
    unsigned max = (1u << bpc) - 1, mid = 1u << (bpc - 1);
    memset(&p->pic, 0, sizeof(p->pic));
    p->pic.fmt = fmt;
    p->pic.bpc = bpc;
    p->pic.w = w;
    p->pic.h = h;
    size_t off = 0;
    uint8_t *b8 = (uint8_t *)p->buf;
    for (unsigned k = 0; k < np; k++) {
        unsigned pw = k ? cw : w, ph = k ? ch : h;
        for (unsigned y = 0; y < ph; y++) {
            for (unsigned x = 0; x < pw; x++) {
                double v = 0.5 + 0.3 * sin(x * 0.21 + k) * cos(y * 0.13) +
                           0.1 * (((x * 7 + y * 13 + seed * 31 + k) % 17) / 17.0);
                unsigned s = (unsigned)(v * max);
                if (k && neutral_chroma)
                    s = mid;
                if (bpc > 8)
                    p->buf[off + (size_t)y * pw + x] = (uint16_t)s;
                else
                    b8[off + (size_t)y * pw + x] = (uint8_t)(s > 255 ? 255 : s);
            }
        }
        p->pic.data[k] = bpc > 8 ? (const void *)(p->buf + off)
                                 : (const void *)(b8 + off);
        p->pic.stride[k] = (ptrdiff_t)(pw * (bpc > 8 ? 2 : 1));
        off += (size_t)pw * ph;
    }
}

/* Scores n frames (ref frame i vs dis frame i); returns vq_submit's error. */
static int score(const char *spec, Pic *ref, Pic *dis, unsigned n,
                 unsigned threads, double *out, char *msg, size_t msgsz)
{
    VqConfig cfg = vq_default_config();
    cfg.backend = VQ_BACKEND_CPU;
    cfg.n_threads = threads;
    VqContext *ctx = NULL;
    int err = vq_open(&ctx, &cfg);
    if (!err)
        err = vq_use_feature(ctx, spec);
    for (unsigned i = 0; !err && i < n; i++)
        err = vq_submit(ctx, &ref[i].pic, &dis[i].pic);
    if (!err)
        err = vq_flush(ctx);
    VqFrameScores fs;
    while (!err && vq_receive(ctx, &fs) == 0)
        for (unsigned i = 0; i < fs.n; i++)
            if (!strcmp(fs.scores[i].name, "ssimulacra2"))
                out[fs.index] = fs.scores[i].value;
    if (msg)
        snprintf(msg, msgsz, "%s", err ? vq_last_error(ctx) : "");
    vq_close(&ctx);
    return err;
}

static void free_pics(Pic *p, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        free(p[i].buf);
}

static void test_identical_and_gray(void)
{
    Pic r[1], d[1], g[2];
    double s[2] = { 0, 0 };
    make_pic(&r[0], VQ_PIX_FMT_420, 10, 67, 45, 1, 0);
    CHECK(!score("ssimulacra2", r, r, 1, 1, s, NULL, 0));
    CHECK_MSG(s[0] == 100.0, "identical pictures scored %.9f", s[0]);
    /* gray = 4:4:4 with Cb = Cr = mid (R' = G' = B' = Y' exactly) */
    make_pic(&d[0], VQ_PIX_FMT_444, 8, 40, 33, 1, 1);
    Pic d2;
    make_pic(&d2, VQ_PIX_FMT_444, 8, 40, 33, 2, 1);
    make_pic(&g[0], VQ_PIX_FMT_GRAY, 8, 40, 33, 1, 0);
    make_pic(&g[1], VQ_PIX_FMT_GRAY, 8, 40, 33, 2, 0);
    double a = 0, b = 0;
    CHECK(!score("ssimulacra2", &d[0], &d2, 1, 1, &a, NULL, 0));
    CHECK(!score("ssimulacra2", &g[0], &g[1], 1, 1, &b, NULL, 0));
    CHECK_MSG(a == b && a < 100.0, "4:4:4 neutral %.9f, gray %.9f", a, b);
    free_pics(r, 1);
    free_pics(d, 1);
    free_pics(&d2, 1);
    free_pics(g, 2);
}

static void test_sizes_and_options(void)
{
    static const unsigned bad[][2] = { { 7, 8 }, { 8, 7 }, { 1, 1 } };
    char msg[512];
    for (unsigned i = 0; i < 3; i++) {
        Pic p;
        double s;
        make_pic(&p, VQ_PIX_FMT_420, 8, bad[i][0], bad[i][1], 0, 0);
        int err = score("ssimulacra2", &p, &p, 1, 1, &s, msg, sizeof(msg));
        CHECK_MSG(err == VQ_EUNSUPPORTED && strstr(msg, "8x8"),
                  "%ux%u: %d %s", bad[i][0], bad[i][1], err, msg);
        free_pics(&p, 1);
    }
    Pic r, d;
    double s = NAN;
    make_pic(&r, VQ_PIX_FMT_420, 8, 8, 8, 0, 0);
    make_pic(&d, VQ_PIX_FMT_420, 8, 8, 8, 5, 0);
    CHECK(!score("ssimulacra2", &r, &d, 1, 1, &s, NULL, 0) && isfinite(s) &&
          s < 100.0);
    int err = score("name=ssimulacra2:matrix=bt710", &r, &d, 1, 1, &s, msg,
                    sizeof(msg));
    CHECK_MSG(err == VQ_EINVAL && strstr(msg, "bt709"), "%d %s", err, msg);
    err = score("name=ssimulacra2:range=studio", &r, &d, 1, 1, &s, msg,
                sizeof(msg));
    CHECK_MSG(err == VQ_EINVAL && strstr(msg, "limited"), "%d %s", err, msg);
    /* a matrix the library cannot convert: refused with a message */
    r.pic.matrix = d.pic.matrix = VQ_MATRIX_OTHER;
    err = score("ssimulacra2", &r, &d, 1, 1, &s, msg, sizeof(msg));
    CHECK_MSG(err == VQ_EUNSUPPORTED && strstr(msg, "matrix="), "%d %s", err,
              msg);
    /* ... unless the option names one */
    double s1 = NAN, s2 = NAN;
    CHECK(!score("name=ssimulacra2:matrix=bt2020:range=full", &r, &d, 1, 1,
                 &s1, NULL, 0));
    r.pic.matrix = d.pic.matrix = VQ_MATRIX_BT2020_NCL;
    r.pic.range = d.pic.range = VQ_RANGE_FULL;
    CHECK(!score("ssimulacra2", &r, &d, 1, 1, &s2, NULL, 0));
    CHECK_MSG(s1 == s2 && s1 != s, "options %.9f, picture %.9f, default %.9f",
              s1, s2, s);
    r.pic.range = (VqRange)7;
    err = score("ssimulacra2", &r, &d, 1, 1, &s, msg, sizeof(msg));
    CHECK_MSG(err == VQ_EINVAL, "out-of-range colour description: %d", err);
    free_pics(&r, 1);
    free_pics(&d, 1);
}

static char logged[512];
static void log_cb(void *opaque, VqLogLevel level, const char *msg)
{
    (void)opaque;
    if (level == VQ_LOG_LEVEL_WARNING)
        snprintf(logged, sizeof(logged), "%s", msg);
}

/* The first pair's colour description holds for the run; a change is
 * logged once. */
static void test_color_change(void)
{
    Pic r[2], d[2];
    for (unsigned i = 0; i < 2; i++) {
        make_pic(&r[i], VQ_PIX_FMT_420, 8, 48, 40, 7, 0);
        make_pic(&d[i], VQ_PIX_FMT_420, 8, 48, 40, 9, 0);
        r[i].pic.matrix = d[i].pic.matrix = i ? VQ_MATRIX_BT601
                                              : VQ_MATRIX_BT709;
    }
    VqConfig cfg = vq_default_config();
    cfg.backend = VQ_BACKEND_CPU;
    cfg.n_threads = 1;
    cfg.log = log_cb;
    VqContext *ctx = NULL;
    double s[2] = { NAN, NAN };
    int err = vq_open(&ctx, &cfg);
    if (!err)
        err = vq_use_feature(ctx, "ssimulacra2");
    for (unsigned i = 0; !err && i < 2; i++)
        err = vq_submit(ctx, &r[i].pic, &d[i].pic);
    if (!err)
        err = vq_flush(ctx);
    VqFrameScores fs;
    while (!err && vq_receive(ctx, &fs) == 0)
        s[fs.index] = fs.scores[0].value;
    vq_close(&ctx);
    CHECK(!err);
    CHECK_MSG(strstr(logged, "colour description"), "logged: '%s'", logged);
    CHECK_MSG(s[0] == s[1], "%.9f %.9f", s[0], s[1]);
    free_pics(r, 2);
    free_pics(d, 2);
}

/* vq_configure's geometry has no real colour description: the first
 * pair's is the run's, as without vq_configure (the filter configures). */
static void test_configure_color(void)
{
    Pic r, d;
    make_pic(&r, VQ_PIX_FMT_420, 8, 48, 40, 7, 0);
    make_pic(&d, VQ_PIX_FMT_420, 8, 48, 40, 9, 0);
    double plain = NAN, tagged = NAN, configured = NAN;
    CHECK(!score("ssimulacra2", &r, &d, 1, 1, &plain, NULL, 0));
    r.pic.matrix = d.pic.matrix = VQ_MATRIX_BT2020_NCL;
    r.pic.range = d.pic.range = VQ_RANGE_FULL;
    CHECK(!score("ssimulacra2", &r, &d, 1, 1, &tagged, NULL, 0));
    VqConfig cfg = vq_default_config();
    cfg.backend = VQ_BACKEND_CPU;
    cfg.n_threads = 1;
    cfg.log = log_cb;
    logged[0] = '\0';
    VqContext *ctx = NULL;
    VqPicture geometry = { .fmt = VQ_PIX_FMT_420, .bpc = 8, .w = 48, .h = 40 };
    int err = vq_open(&ctx, &cfg);
    if (!err)
        err = vq_use_feature(ctx, "ssimulacra2");
    if (!err)
        err = vq_configure(ctx, &geometry);
    if (!err)
        err = vq_submit(ctx, &r.pic, &d.pic);
    if (!err)
        err = vq_flush(ctx);
    VqFrameScores fs;
    while (!err && vq_receive(ctx, &fs) == 0)
        configured = fs.scores[0].value;
    CHECK_MSG(!err, "%s", vq_last_error(ctx));
    vq_close(&ctx);
    CHECK_MSG(configured == tagged && tagged != plain,
              "configured %.9f, tagged %.9f, untagged %.9f", configured,
              tagged, plain);
    CHECK_MSG(!strstr(logged, "colour description"), "logged: '%s'", logged);
    free_pics(&r, 1);
    free_pics(&d, 1);
}

static void test_threads(void)
{
    enum { N = 5 };
    Pic r[N], d[N];
    for (unsigned i = 0; i < N; i++) {
        make_pic(&r[i], VQ_PIX_FMT_420, 8, 97, 61, i, 0);
        make_pic(&d[i], VQ_PIX_FMT_420, 8, 97, 61, i + 3, 0);
    }
    double a[N], b[N];
    CHECK(!score("ssimulacra2", r, d, N, 1, a, NULL, 0));
    CHECK(!score("ssimulacra2", r, d, N, 3, b, NULL, 0));
    CHECK(!memcmp(a, b, sizeof(a)));
    free_pics(r, N);
    free_pics(d, N);
}

/* A planar 4:2:0 picture repacked semi-planar: NV12 (8 bits) or P010
 * (10 bits, samples in the high bits). */
static void to_semiplanar(const Pic *src, Pic *dst)
{
    const VqPicture *s = &src->pic;
    unsigned bps = s->bpc > 8 ? 2 : 1, cw = (s->w + 1) / 2, ch = (s->h + 1) / 2;
    unsigned shift = s->bpc > 8 ? 16 - s->bpc : 0;
    dst->buf = calloc((size_t)s->w * s->h + 2 * (size_t)cw * ch, sizeof(uint16_t));
    uint8_t *y8 = (uint8_t *)dst->buf;
    uint8_t *c8 = y8 + (size_t)s->w * s->h * bps;
    for (unsigned y = 0; y < s->h; y++)
        for (unsigned x = 0; x < s->w; x++) {
            const uint8_t *r = (const uint8_t *)s->data[0] + y * s->stride[0];
            if (bps == 1)
                y8[y * s->w + x] = r[x];
            else
                ((uint16_t *)(void *)y8)[y * s->w + x] =
                    (uint16_t)(((const uint16_t *)(const void *)r)[x] << shift);
        }
    for (unsigned y = 0; y < ch; y++)
        for (unsigned x = 0; x < cw; x++)
            for (unsigned c = 0; c < 2; c++) {
                const uint8_t *r = (const uint8_t *)s->data[1 + c] +
                                   y * s->stride[1 + c];
                size_t i = (size_t)y * 2 * cw + 2 * x + c;
                if (bps == 1)
                    c8[i] = r[x];
                else
                    ((uint16_t *)(void *)c8)[i] = (uint16_t)(
                        ((const uint16_t *)(const void *)r)[x] << shift);
            }
    dst->pic = *s;
    dst->pic.fmt = bps == 1 ? VQ_PIX_FMT_NV12 : VQ_PIX_FMT_P010;
    dst->pic.data[0] = y8;
    dst->pic.data[1] = c8;
    dst->pic.data[2] = NULL;
    dst->pic.stride[0] = (ptrdiff_t)(s->w * bps);
    dst->pic.stride[1] = (ptrdiff_t)(2 * cw * bps);
    dst->pic.stride[2] = 0;
}

/* Odd sizes: the semi-planar copies (their last chroma column and row
 * included) give the planar picture's scores bit for bit. */
static void test_semiplanar(void)
{
    static const unsigned depth[] = { 8, 10 };
    for (unsigned i = 0; i < 2; i++) {
        Pic r, d, rs, ds;
        make_pic(&r, VQ_PIX_FMT_420, depth[i], 37, 29, 3, 0);
        make_pic(&d, VQ_PIX_FMT_420, depth[i], 37, 29, 8, 0);
        to_semiplanar(&r, &rs);
        to_semiplanar(&d, &ds);
        double a = NAN, b = NAN;
        char msg[256];
        CHECK(!score("ssimulacra2", &r, &d, 1, 1, &a, NULL, 0));
        CHECK_MSG(!score("ssimulacra2", &rs, &ds, 1, 1, &b, msg, sizeof(msg)),
                  "%s", msg);
        CHECK_MSG(a == b && a < 100.0, "%u-bit: planar %.9f, semi-planar %.9f",
                  depth[i], a, b);
        free_pics(&r, 1);
        free_pics(&d, 1);
        free_pics(&rs, 1);
        free_pics(&ds, 1);
    }
}

/* checkasm style: every CPU variant this machine runs against the C path,
 * record for record, on random pictures (odd sizes, every format/depth);
 * and each variant's ladder split (reference part, then distorted part)
 * against the whole frame. */
static void test_cpu_variants(void)
{
    static const unsigned sizes[][2] = { { 8, 8 }, { 13, 9 }, { 37, 29 },
                                         { 203, 117 }, { 64, 80 } };
    static const VqPixFmt fmts[] = { VQ_PIX_FMT_420, VQ_PIX_FMT_422,
                                     VQ_PIX_FMT_444, VQ_PIX_FMT_GRAY };
    static const unsigned depths[] = { 8, 10, 12, 16 };
    char ran[256] = "";
    for (const VqSsimulacra2CpuVariant *v = vq_ssimulacra2_cpu_variants; v->name; v++) {
        if (!v->supported()) {
            printf("cpu variant %s: not supported here, skipped\n", v->name);
            continue;
        }
        snprintf(ran + strlen(ran), sizeof(ran) - strlen(ran), " %s", v->name);
        bool is_c = v == vq_ssimulacra2_cpu_variants;
        unsigned cases = 0, diffs = 0, split_diffs = 0;
        for (unsigned i = 0; i < 5; i++) {
            for (unsigned f = 0; f < 4; f++) {
                unsigned w = sizes[i][0], h = sizes[i][1];
                unsigned bpc = depths[(i + f) % 4];
                Pic r, d;
                make_pic(&r, fmts[f], bpc, w, h, i * 7 + f, 0);
                make_pic(&d, fmts[f], bpc, w, h, i * 7 + f + 50, 0);
                r.pic.chroma_loc = d.pic.chroma_loc = (VqChromaLoc)(f + i) % 7;
                VqFormat fmt;
                VqFrame fr, fd;
                VqErrBuf e = { 0 };
                S2Priv s;
                memset(&s, 0, sizeof(s));
                if (vq_format_from_picture(&fmt, &r.pic, "ref", &e) ||
                    vq_format_set_color(&fmt, &r.pic, &d.pic) ||
                    vq_frame_from_picture(&fr, &fmt, &r.pic, "ref", &e) ||
                    vq_frame_from_picture(&fd, &fmt, &d.pic, "dis", &e) ||
                    vq_ssimulacra2_color(&s.par.color[0], &fmt, 0, 0, 0, &e) ||
                    vq_ssimulacra2_color(&s.par.color[1], &fmt, 1, 0, 0, &e)) {
                    CHECK_MSG(0, "setup: %s", e.msg);
                    continue;
                }
                vq_ssimulacra2_blur_coeffs(&s.par.blur, 1.5);
                s.par.neg_bias_cbrt = vq_ssimulacra2_neg_bias_cbrt();
                vq_ssimulacra2_dims(&s.dims, w, h);
                size_t n = s.dims.n_doubles, ss = vq_ssimulacra2_cpu_scratch_size(&s.dims);
                double *a = calloc(n, sizeof(double)), *b = calloc(n, sizeof(double));
                void *scr = aligned_alloc(64, (ss + 63) & ~(size_t)63);
                vq_ssimulacra2_cpu_frame_c(&s.par, &s.dims, &fmt, &fr, &fd, scr, a);
                memset(scr, 0x5a, ss); /* stale scratch must not matter */
                v->frame(&s.par, &s.dims, &fmt, &fr, &fd, scr, b);
                cases++;
                if (!is_c && memcmp(a, b, n * sizeof(double))) {
                    diffs++;
                    printf("FAIL variant %s %ux%u %s %u-bit differs from c\n",
                           v->name, w, h, vq_pix_fmt_name(fmts[f]), bpc);
                }
                /* a ladder's split: the reference's part into a product
                 * (stale bytes before), then the distorted part from it:
                 * the whole frame's record */
                VqS2Product prod;
                size_t pb = vq_s2_product_layout(&s.dims, NULL, &prod);
                void *pbuf = aligned_alloc(64, (pb + 63) & ~(size_t)63);
                memset(pbuf, 0x77, pb);
                vq_s2_product_layout(&s.dims, pbuf, &prod);
                memset(b, 0, n * sizeof(double));
                v->part(&s.par, &s.dims, &fmt, &fr, &fr, scr, NULL,
                        VQ_S2_REF_PART, &prod);
                memset(scr, 0x5a, ss);
                v->part(&s.par, &s.dims, &fmt, &fr, &fd, scr, b,
                        VQ_S2_DIS_PART, &prod);
                if (memcmp(a, b, n * sizeof(double))) {
                    split_diffs++;
                    printf("FAIL variant %s %ux%u %s %u-bit: the split "
                           "differs from the whole frame\n", v->name, w, h,
                           vq_pix_fmt_name(fmts[f]), bpc);
                }
                free(pbuf);
                free(a);
                free(b);
                free(scr);
                free_pics(&r, 1);
                free_pics(&d, 1);
            }
        }
        CHECK(diffs == 0);
        CHECK(split_diffs == 0);
        printf("cpu variant %s: %u cases, %u differ from c, %u splits from "
               "the whole\n", v->name, cases, diffs, split_diffs);
    }
    printf("cpu variants run:%s\n", ran);
}

int main(void)
{
    test_blur();
    test_dims();
    test_identical_and_gray();
    test_sizes_and_options();
    test_color_change();
    test_configure_color();
    test_threads();
    test_cpu_variants();
    test_semiplanar();
    TEST_END();
}
