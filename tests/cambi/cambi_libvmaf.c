/*
 * CAMBI against upstream libvmaf on banding pictures (cambi_frames.h).
 *
 *   cambi_libvmaf [--backend cpu|hip]  every case on the CPU (and with
 *                          hip on the GPU, exit 77 without one): each
 *                          value must be the double libvmaf
 *                          computed (cambi_expect.h, %.17g), each heatmap
 *                          file must hash like libvmaf's; then the sizes,
 *                          options and samples CAMBI refuses.
 *   cambi_libvmaf --dump DIR   writes the clips and lists the cases for
 *                          cambi_expect.sh, which made cambi_expect.h.
 *   cambi_libvmaf --hash FILE...  FNV-1a 64 of files (for the heatmaps).
 *
 * Exit status: 0 pass, 1 fail.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../common/gpu_present.h"
#include "cambi_frames.h"
#include "vqhip.h"

typedef struct Clip {
    const char *name;
    unsigned w, h, bpc, frames;
} Clip;

static const Clip clips[] = {
    { "b540_8", 960, 540, 8, 4 },
    { "b540_10", 960, 540, 10, 4 },
    { "b1080_8", 1920, 1080, 8, 2 },
};

#define MAX_KEYS 3
#define MAX_FRAMES 4
typedef struct Case {
    const char *name;
    unsigned clip;
    const char *options; /* k=v:k=v, the same for libvmaf and vqhip */
    const char *keys[MAX_KEYS + 1]; /* output names (vqhip's = libvmaf's) */
} Case;

static const Case cases[] = {
    { "default_8", 0, "", { "cambi" } },
    { "full_ref_8", 0, "full_ref=true",
      { "cambi", "cambi_source", "cambi_full_reference" } },
    { "v1_model_options_8", 0,
      "cambi_high_res_speedup=1080:cambi_vis_lum_threshold=0.06:"
      "cambi_max_val=17", { "cambi_hrs_1080_cmxv_17_vlt_0.06" } },
    { "window_topk_tvi_8", 0, "window_size=31:topk=0.3:tvi_threshold=0.03",
      { "cambi_topk_0.3_tvit_0.03_ws_31" } },
    { "mlc5_pq_8", 0, "max_log_contrast=5:eotf=pq", { "cambi_eotf_pq_mlc_5" } },
    { "mlc0_ctopk_8", 0, "max_log_contrast=0:cambi_topk=0.9",
      { "cambi_ctpk_0.9_mlc_0" } },
    { "enc_src_sizes_8", 0,
      "enc_width=640:enc_height=360:src_width=800:src_height=450:full_ref=true",
      { "cambi_ench_360_encw_640_srch_450_srcw_800", "cambi_source",
        "cambi_full_reference" } },
    { "default_10", 1, "", { "cambi" } },
    { "full_ref_encbd8_10", 1, "full_ref=true:enc_bitdepth=8",
      { "cambi_encbd_8", "cambi_source", "cambi_full_reference" } },
    { "vlt_tvi_ceotf_10", 1,
      "cambi_vis_lum_threshold=1.5:tvi_threshold=0.01:cambi_eotf=pq",
      { "cambi_ceot_pq_vlt_1.5_tvit_0.01" } },
    { "default_1080", 2, "", { "cambi" } },
    { "v1_full_ref_1080", 2,
      "cambi_high_res_speedup=1080:cambi_vis_lum_threshold=0.06:"
      "cambi_max_val=17:full_ref=true",
      { "cambi_hrs_1080_cmxv_17_vlt_0.06", "cambi_source",
        "cambi_full_reference" } },
};
#define N_CASES (sizeof(cases) / sizeof(cases[0]))

/* heatmaps_path=<dir> is added to the options. */
typedef struct HeatCase {
    const char *name;
    unsigned clip;
    const char *options;
} HeatCase;

static const HeatCase heat_cases[] = {
    { "heat_full_ref_8", 0, "full_ref=true" },
    { "heat_hrs_ws15_1080", 2, "cambi_high_res_speedup=1080:window_size=15" },
    { "heat_mlc5_10", 1, "max_log_contrast=5" },
};
#define N_HEAT (sizeof(heat_cases) / sizeof(heat_cases[0]))

typedef struct Expect {
    const char *name;
    double v[MAX_FRAMES][MAX_KEYS];
} Expect;

typedef struct HeatExpect {
    const char *name;
    const char *file[5];
    uint64_t hash[5];
} HeatExpect;

#include "cambi_expect.h"

static unsigned n_fail;
#define FAIL(...) do { n_fail++; printf("FAIL " __VA_ARGS__); } while (0)

/* ---- frames ------------------------------------------------------------- */

typedef struct Frame {
    void *plane[3];
    VqPicture pic;
} Frame;

static int frame_make(Frame *f, const Clip *c, unsigned k, int dis)
{
    unsigned bps = c->bpc > 8 ? 2 : 1, cw = (c->w + 1) / 2, ch = (c->h + 1) / 2;
    memset(f, 0, sizeof(*f));
    f->plane[0] = malloc((size_t)c->w * c->h * bps);
    f->plane[1] = malloc((size_t)cw * ch * bps);
    f->plane[2] = malloc((size_t)cw * ch * bps);
    if (!f->plane[0] || !f->plane[1] || !f->plane[2])
        return -1;
    cambi_frames_fill(f->plane, c->w, c->h, c->bpc, k, dis);
    f->pic.fmt = VQ_PIX_FMT_420;
    f->pic.bpc = c->bpc;
    f->pic.w = c->w;
    f->pic.h = c->h;
    for (unsigned p = 0; p < 3; p++) {
        f->pic.data[p] = f->plane[p];
        f->pic.stride[p] = (ptrdiff_t)((p ? cw : c->w) * bps);
    }
    return 0;
}

static void frame_free(Frame *f)
{
    for (unsigned p = 0; p < 3; p++)
        free(f->plane[p]);
}

/* ---- running vqhip -------------------------------------------------------- */

static int open_ctx(VqContext **ctx, VqBackend backend)
{
    VqConfig cfg = vq_default_config();
    cfg.backend = backend;
    cfg.strict = backend == VQ_BACKEND_HIP;
    cfg.log_level = VQ_LOG_LEVEL_ERROR;
    return vq_open(ctx, &cfg);
}

/* Runs cambi with `options` on a clip; values[frame][key] for `keys`.
 * Returns 0 or a vqhip error (with the message in why). */
static int run(VqBackend backend, const Clip *c, const char *options,
               const char *const *keys, double values[][MAX_KEYS],
               char *why, size_t why_size)
{
    VqContext *ctx = NULL;
    char spec[512];
    snprintf(spec, sizeof(spec), "name=cambi%s%s", *options ? ":" : "", options);
    int err = open_ctx(&ctx, backend);
    if (!err)
        err = vq_use_feature(ctx, spec);
    for (unsigned k = 0; !err && k < c->frames; k++) {
        Frame r, d;
        if (frame_make(&r, c, k, 0) || frame_make(&d, c, k, 1))
            err = VQ_ENOMEM;
        else
            err = vq_submit(ctx, &r.pic, &d.pic);
        frame_free(&r);
        frame_free(&d);
    }
    if (!err)
        err = vq_flush(ctx);
    VqFrameScores fs;
    while (!err && !(err = vq_receive(ctx, &fs))) {
        for (unsigned i = 0; keys && keys[i]; i++) {
            unsigned j = 0;
            while (j < fs.n && strcmp(fs.scores[j].name, keys[i]))
                j++;
            values[fs.index][i] = j < fs.n ? fs.scores[j].value : -1.0;
        }
    }
    if (err == VQ_EOF)
        err = 0;
    if (err)
        snprintf(why, why_size, "%s", vq_last_error(ctx));
    vq_close(&ctx);
    return err;
}

static const Expect *expect_of(const char *name)
{
    for (size_t i = 0; i < sizeof(cambi_expect) / sizeof(cambi_expect[0]); i++)
        if (!strcmp(cambi_expect[i].name, name))
            return &cambi_expect[i];
    return NULL;
}

static void check_cases(VqBackend backend, const char *bname)
{
    for (size_t i = 0; i < N_CASES; i++) {
        const Case *cs = &cases[i];
        const Clip *c = &clips[cs->clip];
        const Expect *e = expect_of(cs->name);
        double v[MAX_FRAMES][MAX_KEYS];
        char why[1024];
        if (!e) {
            FAIL("%s: no expected values\n", cs->name);
            continue;
        }
        if (run(backend, c, cs->options, cs->keys, v, why, sizeof(why))) {
            FAIL("%s %s: %s\n", bname, cs->name, why);
            continue;
        }
        unsigned bad = 0;
        for (unsigned f = 0; f < c->frames; f++)
            for (unsigned k = 0; cs->keys[k]; k++)
                if (memcmp(&v[f][k], &e->v[f][k], sizeof(double))) {
                    bad++;
                    FAIL("%s %s frame %u %s: vqhip %.17g, libvmaf %.17g\n",
                         bname, cs->name, f, cs->keys[k], v[f][k], e->v[f][k]);
                }
        printf("%s %s %s: %u values identical to libvmaf's\n",
               bad ? "FAIL" : "ok  ", bname, cs->name, bad ? 0 : c->frames);
    }
}

/* ---- heatmaps --------------------------------------------------------------- */

static uint64_t fnv1a_file(const char *path, int *ok)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    FILE *f = fopen(path, "rb");
    *ok = f != NULL;
    if (!f)
        return 0;
    int ch;
    while ((ch = getc(f)) != EOF) {
        h ^= (uint64_t)ch;
        h *= 0x100000001b3ULL;
    }
    fclose(f);
    return h;
}

static void check_heatmaps(VqBackend backend, const char *bname)
{
    for (size_t i = 0; i < N_HEAT; i++) {
        const HeatCase *hc = &heat_cases[i];
        const HeatExpect *e = NULL;
        for (size_t k = 0; k < sizeof(heat_expect) / sizeof(heat_expect[0]); k++)
            if (!strcmp(heat_expect[k].name, hc->name))
                e = &heat_expect[k];
        char dir[] = "/tmp/cambi_heatXXXXXX", opts[512], why[1024];
        if (!e || !mkdtemp(dir)) {
            FAIL("%s: no expected hashes or no directory\n", hc->name);
            continue;
        }
        snprintf(opts, sizeof(opts), "%s:heatmaps_path=%s/maps", hc->options, dir);
        double v[MAX_FRAMES][MAX_KEYS];
        unsigned bad = 0;
        if (run(backend, &clips[hc->clip], opts, NULL, v, why, sizeof(why))) {
            FAIL("%s %s: %s\n", bname, hc->name, why);
            bad++;
        }
        for (unsigned k = 0; !bad && k < 5; k++) {
            char path[1024];
            int ok;
            snprintf(path, sizeof(path), "%s/maps/%s", dir, e->file[k]);
            uint64_t h = fnv1a_file(path, &ok);
            if (!ok || h != e->hash[k]) {
                bad++;
                FAIL("%s %s: %s %s\n", bname, hc->name, e->file[k],
                     ok ? "differs from libvmaf's" : "missing");
            }
            unlink(path);
        }
        char sub[1100];
        snprintf(sub, sizeof(sub), "%s/maps", dir);
        rmdir(sub);
        rmdir(dir);
        printf("%s %s %s: heatmaps %s\n", bad ? "FAIL" : "ok  ", bname, hc->name,
               bad ? "differ" : "identical to libvmaf's");
    }
}

/* ---- what CAMBI refuses ------------------------------------------------------- */

static int refused(unsigned w, unsigned h, unsigned bpc, const char *options,
                   unsigned bad_sample, int want, const char *what)
{
    Clip c = { "refuse", w, h, bpc, 1 };
    VqContext *ctx = NULL;
    char spec[256];
    snprintf(spec, sizeof(spec), "name=cambi%s%s", *options ? ":" : "", options);
    int err = open_ctx(&ctx, VQ_BACKEND_CPU);
    if (!err)
        err = vq_use_feature(ctx, spec);
    Frame r, d;
    if (!err && (frame_make(&r, &c, 0, 0) || frame_make(&d, &c, 0, 1)))
        err = VQ_ENOMEM;
    if (!err) {
        if (bad_sample)
            ((uint16_t *)d.plane[0])[w * 3 + 5] = (uint16_t)bad_sample;
        err = vq_submit(ctx, &r.pic, &d.pic);
        if (!err)
            err = vq_flush(ctx);
        VqFrameScores fs;
        while (!err && !(err = vq_receive(ctx, &fs)))
            ;
        frame_free(&r);
        frame_free(&d);
    }
    int ok = err == want && strstr(vq_last_error(ctx), what);
    printf("%s refuses %ux%u %u-bit [%s]: %s\n", ok ? "ok  " : "FAIL", w, h,
           bpc, options, vq_last_error(ctx));
    if (!ok)
        n_fail++;
    vq_close(&ctx);
    return ok;
}

static void check_refusals(void)
{
    refused(215, 215, 8, "", 0, VQ_EUNSUPPORTED, "at least 216");
    refused(215, 300, 8, "enc_width=200:enc_height=200", 0, VQ_EUNSUPPORTED,
            "at least 216");
    refused(3840, 216, 8, "", 0, VQ_EUNSUPPORTED, "too thin");
    refused(3840, 2160, 8, "window_size=127", 0, VQ_EUNSUPPORTED,
            "65 libvmaf");
    refused(640, 480, 8, "eotf=hlg", 0, VQ_EINVAL, "not one of: bt1886, pq");
    refused(640, 480, 8, "src_width=800:src_height=400:enc_width=640:"
            "enc_height=480", 0, VQ_EUNSUPPORTED, "not one a scaling");
    refused(640, 480, 10, "", 1024, VQ_EINVAL, "above 1023");
    refused(640, 480, 12, "full_ref=false", 4096, VQ_EINVAL, "above 4095");
}

/* ---- --dump and --hash ----------------------------------------------------------- */

static int dump(const char *dir)
{
    for (size_t i = 0; i < sizeof(clips) / sizeof(clips[0]); i++) {
        const Clip *c = &clips[i];
        for (int dis = 0; dis < 2; dis++) {
            char path[1024];
            snprintf(path, sizeof(path), "%s/%s_%s.yuv", dir, c->name,
                     dis ? "dis" : "ref");
            FILE *f = fopen(path, "wb");
            if (!f)
                return 1;
            for (unsigned k = 0; k < c->frames; k++) {
                Frame fr;
                if (frame_make(&fr, c, k, dis))
                    return 1;
                size_t bps = c->bpc > 8 ? 2 : 1;
                size_t cs = (size_t)((c->w + 1) / 2) * ((c->h + 1) / 2);
                fwrite(fr.plane[0], bps, (size_t)c->w * c->h, f);
                fwrite(fr.plane[1], bps, cs, f);
                fwrite(fr.plane[2], bps, cs, f);
                frame_free(&fr);
            }
            fclose(f);
        }
        printf("clip %s %u %u %u %u\n", c->name, c->w, c->h, c->bpc, c->frames);
    }
    for (size_t i = 0; i < N_CASES; i++) {
        printf("case %s %s %s", cases[i].name, clips[cases[i].clip].name,
               *cases[i].options ? cases[i].options : "-");
        for (unsigned k = 0; cases[i].keys[k]; k++)
            printf(" %s", cases[i].keys[k]);
        printf("\n");
    }
    for (size_t i = 0; i < N_HEAT; i++)
        printf("heat %s %s %s\n", heat_cases[i].name,
               clips[heat_cases[i].clip].name, heat_cases[i].options);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 3 && !strcmp(argv[1], "--dump"))
        return dump(argv[2]);
    if (argc >= 2 && !strcmp(argv[1], "--hash")) {
        for (int i = 2; i < argc; i++) {
            int ok;
            uint64_t h = fnv1a_file(argv[i], &ok);
            printf("%s 0x%016llxULL\n", ok ? "ok" : "missing",
                   (unsigned long long)h);
        }
        return 0;
    }
    int hip;
    int st = vq_test_backend(&argc, argv, "cambi_libvmaf", &hip);
    if (st)
        return st;
    check_cases(VQ_BACKEND_CPU, "cpu");
    check_heatmaps(VQ_BACKEND_CPU, "cpu");
    check_refusals();
    if (hip) {
        check_cases(VQ_BACKEND_HIP, "hip");
        check_heatmaps(VQ_BACKEND_HIP, "hip");
    }
    printf("cambi_libvmaf: %u failure(s)\n", n_fail);
    return n_fail ? 1 : 0;
}
