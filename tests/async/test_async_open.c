/*
 * VqConfig.open_async: the GPU opens on a thread while pairs arrive; they
 * are held (copied, or lent with vq_submit_retained) up to open_hold_bytes
 * and scored in order once it is open, bit for bit as with an open in
 * vq_open; a failed open goes on on the CPU (or, strict, fails the run).
 * The open is made slow: VQHIP_EMU_OPEN_MS on the emulated device,
 * VQHIP_FAKE_GPU_OPEN_MS on the fake one (VQHIP_FAKE_GPU=1, set by the
 * meson test of a build without a HIP platform). Without a GPU the
 * timing cases are skipped; the fallback cases run everywhere.
 */
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../common/unit_check.h"
#include "vqhip.h"

#define W 176
#define H 144
#define N_FRAMES 6
#define OPEN_MS 400
#define MAX_OUT 64

static uint8_t planes[N_FRAMES][2][W * H * 3 / 2];
static int have_gpu;

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec * 1e-6;
}

/* Frame i: a textured reference and a noisy, shifted copy of it. */
static void make_frames(void)
{
    uint32_t s = 12345;
    for (unsigned i = 0; i < N_FRAMES; i++)
        for (unsigned p = 0; p < W * H * 3 / 2; p++) {
            s = s * 1664525u + 1013904223u;
            unsigned x = p % W, y = p / W;
            uint8_t v = (uint8_t)((x * 3 + y * 5 + i * 7) ^ (x * y >> 4));
            planes[i][0][p] = v;
            planes[i][1][p] = (uint8_t)(v + (s >> 29) - 3);
        }
}

static VqPicture picture(unsigned i, unsigned k)
{
    VqPicture pic = { .fmt = VQ_PIX_FMT_420, .bpc = 8, .w = W, .h = H };
    const uint8_t *b = planes[i][k];
    pic.data[0] = b;
    pic.data[1] = b + W * H;
    pic.data[2] = b + W * H + (W / 2) * (H / 2);
    pic.stride[0] = W;
    pic.stride[1] = pic.stride[2] = W / 2;
    return pic;
}

/* Every frame's scores, in output order, and the pooled means. */
typedef struct Run {
    unsigned n_frames, n_out;
    char name[MAX_OUT][64];
    double value[N_FRAMES][MAX_OUT];
    double mean[MAX_OUT];
    char backend[16];
} Run;

static atomic_int released[N_FRAMES];

static void release_frame(void *opaque)
{
    atomic_fetch_add(&released[(intptr_t)opaque], 1);
}

static char last_log[1024];
static int fallback_logged;

static void on_log(void *opaque, VqLogLevel level, const char *msg)
{
    (void)opaque;
    (void)level;
    snprintf(last_log, sizeof(last_log), "%s", msg);
    if (strstr(msg, "GPU backend unavailable, using the CPU"))
        fallback_logged = 1;
}

static VqConfig config(int async, size_t hold)
{
    VqConfig cfg = vq_default_config();
    cfg.open_async = async;
    cfg.open_hold_bytes = hold;
    cfg.log = on_log;
    cfg.log_level = VQ_LOG_LEVEL_WARNING;
    return cfg;
}

static int open_run(VqContext **ctx, const VqConfig *cfg)
{
    int err = vq_open(ctx, cfg);
    if (!err)
        err = vq_use_model(*ctx, "version=vmaf_v0.6.1");
    if (!err)
        err = vq_use_feature(*ctx, "name=psnr:enable_chroma=true");
    if (err)
        printf("open: %s\n", vq_last_error(*ctx));
    return err;
}

static void take(VqContext *ctx, Run *r, const VqFrameScores *fs)
{
    CHECK(fs->index == r->n_frames);
    if (fs->index >= N_FRAMES || fs->n > MAX_OUT)
        return;
    r->n_out = fs->n;
    for (unsigned k = 0; k < fs->n; k++) {
        snprintf(r->name[k], sizeof(r->name[k]), "%s", fs->scores[k].name);
        r->value[fs->index][k] = fs->scores[k].value;
    }
    r->n_frames++;
    (void)ctx;
}

/* Flushes, receives what is left, pools; 0 or the first error. */
static int finish(VqContext *ctx, Run *r)
{
    VqFrameScores fs;
    int err = vq_flush(ctx);
    while (!err && !(err = vq_receive(ctx, &fs)))
        take(ctx, r, &fs);
    if (err != VQ_EOF)
        return err;
    for (unsigned k = 0; k < r->n_out; k++)
        if (vq_pooled(ctx, r->name[k], VQ_POOL_MEAN, &r->mean[k]))
            return -100;
    snprintf(r->backend, sizeof(r->backend), "%s", vq_backend_name(ctx));
    return 0;
}

/* Scores every frame: retained (the planes lent) or copied. */
static int score(const VqConfig *cfg, int retained, Run *r)
{
    memset(r, 0, sizeof(*r));
    VqContext *ctx = NULL;
    int err = open_run(&ctx, cfg);
    for (unsigned i = 0; !err && i < N_FRAMES; i++) {
        VqPicture ref = picture(i, 0), dis = picture(i, 1);
        err = retained ? vq_submit_retained(ctx, &ref, &dis, release_frame,
                                            (void *)(intptr_t)i)
                       : vq_submit(ctx, &ref, &dis);
        VqFrameScores fs;
        while (!err && !vq_receive(ctx, &fs))
            take(ctx, r, &fs);
    }
    if (!err)
        err = finish(ctx, r);
    if (err)
        printf("score: %s (%s)\n", vq_last_error(ctx), vq_strerror(err));
    vq_close(&ctx);
    return err;
}

static int same_scores(const Run *a, const Run *b)
{
    if (a->n_frames != b->n_frames || a->n_out != b->n_out ||
        strcmp(a->backend, b->backend))
        return 0;
    for (unsigned k = 0; k < a->n_out; k++)
        if (strcmp(a->name[k], b->name[k]) ||
            memcmp(&a->mean[k], &b->mean[k], sizeof(double)))
            return 0;
    return !memcmp(a->value, b->value, sizeof(a->value));
}

/* The held pairs are scored as if the GPU had been open: copies. */
static void test_held_copies(const Run *sync)
{
    VqConfig cfg = config(1, VQ_DEFAULT_OPEN_HOLD_BYTES);
    VqContext *ctx = NULL;
    double t0 = now_ms();
    CHECK(!open_run(&ctx, &cfg));
    double t_open = now_ms() - t0;
    if (have_gpu) {
        CHECK_MSG(t_open < OPEN_MS / 2, "vq_open took %.0f ms", t_open);
        CHECK(!strcmp(vq_backend_name(ctx), ""));
        CHECK(!strcmp(vq_device_name(ctx), ""));
    }
    Run r;
    memset(&r, 0, sizeof(r));
    t0 = now_ms();
    static uint8_t scratch[2][W * H * 3 / 2];
    for (unsigned i = 0; i < N_FRAMES; i++) {
        /* held pairs are copies: the caller's buffers change after it */
        memcpy(scratch, planes[i], sizeof(scratch));
        VqPicture ref = picture(i, 0), dis = picture(i, 1);
        for (unsigned p = 0; p < 3; p++) {
            ref.data[p] = scratch[0] + ((const uint8_t *)ref.data[p] -
                                        planes[i][0]);
            dis.data[p] = scratch[1] + ((const uint8_t *)dis.data[p] -
                                        planes[i][1]);
        }
        CHECK(!vq_submit(ctx, &ref, &dis));
        memset(scratch, 0x55, sizeof(scratch));
        if (i == 0) {
            VqFrameScores fs;
            int e = vq_receive(ctx, &fs);
            if (have_gpu)
                CHECK(e == VQ_EAGAIN);
            if (!e)
                take(ctx, &r, &fs);
        }
    }
    double t_submit = now_ms() - t0;
    VqRunInfo info;
    CHECK(!vq_run_info(ctx, &info) && info.submitted == N_FRAMES);
    if (have_gpu)
        CHECK_MSG(t_submit < OPEN_MS / 2, "submitting took %.0f ms while "
                  "the GPU opened", t_submit);
    CHECK(!finish(ctx, &r));
    CHECK_MSG(same_scores(&r, sync), "held copies score as an open in vq_open");
    vq_close(&ctx);
}

/* Lent planes: released exactly once, after they were scored. */
static void test_held_lent(const Run *sync)
{
    for (unsigned i = 0; i < N_FRAMES; i++)
        atomic_store(&released[i], 0);
    VqConfig cfg = config(1, VQ_DEFAULT_OPEN_HOLD_BYTES);
    Run r;
    CHECK(!score(&cfg, 1, &r));
    CHECK_MSG(same_scores(&r, sync), "held lent pairs score as an open in "
              "vq_open");
    for (unsigned i = 0; i < N_FRAMES; i++)
        CHECK_MSG(atomic_load(&released[i]) == 1, "frame %u released %d "
                  "times", i, atomic_load(&released[i]));
}

/* open_hold_bytes: a pair past it waits for the open in its call. */
static void test_budget(const Run *sync)
{
    size_t pair = 2 * (size_t)W * H * 3 / 2; /* vmaf + psnr read Y, U, V */
    for (unsigned fit = 0; fit <= 2; fit += 2) {
        VqConfig cfg = config(1, fit * pair);
        VqContext *ctx = NULL;
        CHECK(!open_run(&ctx, &cfg));
        Run r;
        memset(&r, 0, sizeof(r));
        for (unsigned i = 0; i < N_FRAMES; i++) {
            VqPicture ref = picture(i, 0), dis = picture(i, 1);
            double t0 = now_ms();
            CHECK(!vq_submit(ctx, &ref, &dis));
            double t = now_ms() - t0;
            if (have_gpu && i == fit)
                CHECK_MSG(t > OPEN_MS / 2, "pair %u past the budget (%u "
                          "pairs) took %.0f ms", i, fit, t);
            if (have_gpu && i < fit)
                CHECK_MSG(t < OPEN_MS / 2, "pair %u within the budget took "
                          "%.0f ms", i, t);
        }
        CHECK(!finish(ctx, &r));
        CHECK(same_scores(&r, sync));
        vq_close(&ctx);
    }
}

/* vq_configure while the GPU opens: the size is checked at once. */
static void test_configure(void)
{
    VqConfig cfg = config(1, VQ_DEFAULT_OPEN_HOLD_BYTES);
    VqContext *ctx = NULL;
    CHECK(!vq_open(&ctx, &cfg));
    CHECK(!vq_use_feature(ctx, "float_ms_ssim"));
    VqPicture small = { .fmt = VQ_PIX_FMT_420, .bpc = 8, .w = 32, .h = 32 };
    double t0 = now_ms();
    CHECK(vq_configure(ctx, &small) == VQ_EUNSUPPORTED);
    if (have_gpu)
        CHECK(now_ms() - t0 < OPEN_MS / 2);
    vq_close(&ctx);

    CHECK(!open_run(&ctx, &cfg));
    VqPicture geometry = { .fmt = VQ_PIX_FMT_420, .bpc = 8, .w = W, .h = H };
    CHECK(!vq_configure(ctx, &geometry));
    CHECK(vq_planes_read(ctx) == 7);
    VqFrameScores fs;
    VqPicture ref = picture(0, 0), dis = picture(0, 1);
    CHECK(!vq_submit(ctx, &ref, &dis));
    CHECK(!vq_flush(ctx));
    CHECK(!vq_receive_wait(ctx, &fs) && fs.index == 0);
    CHECK(vq_receive_wait(ctx, &fs) == VQ_EOF);
    vq_close(&ctx);
}

/* A GPU that cannot be opened: the CPU, or with strict an error. */
static void test_failed_open(const Run *cpu)
{
    VqConfig cfg = config(1, VQ_DEFAULT_OPEN_HOLD_BYTES);
    cfg.device = 7;
    fallback_logged = 0;
    Run r;
    CHECK(!score(&cfg, 0, &r));
    CHECK_MSG(same_scores(&r, cpu), "a failed open scores on the CPU");
    CHECK(fallback_logged);

    for (unsigned i = 0; i < N_FRAMES; i++)
        atomic_store(&released[i], 0);
    cfg.strict = 1;
    VqContext *ctx = NULL;
    CHECK(!open_run(&ctx, &cfg));
    int err = 0;
    for (unsigned i = 0; !err && i < N_FRAMES; i++) {
        VqPicture ref = picture(i, 0), dis = picture(i, 1);
        err = vq_submit_retained(ctx, &ref, &dis, release_frame,
                                 (void *)(intptr_t)i);
    }
    if (!err)
        err = vq_flush(ctx);
    CHECK(err == VQ_EDEVICE);
    CHECK_MSG(strstr(vq_last_error(ctx), "GPU backend unavailable (strict)"),
              "%s", vq_last_error(ctx));
    VqPicture ref = picture(0, 0), dis = picture(0, 1);
    CHECK(vq_submit(ctx, &ref, &dis) == VQ_ESTATE);
    vq_close(&ctx);
    unsigned n = 0;
    for (unsigned i = 0; i < N_FRAMES; i++) {
        CHECK(atomic_load(&released[i]) <= 1);
        n += atomic_load(&released[i]);
    }
    CHECK(n > 0);
}

/* Closed while the GPU opens: nothing leaks, nothing hangs. */
static void test_close_while_opening(void)
{
    VqConfig cfg = config(1, VQ_DEFAULT_OPEN_HOLD_BYTES);
    VqContext *ctx = NULL;
    CHECK(!vq_open(&ctx, &cfg));
    vq_close(&ctx);
    CHECK(!ctx);
    for (unsigned i = 0; i < N_FRAMES; i++)
        atomic_store(&released[i], 0);
    CHECK(!open_run(&ctx, &cfg));
    VqPicture ref = picture(0, 0), dis = picture(0, 1);
    CHECK(!vq_submit_retained(ctx, &ref, &dis, release_frame, (void *)0));
    vq_close(&ctx);
    CHECK(atomic_load(&released[0]) == 1);
}

int main(void)
{
    char ms[16];
    snprintf(ms, sizeof(ms), "%d", OPEN_MS);
    setenv("VQHIP_FAKE_GPU_OPEN_MS", ms, 1);
    setenv("VQHIP_EMU_OPEN_MS", ms, 1);
    char why[256];
    have_gpu = vq_gpu_count(why, sizeof(why)) > 0;
    printf("GPU: %s%s\n", why, have_gpu ? "" : " (the timing cases are "
           "skipped)");
    make_frames();

    Run sync, cpu;
    VqConfig cfg = config(0, 0);
    CHECK(!score(&cfg, 0, &sync));
    cfg.backend = VQ_BACKEND_CPU;
    CHECK(!score(&cfg, 0, &cpu));
    CHECK(sync.n_frames == N_FRAMES && sync.n_out > 10);
    printf("reference: %u frames, %u outputs, backend %s\n", sync.n_frames,
           sync.n_out, sync.backend);

    test_held_copies(&sync);
    test_held_lent(&sync);
    test_budget(&sync);
    test_configure();
    test_failed_open(&cpu);
    test_close_while_opening();
    TEST_END();
}
