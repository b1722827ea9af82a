/*
 * libvmaf_values: upstream libvmaf's values at full precision, for the
 * generated *_expect.h tables of the tests that compare vqhip with libvmaf.
 *
 * Not part of vqhip's build: the tests' generator scripts (*_expect.sh)
 * compile it against a libvmaf built and installed outside this repository
 * (with libvmaf_values.sh) and run it on the raw frames the tests dump. It
 * drives libvmaf's public API with one thread (vmaf_init, vmaf_use_feature
 * with a VmafFeatureDictionary of the options, vmaf_read_pictures,
 * vmaf_feature_score_at_index) and prints every value with %.17g, which
 * reads back as the same double.
 *
 * usage: libvmaf_values REF DIS W H FMT BPC FRAMES [option]...
 *   REF, DIS  raw planar files, FMT 420, 422, 444 or 400, BPC 8 to 16
 *             (two bytes a sample above 8, little-endian): FRAMES frames
 *             whose chroma planes have libvmaf's size (W >> 1 wide for
 *             4:2:0 and 4:2:2, H >> 1 high for 4:2:0), the layout libvmaf's
 *             vmaf tool reads
 *   --feature NAME[=KEY=VALUE:...]   an extractor and its options, in the
 *             syntax of the tool's --feature
 *   --model VERSION   a built-in model; its score is the key VERSION
 *   --path c|simd|both   libvmaf's C code only (cpumask ~0), its x86 SIMD
 *             code where it has some (cpumask 0), or both, which must give
 *             the same doubles (the program fails otherwise); default simd
 *   --key NAME   print this key (as libvmaf's log names it); default every
 *             key of libvmaf's log, in its order
 *   --entry TEXT   print the values as a C initializer of the tests' tables,
 *             { TEXT, { "key", ..., NULL }, { { value, ... }, ... } },
 *             one row per frame; without it, one line "key NAME..." and
 *             one line per frame, its index and then the values
 *
 * libvmaf's log names some keys otherwise than its feature collector keeps
 * them (libvmaf's src/feature/alias.c); the keys are printed as the log
 * names them and asked for under the collector's names. Exit status: 0, 1
 * when libvmaf refuses something or the paths differ, 2 usage.
 */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libvmaf/libvmaf.h>
#include <libvmaf/model.h>

#define MAX_ARGS 16
#define MAX_KEYS 64
#define MAX_FRAMES 256

/* Collector name, log name (libvmaf's src/feature/alias.c). Names with
 * option suffixes are kept under the log name. */
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

typedef struct Args {
    const char *ref, *dis;
    unsigned w, h, bpc, frames;
    enum VmafPixelFormat fmt;
    const char *feature[MAX_ARGS], *model[MAX_ARGS], *key[MAX_KEYS];
    unsigned n_feature, n_model, n_key;
    const char *entry;
} Args;

typedef struct Values {
    char key[MAX_KEYS][256];
    unsigned n_key;
    double v[MAX_FRAMES][MAX_KEYS];
} Values;

static int read_frame(FILE *f, VmafPicture *p, unsigned bps)
{
    for (unsigned c = 0; c < 3; c++)
        for (unsigned y = 0; y < p->h[c]; y++) {
            uint8_t *row = (uint8_t *)p->data[c] + y * p->stride[c];
            if (fread(row, bps, p->w[c], f) != p->w[c])
                return -1;
        }
    return 0;
}

static int use_feature(VmafContext *vmaf, const char *spec)
{
    char s[512];
    snprintf(s, sizeof(s), "%s", spec);
    char *opts = strchr(s, '=');
    VmafFeatureDictionary *d = NULL;
    if (opts) {
        *opts++ = '\0';
        char *save = NULL;
        for (char *kv = strtok_r(opts, ":", &save); kv;
             kv = strtok_r(NULL, ":", &save)) {
            char *v = strchr(kv, '=');
            if (!v)
                return -1;
            *v++ = '\0';
            if (vmaf_feature_dictionary_set(&d, kv, v))
                return -1;
        }
    }
    return vmaf_use_feature(vmaf, s, d);
}

/* The keys of libvmaf's log, in its order: the header of the CSV log that
 * vmaf_write_output writes ("Frame,key,key,...,"). */
static int log_keys(VmafContext *vmaf, Values *out)
{
    const char *tmp = getenv("TMPDIR");
    char path[512];
    snprintf(path, sizeof(path), "%s/libvmaf_values_XXXXXX",
             tmp && *tmp ? tmp : "/tmp");
    int fd = mkstemp(path);
    if (fd < 0)
        return -1;
    close(fd);
    char line[16384];
    FILE *f = NULL;
    int err = vmaf_write_output(vmaf, path, VMAF_OUTPUT_FORMAT_CSV) ||
              !(f = fopen(path, "r")) || !fgets(line, sizeof(line), f) ||
              !strchr(line, '\n');
    if (f)
        fclose(f);
    remove(path);
    if (err)
        return -1;
    char *save = NULL;
    out->n_key = 0;
    for (char *k = strtok_r(line, ",\n", &save); k;
         k = strtok_r(NULL, ",\n", &save)) {
        if (!strcmp(k, "Frame"))
            continue;
        if (out->n_key == MAX_KEYS)
            return -1;
        snprintf(out->key[out->n_key++], sizeof(out->key[0]), "%s", k);
    }
    return 0;
}

/* Runs libvmaf once with the given cpumask. */
static int run(const Args *a, uint64_t cpumask, Values *out)
{
    VmafConfiguration cfg = { .log_level = VMAF_LOG_LEVEL_ERROR,
                              .n_threads = 1, .n_subsample = 1,
                              .cpumask = cpumask };
    VmafContext *vmaf = NULL;
    VmafModel *model[MAX_ARGS] = { 0 };
    FILE *fr = NULL, *fd = NULL;
    int err = vmaf_init(&vmaf, cfg);
    for (unsigned i = 0; !err && i < a->n_feature; i++)
        if ((err = use_feature(vmaf, a->feature[i])))
            fprintf(stderr, "libvmaf refuses feature %s\n", a->feature[i]);
    for (unsigned i = 0; !err && i < a->n_model; i++) {
        VmafModelConfig mc = { .name = a->model[i] };
        if ((err = vmaf_model_load(&model[i], &mc, a->model[i]) ||
                   vmaf_use_features_from_model(vmaf, model[i])))
            fprintf(stderr, "libvmaf refuses model %s\n", a->model[i]);
    }
    if (!err && (!(fr = fopen(a->ref, "rb")) || !(fd = fopen(a->dis, "rb")))) {
        fprintf(stderr, "cannot open %s or %s\n", a->ref, a->dis);
        err = 1;
    }
    const unsigned bps = a->bpc > 8 ? 2 : 1;
    for (unsigned i = 0; !err && i < a->frames; i++) {
        VmafPicture r, d;
        int have_r = !vmaf_picture_alloc(&r, a->fmt, a->bpc, a->w, a->h);
        int have_d = !vmaf_picture_alloc(&d, a->fmt, a->bpc, a->w, a->h);
        if (have_r && have_d && !read_frame(fr, &r, bps) &&
            !read_frame(fd, &d, bps)) {
            err = vmaf_read_pictures(vmaf, &r, &d, i);
        } else {
            err = 1;
            if (have_r)
                vmaf_picture_unref(&r);
            if (have_d)
                vmaf_picture_unref(&d);
        }
        if (err)
            fprintf(stderr, "frame %u: cannot read or libvmaf refuses it\n", i);
    }
    if (!err && (err = vmaf_read_pictures(vmaf, NULL, NULL, 0)))
        fprintf(stderr, "libvmaf fails at the end of the frames\n");
    /* a model's score of each frame, which libvmaf's collector then holds
     * under the model's name */
    for (unsigned m = 0; !err && m < a->n_model; m++)
        for (unsigned i = 0; !err && i < a->frames; i++) {
            double s;
            if ((err = vmaf_score_at_index(vmaf, model[m], &s, i)))
                fprintf(stderr, "no score of %s at %u\n", a->model[m], i);
        }
    if (!err && a->n_key) {
        out->n_key = a->n_key;
        for (unsigned k = 0; k < a->n_key; k++)
            snprintf(out->key[k], sizeof(out->key[0]), "%s", a->key[k]);
    } else if (!err && (err = log_keys(vmaf, out))) {
        fprintf(stderr, "cannot read the keys of libvmaf's log\n");
    }
    for (unsigned i = 0; !err && i < a->frames; i++)
        for (unsigned k = 0; !err && k < out->n_key; k++)
            if ((err = vmaf_feature_score_at_index(
                     vmaf, collector_name(out->key[k]), &out->v[i][k], i)))
                fprintf(stderr, "no %s at frame %u\n", out->key[k], i);
    if (fr)
        fclose(fr);
    if (fd)
        fclose(fd);
    for (unsigned i = 0; i < a->n_model; i++)
        if (model[i])
            vmaf_model_destroy(model[i]);
    if (vmaf)
        vmaf_close(vmaf);
    return err ? 1 : 0;
}

static void print_double(double v, const char *sep)
{
    if (isnan(v))
        printf("NAN%s", sep);
    else if (isinf(v))
        printf("%sINFINITY%s", v < 0 ? "-" : "", sep);
    else
        printf("%.17g%s", v, sep);
}

static void print_values(const Args *a, const Values *v)
{
    if (!a->entry) {
        printf("key");
        for (unsigned k = 0; k < v->n_key; k++)
            printf(" %s", v->key[k]);
        printf("\n");
        for (unsigned i = 0; i < a->frames; i++) {
            printf("%u", i);
            for (unsigned k = 0; k < v->n_key; k++) {
                printf(" ");
                print_double(v->v[i][k], "");
            }
            printf("\n");
        }
        return;
    }
    printf("    { %s,\n      {", a->entry);
    for (unsigned k = 0; k < v->n_key; k++)
        printf(" \"%s\",", v->key[k]);
    printf(" NULL },\n      {\n");
    for (unsigned i = 0; i < a->frames; i++) {
        printf("        {");
        for (unsigned k = 0; k < v->n_key; k++) {
            printf(" ");
            print_double(v->v[i][k], k + 1 < v->n_key ? "," : "");
        }
        printf(" },\n");
    }
    printf("      } },\n");
}

static int usage(void)
{
    fprintf(stderr, "usage: libvmaf_values REF DIS W H 420|422|444|400 BPC "
                    "FRAMES [--feature SPEC]... [--model VERSION]...\n"
                    "       [--path c|simd|both] [--key NAME]... "
                    "[--entry TEXT]\n");
    return 2;
}

int main(int argc, char **argv)
{
    static Args a;
    static Values simd, c;
    if (argc < 8)
        return usage();
    a.ref = argv[1];
    a.dis = argv[2];
    a.w = (unsigned)atoi(argv[3]);
    a.h = (unsigned)atoi(argv[4]);
    a.fmt = !strcmp(argv[5], "420") ? VMAF_PIX_FMT_YUV420P
          : !strcmp(argv[5], "422") ? VMAF_PIX_FMT_YUV422P
          : !strcmp(argv[5], "444") ? VMAF_PIX_FMT_YUV444P
          : !strcmp(argv[5], "400") ? VMAF_PIX_FMT_YUV400P
                                    : VMAF_PIX_FMT_UNKNOWN;
    a.bpc = (unsigned)atoi(argv[6]);
    a.frames = (unsigned)atoi(argv[7]);
    const char *path = "simd";
    for (int i = 8; i < argc; i += 2) {
        if (i + 1 == argc)
            return usage();
        if (!strcmp(argv[i], "--feature") && a.n_feature < MAX_ARGS)
            a.feature[a.n_feature++] = argv[i + 1];
        else if (!strcmp(argv[i], "--model") && a.n_model < MAX_ARGS)
            a.model[a.n_model++] = argv[i + 1];
        else if (!strcmp(argv[i], "--key") && a.n_key < MAX_KEYS)
            a.key[a.n_key++] = argv[i + 1];
        else if (!strcmp(argv[i], "--path"))
            path = argv[i + 1];
        else if (!strcmp(argv[i], "--entry"))
            a.entry = argv[i + 1];
        else
            return usage();
    }
    int want_c = !strcmp(path, "c") || !strcmp(path, "both");
    int want_simd = !strcmp(path, "simd") || !strcmp(path, "both");
    if (a.fmt == VMAF_PIX_FMT_UNKNOWN || !a.frames || a.frames > MAX_FRAMES ||
        (!want_c && !want_simd))
        return usage();
    if ((want_simd && run(&a, 0, &simd)) || (want_c && run(&a, ~0ull, &c)))
        return 1;
    if (want_c && want_simd) {
        int same = c.n_key == simd.n_key;
        for (unsigned k = 0; same && k < c.n_key; k++)
            same = !strcmp(c.key[k], simd.key[k]);
        for (unsigned i = 0; same && i < a.frames; i++)
            for (unsigned k = 0; k < c.n_key; k++)
                if (memcmp(&c.v[i][k], &simd.v[i][k], sizeof(double))) {
                    fprintf(stderr, "%s frame %u: C path %.17g, SIMD path "
                            "%.17g\n", c.key[k], i, c.v[i][k], simd.v[i][k]);
                    same = 0;
                }
        if (!same) {
            fprintf(stderr, "libvmaf's C and SIMD paths differ on %s\n",
                    a.ref);
            return 1;
        }
    }
    print_values(&a, want_c ? &c : &simd);
    return 0;
}
