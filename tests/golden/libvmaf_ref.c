/*
 * libvmaf_ref: libvmaf's values at full precision for the golden test.
 *
 * Built and run outside this project's build, against a libvmaf built
 * outside the repository (tests/golden/make_ref17.sh does both). For every
 * log of ../shared/golden/json (and the extra configurations of
 * tests/golden/ref) it runs libvmaf's public API on the same clip with the
 * same extractors and models as libvmaf's tool did, with one thread and
 * libvmaf's SIMD off (its C paths, which vqhip follows), and writes
 * OUT_DIR/<log name>: every per-frame and pooled value of the keys of the
 * golden log, printed with %.17g (a double's exact decimal form), in the
 * golden log's layout. Non-finite values are written as null, as libvmaf
 * writes them. Aggregate metrics (apsnr) are not in libvmaf's public API:
 * they stay compared at libvmaf's printed precision.
 *
 * usage: libvmaf_ref GOLDEN_DIR CLIPS_DIR REF_DIR OUT_DIR [CLIP]
 *   REF_DIR: tests/golden/ref (its float_ansnr and ciede444 logs name the
 *   extra configurations)
 */
#include <dirent.h>
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libvmaf/feature.h>
#include <libvmaf/libvmaf.h>
#include <libvmaf/model.h>

typedef struct Clip {
    char name[160], ref[192], dis[192], fmt[8];
    unsigned w, h, bpc, frames;
} Clip;

/* One configuration of libvmaf's tool: features (name, then key=value
 * options) and models (version, name). */
typedef struct Config {
    const char *features[20];
    const char *models[8][2];
    int ciede444; /* the 4:4:4 copy of tests/golden/ref/README.md */
} Config;

static int read_clip(const char *golden, const char *want, Clip *c)
{
    char path[512], line[4096];
    snprintf(path, sizeof(path), "%s/manifest.tsv", golden);
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    int found = 0;
    while (!found && fgets(line, sizeof(line), f)) {
        char *col[12], *save = NULL;
        unsigned k = 0;
        for (char *t = strtok_r(line, "\t\n", &save); t && k < 12;
             t = strtok_r(NULL, "\t\n", &save))
            col[k++] = t;
        if (k < 11 || strcmp(col[0], want))
            continue;
        snprintf(c->name, sizeof(c->name), "%s", col[0]);
        c->w = (unsigned)atoi(col[1]);
        c->h = (unsigned)atoi(col[2]);
        c->bpc = (unsigned)atoi(col[4]);
        snprintf(c->fmt, sizeof(c->fmt), "%s", col[5]);
        c->frames = (unsigned)atoi(col[6]);
        snprintf(c->ref, sizeof(c->ref), "%s", col[7]);
        snprintf(c->dis, sizeof(c->dis), "%s", col[9]);
        found = 1;
    }
    fclose(f);
    return found ? 0 : -1;
}

static enum VmafPixelFormat pix_fmt(const char *s)
{
    return !strcmp(s, "420") ? VMAF_PIX_FMT_YUV420P
         : !strcmp(s, "422") ? VMAF_PIX_FMT_YUV422P : VMAF_PIX_FMT_YUV444P;
}

/* Reads frame i of a raw file in FFmpeg's layout (chroma ceil(w/2) wide,
 * ceil(h/2) high for 4:2:0) into a libvmaf picture, whose chroma planes are
 * w>>1 by h>>1: the last chroma column and row of an odd size are left out,
 * as libvmaf leaves them out (golden README, quirk 1). With to444 the
 * picture is 4:4:4 and every chroma sample is repeated as
 * tests/golden/ref/README.md says. */
static int read_frame(FILE *f, const Clip *c, unsigned i, VmafPicture *pic,
                      int to444)
{
    const unsigned bps = c->bpc > 8 ? 2 : 1;
    const int sx = strcmp(c->fmt, "444") != 0, sy = !strcmp(c->fmt, "420");
    const unsigned fcw = (c->w + sx) >> sx, fch = (c->h + sy) >> sy;
    const size_t luma = (size_t)c->w * c->h * bps, chroma = (size_t)fcw * fch * bps;
    unsigned char *buf = malloc(luma + 2 * chroma);
    if (!buf || fseek(f, (long)(i * (luma + 2 * chroma)), SEEK_SET) ||
        fread(buf, 1, luma + 2 * chroma, f) != luma + 2 * chroma) {
        free(buf);
        return -1;
    }
    enum VmafPixelFormat fmt = to444 ? VMAF_PIX_FMT_YUV444P : pix_fmt(c->fmt);
    if (vmaf_picture_alloc(pic, fmt, c->bpc, c->w, c->h)) {
        free(buf);
        return -1;
    }
    /* libvmaf's chroma size */
    const unsigned cw = c->w >> sx, ch = c->h >> sy;
    for (unsigned p = 0; p < 3; p++) {
        for (unsigned y = 0; y < pic->h[p]; y++) {
            unsigned char *dst = (unsigned char *)pic->data[p] +
                                 (size_t)y * pic->stride[p];
            if (!p) {
                memcpy(dst, buf + (size_t)y * c->w * bps, (size_t)c->w * bps);
                continue;
            }
            const unsigned char *plane = buf + luma + (p - 1) * chroma;
            for (unsigned x = 0; x < pic->w[p]; x++) {
                unsigned sxi = to444 ? (x >> sx < cw - 1 ? x >> sx : cw - 1) : x;
                unsigned syi = to444 ? (y >> sy < ch - 1 ? y >> sy : ch - 1) : y;
                memcpy(dst + (size_t)x * bps,
                       plane + ((size_t)syi * fcw + sxi) * bps, bps);
            }
        }
    }
    free(buf);
    return 0;
}

static int use_feature(VmafContext *vmaf, const char *spec)
{
    char s[256], *save = NULL;
    snprintf(s, sizeof(s), "%s", spec);
    char *name = strtok_r(s, "=", &save), *opts = strtok_r(NULL, "", &save);
    VmafFeatureDictionary *d = NULL;
    char *save2 = NULL;
    for (char *kv = opts ? strtok_r(opts, ":", &save2) : NULL; kv;
         kv = strtok_r(NULL, ":", &save2)) {
        char *eq = strchr(kv, '=');
        if (!eq)
            return -1;
        *eq = 0;
        if (vmaf_feature_dictionary_set(&d, kv, eq + 1))
            return -1;
    }
    return vmaf_use_feature(vmaf, name, d);
}

/* Keys that libvmaf's log prints under another name than its feature
 * collector keeps them (libvmaf's src/feature/alias.c: collector name,
 * log name). Names with option suffixes are kept under the log name. */
static const char *const renamed[][2] = {
    { "VMAF_feature_adm2_score", "adm2" },
    { "VMAF_feature_aim_score", "aim" },
    { "VMAF_feature_adm3_score", "adm3" },
    { "VMAF_feature_adm_scale0_score", "adm_scale0" },
    { "VMAF_feature_adm_scale1_score", "adm_scale1" },
    { "VMAF_feature_adm_scale2_score", "adm_scale2" },
    { "VMAF_feature_adm_scale3_score", "adm_scale3" },
    { "VMAF_feature_motion_score", "motion" },
    { "VMAF_feature_motion2_score", "motion2" },
    { "VMAF_feature_motion3_score", "motion3" },
    { "VMAF_feature_vif_scale0_score", "vif_scale0" },
    { "VMAF_feature_vif_scale1_score", "vif_scale1" },
    { "VMAF_feature_vif_scale2_score", "vif_scale2" },
    { "VMAF_feature_vif_scale3_score", "vif_scale3" },
    { "VMAF_integer_feature_adm2_score", "integer_adm2" },
    { "VMAF_integer_feature_aim_score", "integer_aim" },
    { "VMAF_integer_feature_adm3_score", "integer_adm3" },
    { "VMAF_integer_feature_motion_score", "integer_motion" },
    { "VMAF_integer_feature_motion2_score", "integer_motion2" },
    { "VMAF_integer_feature_motion3_score", "integer_motion3" },
    { "VMAF_integer_feature_vif_scale0_score", "integer_vif_scale0" },
    { "VMAF_integer_feature_vif_scale1_score", "integer_vif_scale1" },
    { "VMAF_integer_feature_vif_scale2_score", "integer_vif_scale2" },
    { "VMAF_integer_feature_vif_scale3_score", "integer_vif_scale3" },
    { "Cambi_feature_cambi_score", "cambi" },
    { "Speed_chroma_feature_speed_chroma_u_score", "speed_chroma_u" },
    { "Speed_chroma_feature_speed_chroma_v_score", "speed_chroma_v" },
    { "Speed_chroma_feature_speed_chroma_uv_score", "speed_chroma_uv" },
    { "Speed_temporal_feature_speed_temporal_score", "speed_temporal" },
};

static const char *collector_name(const char *key)
{
    for (size_t i = 0; i < sizeof(renamed) / sizeof(renamed[0]); i++)
        if (!strcmp(renamed[i][1], key))
            return renamed[i][0];
    return key;
}

/* Runs the configuration and writes every key of the golden log `gold`. */
static int run(const char *clips, const Clip *c, const Config *cfg,
               json_object *gold, const char *out_path)
{
    VmafConfiguration vc = { .log_level = VMAF_LOG_LEVEL_WARNING,
                             .n_threads = 1, .n_subsample = 1,
                             .cpumask = ~0ull /* C paths only */ };
    VmafContext *vmaf;
    if (vmaf_init(&vmaf, vc))
        return -1;
    VmafModel *model[8] = { 0 };
    VmafModelCollection *coll[8] = { 0 };
    unsigned n_model = 0;
    for (unsigned i = 0; i < 8 && cfg->models[i][0]; i++, n_model++) {
        VmafModelConfig mc = { .name = cfg->models[i][1] };
        if (vmaf_model_load(&model[i], &mc, cfg->models[i][0])) {
            if (vmaf_model_collection_load(&model[i], &coll[i], &mc,
                                           cfg->models[i][0]))
                return fprintf(stderr, "model %s\n", cfg->models[i][0]), -1;
            if (vmaf_use_features_from_model_collection(vmaf, coll[i]))
                return -1;
        } else if (vmaf_use_features_from_model(vmaf, model[i])) {
            return -1;
        }
    }
    for (unsigned i = 0; cfg->features[i]; i++)
        if (use_feature(vmaf, cfg->features[i]))
            return fprintf(stderr, "feature %s\n", cfg->features[i]), -1;
    char pr[512], pd[512];
    snprintf(pr, sizeof(pr), "%s/%s", clips, c->ref);
    snprintf(pd, sizeof(pd), "%s/%s", clips, c->dis);
    FILE *fr = fopen(pr, "rb"), *fd = fopen(pd, "rb");
    if (!fr || !fd)
        return fprintf(stderr, "clip %s\n", c->name), -1;
    for (unsigned i = 0; i < c->frames; i++) {
        VmafPicture r, d;
        if (read_frame(fr, c, i, &r, cfg->ciede444) ||
            read_frame(fd, c, i, &d, cfg->ciede444) ||
            vmaf_read_pictures(vmaf, &r, &d, i))
            return fprintf(stderr, "frame %u of %s\n", i, c->name), -1;
    }
    fclose(fr);
    fclose(fd);
    if (vmaf_read_pictures(vmaf, NULL, NULL, 0))
        return -1;
    /* the models' scores of every frame into the feature collector */
    for (unsigned i = 0; i < n_model; i++) {
        double s;
        VmafModelCollectionScore cs;
        /* a collection's first model writes the plain name, as in the
         * tool */
        if (vmaf_score_pooled(vmaf, model[i], VMAF_POOL_METHOD_MEAN, &s, 0,
                              c->frames - 1) ||
            (coll[i] && vmaf_score_pooled_model_collection(vmaf, coll[i],
                            VMAF_POOL_METHOD_MEAN, &cs, 0, c->frames - 1)))
            return -1;
    }
    FILE *o = fopen(out_path, "w");
    if (!o)
        return -1;
    json_object *frames = json_object_object_get(gold, "frames");
    json_object *m0 = json_object_object_get(
        json_object_array_get_idx(frames, 0), "metrics");
    fprintf(o, "{\n  \"version\": \"%s\",\n  \"precision\": \"%%.17g\",\n"
            "  \"frames\": [", vmaf_version());
    int bad = 0;
    for (unsigned i = 0; i < c->frames; i++) {
        fprintf(o, "%s\n    {\n      \"frameNum\": %u,\n      \"metrics\": {",
                i ? "," : "", i);
        int first = 1;
        json_object_object_foreach(m0, key, unused) {
            (void)unused;
            double v;
            if (vmaf_feature_score_at_index(vmaf, collector_name(key), &v,
                                            i)) {
                fprintf(stderr, "%s: no %s at frame %u\n", out_path, key, i);
                bad = 1;
                continue;
            }
            fprintf(o, "%s\n        \"%s\": ", first ? "" : ",", key);
            first = 0;
            if (isfinite(v))
                fprintf(o, "%.17g", v);
            else
                fprintf(o, "null");
        }
        fprintf(o, "\n      }\n    }");
    }
    fprintf(o, "\n  ],\n  \"pooled_metrics\": {");
    static const char *const pools[] = { "min", "max", "mean", "harmonic_mean" };
    static const enum VmafPoolingMethod ids[] = {
        VMAF_POOL_METHOD_MIN, VMAF_POOL_METHOD_MAX, VMAF_POOL_METHOD_MEAN,
        VMAF_POOL_METHOD_HARMONIC_MEAN };
    int first = 1;
    json_object_object_foreach(m0, key, unused) {
        (void)unused;
        fprintf(o, "%s\n    \"%s\": {", first ? "" : ",", key);
        first = 0;
        for (unsigned p = 0; p < 4; p++) {
            double v;
            if (vmaf_feature_score_pooled(vmaf, collector_name(key), ids[p],
                                          &v, 0, c->frames - 1)) {
                fprintf(stderr, "%s: no pooled %s\n", out_path, key);
                bad = 1;
            }
            fprintf(o, "%s\n      \"%s\": ", p ? "," : "", pools[p]);
            if (isfinite(v))
                fprintf(o, "%.17g", v);
            else
                fprintf(o, "null");
        }
        fprintf(o, "\n    }");
    }
    fprintf(o, "\n  }\n}\n");
    if (fclose(o))
        bad = 1;
    for (unsigned i = 0; i < n_model; i++) {
        if (coll[i])
            vmaf_model_collection_destroy(coll[i]); /* model[i] is in it */
        else
            vmaf_model_destroy(model[i]);
    }
    vmaf_close(vmaf);
    return bad ? -1 : 0;
}

/* The configurations of the golden logs (golden README) and of
 * tests/golden/ref (its README). */
static const Config main_cfg = {
    .features = { "psnr=enable_chroma=true:enable_mse=true:enable_apsnr=true",
                  "float_psnr", "float_ssim", "psnr_hvs", "ciede",
                  "float_moment", "motion", "float_motion", "vif", "adm",
                  "float_vif", "float_adm", "float_ms_ssim", "cambi",
                  "speed_chroma", "speed_temporal", NULL },
    .models = { { "vmaf_v0.6.1", "vmaf" } },
};
static const Config small_cfg = { /* g07: libvmaf cannot run three of them */
    .features = { "psnr=enable_chroma=true:enable_mse=true:enable_apsnr=true",
                  "float_psnr", "float_ssim", "psnr_hvs", "ciede",
                  "float_moment", "motion", "float_motion", "vif", "adm",
                  "float_vif", "float_adm", "speed_temporal", NULL },
    .models = { { "vmaf_v0.6.1", "vmaf" } },
};
static const Config models_cfg = {
    .models = { { "vmaf_4k_v0.6.1", "vmaf_4k_v0.6.1" },
                { "vmaf_v0.6.1neg", "vmaf_v0.6.1neg" },
                { "vmaf_b_v0.6.3", "vmaf_b_v0.6.3" },
                { "vmaf_float_v0.6.1", "vmaf_float_v0.6.1" } },
};
static const Config v1_cfg = {
    .models = { { "vmaf_v1.0.16_3d0h", "vmaf" } },
};
static const Config ansnr_cfg = { .features = { "float_ansnr", NULL } };
static const Config ciede444_cfg = { .features = { "ciede", NULL },
                                     .ciede444 = 1 };

/* Which configuration made a log, from its name's suffix. */
static const Config *config_of(const Clip *c, const char *suffix)
{
    if (!strcmp(suffix, ".json") || !strcmp(suffix, ".c_path.json"))
        return c->w < 216 && c->h < 216 ? &small_cfg : &main_cfg;
    if (!strcmp(suffix, ".models.json"))
        return &models_cfg;
    if (!strcmp(suffix, ".v1.json"))
        return &v1_cfg;
    if (!strcmp(suffix, ".float_ansnr.json"))
        return &ansnr_cfg;
    if (!strcmp(suffix, ".ciede444.json"))
        return &ciede444_cfg;
    return NULL;
}

static int do_dir(const char *golden, const char *clips, const char *dir,
                  const char *out, const char *only)
{
    DIR *d = opendir(dir);
    if (!d)
        return fprintf(stderr, "no folder %s\n", dir), -1;
    int bad = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        const char *dot = strchr(e->d_name, '.');
        if (!dot || !strstr(e->d_name, ".json") || (only && strncmp(e->d_name,
                                                      only, strlen(only))))
            continue;
        char clip[160];
        snprintf(clip, sizeof(clip), "%.*s", (int)(dot - e->d_name), e->d_name);
        Clip c;
        const Config *cfg;
        if (read_clip(golden, clip, &c) || !(cfg = config_of(&c, dot))) {
            fprintf(stderr, "%s: no clip or configuration\n", e->d_name);
            bad = 1;
            continue;
        }
        char in[512], path[512];
        snprintf(in, sizeof(in), "%s/%s", dir, e->d_name);
        snprintf(path, sizeof(path), "%s/%s", out, e->d_name);
        json_object *gold = json_object_from_file(in);
        int r = gold ? run(clips, &c, cfg, gold, path) : -1;
        printf("%s %s\n", r ? "FAIL" : "ok  ", path);
        bad |= r != 0;
        json_object_put(gold);
    }
    closedir(d);
    return bad;
}

int main(int argc, char **argv)
{
    if (argc < 5) {
        fprintf(stderr, "usage: libvmaf_ref GOLDEN_DIR CLIPS_DIR REF_DIR "
                        "OUT_DIR [CLIP]\n");
        return 2;
    }
    char json_dir[512];
    snprintf(json_dir, sizeof(json_dir), "%s/json", argv[1]);
    const char *only = argc > 5 ? argv[5] : NULL;
    int bad = do_dir(argv[1], argv[2], json_dir, argv[4], only);
    bad |= do_dir(argv[1], argv[2], argv[3], argv[4], only);
    return bad ? 1 : 0;
}
