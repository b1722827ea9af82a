/*
 * Device faults. Without a GPU: the fake device (VQHIP_FAKE_GPU=1, builds
 * without a HIP platform) runs the pipeline's GPU side in host memory.
 * With --gpu (a HIP build on a GPU machine; exit 77 when no GPU is present): the
 * real device, every extractor on it, motion's GPU state included.
 * VQHIP_FAULT injects a failed launch, a failed copy, a hung kernel (the
 * watchdog), a lost device and lost GPU commands. Each run's per-frame
 * scores must equal a clean CPU run's bit for bit: no frame lost, none
 * scored twice; the run says where each frame was computed. strict=1
 * turns the fault into an error; verify= catches the lost commands.
 */
#include <stdlib.h>

#include "../common/gpu_present.h"
#include "rel_common.h"

#define W 96
#define H 64
#define N 24

static const char *features = "psnr|vif|adm|motion";
static unsigned n_injected, n_recovered, n_caught;
static int real_gpu;
static int lend_frames; /* run_fault lends its frames (vq_submit_retained) */

static VqConfig fake_cfg(unsigned depth, unsigned threads)
{
    VqConfig cfg = vq_default_config();
    cfg.backend = VQ_BACKEND_HIP;
    cfg.depth = depth;
    cfg.n_threads = threads;
    cfg.log_level = VQ_LOG_LEVEL_ERROR;
    return cfg;
}

static void run_fault(const RelScores *clean, const char *fault,
                      unsigned frame, VqPixFmt fmt, unsigned bpc,
                      unsigned depth, unsigned threads)
{
    char env[64], what[160];
    snprintf(env, sizeof(env), "%s@%u", fault, frame);
    snprintf(what, sizeof(what), "%s fmt %d bpc %u depth %u threads %u", env,
             (int)fmt, bpc, depth, threads);
    setenv("VQHIP_FAULT", env, 1);
    VqConfig cfg = fake_cfg(depth, threads);
    RelScores *r = malloc(sizeof(*r));
    rel_run_ex(r, &cfg, features, "version=vmaf_v0.6.1", fmt, bpc, W, H, N,
               lend_frames);
    n_injected++;
    CHECK_MSG(!r->err, "%s: %s", what, r->msg);
    CHECK_MSG(!r->lent_missing, "%s: %u lent frames not given back", what,
              r->lent_missing);
    CHECK_MSG(rel_same(clean, r, what), "%s: scores differ from the CPU's", what);
    CHECK_MSG(r->info.fell_back, "%s: no fallback reported", what);
    CHECK_MSG(r->info.fallback_frame <= frame, "%s: fallback at %u", what,
              r->info.fallback_frame);
    CHECK_MSG(r->info.complete, "%s: %s", what, r->info.incomplete);
    for (unsigned i = 0; i < r->n_frames; i++) {
        int cpu = !strcmp(r->backend[i], "cpu");
        CHECK_MSG(cpu == (i >= r->info.fallback_frame), "%s: frame %u on '%s' "
                  "(fallback from %u)", what, i, r->backend[i],
                  r->info.fallback_frame);
    }
    if (!r->err && r->info.fell_back)
        n_recovered++;
    free(r);
    /* strict=1: the same fault ends the run with a clear error (without
     * motion, which has no fake-device path: strict would refuse it) */
    cfg.strict = 1;
    r = malloc(sizeof(*r));
    rel_run(r, &cfg, "psnr|vif|adm", NULL, fmt, bpc, W, H, N);
    CHECK_MSG(r->err == VQ_EDEVICE && strstr(r->msg, "strict=1") &&
              (strstr(r->msg, "injected") || strstr(r->msg, "watchdog")),
              "%s strict: %d %s", what, r->err,
              r->msg);
    free(r);
    unsetenv("VQHIP_FAULT");
}

static void test_verify(void)
{
    /* lost commands: zeros come back without an error */
    setenv("VQHIP_FAULT", "drop@6", 1);
    VqConfig cfg = fake_cfg(2, 2);
    cfg.verify = 3;
    RelScores *r = malloc(sizeof(*r));
    rel_run(r, &cfg, "psnr|vif|adm", NULL, VQ_PIX_FMT_420, 8, W, H, N);
    RelScores *c = malloc(sizeof(*c));
    VqConfig cpu = vq_default_config();
    cpu.backend = VQ_BACKEND_CPU;
    rel_run(c, &cpu, "psnr|vif|adm", NULL, VQ_PIX_FMT_420, 8, W, H, N);
    CHECK_MSG(!r->err, "verify: %s", r->msg);
    CHECK_MSG(r->info.verified == N / 3, "verify: %u frames checked",
              r->info.verified);
    CHECK_MSG(r->info.mismatches == 1, "verify: %u mismatches",
              r->info.mismatches);
    CHECK(rel_same(c, r, "verify drop@6"));
    n_caught += r->info.mismatches;
    /* the same fault on a frame verify does not check goes through: this
     * is what the self-check is for */
    setenv("VQHIP_FAULT", "drop@7", 1);
    rel_run(r, &cfg, "psnr|vif|adm", NULL, VQ_PIX_FMT_420, 8, W, H, N);
    CHECK(!r->err && r->info.mismatches == 0);
    CHECK(!rel_same(c, r, "unverified drop@7 (differences expected)"));
    /* verify=1 on a clean run: every frame checked, no mismatch */
    unsetenv("VQHIP_FAULT");
    cfg.verify = 1;
    rel_run(r, &cfg, "psnr|vif|adm", NULL, VQ_PIX_FMT_420, 8, W, H, N);
    CHECK(!r->err && r->info.verified == N && r->info.mismatches == 0);
    CHECK(rel_same(c, r, "verify=1 clean"));
    /* odd size, converted layout: the CPU's view of a held frame holds the
     * stored (rounded-up) chroma planes */
    rel_run(c, &cpu, "psnr|vif|adm", NULL, VQ_PIX_FMT_P010, 10, W - 1, H - 1,
            N / 4);
    rel_run(r, &cfg, "psnr|vif|adm", NULL, VQ_PIX_FMT_P010, 10, W - 1, H - 1,
            N / 4);
    CHECK_MSG(!r->err && r->info.verified == N / 4 && !r->info.mismatches,
              "verify=1 P010 %ux%u: %s", W - 1, H - 1, r->msg);
    CHECK(rel_same(c, r, "verify=1 P010, odd size"));
    /* a model reading lost results: NaN is refused, never reported */
    setenv("VQHIP_FAULT", "drop@5", 1);
    cfg.verify = 0;
    rel_run(r, &cfg, features, "version=vmaf_v0.6.1", VQ_PIX_FMT_420, 8, W,
            H, N);
    CHECK_MSG(r->err == VQ_EMODEL && strstr(r->msg, "NaN"), "NaN: %d %s",
              r->err, r->msg);
    unsetenv("VQHIP_FAULT");
    free(r);
    free(c);
}

static void test_bad_fault_spec(void)
{
    setenv("VQHIP_FAULT", "launch@x", 1);
    VqConfig cfg = fake_cfg(2, 1);
    cfg.strict = 1;
    VqContext *ctx = NULL;
    int err = vq_open(&ctx, &cfg);
    CHECK_MSG(err == VQ_EINVAL && strstr(vq_last_error(ctx), "VQHIP_FAULT"),
              "%d %s", err, vq_last_error(ctx));
    vq_close(&ctx);
    unsetenv("VQHIP_FAULT");
}

/* Pictures uploaded in place have no host copy for the fallback. In pinned
 * buffers (vq_host_alloc) the CPU can still read the frame being submitted:
 * the run goes on with the CPU's scores. In device memory (fake device:
 * host memory handed over as device pointers) the CPU cannot: a device
 * error that says so, and the frames delivered before it are right. */
static void test_in_place(void)
{
    VqConfig cpu = vq_default_config();
    cpu.backend = VQ_BACKEND_CPU;
    RelScores *clean = malloc(sizeof(*clean));
    rel_run(clean, &cpu, "psnr|vif", NULL, VQ_PIX_FMT_420, 8, W, H, N);
    /* rel_frame's layout: rows padded by 24 (luma) and 40 (chroma) bytes */
    size_t one = (size_t)(W + 24) * H + 2 * (size_t)(W / 2 + 40) * (H / 2);
    setenv("VQHIP_ZERO_COPY", "0", 1); /* else pinned pictures are staged */
    for (unsigned device = 0; device < 2; device++) {
        setenv("VQHIP_FAULT", "launch@5", 1);
        VqConfig cfg = fake_cfg(2, 1);
        VqContext *ctx = NULL;
        RelScores *r = calloc(1, sizeof(*r));
        int err = vq_open(&ctx, &cfg);
        if (!err)
            err = vq_use_feature(ctx, "psnr");
        if (!err)
            err = vq_use_feature(ctx, "vif");
        uint8_t *pinned = err ? NULL : vq_host_alloc(ctx, 2 * one);
        CHECK_MSG(device || pinned, "vq_host_alloc: %s", vq_last_error(ctx));
        for (unsigned i = 0; !err && i < N; i++) {
            RelFrame f;
            rel_frame(&f, VQ_PIX_FMT_420, 8, W, H, i);
            if (device) {
                VqDevicePicture dr = { f.ref, cfg.device, NULL };
                VqDevicePicture dd = { f.dis, cfg.device, NULL };
                err = vq_submit_device(ctx, &dr, &dd);
            } else if (pinned) {
                memcpy(pinned, f.buf, 2 * one);
                for (unsigned p = 0; p < 3; p++) {
                    f.ref.data[p] = pinned + ((const uint8_t *)f.ref.data[p] -
                                              f.buf);
                    f.dis.data[p] = pinned + ((const uint8_t *)f.dis.data[p] -
                                              f.buf);
                }
                err = vq_submit(ctx, &f.ref, &f.dis);
            }
            free(f.buf);
            if (!err)
                err = rel_take(ctx, r, 0);
        }
        if (!err)
            err = vq_flush(ctx);
        if (!err)
            err = rel_take(ctx, r, 1);
        const char *msg = vq_last_error(ctx);
        if (device) {
            CHECK_MSG(err == VQ_EDEVICE &&
                      strstr(msg, "cannot be scored on the CPU"),
                      "device pictures after a fault: %d %s", err, msg);
            CHECK_MSG(r->n_frames <= 5, "%u frames delivered", r->n_frames);
            for (unsigned i = 0; i < r->n_frames; i++)
                for (unsigned j = 0; j < r->n_out; j++)
                    CHECK_MSG(!memcmp(&r->v[i][j], &clean->v[i][j],
                                      sizeof(double)),
                              "device: frame %u %s", i, r->name[j]);
        } else {
            vq_run_info(ctx, &r->info);
            CHECK_MSG(!err, "pinned pictures: %s", msg);
            CHECK(r->info.fell_back && r->info.fallback_frame <= 5);
            CHECK(rel_same(clean, r, "pinned pictures, launch@5"));
        }
        vq_close(&ctx);
        free(r);
        unsetenv("VQHIP_FAULT");
    }
    free(clean);
}

int main(int argc, char **argv)
{
    real_gpu = argc > 1 && !strcmp(argv[1], "--gpu");
    /* 77 (skip) only when no GPU is present; one that fails to open or
     * run is a failure of the cases below */
    int present = real_gpu ? vq_test_gpu_present("faults_gpu") : 0;
    if (present)
        return present;
    if (!real_gpu)
        setenv("VQHIP_FAKE_GPU", "1", 1);
    /* the real device's first launches load its code: more headroom */
    setenv("VQHIP_GPU_TIMEOUT", real_gpu ? "1" : "0.05", 1);
    static const struct { VqPixFmt fmt; unsigned bpc; } fmts[] = {
        { VQ_PIX_FMT_420, 8 }, { VQ_PIX_FMT_P010, 10 },
    };
    static const char *const kinds[] = { "launch", "copy", "hang", "lost" };
    for (unsigned zc = 0; zc < 2; zc++) {
        /* zero copy: kernels read the pinned staging in place */
        setenv("VQHIP_ZERO_COPY", zc ? "1" : "0", 1);
        for (unsigned f = 0; f < 2; f++) {
            VqConfig cpu = vq_default_config();
            cpu.backend = VQ_BACKEND_CPU;
            RelScores *clean = malloc(sizeof(*clean));
            rel_run(clean, &cpu, features, "version=vmaf_v0.6.1", fmts[f].fmt,
                    fmts[f].bpc, W, H, N);
            CHECK_MSG(!clean->err && clean->n_frames == N, "%s", clean->msg);
            for (unsigned k = 0; k < 4; k++)
                for (unsigned depth = 1; depth <= 4; depth += 3)
                    for (unsigned frame = 0; frame < N; frame += 7)
                        if (!real_gpu || k != 2 || frame == 7)
                            run_fault(clean, kinds[k], frame, fmts[f].fmt,
                                      fmts[f].bpc, depth, 1 + (frame & 1));
            if (!zc && !f)
                test_verify();
            free(clean);
        }
    }
    /* frames lent to the CPU workers: a fault recovered from all the same
     * (the GPU side keeps its host copies), every frame given back once */
    lend_frames = 1;
    setenv("VQHIP_ZERO_COPY", "0", 1);
    for (unsigned f = 0; f < 2; f++) {
        VqConfig cpu = vq_default_config();
        cpu.backend = VQ_BACKEND_CPU;
        RelScores *clean = malloc(sizeof(*clean));
        rel_run(clean, &cpu, features, "version=vmaf_v0.6.1", fmts[f].fmt,
                fmts[f].bpc, W, H, N);
        CHECK_MSG(!clean->err && clean->n_frames == N, "%s", clean->msg);
        for (unsigned k = 0; k < 4; k += 3)
            for (unsigned threads = 1; threads <= 3; threads += 2)
                run_fault(clean, kinds[k], 7, fmts[f].fmt, fmts[f].bpc,
                          1 + threads, threads);
        free(clean);
    }
    lend_frames = 0;
    test_bad_fault_spec();
    if (!real_gpu)
        test_in_place();
    printf("faults injected: %u, runs recovered with CPU-equal scores: %u, "
           "lost GPU results caught by verify: %u\n", n_injected, n_recovered,
           n_caught);
    TEST_END();
}
