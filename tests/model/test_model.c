/*
 * Model engine: parsing, specs, names, and every error path. Bad models must
 * give a clear error (the right code and a message naming the problem),
 * never a crash; tests/model/data/bad holds hostile files found by fuzzing.
 *
 * usage: test_model <tests/model/data> <models dir>
 */
#include <dirent.h>
#include <math.h>
#include <string.h>
#include <sys/stat.h>

#include "model/model.h"
#include "model_stub_fex.h"
#include "model_test.h"

/* Two features, two support vectors; every optional part left out. */
static const char base[] =
    "{\"model_dict\": {\"model_type\": \"LIBSVMNUSVR\", "
    "\"norm_type\": \"linear_rescale\", "
    "\"feature_names\": [\"VMAF_integer_feature_adm2_score\", "
    "\"VMAF_integer_feature_motion2_score\"], "
    "\"slopes\": [0.01, 2.0, 0.05], \"intercepts\": [-0.3, -1.0, 0.25], "
    "\"score_clip\": [0.0, 100.0], "
    "\"model\": \"svm_type nu_svr\\nkernel_type rbf\\ngamma 0.5\\n"
    "nr_class 2\\ntotal_sv 2\\nrho 0.5\\nSV\\n"
    "1 1:0.5 2:0.25 \\n-0.5 1:0.75 \\n\"}}";

/* base with the first `from` replaced by `to` (caller frees). */
static char *with(const char *from, const char *to)
{
    const char *at = strstr(base, from);
    if (!at) {
        fprintf(stderr, "test bug: '%s' not in the base model\n", from);
        exit(1);
    }
    size_t n = strlen(base) - strlen(from) + strlen(to) + 1;
    char *s = malloc(n);
    snprintf(s, n, "%.*s%s%s", (int)(at - base), base, to, at + strlen(from));
    return s;
}

static int load(const char *json, const char *spec, VqModel **m, VqErrBuf *e)
{
    vq_err_clear(e);
    return vq_model_load_buffer(m, json, strlen(json), spec, vq_test_stub_find,
                                e);
}

static void expect_error(const char *json, const char *spec, int code,
                         const char *msg_part, const char *label)
{
    VqModel *m = (VqModel *)1;
    VqErrBuf e;
    int err = load(json, spec, &m, &e);
    CHECK_MSG(err == code && m == NULL && strstr(e.msg, msg_part),
          "%s: got %d '%s', want %d with '%s'", label, err, e.msg, code,
          msg_part);
}

typedef struct Bad {
    const char *from, *to;
    const char *msg;
} Bad;

/* Each replaces one part of the base model; all must fail with VQ_EMODEL. */
static const Bad bad_models[] = {
    { "\"LIBSVMNUSVR\"", "\"SVC\"", "model_type 'SVC'" },
    { "\"model_type\"", "\"type\"", "no model_type" },
    { "\"linear_rescale\"", "\"log\"", "norm_type 'log'" },
    { "\"norm_type\"", "\"norm\"", "no norm_type" },
    { "\"feature_names\"", "\"names\"", "no feature_names" },
    { "[\"VMAF_integer_feature_adm2_score\", "
      "\"VMAF_integer_feature_motion2_score\"]", "[]",
      "feature_names has 0 entries" },
    { "[\"VMAF_integer_feature_adm2_score\", ", "[7, ",
      "feature_names[0] is not a name" },
    { "VMAF_integer_feature_adm2_score", "VMAF_feature_foo_score",
      "unknown feature 'VMAF_feature_foo_score'" },
    { "[0.01, 2.0, 0.05]", "[0.01, 2.0]", "slopes has 2 values; 2 features "
      "need 3" },
    { "[-0.3, -1.0, 0.25]", "[-0.3, -1.0, 0.25, 1]", "intercepts has 4" },
    { "\"slopes\"", "\"slope\"", "linear_rescale needs slopes" },
    { "[0.01, 2.0, 0.05]", "[0.01, NaN, 0.05]", "slopes[1] is not finite" },
    { "[0.01, 2.0, 0.05]", "[0.01, 2.0, Infinity]", "slopes[2] is not finite" },
    { "[-0.3, -1.0, 0.25]", "[-0.3, 1e999, 0.25]", "intercepts[1] is not "
      "finite" },
    { "[0.01, 2.0, 0.05]", "[0.01, \"2\", 0.05]", "slopes[1] is not a number" },
    { "[0.01, 2.0, 0.05]", "[0, 2.0, 0.05]", "slopes[0] is 0" },
    { "[0.0, 100.0]", "[0.0]", "score_clip is not [min, max]" },
    { "[0.0, 100.0]", "[100.0, 0.0]", "score_clip [100, 0] is empty" },
    { "[0.0, 100.0]", "[0.0, -Infinity]", "score_clip[1] is not finite" },
    { "\"score_clip\"", "\"score_transform\": [1], \"x\"",
      "score_transform is not an object" },
    { "\"score_clip\"", "\"score_transform\": {\"enabled\": 1}, \"x\"",
      "enabled is not true or false" },
    { "\"score_clip\"", "\"score_transform\": {\"p1\": \"1\"}, \"x\"",
      "score_transform.p1 is not a number" },
    { "\"score_clip\"", "\"score_transform\": {\"out_gte_in\": \"yes\"}, "
      "\"x\"", "out_gte_in is not \"true\" or \"false\"" },
    { "\"score_clip\"", "\"score_transform\": {\"knots\": [[0, 0]]}, \"x\"",
      "knots has 1 points" },
    { "\"score_clip\"", "\"score_transform\": {\"knots\": [[0, 0], [1]]}, "
      "\"x\"", "knots[1] is not [x, y]" },
    { "\"score_clip\"", "\"score_transform\": {\"knots\": [[0, 0], [0, 1]]},"
      " \"x\"", "increasing x" },
    { "\"score_clip\"", "\"score_transform\": {\"knots\": [[0, 1], [1, 0]]},"
      " \"x\"", "non-decreasing y" },
    { "\"score_clip\"", "\"chroma_correction_parameter\": 0, \"x\"",
      "chroma_correction_parameter 0" },
    { "\"score_clip\"", "\"chroma_correction_parameter\": 120, \"x\"",
      "needs a feature named *adm3*" },
    { "\"score_clip\"", "\"feature_opts_dicts\": [{}], \"x\"",
      "feature_opts_dicts has 1 entries for 2 features" },
    { "\"score_clip\"", "\"feature_opts_dicts\": [{}, 3], \"x\"",
      "feature_opts_dicts[1] is not an object" },
    { "\"score_clip\"", "\"feature_opts_dicts\": [{\"a\": [1]}, {}], \"x\"",
      "must be a number, boolean or string" },
    { "\"score_clip\"", "\"feature_opts_dicts\": [{\"a\": \"x:y\"}, {}], "
      "\"x\"", "value 'x:y' cannot be passed on" },
    { "\"score_clip\"", "\"feature_opts_dicts\": [{\"name\": 1}, {}], \"x\"",
      "bad option name 'name'" },
    { "\"model\"", "\"mdl\"", "no libsvm model text" },
    { "nu_svr", "c_svc", "svm_type 'c_svc' is not supported" },
    { "kernel_type rbf", "kernel_type linear", "kernel_type 'linear' is not "
      "supported" },
    { "gamma 0.5\\n", "", "missing gamma" },
    { "rho 0.5\\n", "", "missing rho" },
    { "total_sv 2\\n", "", "missing total_sv" },
    { "nr_class 2\\n", "", "missing nr_class" },
    { "gamma 0.5", "gamma -0.5", "gamma -0.5 < 0" },
    { "gamma 0.5", "gamma nan", "'gamma' needs a finite number" },
    { "gamma 0.5", "gamma inf", "'gamma' needs a finite number" },
    { "gamma 0.5", "gamma 0x1p-1", "'gamma' needs a finite number" },
    { "gamma 0.5", "gamma 0.5 0.25", "more than one value for 'gamma'" },
    { "nr_class 2", "nr_class 3", "nr_class 3" },
    { "nr_class 2", "colour 2", "unknown key 'colour'" },
    { "total_sv 2", "total_sv 0", "total_sv 0 is not a count" },
    { "total_sv 2", "total_sv 2.5", "total_sv 2.5 is not a count" },
    { "total_sv 2", "total_sv 3", "only 2 support vector lines" },
    { "total_sv 2", "total_sv 999999", "only 2 support vector lines" },
    { "total_sv 2", "total_sv 1", "more support vectors than total_sv 1" },
    { "SV\\n1 1:0.5 2:0.25 \\n-0.5 1:0.75 \\n", "", "no 'SV' line" },
    { "SV\\n", "", "unknown key '1'" },
    { "SV\\n", "SV 3\\n", "text after 'SV'" },
    { "1 1:0.5 2:0.25", "1 1:0.5 3:0.25", "feature index 3:0.25 out of range" },
    { "1 1:0.5 2:0.25", "1 0:0.5 2:0.25", "feature index 0:0.5 out of range" },
    { "1 1:0.5 2:0.25", "1 2:0.5 1:0.25", "indices must increase" },
    { "1 1:0.5 2:0.25", "1 1:0.5 1:0.25", "indices must increase" },
    { "1 1:0.5 2:0.25", "1 1:0.5 2:nan", "bad value in '2:nan'" },
    { "1 1:0.5 2:0.25", "1 1:0.5 2:", "bad value in '2:'" },
    { "1 1:0.5 2:0.25", "1 1:0.5 2", "'2' is not <index>:<value>" },
    { "1 1:0.5 2:0.25", "1 1:0.5 x:1", "'x:1' is not <index>:<value>" },
    { "1 1:0.5 2:0.25", "1 1:0.5 99999999999999999999:1", "out of range" },
    { "1 1:0.5 2:0.25", "one 1:0.5", "bad coefficient 'one'" },
    { "1 1:0.5 2:0.25", "1e400 1:0.5", "bad coefficient '1e400'" },
    { "-0.5 1:0.75 \\n", " \\n", "support vector 2 has no coefficient" },
    { "-0.5 1:0.75 \\n", "-0.5 1:0.75\\u0000 \\n", "NUL character" },
};

static void test_bad_models(void)
{
    char label[64];
    for (size_t i = 0; i < sizeof(bad_models) / sizeof(bad_models[0]); i++) {
        char *json = with(bad_models[i].from, bad_models[i].to);
        snprintf(label, sizeof(label), "bad model %zu", i);
        expect_error(json, NULL, VQ_EMODEL, bad_models[i].msg, label);
        free(json);
    }
    /* Broken JSON: each must be refused, whatever the tokenizer says. */
    char trunc[sizeof(base)];
    for (size_t cut = 0; cut + 1 < sizeof(base); cut += 7) {
        memcpy(trunc, base, cut);
        trunc[cut] = '\0';
        snprintf(label, sizeof(label), "truncated at %zu", cut);
        expect_error(trunc, NULL, VQ_EMODEL, "", label);
    }
    VqModel *m = NULL;
    VqErrBuf e;
    CHECK_MSG(!load(base, NULL, &m, &e) && m, "base model: %s", e.msg);
    vq_model_close(&m);
    expect_error("", NULL, VQ_EMODEL, "ends early", "empty");
    expect_error("{\"model_dict\": {", NULL, VQ_EMODEL, "ends early",
                 "truncated");
    expect_error("model", NULL, VQ_EMODEL, "JSON error", "not JSON");
    expect_error("[1]", NULL, VQ_EMODEL, "not a JSON object", "array");
    expect_error("{}", NULL, VQ_EMODEL, "no model_dict", "empty object");
    expect_error("{\"model_dict\": 3}", NULL, VQ_EMODEL, "not an object",
                 "model_dict");
    expect_error("{\"a\": 1} x", NULL, VQ_EMODEL, "", "trailing text");
    expect_error("{\"a\": 1,}", NULL, VQ_EMODEL, "JSON error", "comma");
    char deep[512];
    memset(deep, '[', sizeof(deep) - 1);
    deep[sizeof(deep) - 1] = '\0';
    expect_error(deep, NULL, VQ_EMODEL, "JSON error", "deep nesting");
    expect_error("{\"0\": {}}", NULL, VQ_EMODEL, "without members", "one");
    char *member = with("LIBSVMNUSVR", "BOOTSTRAP_LIBSVMNUSVR");
    size_t n = 3 * strlen(base) + 64;
    char *coll = malloc(n);
    snprintf(coll, n, "{\"0\": %s, \"1\": %s}", base, base);
    expect_error(coll, NULL, VQ_EMODEL, "members are not BOOTSTRAP", "plain");
    snprintf(coll, n, "{\"0\": %s, \"1\": %s, \"2\": %s}", base, member, base);
    expect_error(coll, NULL, VQ_EMODEL, "model \"2\": members of one", "mixed");
    snprintf(coll, n, "{\"0\": %s, \"1\": {\"x\": 1}}", base);
    expect_error(coll, NULL, VQ_EMODEL, "model \"1\": no model_dict", "no md");
    free(member);
    free(coll);
}

static void expect_spec_error(const char *spec, const char *dir, int code,
                              const char *msg_part)
{
    VqModel *m = (VqModel *)1;
    VqErrBuf e;
    vq_err_clear(&e);
    int err = vq_model_open_ex(&m, spec, dir, vq_test_stub_find, &e);
    CHECK_MSG(err == code && m == NULL && strstr(e.msg, msg_part),
          "spec '%s': got %d '%s', want %d with '%s'", spec, err, e.msg, code,
          msg_part);
}

/* Accepted variants: booleans as JSON booleans, empty knots, flags off. */
static void test_variants(void)
{
    static const char *const ok[][2] = {
        { "\"score_clip\"", "\"score_transform\": {\"knots\": [], "
          "\"out_gte_in\": true, \"out_lte_in\": false}, \"score_clip\"" },
        { "\"score_clip\"", "\"score_transform\": {\"p0\": null, "
          "\"knots\": null}, \"score_clip\"" },
        { "linear_rescale", "none" },
        { "\"slopes\": [0.01, 2.0, 0.05], \"intercepts\": [-0.3, -1.0, 0.25], ",
          "\"norm_type\": \"none\", " },
    };
    for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
        char *json = with(ok[i][0], ok[i][1]);
        VqModel *m = NULL;
        VqErrBuf e;
        int err = load(json, "disable_clip=false:enable_transform=0", &m, &e);
        CHECK_MSG(!err && m, "variant %zu: %s", i, e.msg);
        vq_model_close(&m);
        free(json);
    }
    char opts[4096] = "\"feature_opts_dicts\": [{";
    for (int i = 0; i < 33; i++)
        snprintf(opts + strlen(opts), sizeof(opts) - strlen(opts),
                 "%s\"o%d\": %d", i ? ", " : "", i, i);
    strcat(opts, "}, {}], \"score_clip\"");
    char *json = with("\"score_clip\"", opts);
    expect_error(json, NULL, VQ_EMODEL, "more than 32 options", "33 options");
    free(json);
    expect_error(base, "=x", VQ_EINVAL, "empty key", "empty spec key");
    char spec[1024] = "name=x";
    for (int i = 0; i < 17; i++)
        snprintf(spec + strlen(spec), sizeof(spec) - strlen(spec),
                 ":adm.o%d=1", i);
    expect_error(base, spec, VQ_EINVAL, "more than 16 feature overloads",
                 "17 overloads");
    expect_error(base, "version=x", VQ_EINVAL, "no version= or path= here",
                 "buffer with version");
    expect_error(base, "adm.=1", VQ_EINVAL, "unknown model option 'adm.'",
                 "overload without option");
}

static void test_specs(const char *data_dir)
{
    expect_spec_error("name=x", data_dir, VQ_EINVAL, "needs one of version=");
    expect_spec_error("version=a:path=b", data_dir, VQ_EINVAL,
                      "needs one of version=");
    expect_spec_error("version=a:version=b", data_dir, VQ_EINVAL,
                      "'version' given twice");
    expect_spec_error("version=../x", data_dir, VQ_EINVAL, "not a path");
    expect_spec_error("version=a/b", data_dir, VQ_EINVAL, "not a path");
    expect_spec_error("version=a:colour=red", data_dir, VQ_EINVAL,
                      "unknown model option 'colour'");
    expect_spec_error("version=a:disable_clip=maybe", data_dir, VQ_EINVAL,
                      "not true or false");
    expect_spec_error("version=a:name=", data_dir, VQ_EINVAL, "needs a value");
    expect_spec_error("vmaf_v9", data_dir, VQ_ENOTFOUND,
                      "no model version 'vmaf_v9'");
    expect_spec_error("vmaf_v9", data_dir, VQ_ENOTFOUND, "model_knots");
    expect_spec_error("path=/nonexistent/m.json", data_dir, VQ_ENOTFOUND,
                      "cannot open model file /nonexistent/m.json");
    expect_spec_error("path=/", data_dir, VQ_EIO, "not a regular file");
    char spec[1024];
    snprintf(spec, sizeof(spec), "path=%s/model_knots.json:vif.x=1",
             data_dir);
    expect_spec_error(spec, data_dir, VQ_EINVAL, "computed by 'vif'");
    snprintf(spec, sizeof(spec), "path=%s/model_knots.json:adm.adm_foo=1",
             data_dir);
    expect_spec_error(spec, data_dir, VQ_EMODEL, "adm has no option 'adm_foo'");
    snprintf(spec, sizeof(spec), "path=%s/model_knots.json:adm.adm_enhn_gain"
             "_limit=0.5", data_dir);
    expect_spec_error(spec, data_dir, VQ_EMODEL, "not a number in [1, 100]");
    /* A bare first word is a version; models load from model_dir. */
    VqModel *m;
    VqErrBuf e;
    int err = vq_model_open_ex(&m, "model_knots:name=k", data_dir,
                               vq_test_stub_find, &e);
    CHECK_MSG(!err && !strcmp(vq_model_name(m), "k"), "bare version: %s", e.msg);
    vq_model_close(&m);
    vq_model_close(&m); /* a second close is a no-op */
}

static void expect_input(VqModel *m, unsigned i, const char *spec,
                         const char *output)
{
    const char *s = "", *o = "";
    int err = vq_model_input(m, i, &s, &o);
    CHECK_MSG(!err && !strcmp(s, spec) && !strcmp(o, output),
          "input %u: '%s' -> '%s', want '%s' -> '%s'", i, s, o, spec, output);
}

/* libvmaf keeps option numbers as "%g" of their float value: the spec and
 * the output name must follow. */
static void test_names(void)
{
    VqModel *m;
    VqErrBuf e;
    char *json = with("\"score_clip\"", "\"feature_opts_dicts\": "
                      "[{\"adm_enhn_gain_limit\": 1.0, "
                      "\"adm_dlm_weight\": 0.123456789, \"debug\": false, "
                      "\"adm_ref_display_height\": 1080}, "
                      "{\"motion_max_val\": 18}], \"score_clip\"");
    int err = load(json, "name=mine", &m, &e);
    CHECK_MSG(!err, "opts: %s", e.msg);
    if (!err) {
        CHECK_MSG(vq_model_input_count(m) == 2, "inputs %u",
              vq_model_input_count(m));
        expect_input(m, 0, "name=adm:adm_enhn_gain_limit=1:adm_dlm_weight="
                     "0.123457:debug=false:adm_ref_display_height=1080",
                     "integer_adm2_dlmw_0.123457_egl_1");
        expect_input(m, 1, "name=motion:motion_max_val=18",
                     "integer_motion2_mmxv_18");
        const char *s, *o;
        CHECK_MSG(vq_model_input(m, 2, &s, &o) == VQ_EINVAL && !*s && !*o,
              "input out of range");
        CHECK_MSG(vq_model_output_count(m) == 1 &&
              !strcmp(vq_model_output_name(m, 0), "mine") &&
              !vq_model_output_name(m, 1), "outputs");
    }
    vq_model_close(&m);
    /* Overloads replace options, numbers normalized the same way. */
    err = load(json, "adm.adm_enhn_gain_limit=1.50:adm.debug=true", &m, &e);
    CHECK_MSG(!err, "overload: %s", e.msg);
    if (!err) {
        expect_input(m, 0, "name=adm:adm_enhn_gain_limit=1.5:adm_dlm_weight="
                     "0.123457:debug=true:adm_ref_display_height=1080",
                     "integer_adm2_dlmw_0.123457_egl_1.5");
        CHECK_MSG(!strcmp(vq_model_name(m), "vmaf"), "default name");
    }
    vq_model_close(&m);
    free(json);

    /* Features sharing one output are read once. */
    json = with("\"VMAF_integer_feature_motion2_score\"",
                "\"VMAF_integer_feature_adm2_score\"");
    err = load(json, NULL, &m, &e);
    CHECK_MSG(!err && vq_model_input_count(m) == 1, "shared input: %s", e.msg);
    vq_model_close(&m);
    free(json);
}

static const VqFexDesc *no_float_vif(const char *name)
{
    return strcmp(name, "float_vif") ? vq_test_stub_find(name) : NULL;
}

/* An adm that writes no integer_adm2 (as a build's extractor might). */
static const char *const no_outputs[] = { "integer_aim", NULL };
static const VqFexDesc adm_without_adm2 = { .name = "adm",
                                            .outputs = no_outputs };
static const VqFexDesc *short_adm(const char *name)
{
    return strcmp(name, "adm") ? vq_test_stub_find(name) : &adm_without_adm2;
}

static void test_missing_extractor(const char *models_dir)
{
    VqModel *m0 = NULL;
    VqErrBuf e0;
    int err0 = vq_model_load_buffer(&m0, base, strlen(base), NULL, short_adm,
                                    &e0);
    CHECK_MSG(err0 == VQ_EUNSUPPORTED && !m0 &&
          strstr(e0.msg, "needs integer_adm2 (VMAF_integer_feature_adm2_score)"
                 " from extractor adm, which does not provide it"), "%s",
          e0.msg);

    char *json = with("\"VMAF_integer_feature_motion2_score\"",
                      "\"VMAF_feature_vif_scale0_score\"");
    VqModel *m = NULL;
    VqErrBuf e;
    int err = vq_model_load_buffer(&m, json, strlen(json), NULL, no_float_vif,
                                   &e);
    CHECK_MSG(err == VQ_EUNSUPPORTED && !m &&
          strstr(e.msg, "needs feature float_vif (VMAF_feature_vif_scale0"
                 "_score), which this build does not have yet"), "%s", e.msg);
    free(json);
    /* The real registry: refused exactly when the build lacks float_vif. */
    struct stat st;
    CHECK_MSG(!stat(models_dir, &st), "no models at %s", models_dir);
    err = vq_model_open(&m, "version=vmaf_float_v0.6.1", models_dir, &e);
    if (vq_fex_find("float_adm") && vq_fex_find("float_vif") &&
        vq_fex_find("float_motion"))
        CHECK_MSG(!err, "vmaf_float_v0.6.1: %s", e.msg);
    else
        CHECK_MSG(err == VQ_EUNSUPPORTED &&
              strstr(e.msg, "which this build does not have yet"), "%s",
              e.msg);
    vq_model_close(&m);
}

/* The base model worked by hand (the exact comparison with libvmaf is
 * test_model_ref). */
static void test_predict(void)
{
    VqModel *m;
    VqErrBuf e;
    int err = load(base, "name=s", &m, &e);
    CHECK_MSG(!err, "%s", e.msg);
    if (err)
        return;
    VqCollector c = { 0 };
    err = vq_model_predict(m, &c, 0, "cpu", &e);
    CHECK_MSG(err == VQ_EINVAL && strstr(e.msg, "no value of integer_adm2"),
          "missing input: %d %s", err, e.msg);
    vq_collector_set(&c, vq_collector_series(&c, "integer_adm2", "cpu"), 0,
                     0.9);
    vq_collector_set(&c, vq_collector_series(&c, "integer_motion2", "cpu"), 0,
                     4.0);
    err = vq_model_predict(m, &c, 0, "hip", &e);
    CHECK_MSG(!err, "%s", e.msg);
    const double x0 = 2.0 * 0.9 - 1.0, x1 = 0.05 * 4.0 + 0.25;
    const double k0 = exp(-0.5 * ((x0 - 0.5) * (x0 - 0.5) +
                                  (x1 - 0.25) * (x1 - 0.25)));
    const double k1 = exp(-0.5 * ((x0 - 0.75) * (x0 - 0.75) + x1 * x1));
    const double want = ((1 * k0 + -0.5 * k1 - 0.5) + 0.3) / 0.01;
    double v = 0;
    int id = vq_collector_find(&c, "s");
    CHECK_MSG(vq_collector_get(&c, id, 0, &v) && fabs(v - want) < 1e-9 && want > 1,
          "prediction %.17g, want %.17g", v, want);
    CHECK_MSG(id >= 0 && !strcmp(c.series[id].backend, "hip"), "backend");
    err = vq_model_predict(m, &c, 1, "cpu", &e);
    CHECK_MSG(err == VQ_EINVAL && strstr(e.msg, "for frame 1"), "frame 1: %s",
          e.msg);
    vq_collector_free(&c);
    vq_model_close(&m);
    CHECK_MSG(vq_model_predict(NULL, &c, 0, "cpu", &e) == VQ_EINVAL, "no model");
    CHECK_MSG(vq_model_input_count(NULL) == 0 && !*vq_model_name(NULL) &&
          vq_model_output_count(NULL) == 0, "NULL model accessors");
}

static void test_bootstrap_names(const char *data_dir)
{
    VqModel *m;
    VqErrBuf e;
    char spec[1024];
    snprintf(spec, sizeof(spec), "path=%s/model_boot_small.json:name=b",
             data_dir);
    int err = vq_model_open_ex(&m, spec, NULL, vq_test_stub_find, &e);
    CHECK_MSG(!err, "%s", e.msg);
    static const char *const names[] = {
        "b", "b_0001", "b_0002", "b_0003", "b_bagging", "b_stddev",
        "b_ci_p95_lo", "b_ci_p95_hi"
    };
    CHECK_MSG(vq_model_output_count(m) == 8, "%u outputs",
          vq_model_output_count(m));
    for (unsigned k = 0; !err && k < 8; k++)
        CHECK_MSG(!strcmp(vq_model_output_name(m, k), names[k]), "output %u: %s",
              k, vq_model_output_name(m, k));
    vq_model_close(&m);
}

/* Hostile files kept from fuzzing: each must fail cleanly, with the spec
 * the fuzz target used for it (picked by the size, tests/fuzz). */
static void test_hostile_files(const char *data_dir)
{
    static const char *const specs[4] = {
        NULL, "disable_clip", "enable_transform:name=f", "adm.adm_csf_mode=2"
    };
    char dir[1024];
    snprintf(dir, sizeof(dir), "%s/bad", data_dir);
    DIR *d = opendir(dir);
    unsigned n = 0;
    for (struct dirent *de; d && (de = readdir(d));) {
        if (de->d_name[0] == '.')
            continue;
        char path[2048];
        snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
        size_t len;
        char *data = vq_test_read_file(path, &len);
        VqModel *m = NULL;
        VqErrBuf e;
        vq_err_clear(&e);
        int err = data ? vq_model_load_buffer(&m, data, len, specs[len & 3],
                                              vq_test_stub_find, &e) : 1;
        bool printable = true;
        for (const char *c = e.msg; *c; c++)
            printable &= (unsigned char)*c >= 0x20 && *c != 0x7f;
        CHECK_MSG(err < 0 && !m && e.msg[0] && printable, "%s: %d '%s'",
              de->d_name, err, e.msg);
        vq_model_close(&m);
        free(data);
        n++;
    }
    if (d)
        closedir(d);
    CHECK_MSG(n > 0, "no hostile files in %s", dir);
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: %s <data dir> <models dir>\n", argv[0]);
        return 2;
    }
    test_bad_models();
    test_variants();
    test_specs(argv[1]);
    test_names();
    test_missing_extractor(argv[2]);
    test_predict();
    test_bootstrap_names(argv[1]);
    test_hostile_files(argv[1]);
    printf("%d failures\n", n_fail);
    return n_fail ? 1 : 0;
}
