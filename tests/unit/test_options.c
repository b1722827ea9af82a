/* Option tables and spec parsing, including libvmaf's output-name suffixes. */
#include <float.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "options.h"
#include "test.h"

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

/* String options: the default's text until set, an owned copy after, the
 * value itself in output names (libvmaf's "_eotf_pq"), freed by
 * vq_opt_free. */
typedef struct SOpts {
    const char *mode;
    const char *path;
} SOpts;

static const VqOption sopts[] = {
    { .name = "mode", .alias = "md", .offset = offsetof(SOpts, mode),
      .type = VQ_OPT_STRING, .def.s = "bt1886", .flags = VQ_OPT_FEATURE_PARAM },
    { .name = "path", .offset = offsetof(SOpts, path), .type = VQ_OPT_STRING },
    { 0 }
};

static void test_strings(void)
{
    VqErrBuf e;
    SOpts a, b;
    vq_opt_set_defaults(sopts, &a);
    vq_opt_set_defaults(sopts, &b);
    CHECK(!strcmp(a.mode, "bt1886") && a.path == NULL);
    CHECK(vq_opt_is_default(&sopts[0], &a) && vq_opt_is_default(&sopts[1], &a));
    CHECK(vq_opt_equal(&sopts[0], &a, &b) && vq_opt_equal(&sopts[1], &a, &b));
    CHECK(!vq_opt_set(sopts, &a, "t", "md", "pq", &e) && !strcmp(a.mode, "pq"));
    CHECK(!vq_opt_set(sopts, &a, "t", "mode", "bt1886", &e));
    CHECK(vq_opt_is_default(&sopts[0], &a) && vq_opt_equal(&sopts[0], &a, &b));
    CHECK(!vq_opt_set(sopts, &a, "t", "mode", "pq", &e));
    CHECK(!vq_opt_equal(&sopts[0], &a, &b));
    CHECK(!vq_opt_set(sopts, &a, "t", "path", "/tmp/x", &e));
    CHECK(!vq_opt_is_default(&sopts[1], &a) && !vq_opt_equal(&sopts[1], &a, &b));
    char *n = vq_opt_output_name("cambi", sopts, &a);
    CHECK_MSG(n && !strcmp(n, "cambi_md_pq"), "%s", n ? n : "(null)");
    free(n);
    vq_opt_free(sopts, &a);
    CHECK(!strcmp(a.mode, "bt1886") && a.path == NULL);
    vq_opt_free(sopts, &b);
}

int main(void)
{
    test_spec();
    test_set();
    test_output_names();
    test_strings();
    TEST_END();
}
