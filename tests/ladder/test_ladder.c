/*
 * vq_ladder_* through the public API. Every rendition's per-frame values
 * (vmaf_v0.6.1 or vmaf_v1.0.16_3d0h, psnr, float_motion, motion_v2, a vif or
 * adm with options of its own, ssimulacra2, cambi with full_ref; 8- and
 * 10-bit pictures, planar and semi-planar: NV12, P010) equal those of a pair run of the same reference and
 * rendition on a context of its own (vq_submit: the existing path), bit for
 * bit, for ladders of 1 and 3 renditions, one of them ending early
 * (vq_ladder_end, also before the first frame), one skipping frames
 * (vq_skip_next, as its pair run), on one thread and on a pool. The
 * reference work the ladder shares (vq_ladder_share_info: the motions'
 * records, VIF's records of its pass, ADM's, speed_chroma's, ssimulacra2's
 * and CAMBI's per-frame products) was
 * done once per frame and extractor and taken once per frame, extractor and
 * rendition that computed the frame: a ladder that computed it per rendition
 * fails. With the argument "hip" the same on the GPU backend (the fake
 * device in the unit suite, the emulated one's kernels in the gpu suite),
 * where the reference is also staged once per frame for every rendition
 * (vq_ladder_share_info's gpu_staged: once per frame while two renditions
 * run; gpu_staged_used: once per frame a rendition computed), the
 * motions' records and, on a real or emulated device, the reference parts
 * of VIF, ADM, ssimulacra2 and CAMBI computed there once (counted among
 * the shared extractors), and, with
 * VQHIP_FAULT set, the renditions' fall back to the CPU recomputing frames
 * from the staged reference's host copy. Refused, with a message naming the
 * rendition: renditions that
 * select other features, a distorted picture of another size or bit depth, a
 * missing picture of a rendition still running, vq_submit on a rendition's
 * context; vq_close on it does not close it.
 */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../common/gpu_present.h"
#include "../common/unit_check.h"
#include "vqhip.h"

#define W 272 /* VIF's reference work is shared from 256 columns */
#define H 160
#define FRAMES 8
#define SHORT 4 /* frames of the rendition that ends early */
#define MAX_OUT 64

typedef struct Frame {
    uint8_t y[W * H], u[W * H / 4], v[W * H / 4];
    uint16_t y16[W * H], u16[W * H / 4], v16[W * H / 4]; /* 10-bit */
    uint8_t uv[W * H / 2];                      /* NV12's chroma */
    uint16_t py[W * H], puv[W * H / 2];         /* P010: 10 bits << 6 */
} Frame;

static Frame ref[FRAMES], dis[3][FRAMES];
static int fault_set; /* VQHIP_FAULT: the renditions' GPUs fail part way */

/* What a run gave: per frame its outputs' names and values (a frame left
 * out by vq_skip_next has its temporal outputs only). */
typedef struct Values {
    unsigned n_frames, n_out[FRAMES];
    char name[FRAMES][MAX_OUT][64];
    double v[FRAMES][MAX_OUT];
} Values;

/* The 10-bit pictures: each 8-bit value x 4, plus 0..3 in a pattern. */
static void widen(Frame *f, unsigned salt)
{
    for (unsigned k = 0; k < W * H; k++)
        f->y16[k] = (uint16_t)(f->y[k] * 4 + ((k * 7 + salt) & 3));
    for (unsigned k = 0; k < W * H / 4; k++) {
        f->u16[k] = (uint16_t)(f->u[k] * 4 + (k & 3));
        f->v16[k] = (uint16_t)(f->v[k] * 4 + ((k + salt) & 3));
    }
}

static void make_frames(void)
{
    uint64_t s = 35;
    for (int t = 0; t < FRAMES; t++) {
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++)
                /* busy texture above, a banded ramp below (CAMBI's
                 * reference side must not be zero) */
                ref[t].y[y * W + x] =
                    y < H / 2 ? (uint8_t)((((x * 3 + t * 4) ^ (y * 2)) & 127) +
                                          (x + y + 6 * t) % 90)
                              : (uint8_t)(60 + (x + 3 * t) / 12);
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
    for (int t = 0; t < FRAMES; t++) {
        for (int i = 0; i < 4; i++)
            widen(i ? &dis[i - 1][t] : &ref[t], (unsigned)(t + 5 * i));
        for (int k = W * H / 2; k < W * H; k++) /* the ramp stays banded */
            ref[t].y16[k] = (uint16_t)(ref[t].y[k] * 4);
        for (int i = 0; i < 4; i++) {
            Frame *f = i ? &dis[i - 1][t] : &ref[t];
            for (int k = 0; k < W * H; k++)
                f->py[k] = (uint16_t)(f->y16[k] << 6);
            for (int k = 0; k < W * H / 4; k++) {
                f->uv[2 * k] = f->u[k];
                f->uv[2 * k + 1] = f->v[k];
                f->puv[2 * k] = (uint16_t)(f->u16[k] << 6);
                f->puv[2 * k + 1] = (uint16_t)(f->v16[k] << 6);
            }
        }
    }
}

/* What a case selects and how it runs. */
typedef struct Case {
    VqBackend backend;
    const char *model;
    unsigned threads;   /* VqConfig.n_threads */
    unsigned skip;      /* frames (bit t: frame t) rendition 2 leaves out */
    unsigned short_len; /* frames of the rendition that ends early */
    const char *extra;  /* one more feature, with options (NULL: none);
                           a VIF, ADM, ssimulacra2 or full_ref CAMBI one
                           shares a product too */
    unsigned bpc;       /* 8, or 10: the frames' values x 4 plus 0..3 */
    bool semi;          /* semi-planar: NV12 (8 bits), P010 (10 bits) */
} Case;

static Case cur = { VQ_BACKEND_CPU, "version=vmaf_v0.6.1", 0, 0, SHORT,
                    NULL, 8, false };

static VqPicture pic(const Frame *f)
{
    VqPicture p = { .fmt = VQ_PIX_FMT_420, .bpc = 8, .w = W, .h = H };
    if (cur.semi) { /* the same samples, in the semi-planar layout */
        p.fmt = cur.bpc > 8 ? VQ_PIX_FMT_P010 : VQ_PIX_FMT_NV12;
        p.bpc = cur.bpc;
        p.data[0] = cur.bpc > 8 ? (const void *)f->py : (const void *)f->y;
        p.data[1] = cur.bpc > 8 ? (const void *)f->puv : (const void *)f->uv;
        p.stride[0] = p.stride[1] = cur.bpc > 8 ? 2 * W : W;
        return p;
    }
    if (cur.bpc > 8) {
        p.bpc = cur.bpc;
        p.data[0] = f->y16;
        p.data[1] = f->u16;
        p.data[2] = f->v16;
        p.stride[0] = 2 * W;
        p.stride[1] = p.stride[2] = W;
        return p;
    }
    p.data[0] = f->y;
    p.data[1] = f->u;
    p.data[2] = f->v;
    p.stride[0] = W;
    p.stride[1] = p.stride[2] = W / 2;
    return p;
}

/* Extractors whose reference work a ladder shares (docs/LADDER.md, "What
 * is shared"): the model's integer motion, float_motion, motion_v2 when
 * computed on the CPU (on the GPU: counted by the caller). */
static unsigned shared_extractors(VqContext *ctx)
{
    const char *im = vq_output_backend(ctx, "integer_motion2");
    const char *mb[3] = { im ? im : vq_output_backend(ctx,
                                                      "integer_motion2_mmxv_18"),
                          vq_output_backend(ctx, "motion2"),
                          vq_output_backend(ctx, "motion2_v2_score") };
    unsigned n = 0;
    for (unsigned k = 0; k < 3; k++) {
        CHECK_MSG(mb[k], "no backend for motion output %u", k);
        n += mb[k] && !strcmp(mb[k], "cpu");
    }
    return n;
}

/* The backend of the first output whose name starts with prefix (the
 * models' outputs carry their options in their names), or NULL. */
static const char *prefix_backend(VqContext *ctx, const char *prefix)
{
    for (unsigned i = 0; i < vq_output_count(ctx); i++) {
        const char *name = vq_output_name(ctx, i);
        if (name && !strncmp(name, prefix, strlen(prefix)))
            return vq_output_backend(ctx, name);
    }
    return NULL;
}

/* Extractors whose frames are independent, sharing a per-frame product of
 * the reference: the model's integer VIF (vmaf_v0.6.1), integer ADM (both
 * models) and speed_chroma (vmaf_v1.0.16_3d0h) on the CPU. */
static unsigned product_extractors(VqContext *ctx)
{
    static const char *const prefix[3] = { "integer_vif", "integer_adm",
                                           "speed_chroma" };
    unsigned n = 0;
    for (unsigned k = 0; k < 3; k++) {
        const char *be = prefix_backend(ctx, prefix[k]);
        n += be && !strcmp(be, "cpu");
    }
    return n;
}

/* Extractors whose frames the ladder's GPU stage splits (their reference
 * part computed there once per frame): VIF, ADM, ssimulacra2 and CAMBI
 * with full_ref on a real or emulated device (the fake one runs the CPU
 * code), the model's and an extra one. */
static unsigned split_extractors(VqContext *ctx)
{
    const char *fake = getenv("VQHIP_FAKE_GPU");
    const char *split = getenv("VQHIP_LADDER_SPLIT");
    if ((fake && *fake && strcmp(fake, "0")) || (split && !strcmp(split, "0")))
        return 0;
    static const char *const name[2] = { "integer_vif", "integer_adm" };
    static const char *const extra[2] = { "name=vif", "name=adm" };
    unsigned n = 0;
    for (unsigned k = 0; k < 2; k++) {
        const char *be = prefix_backend(ctx, name[k]);
        if (be && strcmp(be, "cpu"))
            n += 1 + (cur.extra && !strncmp(cur.extra, extra[k], 8));
    }
    /* ssimulacra2 (an extra feature here) */
    const char *s2 = prefix_backend(ctx, "ssimulacra2");
    n += s2 && strcmp(s2, "cpu") && cur.extra &&
         !strcmp(cur.extra, "ssimulacra2");
    /* CAMBI with full_ref: its reference image's half of the record */
    const char *cambi = prefix_backend(ctx, "cambi_full_reference");
    n += cambi && strcmp(cambi, "cpu") && cur.extra &&
         strstr(cur.extra, "full_ref=true");
    return n;
}

static int select_all(VqContext *ctx)
{
    int r = vq_use_model(ctx, cur.model);
    if (!r)
        r = vq_use_feature(ctx, "psnr");
    if (!r)
        r = vq_use_feature(ctx, "float_motion");
    if (!r)
        r = vq_use_feature(ctx, "motion_v2");
    if (!r && cur.extra)
        r = vq_use_feature(ctx, cur.extra);
    return r;
}

static void take(VqContext *ctx, Values *out)
{
    VqFrameScores fs;
    while (vq_receive(ctx, &fs) == 0) {
        unsigned t = fs.index;
        CHECK_MSG(t == out->n_frames && t < FRAMES && fs.n <= MAX_OUT,
              "frame %u out of order or too many outputs", t);
        if (t != out->n_frames || t >= FRAMES || fs.n > MAX_OUT)
            return;
        out->n_out[t] = fs.n;
        for (unsigned k = 0; k < fs.n; k++) {
            snprintf(out->name[t][k], sizeof(out->name[t][k]), "%s",
                     fs.scores[k].name);
            out->v[t][k] = fs.scores[k].value;
        }
        out->n_frames++;
    }
}

/* The existing path: rendition i alone against the reference. */
static void pair_run(unsigned i, unsigned frames, Values *out)
{
    VqConfig cfg = vq_default_config();
    cfg.backend = cur.backend;
    cfg.n_threads = cur.threads;
    VqContext *ctx;
    memset(out, 0, sizeof(*out));
    int r = vq_open(&ctx, &cfg);
    if (!r)
        r = select_all(ctx);
    for (unsigned t = 0; !r && t < frames; t++) {
        VqPicture rp = pic(&ref[t]), dp = pic(&dis[i][t]);
        if (i == 1 && (cur.skip >> t & 1))
            r = vq_skip_next(ctx);
        if (!r)
            r = vq_submit(ctx, &rp, &dp);
        take(ctx, out);
    }
    if (!r)
        r = vq_flush(ctx);
    take(ctx, out);
    CHECK_MSG(!r, "pair run %u: %s", i, vq_last_error(ctx));
    vq_close(&ctx);
}

static void same(const Values *a, const Values *b, const char *what)
{
    CHECK_MSG(a->n_frames == b->n_frames, "%s: %u frames, the pair run %u", what,
          a->n_frames, b->n_frames);
    for (unsigned t = 0; t < a->n_frames && t < b->n_frames; t++) {
        CHECK_MSG(a->n_out[t] == b->n_out[t], "%s: frame %u: %u outputs, the "
              "pair run %u", what, t, a->n_out[t], b->n_out[t]);
        for (unsigned k = 0; k < a->n_out[t] && k < b->n_out[t]; k++) {
            CHECK_MSG(!strcmp(a->name[t][k], b->name[t][k]), "%s: frame %u, "
                  "output %u %s, pair %s", what, t, k, a->name[t][k],
                  b->name[t][k]);
            CHECK_MSG(!memcmp(&a->v[t][k], &b->v[t][k], sizeof(double)),
                  "%s: frame %u %s = %.17g, the pair run's %.17g", what, t,
                  a->name[t][k], a->v[t][k], b->v[t][k]);
        }
    }
}

/* A ladder of n renditions (dis[0..n-1]); rendition `short_one` (n: none)
 * ends after SHORT frames. */
static void ladder_case(unsigned n, unsigned short_one)
{
    static Values got[3], want;
    VqConfig cfg = vq_default_config();
    cfg.backend = cur.backend;
    cfg.n_threads = cur.threads;
    VqLadder *l;
    int r = vq_ladder_open(&l, &cfg, n);
    CHECK_MSG(!r && vq_ladder_count(l) == n, "open %u: %s", n,
          vq_ladder_last_error(l));
    for (unsigned i = 0; !r && i < n; i++)
        r = select_all(vq_ladder_context(l, i));
    for (unsigned t = 0; !r && t < FRAMES; t++) {
        if (t == cur.short_len && short_one < n)
            r = vq_ladder_end(l, short_one);
        if (!r && n > 1 && (cur.skip >> t & 1))
            r = vq_skip_next(vq_ladder_context(l, 1));
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
    CHECK_MSG(!r, "ladder of %u: %s", n, vq_ladder_last_error(l));
    unsigned taken = 0; /* frames the renditions took */
    unsigned computed = 0; /* of those, frames not left out */
    for (unsigned i = 0; i < n; i++) {
        unsigned frames = i == short_one ? cur.short_len : FRAMES;
        taken += frames;
        computed += frames;
        for (unsigned t = 0; i == 1 && t < frames; t++)
            computed -= cur.skip >> t & 1;
        take(vq_ladder_context(l, i), &got[i]);
        pair_run(i, frames, &want);
        char what[96];
        snprintf(what, sizeof(what), "%s, %u threads, ladder of %u (%u "
                 "ends early), rendition %u", cur.model, cur.threads, n,
                 short_one + 1, i + 1);
        same(&got[i], &want, what);
        CHECK_MSG(want.n_frames == frames, "%s: %u frames", what, want.n_frames);
    }
    /* shared: once per frame and extractor (none with one rendition) */
    VqLadderShare sh;
    CHECK_MSG(!vq_ladder_share_info(l, &sh), "vq_ladder_share_info");
    unsigned k = n > 1 ? shared_extractors(vq_ladder_context(l, n - 1)) : 0;
    unsigned kp = n > 1 ? product_extractors(vq_ladder_context(l, n - 1)) : 0;
    kp += n > 1 && kp && cur.extra; /* on the CPU as the model's */
    /* the motions on the GPU: computed by the ladder's stage (below) */
    const char *be = vq_backend_name(vq_ladder_context(l, n - 1));
    bool gpu = n > 1 && be && strstr(be, "hip");
    if (gpu)
        k = 3; /* on the CPU (shared there) or on the GPU (the stage's) */
    /* VIF split on the GPU: its reference part once per staged frame */
    if (gpu)
        kp += split_extractors(vq_ladder_context(l, n - 1));
    CHECK_MSG(fault_set || (sh.extractors == k + kp &&
          sh.computed == (uint64_t)(k + kp) * FRAMES &&
          sh.used == (uint64_t)k * taken + (uint64_t)kp * computed),
          "%s, ladder of %u: %u extractors shared, computed %llu times, "
          "used %llu; want %u, %u, %u", cur.model, n, sh.extractors,
          (unsigned long long)sh.computed, (unsigned long long)sh.used,
          k + kp, (k + kp) * FRAMES, k * taken + kp * computed);
    /* the GPU's staging: every frame while two renditions run on it (all
     * of them here), read by every frame a rendition computed there (a
     * skipped frame too where a motion runs there: its temporal outputs) */
    bool motion_gpu = gpu && shared_extractors(vq_ladder_context(l, 0)) < 3;
    unsigned read = !gpu ? 0 : motion_gpu ? taken : computed;
    if (!fault_set)
        CHECK_MSG(sh.gpu_staged == (gpu ? FRAMES : 0) &&
              sh.gpu_staged_used == read,
              "%s, ladder of %u on %s: the reference staged %llu times, "
              "read %llu; want %u, %u", cur.model, n, be ? be : "?",
              (unsigned long long)sh.gpu_staged,
              (unsigned long long)sh.gpu_staged_used, gpu ? FRAMES : 0,
              read);
    else
        CHECK_MSG(!gpu || sh.gpu_staged_used > 0, "%s, ladder of %u: a "
              "fault before any staged reference was read", cur.model, n);
    if (cur.backend == VQ_BACKEND_AUTO && n > 1)
        printf("automatic backend: %s, %u extractors shared\n",
               vq_backend_name(vq_ladder_context(l, 0)), sh.extractors);
    vq_ladder_close(&l);
    CHECK_MSG(!l, "vq_ladder_close leaves the handle set");
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

/* A 10-bit reference with a luma sample above 1023: every rendition
 * refuses the frame, so none took it and the ladder goes on with the next
 * one, the same frame index: its values are the pair run's (the records
 * the ladder's VIF pass kept of that index are not the refused frame's). */
static void bad_sample_case(void)
{
    static Frame bad;
    static Values got, want;
    Case keep = cur;
    cur.bpc = 10;
    cur.semi = false;
    cur.threads = 2;
    cur.skip = 0;
    cur.extra = NULL;
    cur.model = "version=vmaf_v0.6.1";
    bad = ref[0];
    bad.y16[W * 7 + 9] = 0xffff;
    VqConfig cfg = vq_default_config();
    cfg.backend = VQ_BACKEND_CPU;
    cfg.n_threads = cur.threads;
    VqLadder *l;
    int r = vq_ladder_open(&l, &cfg, 2);
    for (unsigned i = 0; !r && i < 2; i++)
        r = select_all(vq_ladder_context(l, i));
    VqPicture rp = pic(&bad), d0 = pic(&dis[0][0]), d1 = pic(&dis[1][0]);
    const VqPicture *d[2] = { &d0, &d1 };
    if (!r)
        r = vq_ladder_submit(l, &rp, d);
    CHECK_MSG(r == VQ_EINVAL && strstr(vq_ladder_last_error(l), "65535"),
              "a sample above 10 bits: %d %s", r, vq_ladder_last_error(l));
    rp = pic(&ref[0]);
    r = vq_ladder_submit(l, &rp, d);
    if (!r)
        r = vq_ladder_flush(l);
    CHECK_MSG(!r, "the next frame after a refused one: %s",
              vq_ladder_last_error(l));
    memset(&got, 0, sizeof(got));
    take(vq_ladder_context(l, 1), &got);
    vq_ladder_close(&l);
    pair_run(1, 1, &want);
    same(&got, &want, "the frame after a refused one");
    cur = keep;
}

/* vq_ladder_log_path: the rendition's number from 1, its label, %% kept
 * once; a pattern naming one file, an unknown conversion or a short
 * buffer refused with the reason. */
static void log_path_cases(void)
{
    char out[64], why[256];
    int r = vq_ladder_log_path(out, sizeof(out), "logs/%d_%s_100%%.json", 2,
                               "r720p", why, sizeof(why));
    CHECK_MSG(!r && !strcmp(out, "logs/3_r720p_100%.json"), "%%d/%%s/%%%%: %d '%s'",
          r, r ? why : out);
    r = vq_ladder_log_path(out, sizeof(out), "log.json", 0, "a", why, sizeof(why));
    CHECK_MSG(r == VQ_EINVAL && strstr(why, "%d") && strstr(why, "log.json"),
          "no %%d or %%s: %d %s", r, why);
    r = vq_ladder_log_path(out, sizeof(out), "log_%x_%d", 0, "a", why, sizeof(why));
    CHECK_MSG(r == VQ_EINVAL && strstr(why, "'%x'"), "%%x: %d %s", r, why);
    r = vq_ladder_log_path(out, 8, "log_%s.json", 0, "rendition", why, sizeof(why));
    CHECK_MSG(r == VQ_EINVAL && strstr(why, "too long"), "short buffer: %d %s", r, why);
}

/* Each case: ladders of 1 and 3, one of them ending early (none, the
 * second, the first). */
static void run_cases(const Case *cases, unsigned n)
{
    for (unsigned c = 0; c < n; c++) {
        cur = cases[c];
        ladder_case(1, 1);
        ladder_case(3, 3);
        ladder_case(3, 1);
        ladder_case(3, 0);
    }
}

/* The GPU cases: a skipping rendition, 8 and 10 bits, both models, two
 * VIFs, two ADMs. */
static int gpu_cases(void)
{
    int present = vq_test_gpu_present("test_ladder_gpu");
    if (present)
        return present;
    fault_set = getenv("VQHIP_FAULT") != NULL;
    static const Case cases[] = {
        { VQ_BACKEND_HIP, "version=vmaf_v0.6.1", 2, 0x24, SHORT, "ssimulacra2",
          8, false },
        { VQ_BACKEND_HIP, "version=vmaf_v1.0.16_3d0h", 0, 0, SHORT,
          "name=cambi:full_ref=true", 10, false },
        /* a second VIF, a second ADM, their scale 0 skipped, split too */
        { VQ_BACKEND_HIP, "version=vmaf_v0.6.1", 0, 0x10, SHORT,
          "name=vif:vif_skip_scale0=true:debug=true", 10, false },
        { VQ_BACKEND_HIP, "version=vmaf_v1.0.16_3d0h", 2, 0, SHORT,
          "name=adm:adm_skip_scale0=true:adm_skip_aim=true:debug=true", 8, false },
    };
    run_cases(cases, sizeof(cases) / sizeof(cases[0]));
    printf("%u checks, %u failed\n", n_checks, n_fail);
    return n_fail ? 1 : 0;
}

int main(int argc, char **argv)
{
    make_frames();
    if (argc > 1 && !strcmp(argv[1], "hip"))
        return gpu_cases();
    log_path_cases();
    static const Case cases[] = {
        { VQ_BACKEND_CPU, "version=vmaf_v0.6.1", 0, 0, SHORT, "ssimulacra2",
          8, false },
        /* one thread, skips; VIF's scale 0 skipped, its debug outputs */
        { VQ_BACKEND_CPU, "version=vmaf_v0.6.1", 1, 0x24, SHORT,
          "name=vif:vif_skip_scale0=true:debug=true", 8, false },
        /* one ends at once; ADM without scale 0 and AIM */
        { VQ_BACKEND_CPU, "version=vmaf_v1.0.16_3d0h", 3, 0x0a, 0,
          "name=adm:adm_skip_scale0=true:adm_skip_aim=true:debug=true", 8, false },
        /* 10-bit pictures */
        { VQ_BACKEND_CPU, "version=vmaf_v0.6.1", 2, 0x10, SHORT,
          "ssimulacra2", 10, false },
        /* semi-planar: NV12, P010 (the ladder's pass reads P010's luma
         * shifted down into planes of its own) */
        { VQ_BACKEND_CPU, "version=vmaf_v0.6.1", 2, 0, SHORT,
          "name=vif:vif_skip_scale0=true:debug=true", 8, true },
        { VQ_BACKEND_CPU, "version=vmaf_v0.6.1", 0, 0x06, SHORT,
          "name=vif:vif_enhn_gain_limit=1.0", 10, true },
        /* the GPU where there is one (the reference staged once, the
         * motions computed once), else the CPU */
        { VQ_BACKEND_AUTO, "version=vmaf_v0.6.1", 2, 0, SHORT,
          "name=cambi:full_ref=true", 8, false },
    };
    run_cases(cases, sizeof(cases) / sizeof(cases[0]));

    char msg[1024];
    VqPicture good = pic(&dis[1][0]), small = good, deep = good;
    small.w = W - 16;
    deep.bpc = 10;
    int r = refused(1, &good, msg, sizeof(msg));
    CHECK_MSG(r == VQ_EINVAL && strstr(msg, "rendition 2") &&
          strstr(msg, "same features"), "other features: %d %s", r, msg);
    r = refused(0, &small, msg, sizeof(msg));
    char size[32];
    snprintf(size, sizeof(size), "%dx%d", W - 16, H);
    CHECK_MSG(r == VQ_EINVAL && strstr(msg, "rendition 2") && strstr(msg, size),
          "another size: %d %s", r, msg);
    r = refused(0, &deep, msg, sizeof(msg));
    CHECK_MSG(r == VQ_EINVAL && strstr(msg, "rendition 2") && strstr(msg, "10 bits"),
          "another bit depth: %d %s", r, msg);
    r = refused(0, NULL, msg, sizeof(msg));
    CHECK_MSG(r == VQ_EINVAL && strstr(msg, "rendition 2") &&
          strstr(msg, "vq_ladder_end"), "no picture: %d %s", r, msg);
    bad_sample_case();

    VqConfig cfg = vq_default_config();
    cfg.backend = VQ_BACKEND_CPU;
    VqLadder *l;
    CHECK_MSG(vq_ladder_open(&l, &cfg, 0) == VQ_EINVAL, "a ladder of 0 opened");
    vq_ladder_close(&l);
    CHECK_MSG(!vq_ladder_open(&l, &cfg, 2), "open 2: %s", vq_ladder_last_error(l));
    VqContext *c = vq_ladder_context(l, 1);
    CHECK_MSG(c && !vq_ladder_context(l, 2), "vq_ladder_context's range");
    VqPicture rp = pic(&ref[0]), dp = pic(&dis[0][0]);
    r = vq_submit(c, &rp, &dp);
    CHECK_MSG(r == VQ_ESTATE && strstr(vq_last_error(c), "vq_ladder_submit"),
          "vq_submit on a rendition: %d %s", r, vq_last_error(c));
    VqContext *c2 = c;
    vq_close(&c2);
    CHECK_MSG(c2 == c && vq_use_feature(c, "psnr") == 0,
          "vq_close closed a rendition's context");
    vq_ladder_close(&l);

    printf("%u checks, %u failed\n", n_checks, n_fail);
    return n_fail ? 1 : 0;
}
