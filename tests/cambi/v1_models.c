/*
 * The VMAF v1.0.16 models (cambi, speed_chroma_uv, integer adm3 with
 * csf_mode 2, motion3, each with the model's options) on golden clips g01
 * and g02, against the scores libvmaf 3.2.0 computes (v1_models_expect.h,
 * %.17g, made by v1_models_expect.sh): each model alone, then all four in
 * one run with vmaf_v0.6.1, sharing the extractors whose options match.
 * Every score must be the same double as libvmaf's.
 *
 * usage: v1_models GOLDEN_DIR CLIPS_DIR [--backend cpu|hip]
 * (run by tests/golden/run_golden.sh, which makes the clips)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vqhip.h"
#include "yuv_input.h"

#define N_MODELS 4
#define MAX_FRAMES 16

typedef struct ModelExpect {
    const char *clip;
    unsigned w, h, frames;
    double v[N_MODELS][MAX_FRAMES];
} ModelExpect;

static const char *const models[N_MODELS] = {
    "vmaf_v1.0.16_3d0h", "vmaf_v1.0.16_5d0h", "vmaf_v1.0.16_1d5h_2160",
    "vmaf_v1.0.16_3d0h_2160",
};

#include "v1_models_expect.h"

static unsigned n_fail;

/* Runs models[m] for each m with use[m] (named after themselves), plus
 * vmaf_v0.6.1 when with_v06; out[m][frame]. */
static int run(const char *clips, const ModelExpect *e, VqBackend backend,
               const int *use, int with_v06, double out[][MAX_FRAMES],
               unsigned *n_outputs)
{
    VqConfig cfg = vq_default_config();
    cfg.backend = backend;
    cfg.strict = backend == VQ_BACKEND_HIP;
    cfg.log_level = VQ_LOG_LEVEL_ERROR;
    VqContext *ctx = NULL;
    int err = vq_open(&ctx, &cfg);
    char spec[256], err_msg[256];
    if (!err && with_v06)
        err = vq_use_model(ctx, "version=vmaf_v0.6.1:name=vmaf_v0.6.1");
    for (unsigned m = 0; !err && m < N_MODELS; m++) {
        if (!use[m])
            continue;
        snprintf(spec, sizeof(spec), "version=%s:name=%s", models[m], models[m]);
        err = vq_use_model(ctx, spec);
    }
    YuvInput ir, id;
    int opened = 0;
    char pr[1024], pd[1024];
    snprintf(pr, sizeof(pr), "%s/%s_ref.yuv", clips, e->clip);
    snprintf(pd, sizeof(pd), "%s/%s_dis.yuv", clips, e->clip);
    if (!err && (yuv_open(&ir, pr, VQ_PIX_FMT_420, 8, e->w, e->h, err_msg,
                          sizeof(err_msg)) ||
                 yuv_open(&id, pd, VQ_PIX_FMT_420, 8, e->w, e->h, err_msg,
                          sizeof(err_msg)))) {
        printf("FAIL %s: %s\n", e->clip, err_msg);
        vq_close(&ctx);
        return -1;
    }
    opened = !err;
    for (unsigned i = 0; !err && i < e->frames; i++) {
        VqPicture r, d;
        if (yuv_read(&ir, &r, err_msg, sizeof(err_msg)) != 1 ||
            yuv_read(&id, &d, err_msg, sizeof(err_msg)) != 1) {
            printf("FAIL %s: frame %u: cannot read\n", e->clip, i);
            err = -1;
            break;
        }
        err = vq_submit(ctx, &r, &d);
    }
    if (opened) {
        yuv_close(&ir);
        yuv_close(&id);
    }
    if (!err)
        err = vq_flush(ctx);
    VqFrameScores fs;
    while (!err && !(err = vq_receive(ctx, &fs))) {
        for (unsigned m = 0; m < N_MODELS; m++)
            for (unsigned k = 0; use[m] && k < fs.n; k++)
                if (!strcmp(fs.scores[k].name, models[m]))
                    out[m][fs.index] = fs.scores[k].value;
    }
    if (err != VQ_EOF) {
        printf("FAIL %s: %s\n", e->clip, vq_last_error(ctx));
        vq_close(&ctx);
        return -1;
    }
    *n_outputs = vq_output_count(ctx);
    vq_close(&ctx);
    return 0;
}

static void compare(const ModelExpect *e, const int *use,
                    double out[][MAX_FRAMES], const char *what)
{
    for (unsigned m = 0; m < N_MODELS; m++) {
        if (!use[m])
            continue;
        unsigned bad = 0;
        for (unsigned i = 0; i < e->frames; i++)
            if (memcmp(&out[m][i], &e->v[m][i], sizeof(double))) {
                if (bad++ < 3)
                    printf("     frame %u: vqhip %.17g, libvmaf %.17g\n", i,
                           out[m][i], e->v[m][i]);
            }
        n_fail += bad != 0;
        printf("%s %s %s %s: %u frames %s\n", bad ? "FAIL" : "ok  ", e->clip,
               models[m], what, e->frames,
               bad ? "differ from libvmaf" : "identical to libvmaf");
    }
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: v1_models GOLDEN_DIR CLIPS_DIR [--backend cpu|hip]\n");
        return 2;
    }
    VqBackend backend = argc > 4 && !strcmp(argv[4], "hip") ? VQ_BACKEND_HIP
                                                            : VQ_BACKEND_CPU;
    for (size_t c = 0; c < sizeof(v1_expect) / sizeof(v1_expect[0]); c++) {
        const ModelExpect *e = &v1_expect[c];
        double out[N_MODELS][MAX_FRAMES];
        unsigned n_out = 0, n_all = 0;
        for (unsigned m = 0; m < N_MODELS; m++) {
            int use[N_MODELS] = { 0 };
            use[m] = 1;
            memset(out, 0, sizeof(out));
            if (run(argv[2], e, backend, use, 0, out, &n_out))
                n_fail++;
            else
                compare(e, use, out, "alone");
        }
        int all[N_MODELS] = { 1, 1, 1, 1 };
        memset(out, 0, sizeof(out));
        if (run(argv[2], e, backend, all, 1, out, &n_all)) {
            n_fail++;
            continue;
        }
        compare(e, all, out, "with the others and vmaf_v0.6.1");
        printf("     one run: %u outputs\n", n_all);
    }
    printf("v1_models: %u failure(s)\n", n_fail);
    return n_fail ? 1 : 0;
}
