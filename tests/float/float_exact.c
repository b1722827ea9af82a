/*
 * float_vif, float_adm and float_motion against libvmaf's values at full
 * precision (float_exact.tsv: libvmaf's doubles printed with %.17g), on
 * the golden clips: every value must be the same double. Runs the CPU path
 * with the C functions of the DSP tables and then with every SIMD variant
 * this machine has, and with --backend hip the GPU path instead.
 *
 * usage: float_exact GOLDEN_DIR CLIPS_DIR TSV [--backend cpu|hip]
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/gpu_present.h"
#include "cpu.h"
#include "vqhip.h"
#include "yuv_input.h"

#define MAX_ROWS 4096

typedef struct Row {
    char clip[16], spec[256], key[128];
    unsigned frame;
    double value;
} Row;

static Row rows[MAX_ROWS];
static unsigned n_rows, n_fail, n_same;

static int read_tsv(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    char line[1024];
    while (fgets(line, sizeof(line), f) && n_rows < MAX_ROWS) {
        if (line[0] == '#' || !strncmp(line, "clip\t", 5))
            continue;
        Row *r = &rows[n_rows];
        char value[64];
        if (sscanf(line, "%15[^\t]\t%255[^\t]\t%127[^\t]\t%u\t%63s", r->clip,
                   r->spec, r->key, &r->frame, value) != 5)
            continue;
        r->value = strtod(value, NULL);
        n_rows++;
    }
    fclose(f);
    return 0;
}

/* The manifest row of a clip (name prefix): size, format, files. */
static int clip_info(const char *golden, const char *clip, unsigned *w,
                     unsigned *h, VqPixFmt *fmt, unsigned *bpc, char *ref,
                     char *dis, size_t sz)
{
    char path[512], line[2048];
    snprintf(path, sizeof(path), "%s/manifest.tsv", golden);
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    int found = -1;
    while (fgets(line, sizeof(line), f)) {
        char name[128], pix[32], vpf[16], rf[256], df[256], sha[80], sha2[80];
        unsigned frames;
        if (sscanf(line, "%127s %u %u %31s %u %15s %u %255s %79s %255s %79s",
                   name, w, h, pix, bpc, vpf, &frames, rf, sha, df,
                   sha2) != 11 || strncmp(name, clip, strlen(clip)))
            continue;
        if (yuv_parse_pix_fmt(vpf, fmt))
            break;
        snprintf(ref, sz, "%s", rf);
        snprintf(dis, sz, "%s", df);
        found = 0;
        break;
    }
    fclose(f);
    return found;
}

/* libvmaf's "float_vif=k=v:k=v" as vqhip's "name=float_vif:k=v:k=v". */
static void vqhip_spec(const char *spec, char *out, size_t sz)
{
    const char *eq = strchr(spec, '=');
    if (!eq)
        snprintf(out, sz, "%s", spec);
    else
        snprintf(out, sz, "name=%.*s:%s", (int)(eq - spec), spec, eq + 1);
}

static void check_value(const Row *r, const char *name, unsigned frame,
                        double v, const char *variant)
{
    for (unsigned i = 0; i < n_rows; i++) {
        const Row *e = &rows[i];
        if (strcmp(e->clip, r->clip) || strcmp(e->spec, r->spec) ||
            strcmp(e->key, name) || e->frame != frame)
            continue;
        if (v == e->value || (isnan(v) && isnan(e->value))) {
            n_same++;
        } else if (n_fail++ < 30) {
            printf("FAIL %s %s [%s] frame %u %s: vqhip %.17g, libvmaf %.17g\n",
                   variant, r->clip, r->spec, frame, name, v, e->value);
        }
    }
}

/* Runs one clip and spec, checks every value the table has for them. */
static int run(const char *golden, const char *clips, const Row *r,
               VqBackend backend, const char *variant)
{
    unsigned w, h, bpc;
    VqPixFmt fmt;
    char rf[256], df[256], path_r[1024], path_d[1024], spec[300], err[256];
    if (clip_info(golden, r->clip, &w, &h, &fmt, &bpc, rf, df, sizeof(rf))) {
        printf("FAIL %s: not in the manifest\n", r->clip);
        return -1;
    }
    snprintf(path_r, sizeof(path_r), "%s/%s", clips, rf);
    snprintf(path_d, sizeof(path_d), "%s/%s", clips, df);
    vqhip_spec(r->spec, spec, sizeof(spec));
    VqConfig cfg = vq_default_config();
    cfg.backend = backend;
    cfg.strict = backend == VQ_BACKEND_HIP;
    cfg.n_threads = 2;
    VqContext *ctx = NULL;
    YuvInput ir, id;
    if (vq_open(&ctx, &cfg) || vq_use_feature(ctx, spec)) {
        printf("FAIL %s [%s]: %s\n", r->clip, spec, vq_last_error(ctx));
        vq_close(&ctx);
        return -1;
    }
    if (yuv_open(&ir, path_r, fmt, bpc, w, h, err, sizeof(err)) ||
        yuv_open(&id, path_d, fmt, bpc, w, h, err, sizeof(err))) {
        printf("FAIL %s: %s\n", r->clip, err);
        vq_close(&ctx);
        return -1;
    }
    VqPicture pr, pd;
    VqFrameScores fs;
    int e = 0;
    while (!e && yuv_read(&ir, &pr, err, sizeof(err)) == 1 &&
           yuv_read(&id, &pd, err, sizeof(err)) == 1) {
        e = vq_submit(ctx, &pr, &pd);
        while (!e && vq_receive(ctx, &fs) == 0)
            for (unsigned k = 0; k < fs.n; k++)
                check_value(r, fs.scores[k].name, fs.index,
                            fs.scores[k].value, variant);
    }
    if (!e)
        e = vq_flush(ctx);
    while (!e && vq_receive_wait(ctx, &fs) == 0)
        for (unsigned k = 0; k < fs.n; k++)
            check_value(r, fs.scores[k].name, fs.index, fs.scores[k].value,
                        variant);
    if (e && e != VQ_EOF) {
        printf("FAIL %s [%s]: %s\n", r->clip, spec, vq_last_error(ctx));
        n_fail++;
    }
    yuv_close(&ir);
    yuv_close(&id);
    vq_close(&ctx);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: float_exact GOLDEN_DIR CLIPS_DIR TSV "
                        "[--backend cpu|hip]\n");
        return 2;
    }
    VqBackend backend = VQ_BACKEND_CPU;
    if (argc == 6 && !strcmp(argv[4], "--backend") &&
        (!strcmp(argv[5], "hip") || !strcmp(argv[5], "cpu"))) {
        backend = strcmp(argv[5], "hip") ? VQ_BACKEND_CPU : VQ_BACKEND_HIP;
    } else if (argc != 4) {
        fprintf(stderr, "float_exact: arguments after the TSV not understood "
                        "(--backend cpu|hip)\n");
        return 2;
    }
    /* no GPU present: skipped (77); a GPU that fails to open: a failure
     * (strict contexts below) */
    if (backend == VQ_BACKEND_HIP) {
        int present = vq_test_gpu_present("float_exact");
        if (present)
            return present;
    }
    if (read_tsv(argv[3]) || !n_rows) {
        fprintf(stderr, "no values in %s\n", argv[3]);
        return 2;
    }
    /* CPU: the C functions, then the variants this CPU has */
    int passes = backend == VQ_BACKEND_CPU ? 2 : 1;
    for (int p = 0; p < passes; p++) {
        char flags[64];
        unsigned mask = backend == VQ_BACKEND_CPU && p == 0 ? 0 : VQ_CPU_ALL;
        vq_cpu_set_mask(mask);
        char variant[80];
        snprintf(variant, sizeof(variant), "%s(%s)",
                 backend == VQ_BACKEND_HIP ? "hip" : "cpu",
                 vq_cpu_flags_string(vq_cpu_flags(), flags, sizeof(flags)));
        unsigned before = n_same;
        for (unsigned i = 0; i < n_rows; i++) {
            unsigned j = 0;
            while (j < i && (strcmp(rows[j].clip, rows[i].clip) ||
                             strcmp(rows[j].spec, rows[i].spec)))
                j++;
            if (j == i && run(argv[1], argv[2], &rows[i], backend, variant))
                n_fail++;
        }
        printf("%s: %u of %u values equal libvmaf's\n", variant,
               n_same - before, n_rows);
        if (n_same - before != n_rows && !n_fail) {
            printf("FAIL %s: some values were not produced\n", variant);
            n_fail++;
        }
    }
    printf("%u failure(s)\n", n_fail);
    return n_fail ? 1 : 0;
}
