/*
 * Models through the public API: a model whose only inputs are psnr_y and
 * psnr_cb (so that it runs with the extractors every build has) and a
 * bootstrap variant, side by side in one CPU run. Each frame's model
 * outputs must equal what the same model predicts from that frame's
 * delivered psnr values, and the selection errors must be clear.
 *
 * usage: test_model_pipeline <tests/model/data> <models dir>
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "model/model.h"
#include "model_test.h"
#include "vqhip.h"

#define W 64
#define H 48
#define FRAMES 4

static uint8_t ref_y[FRAMES][H][W], dis_y[FRAMES][H][W];
static uint8_t ref_c[FRAMES][2][H / 2][W / 2], dis_c[FRAMES][2][H / 2][W / 2];

static void make_frames(void)
{
    uint32_t s = 12345;
    for (unsigned f = 0; f < FRAMES; f++) {
        for (unsigned y = 0; y < H; y++) {
            for (unsigned x = 0; x < W; x++) {
                s = s * 1664525u + 1013904223u;
                ref_y[f][y][x] = (uint8_t)(16 + ((x * 3 + y * 5 + f * 7) & 127));
                dis_y[f][y][x] = (uint8_t)(ref_y[f][y][x] +
                                           (int)((s >> 24) % (3 + 2 * f)));
            }
        }
        for (unsigned p = 0; p < 2; p++) {
            for (unsigned y = 0; y < H / 2; y++) {
                for (unsigned x = 0; x < W / 2; x++) {
                    s = s * 1664525u + 1013904223u;
                    ref_c[f][p][y][x] = (uint8_t)(100 + x + p * 20);
                    dis_c[f][p][y][x] = (uint8_t)(ref_c[f][p][y][x] +
                                                  (int)((s >> 28) % (2 + f)));
                }
            }
        }
    }
}

static VqPicture picture(uint8_t (*y)[W], uint8_t (*c)[H / 2][W / 2])
{
    VqPicture p = { .fmt = VQ_PIX_FMT_420, .bpc = 8, .w = W, .h = H };
    p.data[0] = y;
    p.data[1] = c[0];
    p.data[2] = c[1];
    p.stride[0] = W;
    p.stride[1] = p.stride[2] = W / 2;
    return p;
}

static bool score(const VqFrameScores *fs, const char *name, double *v)
{
    for (unsigned i = 0; i < fs->n; i++) {
        if (!strcmp(fs->scores[i].name, name)) {
            *v = fs->scores[i].value;
            return true;
        }
    }
    return false;
}

/* The model's outputs for one frame's inputs, predicted on their own. */
static void expected(VqModel *m, double psnr_y, double psnr_cb, double *out)
{
    VqCollector c = { 0 };
    VqErrBuf e;
    vq_collector_set(&c, vq_collector_series(&c, "psnr_y", "cpu"), 0, psnr_y);
    vq_collector_set(&c, vq_collector_series(&c, "psnr_cb", "cpu"), 0,
                     psnr_cb);
    CHECK_MSG(!vq_model_predict(m, &c, 0, "cpu", &e), "%s", e.msg);
    for (unsigned k = 0; k < vq_model_output_count(m); k++)
        vq_collector_get(&c, vq_collector_find(&c, vq_model_output_name(m, k)),
                         0, &out[k]);
    vq_collector_free(&c);
}

static void test_run(const char *data_dir)
{
    char spec_a[1024], spec_b[1024];
    snprintf(spec_a, sizeof(spec_a), "path=%s/model_psnr.json:name=a",
             data_dir);
    snprintf(spec_b, sizeof(spec_b), "path=%s/model_psnr_boot.json:name=b",
             data_dir);
    VqModel *ma, *mb;
    VqErrBuf e;
    CHECK_MSG(!vq_model_open(&ma, spec_a, NULL, &e), "%s", e.msg);
    CHECK_MSG(!vq_model_open(&mb, spec_b, NULL, &e), "%s", e.msg);
    if (!ma || !mb)
        return;

    VqConfig cfg = vq_default_config();
    cfg.backend = VQ_BACKEND_CPU;
    VqContext *ctx;
    int err = vq_open(&ctx, &cfg);
    CHECK_MSG(!err, "vq_open: %s", vq_last_error(ctx));
    CHECK_MSG(!vq_use_model(ctx, spec_a), "%s", vq_last_error(ctx));
    CHECK_MSG(!vq_use_model(ctx, spec_b), "%s", vq_last_error(ctx));
    CHECK_MSG(vq_use_model(ctx, spec_a) == VQ_EINVAL &&
          strstr(vq_last_error(ctx), "two models are named 'a'"), "%s",
          vq_last_error(ctx));
    CHECK_MSG(vq_model_count(ctx) == 2 && !strcmp(vq_model_output(ctx, 0), "a") &&
          !strcmp(vq_model_output(ctx, 1), "b") && !vq_model_output(ctx, 2),
          "model list");
    for (unsigned f = 0; f < FRAMES; f++) {
        VqPicture r = picture(ref_y[f], ref_c[f]), d = picture(dis_y[f],
                                                               dis_c[f]);
        CHECK_MSG(!vq_submit(ctx, &r, &d), "submit: %s", vq_last_error(ctx));
    }
    CHECK_MSG(!vq_flush(ctx), "flush: %s", vq_last_error(ctx));
    unsigned n = 0;
    VqFrameScores fs;
    while (!(err = vq_receive(ctx, &fs))) {
        double y = NAN, cb = NAN, out[16], v = NAN;
        CHECK_MSG(score(&fs, "psnr_y", &y) && score(&fs, "psnr_cb", &cb),
              "frame %u: no psnr", fs.index);
        if (score(&fs, "a", &v))
            printf("frame %u: psnr_y %.4f psnr_cb %.4f -> a %.6f\n", fs.index,
                   y, cb, v);
        VqModel *models[2] = { ma, mb };
        for (unsigned k = 0; k < 2; k++) {
            expected(models[k], y, cb, out);
            for (unsigned o = 0; o < vq_model_output_count(models[k]); o++) {
                const char *name = vq_model_output_name(models[k], o);
                CHECK_MSG(score(&fs, name, &v) && v == out[o],
                      "frame %u %s: %.17g, want %.17g", fs.index, name, v,
                      out[o]);
            }
        }
        n++;
    }
    CHECK_MSG(err == VQ_EOF && n == FRAMES, "received %u frames, then %d", n, err);
    double mean;
    CHECK_MSG(!vq_pooled(ctx, "b_ci_p95_hi", VQ_POOL_MEAN, &mean) && mean > 0,
          "pooled: %s", vq_last_error(ctx));
    CHECK_MSG(vq_output_backend(ctx, "a") && !strcmp(vq_output_backend(ctx, "a"),
                                                "cpu"), "backend of a");
    vq_close(&ctx);
    vq_model_close(&ma);
    vq_model_close(&mb);
}

static void test_selection_errors(const char *models_dir)
{
    VqConfig cfg = vq_default_config();
    cfg.backend = VQ_BACKEND_CPU;
    VqContext *ctx;
    vq_open(&ctx, &cfg);
    CHECK_MSG(vq_use_model(ctx, "path=/nonexistent.json") == VQ_ENOTFOUND &&
          strstr(vq_last_error(ctx), "/nonexistent.json"), "%s",
          vq_last_error(ctx));
    /* Until the build has adm, vif and motion, vmaf_v0.6.1 must say so. */
    char spec[1024];
    snprintf(spec, sizeof(spec), "path=%s/vmaf_v0.6.1.json", models_dir);
    int err = vq_use_model(ctx, spec);
    FILE *f = fopen(spec + 5, "r");
    if (f) {
        fclose(f);
        if (vq_fex_find("adm") && vq_fex_find("vif") && vq_fex_find("motion"))
            CHECK_MSG(!err, "vmaf_v0.6.1: %s", vq_last_error(ctx));
        else
            CHECK_MSG(err == VQ_EUNSUPPORTED && strstr(vq_last_error(ctx),
                                                   "does not have yet"),
                  "%d %s", err, vq_last_error(ctx));
    }
    vq_close(&ctx);
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: %s <data dir> <models dir>\n", argv[0]);
        return 2;
    }
    make_frames();
    test_run(argv[1]);
    test_selection_errors(argv[2]);
    printf("%d failures\n", n_fail);
    return n_fail ? 1 : 0;
}
