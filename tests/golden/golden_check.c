/*
 * Golden test: vqhip's CPU path against libvmaf's logs in ../shared/golden.
 *
 * For every clip pair in manifest.tsv it runs the extractors and models that
 * libvmaf ran for each golden log, then accounts for every key of the log
 * (per frame, pooled, aggregate) in exactly one way:
 *   - compared: vqhip produced it and it matches;
 *   - not in this build: its extractor (or model) is one this build does not
 *     have yet; printed per log ("not in this build: float_ssim (1 key)")
 *     and in the summary, never a failure, compared as soon as it lands;
 *   - a caveat of caveats.tsv (not-reproducible values);
 *   - a failure: a value that differs, a key vqhip should produce and does
 *     not, a key with no comparison class, a feature option or a model this
 *     build refuses (other than for a missing extractor).
 * The counts must add up to the number of keys in the log.
 *
 * Values: the classes that libvmaf matches exactly (integer features, cambi,
 * float_psnr, models) must print as libvmaf printed them: both values
 * formatted with libvmaf's own rule (%.6f, or %.16f when the value has more
 * than six zeros after the decimal point) give the same text. Other float
 * features use DESIGN.md's absolute tolerances. Non-finite matches only
 * non-finite (libvmaf's null). SIMD-dependent values (caveats.tsv) are
 * taken from the C-path log.
 *
 * Reference logs that are not in ../shared/golden (made with libvmaf's tool
 * outside the repository, tests/golden/ref/README.md) are read from the
 * folder given with --extra: <clip>.<what>.json, compared the same way.
 * Golden values where vqhip deliberately differs from libvmaf are marked
 * "documented-difference" in tests/golden/caveats.tsv and compared against
 * such a reference instead.
 *
 * usage: golden_check GOLDEN_DIR CLIPS_DIR [--clip NAME] [--backend cpu|hip]
 *                     [--caveats MORE_CAVEATS.tsv] [--extra DIR]
 */
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../common/gpu_present.h"
#include "golden_keys.h"
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

static int output_id(VqContext *ctx, const char *name)
{
    for (unsigned i = 0; ctx && i < vq_output_count(ctx); i++)
        if (!strcmp(vq_output_name(ctx, i), name))
            return (int)i;
    return -1;
}

static const char *golden_dir, *clips_dir;
static Caveats caveats;
static unsigned n_fail;
static GoldenTotals totals;

#define FAIL(...) do { if (n_fail++ < 60) printf("  FAIL " __VA_ARGS__); } while (0)

/* Reads a caveats file: the golden set's, then this repository's
 * tests/golden/caveats.tsv (values libvmaf itself does not reproduce here,
 * each with the evidence). */
static void read_caveats(const char *path)
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

/*
 * Where one golden key goes (golden_account); prints why when it fails.
 * Returns the index to compare it with, or -1.
 */
static int account(GoldenRun *run, const char *json_name, const char *key,
                   int found, GoldenTally *t)
{
    const char *kind = caveat(json_name, key), *owner = NULL;
    /* documented-difference: vqhip differs from libvmaf on purpose there
     * and is compared with another reference (tests/golden/ref) instead */
    int skip = kind && (!strcmp(kind, "not-reproducible") ||
                        !strcmp(kind, "documented-difference"));
    switch (golden_account(run, key, found, skip, t, &owner)) {
    case GOLDEN_COMPARE:
        return found;
    case GOLDEN_NO_CLASS:
        FAIL("%s: %s has no comparison class or no owner in this run\n",
             json_name, key);
        return -1;
    case GOLDEN_MISSING:
        FAIL("%s: %s is missing from vqhip's outputs (%s ran)\n", json_name,
             key, owner);
        return -1;
    default:
        return -1;
    }
}

/* Frame i's value of key in a log, or its pooled value (i < 0: pool). */
static double log_value(json_object *log, const char *key, int i,
                        const char *pool)
{
    if (i >= 0)
        return jnum(json_object_object_get(json_object_object_get(
            json_object_array_get_idx(json_object_object_get(log, "frames"), i),
            "metrics"), key));
    return jnum(json_object_object_get(json_object_object_get(
        json_object_object_get(log, "pooled_metrics"), key), pool));
}

/* One value: against libvmaf's full-precision value when there is one for
 * the key, else at libvmaf's printed precision. */
static int same_value(double ours, json_object *gold, json_object *full,
                      const char *key, int i, const char *pool,
                      const GoldenKey *gk, unsigned long n_samples,
                      double *ref)
{
    if (full && !golden_vendor_dependent(key)) {
        *ref = log_value(full, key, i, pool);
        return !strcmp(key, "ciede2000")
                   ? golden_same_ciede(ours, *ref, n_samples)
                   : golden_same_full(ours, *ref, gk);
    }
    *ref = log_value(gold, key, i, pool);
    return golden_same(ours, *ref, gk);
}

static void compare(VqContext *ctx, GoldenRun *run, const char *json_name,
                    json_object *gold, json_object *cpath, json_object *full,
                    double **ours, const Clip *c, GoldenTally *t)
{
    const unsigned n_frames = c->frames;
    const unsigned long n_samples = (unsigned long)c->w * c->h;
    json_object *gframes = json_object_object_get(gold, "frames");
    json_object *f0 = json_object_array_get_idx(gframes, 0);
    json_object *m0 = json_object_object_get(f0, "metrics");
    json_object_object_foreach(m0, key, unused) {
        (void)unused;
        int id = account(run, json_name, key, output_id(ctx, key), t);
        if (id < 0)
            continue;
        const GoldenKey *gk = golden_key(key);
        unsigned before = n_fail;
        if (id >= 256 || !ours[id]) {
            FAIL("%s: %s has no per-frame values\n", json_name, key);
            t->failed++;
            continue;
        }
        json_object *src = source_for(gold, cpath, json_name, key);
        const int at_full = full && !golden_vendor_dependent(key);
        for (unsigned i = 0; i < n_frames; i++) {
            double ref;
            if (!same_value(ours[id][i], src, full, key, (int)i, NULL, gk,
                            n_samples, &ref))
                FAIL("%s frame %u %s: vqhip %.17g, libvmaf %.17g (%s)\n",
                     json_name, i, key, ours[id][i], ref,
                     at_full ? "full precision" : "printed");
        }
        static const char *const pools[] = { "min", "max", "mean", "harmonic_mean" };
        static const VqPool pool_ids[] = { VQ_POOL_MIN, VQ_POOL_MAX, VQ_POOL_MEAN,
                                           VQ_POOL_HARMONIC_MEAN };
        for (unsigned p = 0; p < 4; p++) {
            double v, ref;
            if (vq_pooled(ctx, key, pool_ids[p], &v))
                FAIL("%s pooled %s %s: %s\n", json_name, pools[p], key,
                     vq_last_error(ctx));
            else if (!same_value(v, src, full, key, -1, pools[p], gk,
                                 n_samples, &ref))
                FAIL("%s pooled %s %s: vqhip %.17g, libvmaf %.17g (%s)\n",
                     json_name, pools[p], key, v, ref,
                     at_full ? "full precision" : "printed");
        }
        if (n_fail == before) {
            t->compared++;
            t->full += at_full;
        } else {
            t->failed++;
        }
    }
    json_object *agg = json_object_object_get(gold, "aggregate_metrics");
    json_object_object_foreach(agg, akey, aval) {
        VqScore s;
        int found = -1;
        for (unsigned i = 0; ctx && found < 0 && i < vq_aggregate_count(ctx);
             i++)
            if (!vq_aggregate(ctx, i, &s) && !strcmp(s.name, akey))
                found = (int)i;
        if (account(run, json_name, akey, found, t) < 0)
            continue;
        if (!golden_same(s.value, jnum(aval), golden_key(akey))) {
            FAIL("%s aggregate %s: vqhip %.9f, libvmaf %.6f\n", json_name,
                 akey, s.value, jnum(aval));
            t->failed++;
        } else {
            t->compared++;
        }
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

static const char *extra_dir; /* --extra: reference logs made outside */
static const char *full_dir;  /* --full: libvmaf's values at %.17g */

/* dir NULL: the golden set's json/ folder. */
static json_object *load_json_in(const char *dir, const char *name,
                                 const char *suffix)
{
    char path[512];
    if (dir)
        snprintf(path, sizeof(path), "%s/%s%s", dir, name, suffix);
    else
        snprintf(path, sizeof(path), "%s/json/%s%s", golden_dir, name, suffix);
    FILE *f = fopen(path, "r");
    if (!f)
        return NULL;
    fclose(f);
    return json_object_from_file(path);
}

static json_object *load_json(const char *name, const char *suffix)
{
    return load_json_in(NULL, name, suffix);
}

/* The extractors libvmaf ran for the main golden logs (golden README). */
static const char *const main_features[] = {
    "name=psnr:enable_chroma=true:enable_mse=true:enable_apsnr=true",
    "float_psnr", "float_ssim", "float_ms_ssim", "psnr_hvs", "ciede", "cambi",
    "float_moment", "motion", "float_motion", "vif", "adm", "float_vif",
    "float_adm", "speed_chroma", "speed_temporal", NULL
};

static void free_ours(double **ours)
{
    for (unsigned o = 0; ours && o < 256; o++)
        free(ours[o]);
    free(ours);
}

/* Whether this build has the extractor `name` (vq_list_features' lines are
 * "name: options"). */
static int in_build(const char *name)
{
    static char list[8192];
    if (!list[0])
        vq_list_features(list, sizeof(list));
    size_t n = strlen(name);
    for (const char *line = list; *line;) {
        if (!strncmp(line, name, n) && line[n] == ':')
            return 1;
        const char *nl = strchr(line, '\n');
        if (!nl)
            break;
        line = nl + 1;
    }
    return 0;
}

/* The extractor a feature spec names: "name=psnr:..." or "psnr:...". */
static void spec_name(const char *spec, char *out, size_t size)
{
    if (!strncmp(spec, "name=", 5))
        spec += 5;
    snprintf(out, size, "%.*s", (int)strcspn(spec, ":"), spec);
}

/* The output name of a model spec: its name=, else "vmaf". */
static void model_name(const char *spec, char *out, size_t size)
{
    const char *n = strstr(spec, "name=");
    while (n && n != spec && n[-1] != ':')
        n = strstr(n + 1, "name=");
    if (n)
        snprintf(out, size, "%.*s", (int)strcspn(n + 5, ":"), n + 5);
    else
        snprintf(out, size, "vmaf");
}

/*
 * Runs one configuration over a clip; fills ours[output][frame] and records
 * in `run` what this build does not have. *pctx stays NULL when nothing of
 * the configuration is in this build. Returns -1 after a failure.
 */
static int run(const Clip *c, VqBackend backend, const char *const *features,
               const char *const *models, GoldenRun *rinfo, VqContext **pctx,
               double ***pours)
{
    VqConfig cfg = vq_default_config();
    cfg.backend = backend;
    cfg.strict = backend == VQ_BACKEND_HIP;
    VqContext *ctx = NULL;
    *pctx = NULL;
    *pours = NULL;
    memset(rinfo, 0, sizeof(*rinfo));
    rinfo->models_only = !features;
    if (vq_open(&ctx, &cfg)) {
        FAIL("%s: cannot open a %s context: %s\n", c->name,
             backend == VQ_BACKEND_HIP ? "hip" : "cpu", vq_last_error(ctx));
        vq_close(&ctx);
        return -1;
    }
    unsigned used = 0;
    /* models first, as libvmaf's tool */
    for (unsigned i = 0; models && models[i]; i++) {
        if (rinfo->n_model < 8)
            model_name(models[i], rinfo->model[rinfo->n_model++], 96);
        int r = vq_use_model(ctx, models[i]);
        if (!r) {
            used++;
        } else if (r == VQ_EUNSUPPORTED &&
                   strstr(vq_last_error(ctx), "this build does not have yet")) {
            const char *v = strstr(models[i], "version=");
            char label[128];
            snprintf(label, sizeof(label), "model %.*s",
                     v ? (int)strcspn(v + 8, ":") : (int)strlen(models[i]),
                     v ? v + 8 : models[i]);
            golden_add_absent(rinfo, rinfo->model[rinfo->n_model - 1], label,
                              vq_last_error(ctx));
        } else {
            FAIL("%s: model %s: %s\n", c->name, models[i], vq_last_error(ctx));
            vq_close(&ctx);
            return -1;
        }
    }
    for (unsigned i = 0; features && features[i]; i++) {
        int small = c->w < 216 || c->h < 216;
        if (small && (strstr(features[i], "ms_ssim") ||
                      !strcmp(features[i], "cambi") ||
                      !strcmp(features[i], "speed_chroma")))
            continue; /* libvmaf cannot run these at this size (caveats) */
        char name[64];
        spec_name(features[i], name, sizeof(name));
        if (!in_build(name)) {
            golden_add_absent(rinfo, name, name, "not in this build");
            continue;
        }
        int r = vq_use_feature(ctx, features[i]);
        if (r) {
            FAIL("%s: feature %s: %s\n", c->name, features[i],
                 vq_last_error(ctx));
            vq_close(&ctx);
            return -1;
        }
        used++;
    }
    if (!used) {
        vq_close(&ctx);
        return 0;
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
    /* Flushed: every output exists now, so vq_output_name()'s indices no
     * longer move while the frames are received. */
    double **ours = calloc(256, sizeof(*ours));
    VqFrameScores fs;
    unsigned n_received = 0;
    while (!r && ours && !(r = vq_receive(ctx, &fs))) {
        n_received++;
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
    if (r != VQ_EOF || !ours || n_received != c->frames) {
        FAIL("%s: run failed after %u of %u frames: %s\n", c->name,
             n_received, c->frames, vq_last_error(ctx));
        vq_close(&ctx);
        free_ours(ours);
        return -1;
    }
    *pctx = ctx;
    *pours = ours;
    return 0;
}


static void check_in(const char *dir, const Clip *c, VqBackend backend,
                     const char *suffix, const char *const *features,
                     const char *const *models)
{
    json_object *gold = load_json_in(dir, c->name, suffix);
    if (!gold)
        return;
    char json_name[192];
    snprintf(json_name, sizeof(json_name), "%s%s", c->name, suffix);
    json_object *cpath = dir ? NULL : load_json(c->name, ".c_path.json");
    json_object *full = full_dir ? load_json_in(full_dir, c->name, suffix)
                                 : NULL;
    if (full_dir && !full)
        FAIL("%s: no full-precision reference in %s\n", json_name, full_dir);
    VqContext *ctx;
    double **ours;
    GoldenRun rinfo;
    GoldenTally t = { 0 };
    unsigned before = n_fail;
    if (run(c, backend, features, models, &rinfo, &ctx, &ours)) {
        printf("FAIL %s: not run\n", json_name);
    } else {
        compare(ctx, &rinfo, json_name, gold,
                strcmp(suffix, ".json") ? NULL : cpath, full, ours, c, &t);
        if (t.compared + t.absent + t.caveat + t.failed != t.total)
            FAIL("%s: %u keys in the log, %u accounted for\n", json_name,
                 t.total, t.compared + t.absent + t.caveat + t.failed);
        printf("%s %s: %u of %u keys compared over %u frames (%u at full "
               "precision)", n_fail == before ? "ok  " : "FAIL", json_name,
               t.compared, t.total, c->frames, t.full);
        if (t.caveat)
            printf(", %u caveat%s", t.caveat, t.caveat == 1 ? "" : "s");
        if (t.failed)
            printf(", %u failed", t.failed);
        printf("\n");
        golden_print_absent(rinfo.absent, rinfo.n_absent, "     ");
        for (unsigned i = 0; i < rinfo.n_absent; i++)
            if (golden_model_of(&rinfo, rinfo.absent[i].name))
                printf("     (%s)\n", rinfo.absent[i].why);
        golden_totals_add(&totals, &rinfo, &t);
        totals.n_logs++;
        free_ours(ours);
        vq_close(&ctx);
    }
    json_object_put(gold);
    if (cpath)
        json_object_put(cpath);
    if (full)
        json_object_put(full);
}

static void check(const Clip *c, VqBackend backend, const char *suffix,
                  const char *const *features, const char *const *models)
{
    check_in(NULL, c, backend, suffix, features, models);
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: golden_check GOLDEN_DIR CLIPS_DIR [--clip NAME] "
                        "[--backend cpu|hip] [--caveats FILE] [--extra DIR]\n");
        return 2;
    }
    golden_dir = argv[1];
    clips_dir = argv[2];
    const char *only = NULL, *more_caveats = NULL;
    VqBackend backend = VQ_BACKEND_CPU;
    for (int i = 3; i < argc; i += 2) {
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (v && !strcmp(argv[i], "--clip"))
            only = v;
        else if (v && !strcmp(argv[i], "--caveats"))
            more_caveats = v;
        else if (v && !strcmp(argv[i], "--extra"))
            extra_dir = v;
        else if (v && !strcmp(argv[i], "--full"))
            full_dir = v;
        else if (v && !strcmp(argv[i], "--backend") &&
                 (!strcmp(v, "hip") || !strcmp(v, "cpu")))
            backend = strcmp(v, "hip") ? VQ_BACKEND_CPU : VQ_BACKEND_HIP;
        else {
            fprintf(stderr, "golden_check: %s%s%s: not understood\n", argv[i],
                    v ? " " : "", v ? v : "");
            return 2;
        }
    }
    if (backend == VQ_BACKEND_HIP) {
        int present = vq_test_gpu_present("golden_check");
        if (present)
            return present;
    }
    Clip clips[32];
    int n = read_manifest(clips, 32);
    if (n <= 0) {
        fprintf(stderr, "no manifest in %s\n", golden_dir);
        return 2;
    }
    char cav_path[512];
    snprintf(cav_path, sizeof(cav_path), "%s/caveats.tsv", golden_dir);
    read_caveats(cav_path);
    if (more_caveats)
        read_caveats(more_caveats);
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
        if (extra_dir) {
            static const char *const ansnr[] = { "float_ansnr", NULL };
            static const char *const ciede[] = { "ciede", NULL };
            check_in(extra_dir, &clips[i], backend, ".float_ansnr.json", ansnr,
                     NULL);
            check_in(extra_dir, &clips[i], backend, ".ciede444.json", ciede,
                     NULL);
        }
        checked++;
    }
    printf("golden: %u clip(s), %u log(s), %u keys: %u compared (%u at full "
           "precision), %u not in this build, %u caveats, %u failed; %u "
           "failure(s)\n", checked, totals.n_logs, totals.keys.total,
           totals.keys.compared, totals.keys.full, totals.keys.absent,
           totals.keys.caveat, totals.keys.failed, n_fail);
    golden_print_absent(totals.absent, totals.n_absent, "golden: ");
    return n_fail || !checked ? 1 : 0;
}
