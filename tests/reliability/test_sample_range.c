/*
 * Samples above the declared bit depth (0xFFFF in a 10-bit plane) are
 * refused at submit with one message, whatever the features and backend;
 * the run goes on with the next pair. Samples at the largest value, junk
 * in planes no extractor reads or in the stride padding, and the low bits
 * of P010-style samples are accepted.
 *   test_sample_range [--gpu]   (--gpu: exit 77 without a usable device)
 */
#include "rel_common.h"

static int gpu;

static VqContext *open_run(const char *feature)
{
    VqConfig cfg = vq_default_config();
    cfg.backend = gpu ? VQ_BACKEND_HIP : VQ_BACKEND_CPU;
    cfg.strict = gpu;
    VqContext *ctx = NULL;
    int r = vq_open(&ctx, &cfg);
    if (!r)
        r = vq_use_feature(ctx, feature);
    CHECK_MSG(!r, "%s: %s", feature, ctx ? vq_last_error(ctx) : "");
    return ctx;
}

/* Pair 0 good, pair 1 with one bad sample in `plane` of the distorted
 * picture (refused, or accepted when want_ok), pair 2 good: the scores of
 * the pairs taken equal a run without the bad pair. */
static void one(const char *feature, VqPixFmt fmt, unsigned bpc,
                unsigned plane, unsigned value, int want_ok)
{
    VqContext *ctx = open_run(feature), *clean = open_run(feature);
    if (!ctx || !clean) {
        vq_close(&ctx);
        vq_close(&clean);
        return;
    }
    for (unsigned i = 0; i < 3; i++) {
        RelFrame f;
        rel_frame(&f, fmt, bpc, 64, 48, i);
        if (i != 1)
            CHECK(!vq_submit(clean, &f.ref, &f.dis));
        if (i == 1)
            *rel_sample16(&f.dis, plane, 5, 7) = (uint16_t)value;
        int r = vq_submit(ctx, &f.ref, &f.dis);
        if (i != 1 || want_ok) {
            CHECK_MSG(!r, "%s %u-bit plane %u value %u: %s", feature, bpc,
                      plane, value, vq_last_error(ctx));
        } else {
            CHECK_MSG(r == VQ_EINVAL &&
                      strstr(vq_last_error(ctx), "distorted picture") &&
                      strstr(vq_last_error(ctx), "above"),
                      "%s %u-bit plane %u value %u: %d '%s'", feature, bpc,
                      plane, value, r, vq_last_error(ctx));
            char want[64];
            snprintf(want, sizeof(want), "sample of %u at (5, 7)", value);
            CHECK_MSG(strstr(vq_last_error(ctx), want), "%s", vq_last_error(ctx));
        }
        free(f.buf);
    }
    CHECK(!vq_flush(ctx) && !vq_flush(clean));
    VqFrameScores fs;
    while (!vq_receive(ctx, &fs))
        ;
    while (!vq_receive(clean, &fs))
        ;
    if (!want_ok) {
        /* the same scores as the run that never saw the bad pair */
        const char *name = vq_output_name(clean, 0);
        double a, b;
        CHECK(name && !vq_pooled(ctx, name, VQ_POOL_MEAN, &a) &&
              !vq_pooled(clean, name, VQ_POOL_MEAN, &b) && a == b);
    }
    vq_close(&ctx);
    vq_close(&clean);
}

int main(int argc, char **argv)
{
    gpu = argc > 1 && !strcmp(argv[1], "--gpu");
    if (gpu) {
        VqConfig cfg = vq_default_config();
        cfg.backend = VQ_BACKEND_HIP;
        cfg.strict = 1;
        VqContext *ctx = NULL;
        if (vq_open(&ctx, &cfg)) {
            printf("skipped: no GPU: %s\n", ctx ? vq_last_error(ctx) : "");
            vq_close(&ctx);
            return 77;
        }
        vq_close(&ctx);
    }
    /* luma above the depth, for extractors of every kind */
    const char *luma[] = { "name=psnr", "name=float_ssim", "name=vif",
                           "name=adm", "name=motion", "name=float_psnr" };
    for (unsigned i = 0; i < sizeof(luma) / sizeof(*luma); i++) {
        if (gpu && !strcmp(luma[i], "name=motion"))
            continue; /* no GPU path */
        one(luma[i], VQ_PIX_FMT_420, 10, 0, 0xFFFF, 0);
        one(luma[i], VQ_PIX_FMT_420, 10, 0, 1024, 0);
    }
    one("name=psnr", VQ_PIX_FMT_420, 12, 0, 4096, 0);
    one("name=psnr", VQ_PIX_FMT_420, 10, 0, 1023, 1); /* the largest: fine */
    one("name=psnr", VQ_PIX_FMT_420, 12, 0, 4095, 1);
    /* chroma: refused where it is read, accepted where it is not */
    one("name=psnr", VQ_PIX_FMT_420, 10, 1, 0xFFFF, 0);
    one("name=psnr:enable_chroma=false", VQ_PIX_FMT_420, 10, 2, 0xFFFF, 1);
    one("name=vif", VQ_PIX_FMT_420, 10, 2, 0xFFFF, 1);
    /* P010: 10 bits stored high, the low 6 are dropped, not checked */
    one("name=psnr", VQ_PIX_FMT_P010, 10, 0, 0xFFFF, 1);
    TEST_END();
}
