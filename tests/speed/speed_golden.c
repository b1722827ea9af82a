/*
 * SpEED with the vmaf_v1.0.16 models' options on the golden clips, against
 * libvmaf's doubles for the same options (speed_golden_expect.h): every
 * output name and every frame's value, bit for bit, on the CPU and, when
 * one opens, the GPU.
 *
 * usage: speed_golden GOLDEN_DIR CLIPS_DIR (through golden/run_golden.sh,
 * which makes the clips). Exit status: 0 pass, 1 fail, 77 no golden set.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "speed_run.h"
#include "yuv_input.h"

#define MAX_KEYS 3
#define MAX_FRAMES 16
typedef struct GoldenExpect {
    const char *clip, *spec; /* spec in libvmaf's tool syntax */
    const char *keys[MAX_KEYS + 1];
    double value[MAX_FRAMES][MAX_KEYS];
} GoldenExpect;

#include "speed_golden_expect.h"

typedef struct Clip {
    char name[128], ref[256], dis[256];
    unsigned w, h, bpc, frames;
    VqPixFmt fmt;
} Clip;

static int find_clip(const char *gdir, const char *name, Clip *c)
{
    char path[1024], line[2048];
    snprintf(path, sizeof(path), "%s/manifest.tsv", gdir);
    FILE *m = fopen(path, "r");
    if (!m)
        return -1;
    int found = -1;
    while (found && fgets(line, sizeof(line), m)) {
        char pixfmt[32], vfmt[8], sha[2][80];
        if (sscanf(line, "%127s %u %u %31s %u %7s %u %255s %79s %255s %79s",
                   c->name, &c->w, &c->h, pixfmt, &c->bpc, vfmt, &c->frames,
                   c->ref, sha[0], c->dis, sha[1]) == 11 &&
            !strcmp(c->name, name) && !yuv_parse_pix_fmt(vfmt, &c->fmt))
            found = 0;
    }
    fclose(m);
    return found;
}

/* "speed_chroma=k=v:..." -> "name=speed_chroma:k=v:..." */
static void vqhip_spec(const char *libvmaf, char *out, size_t sz)
{
    const char *eq = strchr(libvmaf, '=');
    if (!eq)
        snprintf(out, sz, "name=%s", libvmaf);
    else
        snprintf(out, sz, "name=%.*s:%s", (int)(eq - libvmaf), libvmaf, eq + 1);
}

static int run_clip(const char *cdir, const Clip *c, const char *spec,
                    VqBackend backend, RunResult *r)
{
    memset(r, 0, sizeof(*r));
    VqConfig cfg = vq_default_config();
    cfg.backend = backend;
    cfg.strict = backend == VQ_BACKEND_HIP;
    cfg.log_level = VQ_LOG_LEVEL_ERROR;
    VqContext *ctx = NULL;
    char pr[1400], pd[1400];
    snprintf(pr, sizeof(pr), "%s/%s", cdir, c->ref);
    snprintf(pd, sizeof(pd), "%s/%s", cdir, c->dis);
    YuvInput ir, id;
    int opened = 0;
    int e = vq_open(&ctx, &cfg);
    if (!e)
        e = vq_use_feature(ctx, spec);
    if (!e && !yuv_open(&ir, pr, c->fmt, c->bpc, c->w, c->h, r->err,
                        sizeof(r->err)))
        opened |= 1;
    if (!e && (opened & 1) &&
        !yuv_open(&id, pd, c->fmt, c->bpc, c->w, c->h, r->err, sizeof(r->err)))
        opened |= 2;
    if (!e && opened != 3)
        e = -1;
    VqPicture a, b;
    VqFrameScores fs;
    for (unsigned t = 0; !e && t < c->frames; t++) {
        if (yuv_read(&ir, &a, r->err, sizeof(r->err)) != 1 ||
            yuv_read(&id, &b, r->err, sizeof(r->err)) != 1) {
            e = -1;
            break;
        }
        e = vq_submit(ctx, &a, &b);
    }
    if (!e)
        e = vq_flush(ctx);
    while (!e && vq_receive(ctx, &fs) == 0)
        run_record(r, ctx, &fs);
    if (e && !r->err[0])
        snprintf(r->err, sizeof(r->err), "%s", vq_last_error(ctx));
    if (opened & 1)
        yuv_close(&ir);
    if (opened & 2)
        yuv_close(&id);
    vq_close(&ctx);
    return e;
}

int main(int argc, char **argv)
{
    int gpu;
    int st = vq_test_backend(&argc, argv, "speed_golden", &gpu);
    if (st)
        return st;
    if (argc != 3) {
        fprintf(stderr, "usage: speed_golden GOLDEN_DIR CLIPS_DIR "
                        "[--backend cpu|hip]\n");
        return 2;
    }
    unsigned n_pass = 0, n_fail = 0;
    RunResult *r = malloc(sizeof(*r));
    if (!r)
        return 1;
    for (size_t i = 0; i < sizeof(golden_expect) / sizeof(golden_expect[0]); i++) {
        const GoldenExpect *g = &golden_expect[i];
        Clip c;
        if (find_clip(argv[1], g->clip, &c)) {
            printf("no golden clip %s in %s: skipped\n", g->clip, argv[1]);
            free(r);
            return 77;
        }
        char spec[512];
        vqhip_spec(g->spec, spec, sizeof(spec));
        for (int backend = 0; backend <= gpu; backend++) {
            const char *bn = backend ? "hip" : "cpu";
            unsigned bad = 0;
            if (run_clip(argv[2], &c, spec,
                         backend ? VQ_BACKEND_HIP : VQ_BACKEND_CPU, r)) {
                printf("FAIL %s [%s] %s: %s\n", c.name, bn, spec, r->err);
                n_fail++;
                continue;
            }
            for (unsigned k = 0; g->keys[k]; k++) {
                const int o = run_find(r, g->keys[k]);
                if (o < 0) {
                    printf("FAIL %s [%s]: no output %s\n", c.name, bn,
                           g->keys[k]);
                    bad++;
                    continue;
                }
                for (unsigned t = 0; t < c.frames && t < MAX_FRAMES; t++) {
                    if (!r->have[o][t] || memcmp(&r->value[o][t],
                                                 &g->value[t][k],
                                                 sizeof(double))) {
                        printf("FAIL %s [%s] frame %u %s: libvmaf %.17g, "
                               "vqhip %.17g%s\n", c.name, bn, t, g->keys[k],
                               g->value[t][k], r->value[o][t],
                               r->have[o][t] ? "" : " (missing)");
                        bad++;
                    }
                }
            }
            if (bad)
                n_fail++;
            else
                n_pass++;
            printf("%s %s [%s] %s\n", bad ? "FAIL" : "ok  ", c.name, bn, spec);
        }
    }
    free(r);
    printf("speed_golden: %u passed, %u failed (%s)\n", n_pass, n_fail,
           gpu ? "CPU and GPU" : "CPU");
    return n_fail ? 1 : 0;
}
