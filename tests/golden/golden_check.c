/*
 * Golden test: vqhip's CPU path against libvmaf's logs in ../shared/golden.
 *
 * For every clip pair in manifest.tsv it runs the extractors and models that
 * libvmaf ran for the golden log (those this build has), then compares per
 * frame, pooled and aggregate values. Features whose class is bit-exact
 * against libvmaf must print identically with %.6f (the golden's
 * precision); float features and models use DESIGN.md's tolerances. Golden
 * keys of an extractor that ran must all be present. caveats.tsv is honoured:
 * not-reproducible values are skipped, SIMD-dependent ones are taken from the
 * C-path log.
 *
 * usage: golden_check GOLDEN_DIR CLIPS_DIR [--clip NAME] [--backend cpu|hip]
 *                     [--caveats MORE_CAVEATS.tsv]
 */
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "vqhip.h"
#include "yuv_input.h"

typedef struct Clip {
    char name[128];
    unsigned w, h, bpc, frames;
    char pix_fmt[16];
    VqPixFmt fmt;
    char ref[256], dis[256];
} Clip;

typedef struct Caveats {
    char json[64][128], key[64][64], kind[64][32];
    unsigned n;
} Caveats;

/*
 * What a golden key is compared as. A key belongs to the extractor that
 * writes `probe`; when the probe is among vqhip's outputs the extractor ran,
 * so every golden key of it must be there too. tolerance 0: bit-exact class
 * (identical %.6f print); otherwise DESIGN.md's absolute tolerance vs libvmaf.
 * Longer prefixes first.
 */
typedef struct GoldenKey {
    const char *prefix, *probe;
    double tolerance;
} GoldenKey;

static const GoldenKey golden_keys[] = {
    { "psnr_hvs", "psnr_hvs", 5e-4 },
    { "psnr_", "psnr_y", 0 },
    { "mse_", "psnr_y", 0 },
    { "apsnr_", "psnr_y", 0 },
    { "float_psnr", "float_psnr", 1e-6 },
    { "float_ssim", "float_ssim", 5e-5 },
    { "float_ms_ssim", "float_ms_ssim", 5e-5 },
    { "float_moment", "float_moment_ref1st", 1e-6 },
    { "ciede2000", "ciede2000", 1e-6 },
    { "cambi", "cambi", 0 },
    { "VMAF_integer_feature_motion", "integer_motion2", 0 },
    { "integer_motion", "integer_motion2", 0 },
    { "integer_vif", "integer_vif_scale0", 0 },
    { "integer_adm", "integer_adm2", 0 },
    { "integer_aim", "integer_adm2", 0 },
    /* float_vif, float_adm, float_motion: libvmaf's printed values */
    { "vif_scale", "vif_scale0", 0 },
    { "adm", "adm2", 0 },
    { "aim", "adm2", 0 },
    { "motion", "motion2", 0 },
    { "speed_chroma", "speed_chroma_uv", 5e-6 },
    { "speed_temporal", "speed_temporal", 5e-6 },
    { "vmaf", "vmaf", 1e-4 },
};

static int has_output(VqContext *ctx, const char *name)
{
    for (unsigned i = 0; i < vq_output_count(ctx); i++)
        if (!strcmp(vq_output_name(ctx, i), name))
            return 1;
    return 0;
}

/* Model outputs (vmaf, vmaf_4k_v0.6.1, vmaf_b_v0.6.3_0001, ...) are
 * matched by the "vmaf" prefix; their probe is the key itself. */
static const GoldenKey *golden_key(const char *key)
{
    for (size_t i = 0; i < sizeof(golden_keys) / sizeof(golden_keys[0]); i++)
        if (!strncmp(key, golden_keys[i].prefix, strlen(golden_keys[i].prefix)))
            return &golden_keys[i];
    return NULL;
}

static int must_have(VqContext *ctx, const GoldenKey *gk, const char *key)
{
    if (!gk)
        return 0;
    return has_output(ctx, strcmp(gk->prefix, "vmaf") ? gk->probe : key);
}

static const char *golden_dir, *clips_dir;
static Caveats caveats;
static unsigned n_fail;

#define FAIL(...) do { if (n_fail++ < 60) printf("  FAIL " __VA_ARGS__); } while (0)

/* Reads a caveats file: the golden set's, then this repository's
 * tests/golden/caveats.tsv (values vqhip found that libvmaf itself does not
 * reproduce, each with the evidence). */
static void read_caveats_file(const char *path)
{
    char line[2048];
    FILE *f = fopen(path, "r");
    if (!f)
        return;
    if (!fgets(line, sizeof(line), f)) { fclose(f); return; }
    while (fgets(line, sizeof(line), f) && caveats.n < 64) {
        char *save = NULL;
        char *json = strtok_r(line, "\t", &save);
        char *keys = strtok_r(NULL, "\t", &save);
        char *frames = strtok_r(NULL, "\t", &save);
        char *kind = strtok_r(NULL, "\t", &save);
        if (!json || !keys || !frames || !kind)
            continue;
        char *ks = NULL;
        for (char *k = strtok_r(keys, ", ", &ks); k && caveats.n < 64;
             k = strtok_r(NULL, ", ", &ks)) {
            snprintf(caveats.json[caveats.n], 128, "%s", json);
            snprintf(caveats.key[caveats.n], 64, "%s", k);
            snprintf(caveats.kind[caveats.n], 32, "%s", kind);
            caveats.n++;
        }
    }
    fclose(f);
}

static const char *caveat(const char *json, const char *key)
{
    for (unsigned i = 0; i < caveats.n; i++)
        if (!strcmp(caveats.json[i], json) && !strcmp(caveats.key[i], key))
            return caveats.kind[i];
    return NULL;
}

static int same(double ours, double gold, const GoldenKey *gk)
{
    if (!isfinite(gold) || !isfinite(ours))
        return !isfinite(gold) && !isfinite(ours);
    if (gk->tolerance == 0) {
        char a[64], b[64];
        /* values libvmaf printed with %.16f are compared at 1e-6 (README) */
        if (fabs(gold) < 1e-6)
            return fabs(ours - gold) <= 1e-6;
        snprintf(a, sizeof(a), "%.6f", ours);
        snprintf(b, sizeof(b), "%.6f", gold);
        return !strcmp(a, b);
    }
    return fabs(ours - gold) <= gk->tolerance;
}

static double jnum(json_object *o)
{
    return o && json_object_get_type(o) != json_type_null
         ? json_object_get_double(o) : INFINITY;
}

/* Golden object to use for key (the C-path log for SIMD-dependent values). */
static json_object *source_for(json_object *gold, json_object *cpath,
                               const char *json_name, const char *key)
{
    const char *kind = caveat(json_name, key);
    if (kind && !strcmp(kind, "simd-dependent") && cpath)
        return cpath;
    return gold;
}

static void compare(VqContext *ctx, const char *json_name, json_object *gold,
                    json_object *cpath, double **ours, unsigned n_frames,
                    unsigned *n_keys, char *missing, size_t missing_sz)
{
    json_object *gframes = json_object_object_get(gold, "frames");
    json_object *f0 = json_object_array_get_idx(gframes, 0);
    json_object *m0 = json_object_object_get(f0, "metrics");
    size_t mlen = 0;
    missing[0] = '\0';
    json_object_object_foreach(m0, key, unused) {
        (void)unused;
        const GoldenKey *gk = golden_key(key);
        const char *kind = caveat(json_name, key);
        if (kind && !strcmp(kind, "not-reproducible"))
            continue;
        int id = -1;
        for (unsigned i = 0; i < vq_output_count(ctx); i++)
            if (!strcmp(vq_output_name(ctx, i), key))
                id = (int)i;
        if (id < 0) {
            if (must_have(ctx, gk, key))
                FAIL("%s: %s is missing from vqhip's outputs\n", json_name, key);
            else if (mlen < missing_sz)
                mlen += (size_t)snprintf(missing + mlen, missing_sz - mlen,
                                         "%s%s", mlen ? " " : "", key);
            continue;
        }
        if (!gk) {
            FAIL("%s: no comparison class for %s\n", json_name, key);
            continue;
        }
        (*n_keys)++;
        json_object *src = source_for(gold, cpath, json_name, key);
        json_object *frames = json_object_object_get(src, "frames");
        for (unsigned i = 0; i < n_frames; i++) {
            json_object *m = json_object_object_get(
                json_object_array_get_idx(frames, i), "metrics");
            double g = jnum(json_object_object_get(m, key));
            if (!same(ours[id][i], g, gk))
                FAIL("%s frame %u %s: vqhip %.9f, libvmaf %.6f\n", json_name,
                     i, key, ours[id][i], g);
        }
        static const char *const pools[] = { "min", "max", "mean", "harmonic_mean" };
        static const VqPool pool_ids[] = { VQ_POOL_MIN, VQ_POOL_MAX, VQ_POOL_MEAN,
                                           VQ_POOL_HARMONIC_MEAN };
        json_object *gp = json_object_object_get(
            json_object_object_get(src, "pooled_metrics"), key);
        for (unsigned p = 0; p < 4; p++) {
            double v, g = jnum(json_object_object_get(gp, pools[p]));
            if (vq_pooled(ctx, key, pool_ids[p], &v))
                FAIL("%s pooled %s %s: %s\n", json_name, pools[p], key,
                     vq_last_error(ctx));
            else if (!same(v, g, gk))
                FAIL("%s pooled %s %s: vqhip %.9f, libvmaf %.6f\n", json_name,
                     pools[p], key, v, g);
        }
    }
    json_object *agg = json_object_object_get(gold, "aggregate_metrics");
    json_object_object_foreach(agg, akey, aval) {
        VqScore s;
        unsigned i;
        for (i = 0; i < vq_aggregate_count(ctx); i++)
            if (!vq_aggregate(ctx, i, &s) && !strcmp(s.name, akey))
                break;
        if (i == vq_aggregate_count(ctx)) {
            if (must_have(ctx, golden_key(akey), akey))
                FAIL("%s: aggregate %s missing\n", json_name, akey);
            continue;
        }
        (*n_keys)++;
        if (!same(s.value, jnum(aval), golden_key(akey)))
            FAIL("%s aggregate %s: vqhip %.9f, libvmaf %.6f\n", json_name, akey,
                 s.value, jnum(aval));
    }
}

static int read_manifest(Clip *clips, unsigned max)
{
    char path[512], line[4096];
    snprintf(path, sizeof(path), "%s/manifest.tsv", golden_dir);
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    unsigned n = 0;
    if (!fgets(line, sizeof(line), f)) { fclose(f); return -1; }
    while (n < max && fgets(line, sizeof(line), f)) {
        Clip *c = &clips[n];
        char *save = NULL, *col[12];
        unsigned k = 0;
        for (char *t = strtok_r(line, "\t\n", &save); t && k < 12;
             t = strtok_r(NULL, "\t\n", &save))
            col[k++] = t;
        if (k < 11)
            continue;
        snprintf(c->name, sizeof(c->name), "%s", col[0]);
        c->w = (unsigned)atoi(col[1]);
        c->h = (unsigned)atoi(col[2]);
        snprintf(c->pix_fmt, sizeof(c->pix_fmt), "%s", col[5]);
        c->bpc = (unsigned)atoi(col[4]);
        c->frames = (unsigned)atoi(col[6]);
        snprintf(c->ref, sizeof(c->ref), "%s", col[7]);
        snprintf(c->dis, sizeof(c->dis), "%s", col[9]);
        if (yuv_parse_pix_fmt(c->pix_fmt, &c->fmt))
            continue;
        n++;
    }
    fclose(f);
    return (int)n;
}

static json_object *load_json(const char *name, const char *suffix)
{
    char path[512];
    snprintf(path, sizeof(path), "%s/json/%s%s", golden_dir, name, suffix);
    FILE *f = fopen(path, "r");
    if (!f)
        return NULL;
    fclose(f);
    return json_object_from_file(path);
}

/* The extractors libvmaf ran for the main golden logs (golden README). */
static const char *const main_features[] = {
    "name=psnr:enable_chroma=true:enable_mse=true:enable_apsnr=true",
    "float_psnr", "float_ssim", "float_ms_ssim", "psnr_hvs", "ciede", "cambi",
    "float_moment", "motion", "float_motion", "vif", "adm", "float_vif",
    "float_adm", "speed_chroma", "speed_temporal", NULL
};

/* Runs one configuration over a clip; fills ours[output][frame]. */
static int run(const Clip *c, VqBackend backend, const char *const *features,
               const char *const *models, VqContext **pctx, double ***pours,
               char *skipped, size_t skipped_sz)
{
    VqConfig cfg = vq_default_config();
    cfg.backend = backend;
    cfg.strict = backend == VQ_BACKEND_HIP;
    VqContext *ctx = NULL;
    *pctx = NULL;
    *pours = NULL;
    if (vq_open(&ctx, &cfg)) {
        printf("  cannot open a %s context: %s\n",
               backend == VQ_BACKEND_HIP ? "hip" : "cpu", vq_last_error(ctx));
        vq_close(&ctx);
        return -1;
    }
    size_t sl = 0;
    unsigned used = 0;
    skipped[0] = '\0';
    for (unsigned i = 0; features && features[i]; i++) {
        int small = c->w < 216 || c->h < 216;
        if (small && (strstr(features[i], "ms_ssim") ||
                      !strcmp(features[i], "cambi") ||
                      !strcmp(features[i], "speed_chroma")))
            continue; /* libvmaf cannot run these at this size (caveats) */
        int r = vq_use_feature(ctx, features[i]);
        if (r == VQ_ENOTFOUND && sl < skipped_sz)
            sl += (size_t)snprintf(skipped + sl, skipped_sz - sl, "%s%s",
                                   sl ? " " : "", features[i]);
        else if (r) {
            FAIL("%s: feature %s: %s\n", c->name, features[i], vq_last_error(ctx));
            vq_close(&ctx);
            return -1;
        } else {
            used++;
        }
    }
    for (unsigned i = 0; models && models[i]; i++) {
        int r = vq_use_model(ctx, models[i]);
        if (r && sl < skipped_sz) {
            sl += (size_t)snprintf(skipped + sl, skipped_sz - sl, "%s[%s]",
                                   sl ? " " : "", models[i]);
            printf("  model %s not run: %s\n", models[i], vq_last_error(ctx));
        }
        used += !r;
    }
    if (!used) {
        printf("skip %s: nothing of this log is in this build (%s)\n", c->name,
               skipped);
        vq_close(&ctx);
        return -1;
    }
    char path_r[1024], path_d[1024], err[256];
    snprintf(path_r, sizeof(path_r), "%s/%s", clips_dir, c->ref);
    snprintf(path_d, sizeof(path_d), "%s/%s", clips_dir, c->dis);
    YuvInput ir, id;
    if (yuv_open(&ir, path_r, c->fmt, c->bpc, c->w, c->h, err, sizeof(err)) ||
        yuv_open(&id, path_d, c->fmt, c->bpc, c->w, c->h, err, sizeof(err))) {
        FAIL("%s: %s\n", c->name, err);
        vq_close(&ctx);
        return -1;
    }
    int r = 0;
    for (unsigned i = 0; !r && i < c->frames; i++) {
        VqPicture pr, pd;
        if (yuv_read(&ir, &pr, err, sizeof(err)) != 1 ||
            yuv_read(&id, &pd, err, sizeof(err)) != 1) {
            FAIL("%s: frame %u: cannot read\n", c->name, i);
            r = -1;
            break;
        }
        r = vq_submit(ctx, &pr, &pd);
    }
    yuv_close(&ir);
    yuv_close(&id);
    if (!r)
        r = vq_flush(ctx);
    /* Outputs appear in the order they were first written; collect values
     * by that order as frames arrive. */
    double **ours = calloc(256, sizeof(*ours));
    VqFrameScores fs;
    while (!r && ours && !(r = vq_receive(ctx, &fs))) {
        for (unsigned k = 0; k < fs.n && fs.index < c->frames; k++) {
            unsigned o = 0;
            while (o < vq_output_count(ctx) &&
                   strcmp(vq_output_name(ctx, o), fs.scores[k].name))
                o++;
            if (o >= 256)
                continue;
            if (!ours[o]) {
                ours[o] = malloc(c->frames * sizeof(double));
                for (unsigned i = 0; ours[o] && i < c->frames; i++)
                    ours[o][i] = NAN;
            }
            if (ours[o])
                ours[o][fs.index] = fs.scores[k].value;
        }
    }
    if (r != VQ_EOF || !ours) {
        FAIL("%s: run failed: %s\n", c->name, vq_last_error(ctx));
        vq_close(&ctx);
        free(ours);
        return -1;
    }
    *pctx = ctx;
    *pours = ours;
    return 0;
}

static void free_ours(double **ours)
{
    for (unsigned o = 0; ours && o < 256; o++)
        free(ours[o]);
    free(ours);
}

static void check(const Clip *c, VqBackend backend, const char *suffix,
                  const char *const *features, const char *const *models)
{
    json_object *gold = load_json(c->name, suffix);
    if (!gold)
        return;
    char json_name[192];
    snprintf(json_name, sizeof(json_name), "%s%s", c->name, suffix);
    json_object *cpath = load_json(c->name, ".c_path.json");
    VqContext *ctx;
    double **ours;
    char skipped[2048], missing[8192];
    unsigned before = n_fail, n_keys = 0;
    if (!run(c, backend, features, models, &ctx, &ours, skipped,
             sizeof(skipped))) {
        compare(ctx, json_name, gold, strcmp(suffix, ".json") ? NULL : cpath,
                ours, c->frames, &n_keys, missing, sizeof(missing));
        printf("%s %s: %u keys compared over %u frames%s\n",
               n_fail == before ? "ok  " : "FAIL", json_name, n_keys, c->frames,
               n_keys ? "" : " (nothing comparable)");
        if (*skipped)
            printf("     not in this build: %s\n", skipped);
        if (*missing)
            printf("     golden keys not produced: %s\n", missing);
        free_ours(ours);
        vq_close(&ctx);
    }
    json_object_put(gold);
    if (cpath)
        json_object_put(cpath);
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: golden_check GOLDEN_DIR CLIPS_DIR [--clip NAME] "
                        "[--backend cpu|hip]\n");
        return 2;
    }
    golden_dir = argv[1];
    clips_dir = argv[2];
    const char *only = NULL, *more_caveats = NULL;
    VqBackend backend = VQ_BACKEND_CPU;
    for (int i = 3; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--clip"))
            only = argv[i + 1];
        else if (!strcmp(argv[i], "--caveats"))
            more_caveats = argv[i + 1];
        else if (!strcmp(argv[i], "--backend"))
            backend = strcmp(argv[i + 1], "hip") ? VQ_BACKEND_CPU : VQ_BACKEND_HIP;
    }
    Clip clips[32];
    int n = read_manifest(clips, 32);
    if (n <= 0) {
        fprintf(stderr, "no manifest in %s\n", golden_dir);
        return 2;
    }
    char path[512];
    snprintf(path, sizeof(path), "%s/caveats.tsv", golden_dir);
    read_caveats_file(path);
    if (more_caveats)
        read_caveats_file(more_caveats);
    static const char *const vmaf_model[] = { "version=vmaf_v0.6.1", NULL };
    static const char *const extra_models[] = {
        "version=vmaf_4k_v0.6.1:name=vmaf_4k_v0.6.1",
        "version=vmaf_v0.6.1neg:name=vmaf_v0.6.1neg",
        "version=vmaf_b_v0.6.3:name=vmaf_b_v0.6.3",
        "version=vmaf_float_v0.6.1:name=vmaf_float_v0.6.1", NULL
    };
    static const char *const v1_model[] = { "version=vmaf_v1.0.16_3d0h", NULL };
    unsigned checked = 0;
    for (int i = 0; i < n; i++) {
        if (only && !strstr(clips[i].name, only))
            continue;
        check(&clips[i], backend, ".json", main_features, vmaf_model);
        check(&clips[i], backend, ".models.json", NULL, extra_models);
        check(&clips[i], backend, ".v1.json", NULL, v1_model);
        checked++;
    }
    printf("%u clip(s), %u failure(s)\n", checked, n_fail);
    return n_fail || !checked ? 1 : 0;
}
