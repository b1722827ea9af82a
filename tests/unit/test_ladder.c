/*
 * vq_ladder_* through the public API. Every rendition's per-frame values
 * (vmaf_v0.6.1, psnr, float_motion) equal those of a pair run of the same
 * reference and rendition on a context of its own (vq_submit: the
 * existing path), bit for bit, for ladders of 1 and 3 renditions, one of
 * them ending early (vq_ladder_end). Refused, with a message naming the
 * rendition: renditions that select other features, a distorted picture
 * of another size or bit depth, a missing picture of a rendition still
 * running, vq_submit on a rendition's context; vq_close on it does not
 * close it.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../common/unit_check.h"
#include "vqhip.h"

#define W 176
#define H 144
#define FRAMES 8
#define SHORT 4 /* frames of the rendition that ends early */
#define MAX_OUT 64

typedef struct Frame {
    uint8_t y[W * H], u[W * H / 4], v[W * H / 4];
} Frame;

static Frame ref[FRAMES], dis[3][FRAMES];

/* What a run gave: values[frame][output], names from the first frame. */
typedef struct Values {
    unsigned n_frames, n_out;
    char name[MAX_OUT][64];
    double v[FRAMES][MAX_OUT];
} Values;

static void make_frames(void)
{
    uint64_t s = 35;
    for (int t = 0; t < FRAMES; t++) {
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++)
                ref[t].y[y * W + x] =
                    (uint8_t)((((x * 3 + t * 4) ^ (y * 2)) & 127) +
                              (x + y + 6 * t) % 90);
        memset(ref[t].u, 120 + t, sizeof(ref[t].u));
        memset(ref[t].v, 130 - t, sizeof(ref[t].v));
        for (int i = 0; i < 3; i++) {
            dis[i][t] = ref[t];
            int amp = 3 + 7 * i;
            for (int k = 0; k < W * H; k++) {
                int v = ref[t].y[k] +
                        (int)(vq_test_xorshift(&s) % (2 * amp + 1)) - amp;
                dis[i][t].y[k] = (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v);
            }
        }
    }
}

static VqPicture pic(const Frame *f)
{
    VqPicture p = { .fmt = VQ_PIX_FMT_420, .bpc = 8, .w = W, .h = H };
    p.data[0] = f->y;
    p.data[1] = f->u;
    p.data[2] = f->v;
    p.stride[0] = W;
    p.stride[1] = p.stride[2] = W / 2;
    return p;
}

static int select_all(VqContext *ctx)
{
    int r = vq_use_model(ctx, "version=vmaf_v0.6.1");
    if (!r)
        r = vq_use_feature(ctx, "psnr");
    if (!r)
        r = vq_use_feature(ctx, "float_motion");
    return r;
}

static void take(VqContext *ctx, Values *out)
{
    VqFrameScores fs;
    while (vq_receive(ctx, &fs) == 0) {
        CHECK(fs.index == out->n_frames && fs.index < FRAMES && fs.n <= MAX_OUT,
              "frame %u out of order or too many outputs", fs.index);
        if (fs.index != out->n_frames || fs.index >= FRAMES || fs.n > MAX_OUT)
            return;
        if (!fs.index) {
            out->n_out = fs.n;
            for (unsigned k = 0; k < fs.n; k++)
                snprintf(out->name[k], sizeof(out->name[k]), "%s",
                         fs.scores[k].name);
        }
        CHECK(fs.n == out->n_out, "frame %u: %u outputs, frame 0 %u", fs.index,
              fs.n, out->n_out);
        for (unsigned k = 0; k < fs.n && k < out->n_out; k++)
            out->v[fs.index][k] = fs.scores[k].value;
        out->n_frames++;
    }
}

/* The existing path: rendition i alone against the reference. */
static void pair_run(unsigned i, unsigned frames, Values *out)
{
    VqConfig cfg = vq_default_config();
    cfg.backend = VQ_BACKEND_CPU;
    VqContext *ctx;
    memset(out, 0, sizeof(*out));
    int r = vq_open(&ctx, &cfg);
    if (!r)
        r = select_all(ctx);
    for (unsigned t = 0; !r && t < frames; t++) {
        VqPicture rp = pic(&ref[t]), dp = pic(&dis[i][t]);
        r = vq_submit(ctx, &rp, &dp);
        take(ctx, out);
    }
    if (!r)
        r = vq_flush(ctx);
    take(ctx, out);
    CHECK(!r, "pair run %u: %s", i, vq_last_error(ctx));
    vq_close(&ctx);
}

static void same(const Values *a, const Values *b, const char *what)
{
    CHECK(a->n_frames == b->n_frames && a->n_out == b->n_out,
          "%s: %u frames x %u outputs, the pair run %u x %u", what,
          a->n_frames, a->n_out, b->n_frames, b->n_out);
    for (unsigned k = 0; k < a->n_out && k < b->n_out; k++)
        CHECK(!strcmp(a->name[k], b->name[k]), "%s: output %u %s, pair %s",
              what, k, a->name[k], b->name[k]);
    for (unsigned t = 0; t < a->n_frames && t < b->n_frames; t++)
        for (unsigned k = 0; k < a->n_out && k < b->n_out; k++)
            CHECK(!memcmp(&a->v[t][k], &b->v[t][k], sizeof(double)),
                  "%s: frame %u %s = %.17g, the pair run's %.17g", what, t,
                  a->name[k], a->v[t][k], b->v[t][k]);
}

/* A ladder of n renditions (dis[0..n-1]); rendition `short_one` (n: none)
 * ends after SHORT frames. */
static void ladder_case(unsigned n, unsigned short_one)
{
    static Values got[3], want;
    VqConfig cfg = vq_default_config();
    cfg.backend = VQ_BACKEND_CPU;
    VqLadder *l;
    int r = vq_ladder_open(&l, &cfg, n);
    CHECK(!r && vq_ladder_count(l) == n, "open %u: %s", n,
          vq_ladder_last_error(l));
    for (unsigned i = 0; !r && i < n; i++)
        r = select_all(vq_ladder_context(l, i));
    for (unsigned t = 0; !r && t < FRAMES; t++) {
        if (t == SHORT && short_one < n)
            r = vq_ladder_end(l, short_one);
        VqPicture rp = pic(&ref[t]), dp[3];
        const VqPicture *d[3] = { NULL, NULL, NULL };
        for (unsigned i = 0; i < n; i++) {
            dp[i] = pic(&dis[i][t]);
            if (!vq_ladder_ended(l, i))
                d[i] = &dp[i];
        }
        if (!r)
            r = vq_ladder_submit(l, &rp, d);
        for (unsigned i = 0; i < n; i++) {
            if (!t)
                memset(&got[i], 0, sizeof(got[i]));
            take(vq_ladder_context(l, i), &got[i]);
        }
    }
    if (!r)
        r = vq_ladder_flush(l);
    CHECK(!r, "ladder of %u: %s", n, vq_ladder_last_error(l));
    for (unsigned i = 0; i < n; i++) {
        take(vq_ladder_context(l, i), &got[i]);
        pair_run(i, i == short_one ? SHORT : FRAMES, &want);
        char what[64];
        snprintf(what, sizeof(what), "ladder of %u, rendition %u", n, i + 1);
        same(&got[i], &want, what);
        CHECK(want.n_frames == (i == short_one ? SHORT : FRAMES),
              "%s: %u frames", what, want.n_frames);
    }
    vq_ladder_close(&l);
    CHECK(!l, "vq_ladder_close leaves the handle set");
}

/* A ladder of two whose first pair is refused; *msg gets the message. */
static int refused(int extra_feature, const VqPicture *d1, char *msg,
                   size_t size)
{
    VqConfig cfg = vq_default_config();
    cfg.backend = VQ_BACKEND_CPU;
    VqLadder *l;
    int r = vq_ladder_open(&l, &cfg, 2);
    for (unsigned i = 0; !r && i < 2; i++)
        r = select_all(vq_ladder_context(l, i));
    if (!r && extra_feature)
        r = vq_use_feature(vq_ladder_context(l, 1), "float_ssim");
    VqPicture rp = pic(&ref[0]), dp = pic(&dis[0][0]);
    const VqPicture *d[2] = { &dp, d1 };
    if (!r)
        r = vq_ladder_submit(l, &rp, d);
    snprintf(msg, size, "%s", vq_ladder_last_error(l));
    vq_ladder_close(&l);
    return r;
}

/* vq_ladder_log_path: the rendition's number from 1, its label, %% kept
 * once; a pattern naming one file, an unknown conversion or a short
 * buffer refused with the reason. */
static void log_path_cases(void)
{
    char out[64], why[256];
    int r = vq_ladder_log_path(out, sizeof(out), "logs/%d_%s_100%%.json", 2,
                               "r720p", why, sizeof(why));
    CHECK(!r && !strcmp(out, "logs/3_r720p_100%.json"), "%%d/%%s/%%%%: %d '%s'",
          r, r ? why : out);
    r = vq_ladder_log_path(out, sizeof(out), "log.json", 0, "a", why, sizeof(why));
    CHECK(r == VQ_EINVAL && strstr(why, "%d") && strstr(why, "log.json"),
          "no %%d or %%s: %d %s", r, why);
    r = vq_ladder_log_path(out, sizeof(out), "log_%x_%d", 0, "a", why, sizeof(why));
    CHECK(r == VQ_EINVAL && strstr(why, "'%x'"), "%%x: %d %s", r, why);
    r = vq_ladder_log_path(out, 8, "log_%s.json", 0, "rendition", why, sizeof(why));
    CHECK(r == VQ_EINVAL && strstr(why, "too long"), "short buffer: %d %s", r, why);
}

int main(void)
{
    make_frames();
    log_path_cases();
    ladder_case(1, 1);
    ladder_case(3, 3);
    ladder_case(3, 1);

    char msg[1024];
    VqPicture good = pic(&dis[1][0]), small = good, deep = good;
    small.w = W - 16;
    deep.bpc = 10;
    int r = refused(1, &good, msg, sizeof(msg));
    CHECK(r == VQ_EINVAL && strstr(msg, "rendition 2") &&
          strstr(msg, "same features"), "other features: %d %s", r, msg);
    r = refused(0, &small, msg, sizeof(msg));
    CHECK(r == VQ_EINVAL && strstr(msg, "rendition 2") && strstr(msg, "160x144"),
          "another size: %d %s", r, msg);
    r = refused(0, &deep, msg, sizeof(msg));
    CHECK(r == VQ_EINVAL && strstr(msg, "rendition 2") && strstr(msg, "10 bits"),
          "another bit depth: %d %s", r, msg);
    r = refused(0, NULL, msg, sizeof(msg));
    CHECK(r == VQ_EINVAL && strstr(msg, "rendition 2") &&
          strstr(msg, "vq_ladder_end"), "no picture: %d %s", r, msg);

    VqConfig cfg = vq_default_config();
    cfg.backend = VQ_BACKEND_CPU;
    VqLadder *l;
    CHECK(vq_ladder_open(&l, &cfg, 0) == VQ_EINVAL, "a ladder of 0 opened");
    vq_ladder_close(&l);
    CHECK(!vq_ladder_open(&l, &cfg, 2), "open 2: %s", vq_ladder_last_error(l));
    VqContext *c = vq_ladder_context(l, 1);
    CHECK(c && !vq_ladder_context(l, 2), "vq_ladder_context's range");
    VqPicture rp = pic(&ref[0]), dp = pic(&dis[0][0]);
    r = vq_submit(c, &rp, &dp);
    CHECK(r == VQ_ESTATE && strstr(vq_last_error(c), "vq_ladder_submit"),
          "vq_submit on a rendition: %d %s", r, vq_last_error(c));
    VqContext *c2 = c;
    vq_close(&c2);
    CHECK(c2 == c && vq_use_feature(c, "psnr") == 0,
          "vq_close closed a rendition's context");
    vq_ladder_close(&l);

    printf("%u checks, %u failed\n", n_checks, n_fail);
    return n_fail ? 1 : 0;
}
