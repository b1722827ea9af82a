/*
 * Device pictures lent to libvqhip (vq_submit_device_retained): the kernels
 * read them in place, so the scores must equal the CPU backend's bit for
 * bit (the planes' pitch padding holds junk), also where a plane is not
 * aligned or is converted (P010) and therefore copied; release must come
 * exactly once per call, never before the frame's work is done (a frame's
 * scores are never delivered before its release), also for a refused
 * pair, a run closed with frames in flight and a device fault.
 *
 * usage: test_device_lent [--gpu]
 * Without --gpu: the fake device (builds without a HIP platform). With
 * --gpu: the real device; exit 77 when none is present.
 */
#include <stdatomic.h>

#include "../common/dev_picture.h"
#include "../common/gpu_present.h"
#include "gpu/gpu.h"
#include "rel_common.h"

#define W 96
#define H 64
#define N 12

static VqGpu *gpu;
static VqErrBuf gpu_err;
/* 1 on the real device; 0 on the fake one, whose temporal extractors
 * (motion) run on the CPU from downloaded copies, and for the fault */
static int strict;

/* One pair in device memory, freed by the test after the run. */
typedef struct DevPair {
    VqTestDevPic pic[2];
    atomic_uint *back;
} DevPair;

static void dev_pair_free(DevPair *p)
{
    for (unsigned k = 0; k < 2; k++)
        vq_test_dev_picture_free(gpu, &p->pic[k]);
    free(p);
}

static void dev_pair_back(void *opaque)
{
    DevPair *p = opaque;
    atomic_fetch_add(p->back, 1);
    /* freed by the test after the run: a release runs inside libvqhip
     * calls, where freeing device memory would wait for the device */
}

/* The device copy of a host pair: rows at a pitch that is a multiple of
 * VQ_DEVICE_ALIGN (aligned) or 8 bytes past one, junk in the padding. */
static int dev_pair(const RelFrame *f, int aligned, DevPair **out,
                    VqDevicePicture *r, VqDevicePicture *d)
{
    DevPair *p = calloc(1, sizeof(*p));
    *out = p;
    if (!p)
        return VQ_ENOMEM;
    int err = vq_test_dev_picture(gpu, &f->ref, VQ_DEVICE_ALIGN,
                                  aligned ? 0 : 8, &p->pic[0]);
    if (!err)
        err = vq_test_dev_picture(gpu, &f->dis, VQ_DEVICE_ALIGN,
                                  aligned ? 0 : 8, &p->pic[1]);
    *r = p->pic[0].dp;
    *d = p->pic[1].dp;
    return err;
}

static VqConfig gpu_cfg(unsigned depth)
{
    VqConfig cfg = vq_default_config();
    cfg.backend = VQ_BACKEND_HIP;
    cfg.strict = strict;
    cfg.depth = depth;
    cfg.log_level = VQ_LOG_LEVEL_ERROR;
    return cfg;
}

static int use_set(VqContext *ctx)
{
    int err = vq_use_feature(ctx, "name=psnr:enable_chroma=true");
    if (!err)
        err = vq_use_model(ctx, "version=vmaf_v0.6.1");
    return err;
}

/* n pairs lent (flush: a whole run; else vq_close with frames in flight);
 * what was given back, counted against what was lent. */
static void run_lent(RelScores *out, VqPixFmt fmt, unsigned bpc, int aligned,
                     unsigned depth, int flush, const char *what)
{
    memset(out, 0, sizeof(*out));
    atomic_uint back;
    atomic_init(&back, 0);
    DevPair *pairs[N] = { 0 };
    unsigned lent = 0, early = 0;
    VqConfig cfg = gpu_cfg(depth);
    VqContext *ctx = NULL;
    int err = vq_open(&ctx, &cfg);
    if (!err)
        err = use_set(ctx);
    for (unsigned i = 0; !err && i < N; i++) {
        RelFrame f;
        VqDevicePicture r, d;
        rel_frame(&f, fmt, bpc, W, H, i);
        err = dev_pair(&f, aligned, &pairs[i], &r, &d);
        free(f.buf);
        if (err)
            break;
        pairs[i]->back = &back;
        lent++;
        err = vq_submit_device_retained(ctx, &r, &d, dev_pair_back, pairs[i]);
        if (!err)
            err = rel_take(ctx, out, i % 4 == 3);
        /* a frame's scores come after its planes were given back */
        if (out->n_frames > atomic_load(&back))
            early++;
    }
    if (!err && flush)
        err = vq_flush(ctx);
    if (!err && flush)
        err = rel_take(ctx, out, 1);
    out->err = err;
    snprintf(out->msg, sizeof(out->msg), "%s", vq_last_error(ctx));
    vq_close(&ctx);
    CHECK_MSG(!early, "%s: scores delivered before their planes were given "
              "back (%u times)", what, early);
    CHECK_MSG(atomic_load(&back) == lent, "%s: %u of %u pairs given back", what,
              atomic_load(&back), lent);
    for (unsigned i = 0; i < N; i++)
        if (pairs[i])
            dev_pair_free(pairs[i]);
}

static void test_scores(VqPixFmt fmt, unsigned bpc)
{
    VqConfig cpu = vq_default_config();
    cpu.backend = VQ_BACKEND_CPU;
    cpu.log_level = VQ_LOG_LEVEL_ERROR;
    RelScores *clean = malloc(sizeof(*clean)), *r = malloc(sizeof(*r));
    rel_run(clean, &cpu, "name=psnr:enable_chroma=true", "version=vmaf_v0.6.1",
            fmt, bpc, W, H, N);
    CHECK_MSG(!clean->err && clean->n_frames == N, "CPU run: %s", clean->msg);
    for (int aligned = 1; aligned >= 0; aligned--)
        for (unsigned depth = 1; depth <= 4; depth += 3) {
            char what[128];
            snprintf(what, sizeof(what), "%u-bit %s, %s pitch, depth %u", bpc,
                     fmt == VQ_PIX_FMT_P010 ? "P010" : "4:2:0",
                     aligned ? "aligned" : "unaligned", depth);
            run_lent(r, fmt, bpc, aligned, depth, 1, what);
            CHECK_MSG(!r->err && r->n_frames == N, "%s: %s", what, r->msg);
            CHECK_MSG(rel_same(clean, r, what), "%s: scores differ", what);
        }
    /* closed with frames in flight: every pair given back by vq_close */
    run_lent(r, fmt, bpc, 1, 4, 0, "closed in flight");
    CHECK_MSG(!r->err, "closed in flight: %s", r->msg);
    free(clean);
    free(r);
}

/* A pair refused before it is read is given back at once. */
static void test_refused(void)
{
    atomic_uint back;
    atomic_init(&back, 0);
    VqConfig cfg = gpu_cfg(0);
    VqContext *ctx = NULL;
    int err = vq_open(&ctx, &cfg);
    CHECK_MSG(!err && !use_set(ctx), "open: %s", vq_last_error(ctx));
    RelFrame f;
    VqDevicePicture r, d;
    DevPair *p = NULL;
    rel_frame(&f, VQ_PIX_FMT_420, 8, W, H, 0);
    CHECK(!dev_pair(&f, 1, &p, &r, &d));
    free(f.buf);
    p->back = &back;
    d.device = 1; /* not the context's GPU */
    err = vq_submit_device_retained(ctx, &r, &d, dev_pair_back, p);
    CHECK_MSG(err == VQ_EINVAL && atomic_load(&back) == 1,
              "a pair on another GPU: %d, given back %u times", err,
              atomic_load(&back));
    d.device = 0;
    d.pic.w = W / 2; /* not the reference's size */
    err = vq_submit_device_retained(ctx, &r, &d, dev_pair_back, p);
    CHECK_MSG(err < 0 && atomic_load(&back) == 2,
              "pairs of two sizes: %d, given back %u times", err,
              atomic_load(&back));
    vq_close(&ctx);
    dev_pair_free(p);
}

/* A launch fault while lent frames are in flight: the run ends with a
 * device error (no host copy to recompute from), every pair given back. */
static void test_fault(void)
{
    RelScores *r = malloc(sizeof(*r));
    setenv("VQHIP_FAULT", "launch@5", 1);
    int was = strict;
    strict = 0;
    run_lent(r, VQ_PIX_FMT_420, 8, 1, 4, 1, "launch fault");
    strict = was;
    unsetenv("VQHIP_FAULT");
    CHECK_MSG(r->err == VQ_EDEVICE && (strstr(r->msg, "host copy") ||
                                       strstr(r->msg, "on the CPU")),
              "launch fault: %d %s", r->err, r->msg);
    free(r);
}

int main(int argc, char **argv)
{
    int real = argc > 1 && !strcmp(argv[1], "--gpu");
    int present = real ? vq_test_gpu_present("device_lent") : 0;
    if (present)
        return present;
    if (!real)
        setenv("VQHIP_FAKE_GPU", "1", 1);
    strict = real;
    if (vq_gpu_open(&gpu, 0, 0, &gpu_err)) {
        printf("FAIL: the %s GPU does not open: %s\n", real ? "real" : "fake",
               gpu_err.msg);
        return 1;
    }
    test_scores(VQ_PIX_FMT_420, 8);
    test_scores(VQ_PIX_FMT_420, 10);
    test_scores(VQ_PIX_FMT_P010, 10);
    test_refused();
    test_fault();
    vq_gpu_close(&gpu);
    TEST_END();
}
