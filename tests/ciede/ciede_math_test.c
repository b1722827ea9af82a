/*
 * ciede's own elementary functions (kernels/ciede/ciede_math.h) against
 * glibc over the ranges ciede uses: the largest error in units in the last
 * place of a double, and how often the value rounded to float differs from
 * glibc's rounded to float (what ciede keeps of most of them). Then the
 * exact sum of ciede's record against sums whose rounding is known.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../kernels/ciede/ciede.h"
#include "../common/unit_check.h"

static uint64_t rng_state = 0x2545F4914F6CDD1DULL;
static double uniform(void)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return (double)((rng_state * 0x2545F4914F6CDD1DULL) >> 11) *
           (1.0 / 9007199254740992.0);
}

static double ulps(double got, double want)
{
    if (got == want)
        return 0;
    double u = nextafter(fabs(want), INFINITY) - fabs(want);
    return fabs(got - want) / u;
}

typedef double (*Fn1)(double);
typedef struct Range {
    const char *name;
    double lo, hi;
    double max_ulps; /* the test's limit */
    int absolute;    /* error in units of 2^-52 (log: pow needs that) */
} Range;

static double ours_pow24(double x) { return vq_ciede_pow(x, 2.4); }
static double libm_pow24(double x) { return pow(x, 2.4); }
static double ours_cbrt(double x) { return vq_ciede_pow(x, 1.0 / 3.0); }
static double libm_cbrt(double x) { return pow(x, 1.0 / 3.0); }
static double ours_atan2(double x) { return vq_ciede_atan2(sin(x * 7) * 90, cos(x * 3) * 80); }
static double libm_atan2(double x) { return atan2(sin(x * 7) * 90, cos(x * 3) * 80); }
static double ours_pow7(double x) { return vq_ciede_pow7((float)x); }
static double libm_pow7(double x) { return pow((float)x, 7); }

static void check_fn(const Range *r, Fn1 ours, Fn1 libm)
{
    double worst = 0;
    unsigned long n = 2000000, float_diff = 0;
    for (unsigned long i = 0; i < n; i++) {
        double x = r->lo + (r->hi - r->lo) * uniform();
        double a = ours(x), b = libm(x);
        double u = r->absolute ? fabs(a - b) * 0x1p52 : ulps(a, b);
        if (u > worst)
            worst = u;
        float_diff += (float)a != (float)b;
    }
    printf("  %-12s [%g, %g]: max %.2f %s, float roundings differ %lu in "
           "%lu\n", r->name, r->lo, r->hi, worst,
           r->absolute ? "x 2^-52 absolute" : "ulp", float_diff, n);
    CHECK_MSG(worst <= r->max_ulps, "%s: %.2f ulp", r->name, worst);
    CHECK_MSG(float_diff * 100000 < n, "%s: %lu float differences", r->name,
              float_diff);
}

static void add(VqCiedeAcc *a, float v)
{
    uint32_t sig;
    unsigned e = vq_ciede_bin(v, &sig);
    if (e < 255)
        a->bin[e] += sig;
}

/* The record's exact sum, rounded once: against long double sums that are
 * exact (64-bit significand), and against constructed ties. */
static void check_exact_sum(void)
{
    for (int round = 0; round < 200; round++) {
        VqCiedeAcc a;
        memset(&a, 0, sizeof(a));
        long double exact = 0;
        int lo = round % 2 ? -10 : -30; /* exponent range of the values */
        for (int i = 0; i < 5000; i++) {
            float v = (float)ldexp(uniform(), lo + (int)(uniform() * 20));
            add(&a, v);
            exact += v; /* needs at most 20 + 24 + 13 < 64 bits: exact */
        }
        double got = vq_ciede_exact_sum(&a), want = (double)exact;
        CHECK_MSG(got == want, "exact sum %a, want %a", got, want);
    }
    /* 2^53 + 1 and 2^53 + 3: halfway cases, to even */
    static const float parts[][3] = { { 0x1p53f, 1.0f, 0 }, { 0x1p53f, 2.0f, 1.0f },
                                      { 0x1p60f, 0x1p7f, 0 }, { 0x1p60f, 0x1p7f, 0x1p-100f },
                                      { 0x1p-140f, 0x1p-149f, 0 } };
    static const double want[] = { 0x1p53, 0x1p53 + 4, 0x1p60, 0x1p60 + 256,
                                   0x1p-140 + 0x1p-149 };
    for (unsigned i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
        VqCiedeAcc a;
        memset(&a, 0, sizeof(a));
        for (int k = 0; k < 3; k++)
            add(&a, parts[i][k]);
        double got = vq_ciede_exact_sum(&a);
        CHECK_MSG(got == want[i], "case %u: %a, want %a", i, got, want[i]);
    }
    VqCiedeAcc z;
    memset(&z, 0, sizeof(z));
    CHECK(vq_ciede_exact_sum(&z) == 0.0);
}

int main(void)
{
    check_exact_sum();
    /* Limits: what these implementations reach (pow as exp(y log x) in
     * double loses about |y log x| ulp), with a little room. */
    const Range exp_r = { "exp", -120, 3, 2, 0 };
    const Range log_r = { "log", 0.004, 12, 4, 1 };
    const Range pow24_r = { "pow(x, 2.4)", 0.086, 2.3, 16, 0 };
    const Range cbrt_r = { "pow(x, 1/3)", 0.0088, 6, 6, 0 };
    const Range sin_r = { "sin", -40, 40, 2, 0 };
    const Range cos_r = { "cos", -40, 40, 2, 0 };
    const Range atan_r = { "atan2", -10, 10, 4, 0 };
    const Range pow7_r = { "pow(c, 7)", 0, 200, 2, 0 };
    check_fn(&exp_r, vq_ciede_exp, exp);
    check_fn(&log_r, vq_ciede_log, log);
    check_fn(&pow24_r, ours_pow24, libm_pow24);
    check_fn(&cbrt_r, ours_cbrt, libm_cbrt);
    check_fn(&sin_r, vq_ciede_sin, sin);
    check_fn(&cos_r, vq_ciede_cos, cos);
    check_fn(&atan_r, ours_atan2, libm_atan2);
    check_fn(&pow7_r, ours_pow7, libm_pow7);
    /* atan2's signed zeros and axes, as C's */
    static const double zs[][2] = { { 0.0, 1.0 }, { -0.0, 1.0 }, { 0.0, -1.0 },
                                    { -0.0, -1.0 }, { 1.0, 0.0 }, { -1.0, 0.0 },
                                    { 0.0, 0.0 }, { 0.0, -0.0 }, { -0.0, -0.0 } };
    for (unsigned i = 0; i < sizeof(zs) / sizeof(zs[0]); i++) {
        double a = vq_ciede_atan2(zs[i][0], zs[i][1]), b = atan2(zs[i][0], zs[i][1]);
        CHECK_MSG(!memcmp(&a, &b, sizeof(a)), "atan2(%g, %g): %a, libm %a",
                  zs[i][0], zs[i][1], a, b);
    }
    TEST_END();
}
