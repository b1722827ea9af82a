/* Option tables and spec parsing, including libvmaf's output-name suffixes. */
#include <float.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "options.h"
#include "../common/unit_check.h"

typedef struct Opts {
    bool flag;
    int count;
    double gain, plain;
} Opts;

static const VqOption opts[] = {
    { .name = "zeta_flag", .alias = "zf", .offset = offsetof(Opts, flag),
      .type = VQ_OPT_BOOL, .def.b = false, .flags = VQ_OPT_FEATURE_PARAM },
    { .name = "count", .offset = offsetof(Opts, count), .type = VQ_OPT_INT,
      .def.i = 3, .min = 0, .max = 10, .flags = VQ_OPT_FEATURE_PARAM },
    { .name = "alpha_gain", .alias = "ag", .offset = offsetof(Opts, gain),
      .type = VQ_OPT_DOUBLE, .def.d = 100.0, .min = 1.0, .max = DBL_MAX,
      .flags = VQ_OPT_FEATURE_PARAM },
    { .name = "plain", .offset = offsetof(Opts, plain), .type = VQ_OPT_DOUBLE,
      .def.d = 0.5, .min = 0, .max = 1 },
    { 0 }
};

static void test_spec(void)
{
    VqErrBuf e;
    VqSpec s;
    CHECK(!vq_spec_parse(&s, "psnr", &e));
    CHECK(s.n == 1 && !strcmp(vq_spec_get(&s, "name"), "psnr"));
    vq_spec_free(&s);
    CHECK(!vq_spec_parse(&s, "name=adm:adm_enhn_gain_limit=1.0:debug=true", &e));
    CHECK(s.n == 3 && !strcmp(vq_spec_get(&s, "adm_enhn_gain_limit"), "1.0"));
    CHECK(vq_spec_get(&s, "missing") == NULL);
    vq_spec_free(&s);
    CHECK(vq_spec_parse(&s, "", &e) == VQ_EINVAL);
    CHECK(vq_spec_parse(&s, "name=a:name=b", &e) == VQ_EINVAL);
    CHECK(strstr(e.msg, "twice") != NULL);
    CHECK(vq_spec_parse(&s, "name=a:junk", &e) == VQ_EINVAL);
    CHECK(vq_spec_parse(&s, "name=a:=3", &e) == VQ_EINVAL);
}

static void test_set(void)
{
    VqErrBuf e;
    Opts o;
    vq_opt_set_defaults(opts, &o);
    CHECK(!o.flag && o.count == 3 && o.gain == 100.0 && o.plain == 0.5);
    CHECK(!vq_opt_set(opts, &o, "t", "zeta_flag", "true", &e) && o.flag);
    CHECK(!vq_opt_set(opts, &o, "t", "zf", "0", &e) && !o.flag);
    CHECK(vq_opt_set(opts, &o, "t", "zeta_flag", "maybe", &e) == VQ_EINVAL);
    CHECK(vq_opt_set(opts, &o, "t", "count", "11", &e) == VQ_EINVAL);
    CHECK(vq_opt_set(opts, &o, "t", "count", "2x", &e) == VQ_EINVAL);
    CHECK(!vq_opt_set(opts, &o, "t", "count", "7", &e) && o.count == 7);
    CHECK(vq_opt_set(opts, &o, "t", "alpha_gain", "nan", &e) == VQ_EINVAL);
    CHECK(vq_opt_set(opts, &o, "t", "alpha_gain", "0.5", &e) == VQ_EINVAL);
    CHECK(vq_opt_set(opts, &o, "t", "nope", "1", &e) == VQ_ENOTFOUND);
    CHECK_MSG(strstr(e.msg, "zeta_flag, count, alpha_gain, plain") != NULL,
              "%s", e.msg);
}

/* libvmaf's rule: non-default FEATURE_PARAM options, sorted by option name,
 * appended as _alias (bools) or _alias_%g. */
static void test_output_names(void)
{
    VqErrBuf e;
    Opts o;
    vq_opt_set_defaults(opts, &o);
    char *n = vq_opt_output_name("feat", opts, &o);
    CHECK(n && !strcmp(n, "feat"));
    free(n);
    vq_opt_set(opts, &o, "t", "alpha_gain", "1.0", &e);
    vq_opt_set(opts, &o, "t", "zeta_flag", "true", &e);
    vq_opt_set(opts, &o, "t", "count", "4", &e);
    vq_opt_set(opts, &o, "t", "plain", "0.25", &e);
    n = vq_opt_output_name("feat", opts, &o);
    CHECK_MSG(n && !strcmp(n, "feat_ag_1_count_4_zf"), "%s", n ? n : "(null)");
    free(n);
    vq_opt_set(opts, &o, "t", "alpha_gain", "0.000123456789e4", &e);
    n = vq_opt_output_name("feat", opts, &o);
    CHECK_MSG(n && !strcmp(n, "feat_ag_1.23457_count_4_zf"), "%s",
              n ? n : "(null)");
    free(n);
}

/* String options (libvmaf's VMAF_OPT_TYPE_STRING, e.g. speed_prescale_method):
 * kept zero padded inside the struct, checked against their choices, and
 * suffixed as _alias_value when not at their default. */
typedef struct StrOpts {
    double scale;
    char method[VQ_OPT_STRING_SIZE];
    char free_text[VQ_OPT_STRING_SIZE];
} StrOpts;

static const char *const method_choices[] = { "nearest", "bilinear", NULL };
static const VqOption str_opts[] = {
    { .name = "speed_prescale", .alias = "ps",
      .offset = offsetof(StrOpts, scale), .type = VQ_OPT_DOUBLE, .def.d = 1.0,
      .min = 0.1, .max = 4.0, .flags = VQ_OPT_FEATURE_PARAM },
    { .name = "speed_prescale_method", .alias = "psm",
      .offset = offsetof(StrOpts, method), .type = VQ_OPT_STRING,
      .def.s = "nearest", .choices = method_choices,
      .flags = VQ_OPT_FEATURE_PARAM },
    { .name = "label", .offset = offsetof(StrOpts, free_text),
      .type = VQ_OPT_STRING, .def.s = "" },
    { 0 }
};

static void test_strings(void)
{
    VqErrBuf e;
    StrOpts a, b;
    memset(&a, 0x55, sizeof(a));
    memset(&b, 0xaa, sizeof(b));
    vq_opt_set_defaults(str_opts, &a);
    vq_opt_set_defaults(str_opts, &b);
    CHECK(!strcmp(a.method, "nearest") && !a.free_text[0]);
    CHECK(vq_opt_size(&str_opts[1]) == VQ_OPT_STRING_SIZE);
    CHECK(!memcmp(a.method, b.method, sizeof(a.method)));
    CHECK(vq_opt_is_default(&str_opts[1], &a));
    CHECK(vq_opt_set(str_opts, &a, "t", "psm", "cubic", &e) == VQ_EINVAL);
    CHECK_MSG(strstr(e.msg, "nearest, bilinear") != NULL, "%s", e.msg);
    CHECK(!strcmp(a.method, "nearest"));
    CHECK(!vq_opt_set(str_opts, &a, "t", "speed_prescale_method", "bilinear",
                      &e));
    CHECK(!vq_opt_is_default(&str_opts[1], &a));
    CHECK(!vq_opt_set(str_opts, &b, "t", "psm", "bilinear", &e));
    CHECK(!memcmp(a.method, b.method, sizeof(a.method)));
    char *n = vq_opt_output_name("speed_chroma_uv", str_opts, &a);
    CHECK_MSG(n && !strcmp(n, "speed_chroma_uv_psm_bilinear"), "%s",
              n ? n : "(null)");
    free(n);
    CHECK(!vq_opt_set(str_opts, &a, "t", "ps", "0.5", &e));
    n = vq_opt_output_name("speed_chroma_uv", str_opts, &a);
    CHECK_MSG(n && !strcmp(n, "speed_chroma_uv_ps_0.5_psm_bilinear"), "%s",
              n ? n : "(null)");
    free(n);
    /* free text: any value that fits, not a feature parameter */
    char longv[VQ_OPT_STRING_SIZE + 1];
    memset(longv, 'x', sizeof(longv) - 1);
    longv[sizeof(longv) - 1] = '\0';
    CHECK(vq_opt_set(str_opts, &a, "t", "label", longv, &e) == VQ_EINVAL);
    CHECK(vq_opt_set(str_opts, &a, "t", "label", "", &e) == VQ_EINVAL);
    longv[VQ_OPT_STRING_SIZE - 1] = '\0';
    CHECK(!vq_opt_set(str_opts, &a, "t", "label", longv, &e));
    CHECK(strlen(a.free_text) == VQ_OPT_STRING_SIZE - 1);
    n = vq_opt_output_name("f", str_opts, &a);
    CHECK_MSG(n && !strcmp(n, "f_ps_0.5_psm_bilinear"), "%s", n ? n : "(null)");
    free(n);
}

/* Enum options: one of their names, stored as the index; the output name
 * carries the name (libvmaf's string options, e.g. vif_prescale_method). */
typedef struct EnumOpts {
    int method;
} EnumOpts;

static const char *const methods[] = { "nearest", "bilinear", "bicubic",
                                       NULL };
static const VqOption enum_opts[] = {
    { .name = "scale_method", .alias = "pm",
      .offset = offsetof(EnumOpts, method), .type = VQ_OPT_ENUM,
      .def.i = 0, .choices = methods, .flags = VQ_OPT_FEATURE_PARAM },
    { 0 }
};

static void test_enum(void)
{
    VqErrBuf e;
    EnumOpts o;
    vq_opt_set_defaults(enum_opts, &o);
    CHECK(o.method == 0 && vq_opt_is_default(&enum_opts[0], &o));
    char *n = vq_opt_output_name("vif_scale0", enum_opts, &o);
    CHECK(n && !strcmp(n, "vif_scale0"));
    free(n);
    CHECK(!vq_opt_set(enum_opts, &o, "t", "pm", "bicubic", &e) &&
          o.method == 2);
    CHECK(!vq_opt_is_default(&enum_opts[0], &o));
    n = vq_opt_output_name("vif_scale0", enum_opts, &o);
    CHECK_MSG(n && !strcmp(n, "vif_scale0_pm_bicubic"), "%s",
              n ? n : "(null)");
    free(n);
    CHECK(vq_opt_set(enum_opts, &o, "t", "scale_method", "lanczos", &e) ==
          VQ_EINVAL);
    CHECK_MSG(strstr(e.msg, "nearest, bilinear, bicubic") != NULL, "%s",
              e.msg);
    CHECK(o.method == 2);
}

int main(void)
{
    test_spec();
    test_set();
    test_output_names();
    test_strings();
    test_enum();
    TEST_END();
}
