/*
 * Running features over synthetic frames (speed_frames.h) for the SpEED
 * and motion_v2 tests: every output of every frame is recorded by name.
 */
#ifndef VQHIP_TESTS_SPEED_RUN_H
#define VQHIP_TESTS_SPEED_RUN_H

#include <stdio.h>
#include <string.h>

#include "../common/gpu_present.h"

#include "speed_frames.h"
#include "vqhip.h"

#define RUN_MAX_OUT 16
#define RUN_MAX_FRAMES 16

typedef struct RunResult {
    unsigned n_frames, n_out;
    char name[RUN_MAX_OUT][160];
    double value[RUN_MAX_OUT][RUN_MAX_FRAMES];
    int have[RUN_MAX_OUT][RUN_MAX_FRAMES];
    char backend[RUN_MAX_OUT][16];
    char err[512];
} RunResult;

typedef struct RunInput {
    VqPixFmt fmt;
    unsigned bpc, w, h, frames;
    int pattern;
} RunInput;

static inline void run_record(RunResult *r, VqContext *ctx,
                              const VqFrameScores *fs)
{
    for (unsigned i = 0; i < fs->n; i++) {
        unsigned k = 0;
        while (k < r->n_out && strcmp(r->name[k], fs->scores[i].name))
            k++;
        if (k == r->n_out) {
            if (r->n_out == RUN_MAX_OUT)
                continue;
            snprintf(r->name[r->n_out], sizeof(r->name[0]), "%s",
                     fs->scores[i].name);
            const char *b = vq_output_backend(ctx, fs->scores[i].name);
            snprintf(r->backend[r->n_out], sizeof(r->backend[0]), "%s",
                     b ? b : "?");
            r->n_out++;
        }
        if (fs->index < RUN_MAX_FRAMES) {
            r->value[k][fs->index] = fs->scores[i].value;
            r->have[k][fs->index] = 1;
        }
    }
    if (fs->index + 1 > r->n_frames)
        r->n_frames = fs->index + 1;
}

/* Runs the features (and the model, when not NULL) on the input. Returns 0,
 * a negative vqhip error (message in r->err), or 77 when the backend is hip
 * and no GPU opens. */
static inline int run_features(RunResult *r, VqBackend backend,
                               const char *const *specs, const char *model,
                               const RunInput *in)
{
    memset(r, 0, sizeof(*r));
    VqConfig cfg = vq_default_config();
    cfg.backend = backend;
    cfg.strict = backend == VQ_BACKEND_HIP;
    cfg.log_level = VQ_LOG_LEVEL_ERROR;
    VqContext *ctx = NULL;
    int err = vq_open(&ctx, &cfg);
    if (err < 0) {
        snprintf(r->err, sizeof(r->err), "%s", vq_last_error(ctx));
        vq_close(&ctx);
        return err == VQ_EDEVICE && backend == VQ_BACKEND_HIP ? 77 : err;
    }
    for (unsigned i = 0; err >= 0 && specs && specs[i]; i++)
        err = vq_use_feature(ctx, specs[i]);
    if (err >= 0 && model)
        err = vq_use_model(ctx, model);
    VqFrameScores fs;
    for (unsigned t = 0; err >= 0 && t < in->frames; t++) {
        FramesPic ref, dis;
        if (frames_make(&ref, in->fmt, in->bpc, in->w, in->h, in->pattern, t,
                        0) ||
            frames_make(&dis, in->fmt, in->bpc, in->w, in->h, in->pattern, t,
                        1))
            err = VQ_ENOMEM;
        else
            err = vq_submit(ctx, &ref.pic, &dis.pic);
        frames_free(&ref);
        frames_free(&dis);
        while (err >= 0 && vq_receive(ctx, &fs) == 0)
            run_record(r, ctx, &fs);
    }
    if (err >= 0)
        err = vq_flush(ctx);
    while (err >= 0 && vq_receive(ctx, &fs) == 0)
        run_record(r, ctx, &fs);
    if (err < 0)
        snprintf(r->err, sizeof(r->err), "%s", vq_last_error(ctx));
    vq_close(&ctx);
    return err < 0 ? err : 0;
}

static inline int run_find(const RunResult *r, const char *name)
{
    for (unsigned k = 0; k < r->n_out; k++)
        if (!strcmp(r->name[k], name))
            return (int)k;
    return -1;
}

#endif
