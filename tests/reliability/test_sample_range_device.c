/*
 * Samples above the declared bit depth in pictures in device memory
 * (vq_submit_device, vq_submit_device_retained): the same pair gives the
 * same refusal and the same message as when given in host memory (the
 * host check of test_sample_range, on a CPU context, is the reference),
 * whichever sample of the plane is bad; the run goes on, and its scores
 * equal a run that never saw the bad pair.
 *
 * usage: test_sample_range_device [--gpu]
 * Without --gpu: the fake device (builds without a HIP platform). With
 * --gpu: the real device; exit 77 when none is present.
 */
#include "../common/dev_picture.h"
#include "../common/gpu_present.h"
#include "gpu/gpu.h"
#include "rel_common.h"

#define W 70 /* not a multiple of a block or a wave */
#define H 34

static VqGpu *gpu;
static VqErrBuf gpu_err;

static VqContext *open_run(VqBackend backend, const char *feature)
{
    VqConfig cfg = vq_default_config();
    cfg.backend = backend;
    cfg.strict = 1;
    cfg.log_level = VQ_LOG_LEVEL_ERROR;
    VqContext *ctx = NULL;
    int r = vq_open(&ctx, &cfg);
    if (!r)
        r = vq_use_feature(ctx, feature);
    CHECK_MSG(!r, "%s: %s", feature, ctx ? vq_last_error(ctx) : "");
    return ctx;
}

typedef struct Bad {
    unsigned k, plane, x, y, value; /* k: 0 reference, 1 distorted */
} Bad;

/* Pairs 0 and 2 good, pair 1 with the samples in bad[] changed: submitted
 * in device memory (lent when `lend`) to a GPU context and in host memory
 * to a CPU one; the answers must match. */
static void one(const char *feature, unsigned bpc, const Bad *bad,
                unsigned n_bad, int lend, int refused)
{
    VqContext *dev = open_run(VQ_BACKEND_HIP, feature);
    VqContext *host = open_run(VQ_BACKEND_CPU, feature);
    VqContext *clean = open_run(VQ_BACKEND_HIP, feature);
    VqTestDevPic pic[3][2];
    memset(pic, 0, sizeof(pic));
    for (unsigned i = 0; dev && host && clean && i < 3; i++) {
        RelFrame f;
        rel_frame(&f, VQ_PIX_FMT_420, bpc, W, H, i);
        if (i == 1)
            for (unsigned b = 0; b < n_bad; b++)
                *rel_sample16(bad[b].k ? &f.dis : &f.ref, bad[b].plane, bad[b].x,
                        bad[b].y) = (uint16_t)bad[b].value;
        int err = vq_test_dev_picture(gpu, &f.ref, 1, 0, &pic[i][0]);
        if (!err)
            err = vq_test_dev_picture(gpu, &f.dis, 1, 0, &pic[i][1]);
        CHECK_MSG(!err, "device copy: %s", gpu_err.msg);
        if (!err) {
            int rh = vq_submit(host, &f.ref, &f.dis);
            int rd = lend ? vq_submit_device_retained(dev, &pic[i][0].dp,
                                                      &pic[i][1].dp, NULL, NULL)
                          : vq_submit_device(dev, &pic[i][0].dp, &pic[i][1].dp);
            CHECK_MSG(rd == rh && !strcmp(vq_last_error(dev),
                                          vq_last_error(host)),
                      "%s %u-bit pair %u: device %d '%s', host %d '%s'",
                      feature, bpc, i, rd, vq_last_error(dev), rh,
                      vq_last_error(host));
            if (i == 1)
                CHECK_MSG(refused ? rh == VQ_EINVAL &&
                          strstr(vq_last_error(host), "above") : !rh,
                          "host: %d '%s'", rh, vq_last_error(host));
            if (i != 1)
                CHECK(!vq_submit_device(clean, &pic[i][0].dp, &pic[i][1].dp));
        }
        free(f.buf);
    }
    if (dev && host && clean) {
        CHECK(!vq_flush(dev) && !vq_flush(host) && !vq_flush(clean));
        VqFrameScores fs;
        while (!vq_receive(dev, &fs))
            ;
        while (!vq_receive(clean, &fs))
            ;
        const char *name = vq_output_name(clean, 0);
        double a, b;
        if (refused)
            CHECK(name && !vq_pooled(dev, name, VQ_POOL_MEAN, &a) &&
                  !vq_pooled(clean, name, VQ_POOL_MEAN, &b) && a == b);
    }
    vq_close(&dev);
    vq_close(&host);
    vq_close(&clean);
    for (unsigned i = 0; i < 3; i++)
        for (unsigned k = 0; k < 2; k++)
            vq_test_dev_picture_free(gpu, &pic[i][k]);
}

int main(int argc, char **argv)
{
    int real = argc > 1 && !strcmp(argv[1], "--gpu");
    int present = real ? vq_test_gpu_present("sample_range_device") : 0;
    if (present)
        return present;
    if (!real)
        setenv("VQHIP_FAKE_GPU", "1", 1);
    if (vq_gpu_open(&gpu, 0, 0, &gpu_err)) {
        printf("FAIL: the %s GPU does not open: %s\n", real ? "real" : "fake",
               gpu_err.msg);
        return 1;
    }
    /* one bad luma sample: first, last, inside a row */
    const Bad first = { 1, 0, 0, 0, 0xFFFF }, last = { 1, 0, W - 1, H - 1, 1024 },
              mid = { 1, 0, 37, 20, 5000 };
    one("name=psnr", 10, &first, 1, 0, 1);
    one("name=psnr", 10, &last, 1, 1, 1);
    one("name=float_ssim", 10, &mid, 1, 0, 1);
    one("name=vif", 10, &mid, 1, 1, 1);
    /* several: the first in row order is named, the reference before the
     * distorted, chroma where it is read */
    const Bad many[] = { { 1, 0, 60, 9, 2000 }, { 1, 0, 3, 10, 3000 },
                         { 1, 0, 5, 9, 4000 } };
    one("name=psnr", 10, many, 3, 0, 1);
    const Bad both[] = { { 1, 0, 1, 1, 2000 }, { 0, 0, 9, 30, 1500 } };
    one("name=psnr", 10, both, 2, 0, 1);
    const Bad chroma = { 1, 2, 30, 15, 0xFFFF }, c12 = { 0, 1, 2, 3, 4096 };
    one("name=psnr", 10, &chroma, 1, 0, 1);
    one("name=psnr", 12, &c12, 1, 1, 1);
    /* accepted: the largest value, planes not read */
    const Bad top = { 1, 0, 7, 7, 1023 };
    one("name=psnr", 10, &top, 1, 0, 0);
    one("name=psnr:enable_chroma=false", 10, &chroma, 1, 0, 0);
    vq_gpu_close(&gpu);
    TEST_END();
}
