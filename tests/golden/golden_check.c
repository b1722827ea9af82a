/*
 * Golden test: vqhip's CPU path against libvmaf's logs in ../shared/golden.
 *
 * For every clip pair in manifest.tsv it runs the extractors and models that
 * libvmaf ran for each golden log, then accounts for every key of the log
 * (per frame, pooled, aggregate) in exactly one way:
 *   - compared: vqhip produced it and its values match, except the frames
 *     and pooled values that a caveat names;
 *   - a caveat: a row of caveats.tsv exempts every value of the key (all
 *     frames, every pooled value) as not reproducible or as a documented
 *     difference;
 *   - a failure: a value that differs, a key vqhip should produce and does
 *     not, a key with no comparison class, a feature or a model this build
 *     refuses.
 * The counts must add up to the number of keys in the log. Every clip's
 * main log must exist, and every *.json of the folders read (json/, --extra,
 * --full) must be used by some check: a file nothing reads fails.
 *
 * Values: the classes that libvmaf matches exactly (integer features, cambi,
 * float_psnr, models) must print as libvmaf printed them: both values
 * formatted with libvmaf's own rule (%.6f, or %.16f when the value has more
 * than six zeros after the decimal point) give the same text. Other float
 * features use DESIGN.md's absolute tolerances. Non-finite matches only
 * non-finite (libvmaf's null).
 *
 * Caveats (caveats.tsv: json, key, frames, kind, note) apply to the frames
 * and pooled values their third column names ("all; pooled", "frameNum 3;
 * pooled mean, harmonic_mean", "-"): SIMD-dependent values are taken from
 * the C-path log (<clip>.c_path.json, and its full-precision twin with
 * --full); not-reproducible and documented-difference values are skipped;
 * "absent" rows name the features libvmaf could not run for a log, which
 * vqhip then does not run either. Each log's line says how many values
 * caveats exempted.
 *
 * Reference logs that are not in ../shared/golden (made with libvmaf's tool
 * outside the repository, tests/golden/ref/README.md) are read from the
 * folder given with --extra: <clip>.<what>.json, compared the same way.
 * Golden values where vqhip deliberately differs from libvmaf are marked
 * "documented-difference" in tests/golden/caveats.tsv and compared against
 * such a reference instead. With --full, every log is compared with
 * libvmaf's full-precision values of the same name in that folder.
 *
 * usage: golden_check GOLDEN_DIR CLIPS_DIR [--clip NAME] [--backend cpu|hip]
 *                     [--caveats MORE_CAVEATS.tsv] [--extra DIR] [--full DIR]
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
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

/* A log's pooled values; bit p of Caveat.pools is pools[p]. */
static const char *const pools[] = { "min", "max", "mean", "harmonic_mean" };
static const VqPool pool_ids[] = { VQ_POOL_MIN, VQ_POOL_MAX, VQ_POOL_MEAN,
                                   VQ_POOL_HARMONIC_MEAN };
#define N_POOLS 4u
#define ALL_POOLS 0xfu

/* One key of one row of a caveats file and the values it covers. */
typedef struct Caveat {
    char json[128], key[64], kind[32];
    int all_frames;
    unsigned frame[16], n_frame;
    unsigned pools;
} Caveat;

static int output_id(VqContext *ctx, const char *name)
{
    for (unsigned i = 0; ctx && i < vq_output_count(ctx); i++)
        if (!strcmp(vq_output_name(ctx, i), name))
            return (int)i;
    return -1;
}

static const char *golden_dir, *clips_dir;
static Caveat caveats[64];
static unsigned n_caveats;
static unsigned n_fail;
static GoldenTotals totals;

#define FAIL(...) do { if (n_fail++ < 60) printf("  FAIL " __VA_ARGS__); } while (0)

static char *trim(char *s)
{
    s += strspn(s, " ");
    size_t n = strlen(s);
    while (n && s[n - 1] == ' ')
        s[--n] = 0;
    return s;
}

/* A caveat's frames column: "all", "-" or "frameNum N[, M...]", then
 * optionally "; pooled" (every pooled value) or "; pooled A, B". */
static int parse_frames(char *text, Caveat *cv)
{
    char *semi = strchr(text, ';');
    if (semi)
        *semi = 0;
    char *s = trim(text);
    if (!strcmp(s, "all")) {
        cv->all_frames = 1;
    } else if (!strncmp(s, "frameNum ", 9)) {
        for (s += 9;;) {
            char *end;
            s += strspn(s, " ");
            if (!isdigit((unsigned char)*s) || cv->n_frame == 16)
                return -1;
            cv->frame[cv->n_frame++] = (unsigned)strtoul(s, &end, 10);
            s = end + strspn(end, " ");
            if (!*s)
                break;
            if (*s++ != ',')
                return -1;
        }
    } else if (strcmp(s, "-")) {
        return -1;
    }
    s = semi ? trim(semi + 1) : "";
    if (!*s)
        return 0;
    if (strncmp(s, "pooled", 6) || (s[6] && s[6] != ' '))
        return -1;
    s = trim(s + 6);
    if (!*s) {
        cv->pools = ALL_POOLS;
        return 0;
    }
    char *save = NULL;
    for (char *p = strtok_r(s, ", ", &save); p;
         p = strtok_r(NULL, ", ", &save)) {
        unsigned k = 0;
        while (k < N_POOLS && strcmp(p, pools[k]))
            k++;
        if (k == N_POOLS)
            return -1;
        cv->pools |= 1u << k;
    }
    return 0;
}

static int is_skip(const char *kind)
{
    /* documented-difference: vqhip differs from libvmaf on purpose there
     * and is compared with another reference (tests/golden/ref) instead */
    return !strcmp(kind, "not-reproducible") ||
           !strcmp(kind, "documented-difference");
}

/* Reads a caveats file: the golden set's, then this repository's
 * tests/golden/caveats.tsv (values libvmaf itself does not reproduce here,
 * each with the evidence). A row it cannot read fails: skipping it would
 * compare values the row exempts, or exempt values it does not name. */
static void read_caveats(const char *path)
{
    char line[4096];
    FILE *f = fopen(path, "r");
    if (!f || !fgets(line, sizeof(line), f)) {
        FAIL("%s: cannot read the caveats\n", path);
        if (f)
            fclose(f);
        return;
    }
    for (unsigned ln = 2; fgets(line, sizeof(line), f); ln++) {
        if (!line[strspn(line, " \t\r\n")])
            continue;
        char *save = NULL;
        char *json = strtok_r(line, "\t\n", &save);
        char *keys = strtok_r(NULL, "\t\n", &save);
        char *frames = strtok_r(NULL, "\t\n", &save);
        char *kind = strtok_r(NULL, "\t\n", &save);
        Caveat cv = { 0 };
        if (!json || !keys || !frames || !kind || parse_frames(frames, &cv) ||
            strlen(json) >= sizeof(cv.json) ||
            strlen(kind) >= sizeof(cv.kind)) {
            FAIL("%s:%u: not a caveat (json, key, frames, kind, note)\n", path,
                 ln);
            continue;
        }
        const int covers = cv.all_frames || cv.n_frame || cv.pools;
        const int absent = !strcmp(kind, "absent");
        if (!absent && !is_skip(kind) && strcmp(kind, "simd-dependent")) {
            FAIL("%s:%u: no such kind: %s\n", path, ln, kind);
            continue;
        }
        if (absent ? covers : !covers) {
            FAIL("%s:%u: %s\n", path, ln, absent
                 ? "an absent feature has no values: its frames are '-'"
                 : "the caveat names no frame and no pooled value");
            continue;
        }
        snprintf(cv.json, sizeof(cv.json), "%s", json);
        snprintf(cv.kind, sizeof(cv.kind), "%s", kind);
        char *ks = NULL;
        for (char *k = strtok_r(keys, ", ", &ks); k;
             k = strtok_r(NULL, ", ", &ks)) {
            if (n_caveats == 64 || strlen(k) >= sizeof(cv.key)) {
                FAIL("%s:%u: too many caveats, or key too long\n", path, ln);
                break;
            }
            snprintf(cv.key, sizeof(cv.key), "%s", k);
            caveats[n_caveats++] = cv;
        }
    }
    fclose(f);
}

static int covers_frame(const Caveat *cv, unsigned i)
{
    for (unsigned k = 0; k < cv->n_frame; k++)
        if (cv->frame[k] == i)
            return 1;
    return cv->all_frames;
}

/* The caveat of json's key that covers frame i, or pool p when i < 0. */
static const Caveat *caveat_at(const char *json, const char *key, int i,
                               unsigned p)
{
    for (unsigned k = 0; k < n_caveats; k++) {
        const Caveat *cv = &caveats[k];
        if (!strcmp(cv->json, json) && !strcmp(cv->key, key) &&
            (i >= 0 ? covers_frame(cv, (unsigned)i)
                    : (int)(cv->pools >> p & 1)))
            return cv;
    }
    return NULL;
}

/* Whether a caveat skips every value of json's key (frames and pools). */
static int skips_all(const char *json, const char *key)
{
    for (unsigned k = 0; k < n_caveats; k++) {
        const Caveat *cv = &caveats[k];
        if (!strcmp(cv->json, json) && !strcmp(cv->key, key) &&
            cv->all_frames && cv->pools == ALL_POOLS && is_skip(cv->kind))
            return 1;
    }
    return 0;
}

static const Caveat *caveat_of_kind(const char *json, const char *key,
                                    const char *kind)
{
    for (unsigned k = 0; k < n_caveats; k++)
        if (!strcmp(caveats[k].json, json) && !strcmp(caveats[k].key, key) &&
            !strcmp(caveats[k].kind, kind))
            return &caveats[k];
    return NULL;
}

/* A caveat for a frame the log does not have would exempt nothing. */
static void check_caveat_frames(const char *json, unsigned n_frames)
{
    for (unsigned k = 0; k < n_caveats; k++)
        for (unsigned f = 0; !strcmp(caveats[k].json, json) &&
                             f < caveats[k].n_frame; f++)
            if (caveats[k].frame[f] >= n_frames)
                FAIL("%s: the caveat for %s names frameNum %u; the log has "
                     "%u frames\n", json, caveats[k].key, caveats[k].frame[f],
                     n_frames);
}

/* Whether caveats say that libvmaf could not run extractor `name` for the
 * log (kind absent): the log has none of its keys, so vqhip skips it. */
static int absent_from(const char *json, const char *name)
{
    for (unsigned k = 0; k < n_caveats; k++) {
        const GoldenKey *gk = golden_key(caveats[k].key);
        if (!strcmp(caveats[k].kind, "absent") &&
            !strcmp(caveats[k].json, json) && gk && gk->extractor &&
            !strcmp(gk->extractor, name))
            return 1;
    }
    return 0;
}

static double jnum(json_object *o)
{
    return o && json_object_get_type(o) != json_type_null
         ? json_object_get_double(o) : INFINITY;
}

/* One golden log and what its values are compared with. */
typedef struct Log {
    const char *name;            /* <clip><suffix>, as caveats.tsv names it */
    json_object *gold, *full;    /* the log; libvmaf's doubles (--full) */
    char cpath_name[192];        /* a main log's C-path log, and its twin */
    json_object *cpath, *full_cpath;
    int cpath_read, full_cpath_read;
} Log;

/*
 * Where one golden key goes (golden_account); prints why when it fails.
 * Returns the index to compare it with, or -1.
 */
static int account(const GoldenRun *run, const char *json_name,
                   const char *key, int found, int skip, GoldenTally *t)
{
    const char *owner = NULL;
    switch (golden_account(run, key, found, skip, t, &owner)) {
    case GOLDEN_COMPARE:
        return found;
    case GOLDEN_NO_CLASS:
        FAIL("%s: %s has no comparison class or no owner in this run\n",
             json_name, key);
        return -1;
    case GOLDEN_MISSING:
        FAIL("%s: %s is missing from vqhip's outputs (owner: %s)\n", json_name,
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

/* The log's frames are the manifest's, numbered 0.., each with frame 0's
 * keys and a pooled entry for each: keys are taken from frame 0, so any
 * other value would go unchecked. */
static void check_shape(json_object *log, const char *name, unsigned n)
{
    json_object *frames = json_object_object_get(log, "frames");
    json_object *pooled = json_object_object_get(log, "pooled_metrics");
    if (!json_object_is_type(frames, json_type_array) ||
        json_object_array_length(frames) != n) {
        FAIL("%s: not %u frames\n", name, n);
        return;
    }
    json_object *m0 = json_object_object_get(
        json_object_array_get_idx(frames, 0), "metrics");
    if (!json_object_is_type(m0, json_type_object)) {
        FAIL("%s: frame 0 has no metrics\n", name);
        return;
    }
    const int n_keys = json_object_object_length(m0);
    for (unsigned i = 0; i <= n; i++) {
        json_object *fi = json_object_array_get_idx(frames, i);
        json_object *m = i < n ? json_object_object_get(fi, "metrics")
                               : pooled;
        int same = json_object_object_length(m) == n_keys &&
                   (i == n || json_object_get_int(json_object_object_get(
                                  fi, "frameNum")) == (int)i);
        json_object_object_foreach(m0, key, unused) {
            (void)unused;
            same = same && json_object_object_get_ex(m, key, NULL);
        }
        if (!same) {
            if (i < n)
                FAIL("%s: frame %u is not frameNum %u with frame 0's keys\n",
                     name, i, i);
            else
                FAIL("%s: pooled_metrics are not frame 0's keys\n", name);
        }
    }
}

/* Which log value (key, frame i or pool p when i < 0) is compared with:
 * the log's (*gold, *full) or, for a SIMD-dependent one, the C-path log's.
 * Returns 1 to compare, 0 when a caveat skips it, -1 after a failure. */
static int source(Log *lg, const char *key, int i, unsigned p, GoldenTally *t,
                  json_object **gold, json_object **full)
{
    const Caveat *cv = caveat_at(lg->name, key, i, p);
    *gold = lg->gold;
    *full = lg->full;
    int from_cpath = cv && !strcmp(cv->kind, "simd-dependent");
    if (from_cpath) {
        if (!lg->cpath) {
            FAIL("%s: %s is simd-dependent (caveats), but there is no "
                 "C-path log %s\n", lg->name, key, lg->cpath_name);
            return -1;
        }
        cv = caveat_at(lg->cpath_name, key, i, p);
        *gold = lg->cpath;
        *full = lg->full_cpath;
        lg->cpath_read = 1;
    }
    if (cv && is_skip(cv->kind)) {
        t->skipped++;
        return 0;
    }
    t->from_cpath += from_cpath;
    return 1;
}

/* Compares every value of a key vqhip has (its frames, then its pooled
 * values) but those that caveats skip, and counts the key into t. */
static void compare_key(VqContext *ctx, Log *lg, const char *key,
                        const double *ours, const Clip *c, GoldenTally *t)
{
    const GoldenKey *gk = golden_key(key);
    const unsigned long n_samples = (unsigned long)c->w * c->h;
    unsigned n_same = 0, n_bad = 0;
    for (unsigned v = 0; v < c->frames + N_POOLS; v++) {
        const int i = v < c->frames ? (int)v : -1;
        const unsigned p = i < 0 ? v - c->frames : 0;
        json_object *gold, *full;
        int r = source(lg, key, i, p, t, &gold, &full);
        if (r <= 0) {
            n_bad += r < 0;
            continue;
        }
        char where[64];
        if (i >= 0)
            snprintf(where, sizeof(where), "frame %d", i);
        else
            snprintf(where, sizeof(where), "pooled %s", pools[p]);
        double x = i >= 0 ? ours[i] : 0;
        if (i < 0 && vq_pooled(ctx, key, pool_ids[p], &x)) {
            FAIL("%s %s %s: %s\n", lg->name, where, key, vq_last_error(ctx));
            n_bad++;
            continue;
        }
        /* libvmaf's doubles where --full has them for the key, else its
         * printed values */
        const int at_full = full && !golden_vendor_dependent(key);
        const double ref = log_value(at_full ? full : gold, key, i,
                                     i < 0 ? pools[p] : NULL);
        lg->full_cpath_read |= at_full && full == lg->full_cpath;
        int same = !at_full ? golden_same(x, ref, gk)
                 : !strcmp(key, "ciede2000")
                     ? golden_same_ciede(x, ref, n_samples)
                     : golden_same_full(x, ref, gk);
        if (same) {
            n_same++;
            continue;
        }
        n_bad++;
        FAIL("%s %s %s: vqhip %.17g, libvmaf %.17g (%s%s)\n", lg->name, where,
             key, x, ref, at_full ? "full precision" : "printed",
             gold == lg->cpath ? ", C-path log" : "");
    }
    if (n_bad) {
        t->failed++;
    } else if (!n_same) {
        t->caveat++; /* caveats skip each of its values */
    } else {
        t->compared++;
        t->full += lg->full && !golden_vendor_dependent(key);
    }
}

static void compare_aggregates(VqContext *ctx, const GoldenRun *run,
                               const Log *lg, json_object *agg,
                               GoldenTally *t)
{
    json_object_object_foreach(agg, akey, aval) {
        /* an aggregate has no frames or pools: only a caveat that skips
         * everything applies to it */
        const int skip = skips_all(lg->name, akey);
        for (unsigned k = 0; !skip && k < n_caveats; k++)
            if (!strcmp(caveats[k].json, lg->name) &&
                !strcmp(caveats[k].key, akey))
                FAIL("%s aggregate %s: its caveat (%s) does not apply to an "
                     "aggregate\n", lg->name, akey, caveats[k].kind);
        VqScore s;
        int found = -1;
        for (unsigned i = 0; ctx && found < 0 && i < vq_aggregate_count(ctx);
             i++)
            if (!vq_aggregate(ctx, i, &s) && !strcmp(s.name, akey))
                found = (int)i;
        t->skipped += skip;
        if (account(run, lg->name, akey, found, skip, t) < 0)
            continue;
        if (!golden_same(s.value, jnum(aval), golden_key(akey))) {
            FAIL("%s aggregate %s: vqhip %.9f, libvmaf %.6f\n", lg->name,
                 akey, s.value, jnum(aval));
            t->failed++;
        } else {
            t->compared++;
        }
    }
}

static void compare(VqContext *ctx, const GoldenRun *run, Log *lg,
                    double **ours, const Clip *c, GoldenTally *t)
{
    json_object *gframes = json_object_object_get(lg->gold, "frames");
    json_object *f0 = json_object_array_get_idx(gframes, 0);
    json_object *m0 = json_object_object_get(f0, "metrics");
    json_object *agg = json_object_object_get(lg->gold, "aggregate_metrics");
    if (!json_object_is_type(m0, json_type_object))
        return; /* check_shape failed */
    json_object_object_foreach(m0, key, unused) {
        (void)unused;
        if (caveat_of_kind(lg->name, key, "absent"))
            FAIL("%s: %s is in the log, but caveats say it is absent\n",
                 lg->name, key);
        const int skip = skips_all(lg->name, key);
        int id = account(run, lg->name, key, output_id(ctx, key), skip, t);
        if (skip)
            t->skipped += c->frames + N_POOLS;
        if (id < 0)
            continue;
        if (id >= 256 || !ours[id]) {
            FAIL("%s: %s has no per-frame values\n", lg->name, key);
            t->failed++;
            continue;
        }
        compare_key(ctx, lg, key, ours[id], c, t);
    }
    if (json_object_is_type(agg, json_type_object))
        compare_aggregates(ctx, run, lg, agg, t);
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

/* The files some check used (a path as load_json_in writes it): each
 * *.json of the folders read must be one of them (check_all_used). */
static char used_files[256][512];
static unsigned n_used_files;

static int is_used(const char *path)
{
    for (unsigned i = 0; i < n_used_files; i++)
        if (!strcmp(used_files[i], path))
            return 1;
    return 0;
}

static void mark_used(const char *path)
{
    if (n_used_files < 256 && !is_used(path))
        snprintf(used_files[n_used_files++], sizeof(used_files[0]), "%s",
                 path);
}

/* dir NULL: the golden set's json/ folder. Sets `path` either way; NULL
 * when there is no such file or it cannot be read (a failure). */
static json_object *load_json_in(const char *dir, const char *name,
                                 const char *suffix, char *path, size_t size)
{
    if (dir)
        snprintf(path, size, "%s/%s%s", dir, name, suffix);
    else
        snprintf(path, size, "%s/json/%s%s", golden_dir, name, suffix);
    if (access(path, F_OK))
        return NULL;
    json_object *o = json_object_from_file(path);
    if (!o)
        FAIL("%s: cannot read: %s\n", path, json_util_get_last_err());
    return o;
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
 * Runs one configuration over a clip for the log json_name (less the
 * features its caveats say libvmaf could not run); fills ours[output][frame]
 * and the models' names in `run`. Returns -1 after a failure: a feature or
 * model this build refuses is one.
 */
static int run(const Clip *c, VqBackend backend, const char *json_name,
               const char *const *features, const char *const *models,
               GoldenRun *rinfo, VqContext **pctx, double ***pours)
{
    VqConfig cfg = vq_default_config();
    cfg.backend = backend;
    cfg.strict = backend == VQ_BACKEND_HIP;
    VqContext *ctx = NULL;
    *pctx = NULL;
    *pours = NULL;
    memset(rinfo, 0, sizeof(*rinfo));
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
        if (vq_use_model(ctx, models[i])) {
            FAIL("%s: model %s: %s\n", c->name, models[i], vq_last_error(ctx));
            vq_close(&ctx);
            return -1;
        }
        used++;
    }
    for (unsigned i = 0; features && features[i]; i++) {
        char name[64];
        spec_name(features[i], name, sizeof(name));
        if (absent_from(json_name, name))
            continue; /* libvmaf cannot run it on this clip (caveats) */
        if (vq_use_feature(ctx, features[i])) {
            FAIL("%s: feature %s: %s\n", c->name, features[i],
                 vq_last_error(ctx));
            vq_close(&ctx);
            return -1;
        }
        used++;
    }
    if (!used) {
        FAIL("%s: nothing to run\n", json_name);
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


/* Checks one log, <clip><suffix> in dir (NULL: the golden json/ folder);
 * a log that does not exist fails only when `required`. */
static void check_in(const char *dir, const Clip *c, VqBackend backend,
                     const char *suffix, const char *const *features,
                     const char *const *models, int required)
{
    char name[192], path[512], full_path[512], cpath_path[512];
    char full_cpath_path[512];
    snprintf(name, sizeof(name), "%s%s", c->name, suffix);
    unsigned before = n_fail;
    Log lg = { .name = name };
    lg.gold = load_json_in(dir, c->name, suffix, path, sizeof(path));
    if (!lg.gold) {
        if (required && access(path, F_OK))
            FAIL("%s: no such log\n", path);
        return;
    }
    check_shape(lg.gold, name, c->frames);
    check_caveat_frames(name, c->frames);
    if (full_dir) {
        lg.full = load_json_in(full_dir, c->name, suffix, full_path,
                               sizeof(full_path));
        if (!lg.full && access(full_path, F_OK))
            FAIL("%s: no full-precision reference in %s\n", name, full_dir);
        if (lg.full)
            check_shape(lg.full, full_path, c->frames);
    }
    if (!dir && !strcmp(suffix, ".json")) {
        snprintf(lg.cpath_name, sizeof(lg.cpath_name), "%s.c_path.json",
                 c->name);
        lg.cpath = load_json_in(NULL, c->name, ".c_path.json", cpath_path,
                                sizeof(cpath_path));
        if (lg.cpath) {
            check_shape(lg.cpath, lg.cpath_name, c->frames);
            check_caveat_frames(lg.cpath_name, c->frames);
        }
        if (lg.cpath && full_dir) {
            lg.full_cpath = load_json_in(full_dir, c->name, ".c_path.json",
                                         full_cpath_path,
                                         sizeof(full_cpath_path));
            if (!lg.full_cpath && access(full_cpath_path, F_OK))
                FAIL("%s: no full-precision reference in %s\n", lg.cpath_name,
                     full_dir);
            if (lg.full_cpath)
                check_shape(lg.full_cpath, full_cpath_path, c->frames);
        }
    }
    VqContext *ctx;
    double **ours;
    GoldenRun rinfo;
    GoldenTally t = { 0 };
    if (run(c, backend, name, features, models, &rinfo, &ctx, &ours)) {
        printf("FAIL %s: not run\n", name);
    } else {
        compare(ctx, &rinfo, &lg, ours, c, &t);
        mark_used(path);
        if (lg.full)
            mark_used(full_path);
        if (lg.cpath_read)
            mark_used(cpath_path);
        if (lg.full_cpath_read)
            mark_used(full_cpath_path);
        if (t.compared + t.caveat + t.failed != t.total)
            FAIL("%s: %u keys in the log, %u accounted for\n", name, t.total,
                 t.compared + t.caveat + t.failed);
        printf("%s %s: %u of %u keys compared over %u frames (%u at full "
               "precision)", n_fail == before ? "ok  " : "FAIL", name,
               t.compared, t.total, c->frames, t.full);
        if (t.caveat)
            printf(", %u caveat%s", t.caveat, t.caveat == 1 ? "" : "s");
        if (t.failed)
            printf(", %u failed", t.failed);
        if (t.skipped + t.from_cpath)
            printf("; %u value%s exempted by caveats", t.skipped + t.from_cpath,
                   t.skipped + t.from_cpath == 1 ? "" : "s");
        if (t.from_cpath)
            printf(" (%u from the C-path log)", t.from_cpath);
        printf("\n");
        golden_totals_add(&totals, &t);
        free_ours(ours);
        vq_close(&ctx);
    }
    json_object_put(lg.gold);
    json_object_put(lg.full);
    json_object_put(lg.cpath);
    json_object_put(lg.full_cpath);
}

static int selected(const Clip *c, const char *only)
{
    return !only || strstr(c->name, only);
}

static int json_file(const struct dirent *e)
{
    size_t n = strlen(e->d_name);
    return n > 5 && !strcmp(e->d_name + n - 5, ".json");
}

/* Each *.json of dir (with --clip, each of the clips checked) must have
 * been used by a check: a log that nothing compares would pass unseen. */
static void check_all_used(const char *dir, const Clip *clips, int n,
                           const char *only)
{
    struct dirent **e;
    int n_e = scandir(dir, &e, json_file, alphasort);
    if (n_e < 0) {
        FAIL("%s: cannot list: %s\n", dir, strerror(errno));
        return;
    }
    for (int k = 0; k < n_e; k++) {
        int counts = !only;
        for (int i = 0; !counts && i < n; i++) {
            size_t len = strlen(clips[i].name);
            counts = selected(&clips[i], only) &&
                     !strncmp(e[k]->d_name, clips[i].name, len) &&
                     e[k]->d_name[len] == '.';
        }
        char path[512];
        snprintf(path, sizeof(path), "%s/%s", dir, e[k]->d_name);
        if (counts && !is_used(path))
            FAIL("%s: not compared by any check\n", path);
        free(e[k]);
    }
    free(e);
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: golden_check GOLDEN_DIR CLIPS_DIR [--clip NAME] "
                        "[--backend cpu|hip] [--caveats FILE] [--extra DIR] "
                        "[--full DIR]\n");
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
        if (!selected(&clips[i], only))
            continue;
        check_in(NULL, &clips[i], backend, ".json", main_features, vmaf_model,
                 1);
        check_in(NULL, &clips[i], backend, ".models.json", NULL, extra_models,
                 0);
        check_in(NULL, &clips[i], backend, ".v1.json", NULL, v1_model, 0);
        if (extra_dir) {
            static const char *const ansnr[] = { "float_ansnr", NULL };
            static const char *const ciede[] = { "ciede", NULL };
            check_in(extra_dir, &clips[i], backend, ".float_ansnr.json", ansnr,
                     NULL, 0);
            check_in(extra_dir, &clips[i], backend, ".ciede444.json", ciede,
                     NULL, 0);
        }
        checked++;
    }
    if (!checked)
        FAIL("no clip of %s/manifest.tsv is named like %s\n", golden_dir,
             only);
    char json_dir[512];
    snprintf(json_dir, sizeof(json_dir), "%s/json", golden_dir);
    check_all_used(json_dir, clips, n, only);
    if (extra_dir)
        check_all_used(extra_dir, clips, n, only);
    if (full_dir)
        check_all_used(full_dir, clips, n, only);
    printf("golden: %u clip(s), %u log(s), %u keys: %u compared (%u at full "
           "precision), %u caveats, %u failed; %u values exempted by caveats "
           "(%u from the C-path log); %u failure(s)\n", checked, totals.n_logs,
           totals.keys.total, totals.keys.compared, totals.keys.full,
           totals.keys.caveat, totals.keys.failed, totals.keys.skipped +
           totals.keys.from_cpath, totals.keys.from_cpath, n_fail);
    return n_fail || !checked ? 1 : 0;
}
