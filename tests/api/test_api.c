/* The public API: configuration, feature selection, bad input, frame order,
 * pooling, subsampling, threads, lent frames (vq_submit_retained) and
 * backend reporting (CPU backend). */
#include <math.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../common/unit_check.h"
#include "vqhip.h"

typedef struct Buf {
    VqPicture pic;
    uint8_t *mem;
} Buf;

/* A w x h 8-bit 4:2:0 picture with every luma sample = y, chroma = c. */
static void make(Buf *b, unsigned w, unsigned h, unsigned y, unsigned c)
{
    unsigned cw = (w + 1) / 2, ch = (h + 1) / 2;
    b->mem = malloc((size_t)w * h + 2 * (size_t)cw * ch);
    memset(b->mem, (int)y, (size_t)w * h);
    memset(b->mem + (size_t)w * h, (int)c, 2 * (size_t)cw * ch);
    b->pic = (VqPicture){ .fmt = VQ_PIX_FMT_420, .bpc = 8, .w = w, .h = h,
                          .data = { b->mem, b->mem + (size_t)w * h,
                                    b->mem + (size_t)w * h + (size_t)cw * ch },
                          .stride = { (ptrdiff_t)w, (ptrdiff_t)cw,
                                      (ptrdiff_t)cw } };
}

static VqContext *open_cpu(unsigned threads, unsigned subsample)
{
    VqConfig cfg = vq_default_config();
    cfg.backend = VQ_BACKEND_CPU;
    cfg.n_threads = threads;
    cfg.n_subsample = subsample;
    VqContext *ctx = NULL;
    int e = vq_open(&ctx, &cfg);
    CHECK(!e);
    return ctx;
}

static double score(const VqFrameScores *fs, const char *name)
{
    for (unsigned i = 0; i < fs->n; i++)
        if (!strcmp(fs->scores[i].name, name))
            return fs->scores[i].value;
    return NAN;
}

static void test_config(void)
{
    VqConfig cfg = vq_default_config();
    VqContext *ctx = NULL;
    cfg.depth = 1000;
    CHECK(vq_open(&ctx, &cfg) == VQ_EINVAL);
    CHECK(strstr(vq_last_error(ctx), "depth") != NULL);
    vq_close(&ctx);
    CHECK(ctx == NULL);
    cfg = vq_default_config();
    cfg.backend = (VqBackend)42;
    CHECK(vq_open(&ctx, &cfg) == VQ_EINVAL);
    vq_close(&ctx);
    CHECK(vq_open(NULL, &cfg) == VQ_EINVAL);
    vq_close(NULL);
    CHECK(strcmp(vq_strerror(VQ_ENOTFOUND), "not found") == 0);
}

static void test_features(void)
{
    VqContext *ctx = open_cpu(1, 0);
    CHECK(vq_use_feature(ctx, "nope") == VQ_ENOTFOUND);
    CHECK_MSG(strstr(vq_last_error(ctx), "psnr") != NULL, "%s", vq_last_error(ctx));
    CHECK(vq_use_feature(ctx, "name=psnr:enable_chroma=perhaps") == VQ_EINVAL);
    CHECK(vq_use_feature(ctx, "name=psnr:bogus=1") == VQ_ENOTFOUND);
    CHECK(strstr(vq_last_error(ctx), "enable_mse") != NULL);
    CHECK(vq_use_feature(ctx, "") == VQ_EINVAL);
    CHECK(vq_use_feature(ctx, NULL) == VQ_EINVAL);
    Buf a, b;
    make(&a, 16, 16, 10, 128);
    make(&b, 16, 16, 10, 128);
    CHECK(vq_submit(ctx, &a.pic, &b.pic) == VQ_EINVAL); /* nothing selected */
    vq_close(&ctx);
    /* The same feature twice runs once. */
    ctx = open_cpu(1, 0);
    CHECK(!vq_use_feature(ctx, "psnr"));
    CHECK(!vq_use_feature(ctx, "name=psnr:enable_chroma=true"));
    CHECK(!vq_submit(ctx, &a.pic, &b.pic));
    CHECK(vq_use_feature(ctx, "float_psnr") == VQ_ESTATE);
    CHECK(!vq_flush(ctx));
    VqFrameScores fs;
    CHECK(!vq_receive(ctx, &fs) && fs.n == 3);
    CHECK(vq_receive(ctx, &fs) == VQ_EOF);
    CHECK(vq_submit(ctx, &a.pic, &b.pic) == VQ_ESTATE);
    vq_close(&ctx);
    free(a.mem);
    free(b.mem);
}

static void test_bad_pictures(void)
{
    VqContext *ctx = open_cpu(1, 0);
    CHECK(!vq_use_feature(ctx, "psnr"));
    Buf a, b, c, d;
    make(&a, 32, 18, 50, 60);
    make(&b, 32, 18, 52, 61);
    make(&c, 30, 18, 52, 61);
    make(&d, 32, 18, 52, 61);
    CHECK(!vq_submit(ctx, &a.pic, &b.pic));
    VqFrameScores first;
    CHECK(!vq_receive_wait(ctx, &first) && first.index == 0);
    CHECK(vq_receive_wait(ctx, &first) == VQ_EAGAIN);
    CHECK(vq_submit(ctx, &a.pic, &c.pic) == VQ_EINVAL);
    CHECK_MSG(strstr(vq_last_error(ctx), "distorted") && strstr(vq_last_error(ctx), "30x18"),
              "%s", vq_last_error(ctx));
    d.pic.bpc = 10;
    CHECK(vq_submit(ctx, &a.pic, &d.pic) == VQ_EINVAL);
    d.pic.bpc = 8;
    d.pic.fmt = VQ_PIX_FMT_444;
    CHECK(vq_submit(ctx, &a.pic, &d.pic) == VQ_EINVAL);
    d.pic.fmt = VQ_PIX_FMT_420;
    d.pic.stride[1] = 3;
    CHECK(vq_submit(ctx, &a.pic, &d.pic) == VQ_EINVAL);
    CHECK(strstr(vq_last_error(ctx), "stride") != NULL);
    d.pic.stride[1] = 16;
    d.pic.data[2] = NULL;
    CHECK(vq_submit(ctx, &a.pic, &d.pic) == VQ_EINVAL);
    d.pic.bpc = 9;
    CHECK(vq_submit(ctx, &d.pic, &d.pic) == VQ_EINVAL);
    CHECK(vq_submit(ctx, NULL, &b.pic) == VQ_EINVAL);
    /* A refused picture leaves the run usable. */
    CHECK(!vq_submit(ctx, &a.pic, &b.pic));
    CHECK(!vq_flush(ctx));
    VqFrameScores fs;
    unsigned n = 1;
    while (!vq_receive(ctx, &fs))
        CHECK(fs.index == n++);
    CHECK(n == 2);
    vq_close(&ctx);
    free(a.mem);
    free(b.mem);
    free(c.mem);
    free(d.mem);
}

/* PSNR of flat planes against the textbook formula. */
static void test_psnr_values(void)
{
    VqContext *ctx = open_cpu(1, 0);
    CHECK(!vq_use_feature(ctx, "name=psnr:enable_mse=true:enable_apsnr=true"));
    Buf a, b;
    make(&a, 40, 30, 100, 128);
    make(&b, 40, 30, 110, 128);
    for (int i = 0; i < 3; i++)
        CHECK(!vq_submit(ctx, &a.pic, &b.pic));
    CHECK(!vq_flush(ctx));
    VqFrameScores fs;
    CHECK(!vq_receive(ctx, &fs));
    CHECK(fabs(score(&fs, "psnr_y") - 10 * log10(255.0 * 255.0 / 100.0)) < 1e-12);
    CHECK(score(&fs, "mse_y") == 100.0);
    CHECK(score(&fs, "psnr_cb") == 60.0); /* zero error: 6 * bpc + 12 */
    CHECK(score(&fs, "mse_cb") == 0.0);
    double v;
    CHECK(!vq_pooled(ctx, "psnr_cb", VQ_POOL_MEAN, &v) && v == 60.0);
    CHECK(vq_pooled(ctx, "nope", VQ_POOL_MEAN, &v) == VQ_ENOTFOUND);
    unsigned na = vq_aggregate_count(ctx);
    CHECK(na == 3);
    VqScore s;
    CHECK(!vq_aggregate(ctx, 1, &s) && !strcmp(s.name, "apsnr_cb"));
    /* zero total error: capped at ceil(10 log10(2 peak^2 n)), n = 3 * 20 * 15 */
    CHECK(s.value == ceil(10 * log10(2.0 * 255 * 255 * 900)));
    CHECK(!strcmp(vq_output_backend(ctx, "psnr_y"), "cpu"));
    CHECK(!strcmp(vq_backend_name(ctx), "cpu"));
    CHECK(vq_output_backend(ctx, "nope") == NULL);
    vq_close(&ctx);
    free(a.mem);
    free(b.mem);
}

/* Pooling follows libvmaf: min, max, mean, n / sum(1 / (x + 1)) - 1. */
static void test_pooling_and_subsample(void)
{
    VqContext *ctx = open_cpu(1, 2);
    CHECK(!vq_use_feature(ctx, "name=psnr:enable_chroma=false:enable_mse=true"));
    Buf a, b[5];
    make(&a, 8, 8, 100, 128);
    double mse[5] = { 1, 4, 9, 16, 25 };
    for (int i = 0; i < 5; i++) {
        make(&b[i], 8, 8, 100 + (unsigned)sqrt(mse[i]), 128);
        CHECK(!vq_submit(ctx, &a.pic, &b[i].pic));
    }
    CHECK(!vq_flush(ctx));
    VqFrameScores fs;
    unsigned n = 0;
    while (!vq_receive(ctx, &fs)) {
        CHECK(fs.index == n);
        CHECK(fs.n == (n % 2 ? 0u : 2u)); /* odd frames are not computed */
        n++;
    }
    CHECK(n == 5);
    double v;
    CHECK(!vq_pooled(ctx, "mse_y", VQ_POOL_MEAN, &v) && v == (1 + 9 + 25) / 3.0);
    CHECK(!vq_pooled(ctx, "mse_y", VQ_POOL_MIN, &v) && v == 1);
    CHECK(!vq_pooled(ctx, "mse_y", VQ_POOL_MAX, &v) && v == 25);
    CHECK(!vq_pooled(ctx, "mse_y", VQ_POOL_HARMONIC_MEAN, &v) &&
          fabs(v - (3 / (1 / 2.0 + 1 / 10.0 + 1 / 26.0) - 1)) < 1e-12);
    vq_close(&ctx);
    free(a.mem);
    for (int i = 0; i < 5; i++)
        free(b[i].mem);
}

/* Receives every ready frame: checks frame order, and records (first run)
 * or compares (later runs) psnr_cr and float_psnr of each frame. */
static void take_frames(VqContext *ctx, double (*ref)[2], unsigned *got,
                        int record)
{
    VqFrameScores fs;
    while (!vq_receive(ctx, &fs)) {
        CHECK(fs.index == *got);
        double v[2] = { score(&fs, "psnr_cr"), score(&fs, "float_psnr") };
        if (record)
            memcpy(ref[*got], v, sizeof(v));
        else
            CHECK(!memcmp(ref[*got], v, sizeof(v)));
        (*got)++;
    }
}

/* Several worker threads give the same values, in order. */
static void test_threads(void)
{
    enum { N = 12 };
    double ref[N][2];
    for (unsigned threads = 1; threads <= 4; threads += 3) {
        VqContext *ctx = open_cpu(threads, 0);
        CHECK(!vq_use_feature(ctx, "psnr"));
        CHECK(!vq_use_feature(ctx, "float_psnr"));
        Buf a, b;
        make(&a, 64, 48, 0, 0);
        make(&b, 64, 48, 0, 0);
        unsigned got = 0;
        for (unsigned f = 0; f < N; f++) {
            for (unsigned i = 0; i < 64 * 48 * 3 / 2; i++) {
                a.mem[i] = (uint8_t)(i * 31 + f * 7);
                b.mem[i] = (uint8_t)(a.mem[i] + (i * f) % 13);
            }
            CHECK(!vq_submit(ctx, &a.pic, &b.pic));
            take_frames(ctx, ref, &got, threads == 1);
        }
        CHECK(!vq_flush(ctx));
        take_frames(ctx, ref, &got, threads == 1);
        CHECK(got == N);
        vq_close(&ctx);
        free(a.mem);
        free(b.mem);
    }
}

static void test_names(void)
{
    VqPool p;
    VqLogFmt f;
    CHECK(!vq_pool_from_name("harmonic_mean", &p) && p == VQ_POOL_HARMONIC_MEAN);
    CHECK(vq_pool_from_name("median", &p) == VQ_EINVAL);
    CHECK(!vq_log_fmt_from_name("sub", &f) && f == VQ_LOG_SUB);
    CHECK(vq_log_fmt_from_name("yaml", &f) == VQ_EINVAL);
    /* vq_picture_set_color against ITU-T H.273's MatrixCoefficients table
     * and FFmpeg's AVColorRange / AVChromaLocation numbers */
    static const struct { int mc; VqMatrix m; } mcs[] = {
        { 0, VQ_MATRIX_OTHER }, { 1, VQ_MATRIX_BT709 },
        { 2, VQ_MATRIX_UNSPECIFIED }, { 3, VQ_MATRIX_OTHER },
        { 4, VQ_MATRIX_FCC }, { 5, VQ_MATRIX_BT601 }, { 6, VQ_MATRIX_BT601 },
        { 7, VQ_MATRIX_SMPTE240M }, { 8, VQ_MATRIX_YCGCO },
        { 9, VQ_MATRIX_BT2020_NCL }, { 10, VQ_MATRIX_OTHER },
        { 14, VQ_MATRIX_OTHER }, { -1, VQ_MATRIX_OTHER },
    };
    for (unsigned i = 0; i < sizeof(mcs) / sizeof(*mcs); i++) {
        VqPicture pic = { .range = VQ_RANGE_FULL };
        vq_picture_set_color(&pic, mcs[i].mc, 0, 0);
        CHECK(pic.matrix == mcs[i].m && pic.range == VQ_RANGE_UNSPECIFIED &&
              pic.chroma_loc == VQ_CHROMA_LOC_UNSPECIFIED);
    }
    static const VqChromaLoc locs[] = { VQ_CHROMA_LOC_UNSPECIFIED,
        VQ_CHROMA_LOC_LEFT, VQ_CHROMA_LOC_CENTER, VQ_CHROMA_LOC_TOPLEFT,
        VQ_CHROMA_LOC_TOP, VQ_CHROMA_LOC_BOTTOMLEFT, VQ_CHROMA_LOC_BOTTOM,
        VQ_CHROMA_LOC_UNSPECIFIED };
    for (int l = -1; l < 8; l++) {
        VqPicture pic;
        vq_picture_set_color(&pic, 1, l == 1 ? 1 : l == 2 ? 2 : l, l);
        CHECK(pic.chroma_loc == (l < 0 ? VQ_CHROMA_LOC_UNSPECIFIED : locs[l]));
        CHECK(pic.range == (l == 1 ? VQ_RANGE_LIMITED : l == 2 ? VQ_RANGE_FULL
                                                            : VQ_RANGE_UNSPECIFIED));
    }
    size_t n = vq_list_features(NULL, 0);
    char *buf = malloc(n + 1);
    CHECK(buf && vq_list_features(buf, n + 1) == n);
    CHECK(buf && strstr(buf, "psnr: enable_chroma") != NULL);
    free(buf);
}

/* ---- vq_submit_retained ---------------------------------------------- */

enum { LENT_FRAMES = 10, LENT_W = 320, LENT_H = 240 };

typedef struct Lent {
    Buf ref, dis;
    size_t size; /* bytes of each picture */
    atomic_uint released;
} Lent;

/* Gives a pair back and spoils it at once, as a caller reusing the buffers
 * would: a read after this changes the scores. */
static void give_back(void *opaque)
{
    Lent *l = opaque;
    memset(l->ref.mem, 7, l->size);
    memset(l->dis.mem, 250, l->size);
    atomic_fetch_add(&l->released, 1);
}

/* Frame k of a moving pattern; the distorted one coarser. */
static void make_lent(Buf *b, unsigned k, int distorted)
{
    make(b, LENT_W, LENT_H, 0, 128);
    for (unsigned y = 0; y < LENT_H; y++)
        for (unsigned x = 0; x < LENT_W; x++) {
            unsigned v = (x * 3 + y * 5 + k * 7 + (x * y) % 13) & 255;
            b->mem[(size_t)y * LENT_W + x] =
                (uint8_t)(distorted ? v & 0xf8 : v);
        }
}

/* All scores of a run of LENT_FRAMES frames, lent or copied. */
static unsigned lent_run(unsigned threads, unsigned subsample, int lend,
                         double *out, unsigned max)
{
    VqContext *ctx = open_cpu(threads, subsample);
    static const char *const features[] = { "psnr", "motion", "vif", "adm",
                                            "float_ssim" };
    for (unsigned i = 0; i < 5; i++)
        CHECK(!vq_use_feature(ctx, features[i]));
    static Lent lent[LENT_FRAMES];
    unsigned n = 0;
    VqFrameScores fs;
    for (unsigned k = 0; k < LENT_FRAMES; k++) {
        Lent *l = &lent[k];
        make_lent(&l->ref, k, 0);
        make_lent(&l->dis, k, 1);
        l->size = (size_t)LENT_W * LENT_H * 3 / 2;
        atomic_init(&l->released, 0);
        if (lend) {
            CHECK(!vq_submit_retained(ctx, &l->ref.pic, &l->dis.pic, give_back,
                                      l));
        } else {
            CHECK(!vq_submit(ctx, &l->ref.pic, &l->dis.pic));
            give_back(l); /* the caller's buffers are free at once */
        }
        while (!vq_receive(ctx, &fs))
            for (unsigned i = 0; i < fs.n && n < max; i++)
                out[n++] = fs.scores[i].value;
    }
    CHECK(!vq_flush(ctx));
    while (!vq_receive(ctx, &fs))
        for (unsigned i = 0; i < fs.n && n < max; i++)
            out[n++] = fs.scores[i].value;
    vq_close(&ctx);
    for (unsigned k = 0; k < LENT_FRAMES; k++) {
        CHECK_MSG(atomic_load(&lent[k].released) == 1,
                  "frame %u given back %u times", k,
                  atomic_load(&lent[k].released));
        free(lent[k].ref.mem);
        free(lent[k].dis.mem);
    }
    return n;
}

static void test_retained(void)
{
    static double a[4096], b[4096];
    static const unsigned threads[] = { 1, 3, 8 }, subsample[] = { 1, 1, 3 };
    for (unsigned t = 0; t < 3; t++) {
        unsigned na = lent_run(threads[t], subsample[t], 0, a, 4096);
        unsigned nb = lent_run(threads[t], subsample[t], 1, b, 4096);
        CHECK_MSG(na == nb && na >= LENT_FRAMES, "%u and %u scores", na, nb);
        CHECK_MSG(!memcmp(a, b, na * sizeof(double)),
                  "lent frames scored differently (%u threads)", threads[t]);
    }
    /* a refused picture is given back too */
    VqContext *ctx = open_cpu(3, 1);
    CHECK(!vq_use_feature(ctx, "psnr"));
    Lent l, m;
    make_lent(&l.ref, 0, 0);
    make_lent(&l.dis, 0, 1);
    l.size = (size_t)LENT_W * LENT_H * 3 / 2;
    atomic_init(&l.released, 0);
    CHECK(!vq_submit_retained(ctx, &l.ref.pic, &l.dis.pic, give_back, &l));
    make(&m.ref, 64, 64, 1, 2);
    make(&m.dis, 64, 64, 1, 2);
    m.size = 64 * 64 * 3 / 2;
    atomic_init(&m.released, 0);
    CHECK(vq_submit_retained(ctx, &m.ref.pic, &m.dis.pic, give_back, &m) ==
          VQ_EINVAL);
    CHECK(atomic_load(&m.released) == 1);
    vq_close(&ctx);
    CHECK(atomic_load(&l.released) == 1);
    free(l.ref.mem);
    free(l.dis.mem);
    free(m.ref.mem);
    free(m.dis.mem);
}

int main(void)
{
    test_config();
    test_features();
    test_bad_pictures();
    test_psnr_values();
    test_pooling_and_subsample();
    test_threads();
    test_retained();
    test_names();
    TEST_END();
}
