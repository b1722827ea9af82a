/*
 * speed_chroma and speed_temporal against libvmaf.
 *
 *   speed_test            every case on the CPU, and on the GPU when one
 *                         opens, against libvmaf's doubles (speed_expect.h):
 *                         the same output names (option suffixes included)
 *                         and the same double, bit for bit, for every frame;
 *                         then the sizes, formats and options vqhip must
 *                         refuse, and the model option path (a string
 *                         option from a model file).
 *   speed_test --dump DIR writes each case's frames as raw files in the
 *                         layout libvmaf reads (chroma w >> 1) and
 *                         prints one line per case for speed_expect.sh.
 *
 * Exit status: 0 pass, 1 fail.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "speed_run.h"

typedef struct SpeedCase {
    const char *name;
    VqPixFmt fmt;
    unsigned bpc, w, h, frames;
    int pattern;
    const char *feature;
    const char *options; /* key=value:... (libvmaf's and vqhip's syntax) */
} SpeedCase;

#define C420 VQ_PIX_FMT_420
#define C422 VQ_PIX_FMT_422
#define C444 VQ_PIX_FMT_444
#define MODEL_OPTS "speed_sigma_nn=0.19:speed_nn_floor=0.1:" \
                   "speed_weight_var_mode=5:speed_max_val=45"

/* Planes of about 320x240 after the prescale: 12 blocks, a 16x11
 * covariance window (smaller planes make every covariance singular). */
static const SpeedCase cases[] = {
    { "chroma_420_8_640x480", C420, 8, 640, 480, 4, PAT_TEXTURE,
      "speed_chroma", "" },
    { "chroma_422_10_odd_641x241", C422, 10, 641, 241, 3, PAT_TEXTURE,
      "speed_chroma", "" },
    { "chroma_444_12_odd_331x247_model", C444, 12, 331, 247, 3, PAT_TEXTURE,
      "speed_chroma", MODEL_OPTS },
    { "chroma_420_16_odd_645x483_wvm3", C420, 16, 645, 483, 3, PAT_TEXTURE,
      "speed_chroma", "speed_weight_var_mode=3" },
    { "chroma_444_8_wvm1", C444, 8, 320, 240, 2, PAT_TEXTURE, "speed_chroma",
      "speed_weight_var_mode=1" },
    { "chroma_444_8_wvm2", C444, 8, 320, 240, 2, PAT_TEXTURE, "speed_chroma",
      "speed_weight_var_mode=2" },
    { "chroma_444_8_wvm4_nnf", C444, 8, 320, 240, 2, PAT_TEXTURE,
      "speed_chroma", "speed_weight_var_mode=4:speed_nn_floor=0.5" },
    { "chroma_444_8_wvm6_snn", C444, 8, 320, 240, 2, PAT_TEXTURE,
      "speed_chroma", "speed_weight_var_mode=6:speed_sigma_nn=1.5" },
    { "chroma_444_8_ks0.5", C444, 8, 320, 240, 2, PAT_TEXTURE, "speed_chroma",
      "speed_kernelscale=0.5" },
    { "chroma_444_8_ks3.7", C444, 8, 320, 240, 2, PAT_TEXTURE, "speed_chroma",
      "speed_kernelscale=3.711340" },
    { "chroma_444_8_bilinear_0.5", C444, 8, 640, 480, 2, PAT_TEXTURE,
      "speed_chroma", "speed_prescale=0.5:speed_prescale_method=bilinear" },
    { "chroma_420_8_nearest_1.5", C420, 8, 448, 320, 2, PAT_TEXTURE,
      "speed_chroma", "speed_prescale=1.5" },
    { "chroma_444_10_bicubic_0.8", C444, 10, 400, 300, 2, PAT_TEXTURE,
      "speed_chroma", "speed_prescale=0.8:speed_prescale_method=bicubic" },
    { "chroma_422_8_lanczos4_1.25", C422, 8, 512, 192, 2, PAT_TEXTURE,
      "speed_chroma", "speed_prescale=1.25:speed_prescale_method=lanczos4" },
    { "chroma_420_8_v1016_2160", C420, 8, 1280, 960, 3, PAT_TEXTURE,
      "speed_chroma", "speed_prescale=0.5:speed_prescale_method=bilinear:"
      MODEL_OPTS },
    { "chroma_420_10_v1016_5d0h", C420, 10, 1072, 800, 3, PAT_TEXTURE,
      "speed_chroma", "speed_prescale=0.6:speed_prescale_method=bilinear:"
      MODEL_OPTS },
    { "chroma_420_8_flat", C420, 8, 320, 320, 2, PAT_FLAT, "speed_chroma",
      "" },
    { "chroma_444_8_flat_ref_u", C444, 8, 320, 240, 2, PAT_FLAT_REF_U,
      "speed_chroma", "" },
    { "chroma_444_16_extremes", C444, 16, 320, 240, 2, PAT_EXTREMES,
      "speed_chroma", "" },
    { "chroma_444_8_noise_mxv", C444, 8, 320, 240, 2, PAT_NOISE,
      "speed_chroma", "speed_max_val=1.5" },
    { "temporal_420_8_320x240", C420, 8, 320, 240, 4, PAT_TEXTURE,
      "speed_temporal", "" },
    { "temporal_444_12_odd_331x247_urd", C444, 12, 331, 247, 3, PAT_TEXTURE,
      "speed_temporal", "speed_use_ref_diff=true" },
    { "temporal_422_16_325x245_ks2", C422, 16, 325, 245, 3, PAT_TEXTURE,
      "speed_temporal", "speed_kernelscale=2" },
    { "temporal_420_8_bilinear_0.75", C420, 8, 432, 320, 3, PAT_TEXTURE,
      "speed_temporal", "speed_prescale=0.75:speed_prescale_method=bilinear:"
      "speed_sigma_nn=0.19:speed_nn_floor=0.1" },
    { "temporal_444_10_lanczos4_0.9", C444, 10, 356, 268, 3, PAT_TEXTURE,
      "speed_temporal", "speed_prescale=0.9:speed_prescale_method=lanczos4" },
    { "temporal_420_8_flat", C420, 8, 320, 240, 3, PAT_FLAT,
      "speed_temporal", "" },
    { "temporal_444_8_noise_mxv", C444, 8, 320, 240, 3, PAT_NOISE,
      "speed_temporal", "speed_max_val=1" },
};
#define N_CASES (sizeof(cases) / sizeof(cases[0]))

#define MAX_KEYS 3
#define MAX_FRAMES 4
typedef struct SpeedExpect {
    const char *name;
    const char *keys[MAX_KEYS + 1];
    double value[MAX_FRAMES][MAX_KEYS];
} SpeedExpect;

#include "speed_expect.h"

static unsigned n_fail, n_pass;

#define FAIL(...)                                                            \
    do {                                                                     \
        n_fail++;                                                            \
        printf("FAIL " __VA_ARGS__);                                         \
    } while (0)

/* ---- dump for libvmaf ------------------------------------------------- */

static const char *fmt_name(VqPixFmt f)
{
    return f == C420 ? "420" : f == C422 ? "422" : "444";
}

/* Writes picture p with chroma planes of libvmaf's size (w >> ss). */
static int write_pic(FILE *f, const FramesPic *p)
{
    const unsigned bps = p->pic.bpc > 8 ? 2 : 1;
    const unsigned sx = p->pic.fmt == C444 ? 0 : 1;
    const unsigned sy = p->pic.fmt == C420 ? 1 : 0;
    for (unsigned c = 0; c < 3; c++) {
        const unsigned pw = c ? p->pic.w >> sx : p->pic.w;
        const unsigned ph = c ? p->pic.h >> sy : p->pic.h;
        for (unsigned y = 0; y < ph; y++)
            if (fwrite(p->buf[c] + y * (size_t)p->pic.stride[c], bps, pw, f) !=
                pw)
                return -1;
    }
    return 0;
}

static int dump(const char *dir)
{
    for (size_t i = 0; i < N_CASES; i++) {
        const SpeedCase *c = &cases[i];
        char path[2][512];
        FILE *f[2];
        for (int k = 0; k < 2; k++) {
            snprintf(path[k], sizeof(path[k]), "%s/%s_%s.yuv", dir, c->name,
                     k ? "dis" : "ref");
            if (!(f[k] = fopen(path[k], "wb")))
                return 1;
        }
        for (unsigned t = 0; t < c->frames; t++)
            for (int k = 0; k < 2; k++) {
                FramesPic p;
                if (frames_make(&p, c->fmt, c->bpc, c->w, c->h, c->pattern, t,
                                k) || write_pic(f[k], &p))
                    return 1;
                frames_free(&p);
            }
        fclose(f[0]);
        fclose(f[1]);
        printf("%s %u %u %s %u %u %s %s\n", c->name, c->w, c->h,
               fmt_name(c->fmt), c->bpc, c->frames, c->feature,
               *c->options ? c->options : "-");
    }
    return 0;
}

/* ---- against libvmaf --------------------------------------------------- */

static const SpeedExpect *expect_for(const char *name)
{
    for (size_t i = 0; i < sizeof(speed_expect) / sizeof(speed_expect[0]); i++)
        if (!strcmp(speed_expect[i].name, name))
            return &speed_expect[i];
    return NULL;
}

static void check_case(const SpeedCase *c, VqBackend backend)
{
    const char *bname = backend == VQ_BACKEND_HIP ? "hip" : "cpu";
    const SpeedExpect *e = expect_for(c->name);
    if (!e) {
        FAIL("%s: no expected values\n", c->name);
        return;
    }
    char spec[512];
    snprintf(spec, sizeof(spec), "name=%s%s%s", c->feature,
             *c->options ? ":" : "", c->options);
    const char *specs[] = { spec, NULL };
    const RunInput in = { c->fmt, c->bpc, c->w, c->h, c->frames, c->pattern };
    RunResult *r = malloc(sizeof(*r));
    if (!r || run_features(r, backend, specs, NULL, &in)) {
        FAIL("%s [%s]: %s\n", c->name, bname, r ? r->err : "out of memory");
        free(r);
        return;
    }
    unsigned bad = 0, nk = 0;
    for (; e->keys[nk]; nk++) {
        const int k = run_find(r, e->keys[nk]);
        if (k < 0) {
            FAIL("%s [%s]: no output %s\n", c->name, bname, e->keys[nk]);
            bad++;
            continue;
        }
        if (strcmp(r->backend[k], bname)) {
            FAIL("%s [%s]: %s computed on %s\n", c->name, bname, e->keys[nk],
                 r->backend[k]);
            bad++;
        }
        for (unsigned t = 0; t < c->frames; t++) {
            if (!r->have[k][t] ||
                memcmp(&r->value[k][t], &e->value[t][nk], sizeof(double))) {
                FAIL("%s [%s] frame %u %s: libvmaf %.17g, vqhip %.17g%s\n",
                     c->name, bname, t, e->keys[nk], e->value[t][nk],
                     r->value[k][t], r->have[k][t] ? "" : " (missing)");
                bad++;
            }
        }
    }
    if (r->n_out != nk) {
        FAIL("%s [%s]: %u outputs, libvmaf has %u\n", c->name, bname,
             r->n_out, nk);
        bad++;
    }
    if (!bad)
        n_pass++;
    free(r);
}

/* ---- what must be refused ---------------------------------------------- */

static void expect_refused(const char *what, const char *spec, VqPixFmt fmt,
                           unsigned w, unsigned h, int want, const char *words)
{
    const char *specs[] = { spec, NULL };
    const RunInput in = { fmt, 8, w, h, 2, PAT_TEXTURE };
    RunResult *r = malloc(sizeof(*r));
    if (!r)
        return;
    int got = run_features(r, VQ_BACKEND_CPU, specs, NULL, &in);
    if (got != want || !strstr(r->err, words))
        FAIL("%s: error %d \"%s\", expected %d with \"%s\"\n", what, got,
             r->err, want, words);
    else
        n_pass++;
    free(r);
}

static void check_refusals(void)
{
    /* golden g07: libvmaf crashes; vqhip says why, before any frame */
    expect_refused("speed_chroma 203x117 4:2:0", "speed_chroma", C420, 203,
                   117, VQ_EUNSUPPORTED, "101x58 chroma plane is too small");
    expect_refused("speed_chroma minimum named", "speed_chroma", C420, 203,
                   117, VQ_EUNSUPPORTED, "frames of 160x160 or more");
    expect_refused("speed_chroma 159x200 4:2:0", "speed_chroma", C420, 159,
                   200, VQ_EUNSUPPORTED, "too small");
    expect_refused("speed_chroma gray", "speed_chroma", VQ_PIX_FMT_GRAY, 200,
                   200, VQ_EUNSUPPORTED, "needs chroma planes");
    expect_refused("speed_temporal 79x100", "speed_temporal", C444, 79, 100,
                   VQ_EUNSUPPORTED, "80x80");
    expect_refused("speed_chroma prescale minimum",
                   "speed_chroma:speed_prescale=0.5", C444, 150, 300,
                   VQ_EUNSUPPORTED, "at least 159x159");
    expect_refused("kernel scale", "speed_chroma:speed_kernelscale=1.3", C444,
                   96, 96, VQ_EINVAL, "kernel scales");
    expect_refused("prescale method", "speed_chroma:speed_prescale_method=area",
                   C444, 96, 96, VQ_EINVAL, "nearest, bilinear, bicubic, lanczos4");
    expect_refused("weight var mode", "speed_chroma:speed_weight_var_mode=7",
                   C444, 96, 96, VQ_EINVAL, "speed_weight_var_mode");
    expect_refused("temporal has no weight var mode",
                   "speed_temporal:speed_weight_var_mode=1", C444, 96, 96,
                   VQ_ENOTFOUND, "no option");
    expect_refused("prescale near 1", "speed_temporal:speed_prescale=1.0008",
                   C444, 1920, 96, VQ_EUNSUPPORTED, "within 0.001 of 1");
    /* the smallest accepted sizes run */
    const char *specs[] = { "speed_chroma", "speed_temporal", NULL };
    const RunInput in = { C420, 8, 160, 160, 2, PAT_TEXTURE };
    RunResult *r = malloc(sizeof(*r));
    if (r && run_features(r, VQ_BACKEND_CPU, specs, NULL, &in))
        FAIL("160x160 4:2:0: %s\n", r->err);
    else if (r)
        n_pass++;
    free(r);
}

/* A model's feature options reach speed_chroma, a string among them
 * (speed_prescale_method), and name its output as libvmaf does. */
static void check_model_options(const char *model_path)
{
    char model[600];
    snprintf(model, sizeof(model), "path=%s:name=m", model_path);
    const char *direct[] = {
        "name=speed_chroma:speed_prescale=0.5:speed_prescale_method=bilinear:"
        MODEL_OPTS, NULL
    };
    const char *uv = "speed_chroma_uv_mxv_45_nnf_0.1_ps_0.5_psm_bilinear_"
                     "snn_0.19_wvm_5";
    const RunInput in = { C420, 8, 352, 320, 2, PAT_TEXTURE };
    RunResult *a = malloc(sizeof(*a)), *b = malloc(sizeof(*b));
    if (!a || !b || run_features(a, VQ_BACKEND_CPU, NULL, model, &in) ||
        run_features(b, VQ_BACKEND_CPU, direct, NULL, &in)) {
        FAIL("model with speed options: %s\n",
             a && a->err[0] ? a->err : b ? b->err : "out of memory");
    } else {
        const int ka = run_find(a, uv), kb = run_find(b, uv), km = run_find(a, "m");
        if (ka < 0 || kb < 0 || km < 0)
            FAIL("model with speed options: outputs %s / m missing\n", uv);
        else if (memcmp(a->value[ka], b->value[kb], sizeof(double) * 2))
            FAIL("model with speed options: %s differs from the direct run\n",
                 uv);
        else
            n_pass++;
    }
    free(a);
    free(b);
}

/* ---- semi-planar input ------------------------------------------------ */

/* p as NV12 (8 bits) or P010 (samples << 6): luma copied, Cb and Cr
 * interleaved into plane 1. */
static int to_semiplanar(const FramesPic *p, FramesPic *out)
{
    memset(out, 0, sizeof(*out));
    const unsigned bps = p->pic.bpc > 8 ? 2 : 1, w = p->pic.w, h = p->pic.h;
    const unsigned cw = (w + 1) / 2, ch = (h + 1) / 2;
    const unsigned shift = bps == 2 ? 16 - p->pic.bpc : 0;
    out->pic = p->pic;
    out->pic.fmt = bps == 2 ? VQ_PIX_FMT_P010 : VQ_PIX_FMT_NV12;
    const size_t ls = (size_t)w * bps, cs = (size_t)cw * 2 * bps;
    out->buf[0] = malloc(ls * h);
    out->buf[1] = malloc(cs * ch);
    if (!out->buf[0] || !out->buf[1])
        return -1;
    for (unsigned y = 0; y < h; y++)
        for (unsigned x = 0; x < w; x++) {
            const uint8_t *r = p->buf[0] + y * (size_t)p->pic.stride[0];
            if (bps == 1)
                out->buf[0][y * ls + x] = r[x];
            else
                ((uint16_t *)(void *)(out->buf[0] + y * ls))[x] =
                    (uint16_t)(((const uint16_t *)(const void *)r)[x] << shift);
        }
    for (unsigned y = 0; y < ch; y++)
        for (unsigned x = 0; x < cw; x++)
            for (unsigned k = 0; k < 2; k++) {
                const uint8_t *r = p->buf[1 + k] + y * (size_t)p->pic.stride[1 + k];
                if (bps == 1)
                    out->buf[1][y * cs + 2 * x + k] = r[x];
                else
                    ((uint16_t *)(void *)(out->buf[1] + y * cs))[2 * x + k] =
                        (uint16_t)(((const uint16_t *)(const void *)r)[x] << shift);
            }
    out->pic.data[0] = out->buf[0];
    out->pic.data[1] = out->buf[1];
    out->pic.data[2] = NULL;
    out->pic.stride[0] = (ptrdiff_t)ls;
    out->pic.stride[1] = (ptrdiff_t)cs;
    out->pic.stride[2] = 0;
    return 0;
}

/* Runs speed_chroma and speed_temporal on 3 frames, planar or not. */
static int run_semiplanar(VqBackend backend, unsigned bpc, int semi,
                          RunResult *r)
{
    memset(r, 0, sizeof(*r));
    VqConfig cfg = vq_default_config();
    cfg.backend = backend;
    cfg.strict = backend == VQ_BACKEND_HIP;
    cfg.log_level = VQ_LOG_LEVEL_ERROR;
    VqContext *ctx = NULL;
    int err = vq_open(&ctx, &cfg);
    if (!err)
        err = vq_use_feature(ctx, "speed_chroma");
    if (!err)
        err = vq_use_feature(ctx, "speed_temporal");
    VqFrameScores fs;
    for (unsigned t = 0; !err && t < 3; t++) {
        FramesPic a[2], b[2];
        for (int k = 0; k < 2; k++) {
            memset(&b[k], 0, sizeof(b[k]));
            if (frames_make(&a[k], C420, bpc, 641, 483, PAT_TEXTURE, t, k) ||
                (semi && to_semiplanar(&a[k], &b[k])))
                err = VQ_ENOMEM;
        }
        if (!err)
            err = vq_submit(ctx, semi ? &b[0].pic : &a[0].pic,
                            semi ? &b[1].pic : &a[1].pic);
        for (int k = 0; k < 2; k++) {
            frames_free(&a[k]);
            frames_free(&b[k]);
        }
        while (!err && vq_receive(ctx, &fs) == 0)
            run_record(r, ctx, &fs);
    }
    if (!err)
        err = vq_flush(ctx);
    while (!err && vq_receive(ctx, &fs) == 0)
        run_record(r, ctx, &fs);
    if (err)
        snprintf(r->err, sizeof(r->err), "%s", vq_last_error(ctx));
    vq_close(&ctx);
    return err;
}

/* NV12 and P010 input score exactly as the same samples in planar frames. */
static void check_semiplanar(VqBackend backend)
{
    for (unsigned bpc = 8; bpc <= 10; bpc += 2) {
        RunResult *a = malloc(sizeof(*a)), *b = malloc(sizeof(*b));
        if (!a || !b || run_semiplanar(backend, bpc, 0, a) ||
            run_semiplanar(backend, bpc, 1, b)) {
            FAIL("semi-planar %u-bit: %s\n", bpc,
                 a && a->err[0] ? a->err : b ? b->err : "out of memory");
        } else if (a->n_out != 4 || b->n_out != 4 ||
                   memcmp(a->value, b->value, sizeof(a->value))) {
            FAIL("semi-planar %u-bit: values differ from planar input\n", bpc);
        } else {
            n_pass++;
        }
        free(a);
        free(b);
    }
}

int main(int argc, char **argv)
{
    int gpu;
    int st = vq_test_backend(&argc, argv, "speed_test", &gpu);
    if (st)
        return st;
    if (argc == 3 && !strcmp(argv[1], "--dump"))
        return dump(argv[2]);
    if (argc != 2) {
        fprintf(stderr, "usage: speed_test MODEL_JSON [--backend cpu|hip] | "
                        "--dump DIR\n");
        return 2;
    }
    for (size_t i = 0; i < N_CASES; i++) {
        check_case(&cases[i], VQ_BACKEND_CPU);
        if (gpu)
            check_case(&cases[i], VQ_BACKEND_HIP);
    }
    check_refusals();
    check_model_options(argv[1]);
    check_semiplanar(VQ_BACKEND_CPU);
    if (gpu)
        check_semiplanar(VQ_BACKEND_HIP);
    printf("speed_test: %u passed, %u failed (%s)\n", n_pass, n_fail,
           gpu ? "CPU and GPU" : "CPU");
    return n_fail ? 1 : 0;
}
