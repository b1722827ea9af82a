/*
 * SpEED's own elementary functions (kernels/speed/speed_math.h), which the
 * CPU path and the kernels share:
 *   - vq_speed_log2 against glibc's log2 (what libvmaf calls): within one
 *     ulp everywhere, equal on all but a small fraction of inputs, and equal
 *     after the rounding to float every caller applies;
 *   - vq_speed_sqrt_exact (the AMD kernels' square root) against the CPU's
 *     IEEE sqrt, bit for bit, also from wrong starting estimates;
 *   - the folded constant log2(2 pi e).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/unit_check.h"
#include "speed/speed_math.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif
#ifndef M_E
#define M_E 2.7182818284590452354
#endif


static uint64_t rng_state = 0x243f6a8885a308d3ULL;
static uint64_t rng(void)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 0x2545F4914F6CDD1DULL;
}

static double ulp_diff(double a, double b)
{
    if (a == b)
        return 0;
    int64_t ia = (int64_t)vq_speed_bits(a), ib = (int64_t)vq_speed_bits(b);
    if ((ia < 0) != (ib < 0))
        return fabs(a - b) / ldexp(1.0, -1074);
    return (double)llabs(ia - ib);
}

typedef struct LogStats {
    unsigned long n, differ, float_differ;
    double worst;
} LogStats;

/* One input: ulp distance to glibc, and the float libvmaf's entropy update
 * makes from it (e + (log2(x) + log2(2 pi e)), rounded to float). */
static void log2_one(LogStats *st, double x, float e)
{
    const double ours = vq_speed_log2(x), ref = log2(x);
    const double d = ulp_diff(ours, ref);
    st->n++;
    if (d > 0)
        st->differ++;
    if (d > st->worst)
        st->worst = d;
    const float fo = (float)((double)e + (ours + VQ_SPEED_LOG2_2PIE));
    const float fr = (float)((double)e + (ref + VQ_SPEED_LOG2_2PIE));
    if (memcmp(&fo, &fr, sizeof(fo)))
        st->float_differ++;
}

static void test_log2(void)
{
    LogStats st = { 0 };
    /* the inputs SpEED gives it: floats of every magnitude, 1 + small,
     * and doubles (speed_weight_var_mode 3 to 6) */
    for (int i = 0; i < 2000000; i++) {
        uint32_t b = (uint32_t)rng() & 0x7fffffffu;
        float f;
        memcpy(&f, &b, sizeof(f));
        if (!isfinite(f) || f == 0.0f)
            continue;
        log2_one(&st, f, (float)((int)(rng() % 400) - 100) * 0.37f);
    }
    for (int i = 0; i < 1000000; i++) {
        const double x = 1.0 + ldexp((double)(rng() >> 11), -53 - (int)(rng() % 30)) *
                                   (rng() & 1 ? 1 : -1);
        log2_one(&st, x, 0.0f);
    }
    for (int i = 0; i < 2000000; i++) {
        uint64_t b = rng() & 0x7fffffffffffffffULL;
        const double x = vq_speed_from_bits(b);
        if (!isfinite(x) || x == 0.0)
            continue;
        log2_one(&st, x, 3.25f);
    }
    printf("log2: %lu inputs, %lu differ from glibc by one ulp (%.3f%%), "
           "worst %.0f ulp, %lu differ after rounding to float\n", st.n,
           st.differ, 100.0 * st.differ / st.n, st.worst, st.float_differ);
    CHECK_MSG(st.worst <= 1, "log2 differs from glibc by %.0f ulp", st.worst);
    CHECK_MSG(st.differ * 100 < st.n, "log2 differs from glibc too often");
    CHECK_MSG(st.float_differ == 0, "log2 changes %lu float results",
          st.float_differ);
    for (int e = -1074; e <= 1023; e++)
        CHECK_MSG(vq_speed_log2(ldexp(1.0, e)) == (double)e, "log2(2^%d)", e);
    CHECK_MSG(vq_speed_log2(1.0) == 0.0, "log2(1)");
    CHECK_MSG(vq_speed_log2(0.0) == -INFINITY && vq_speed_log2(-0.0) == -INFINITY,
          "log2(0)");
    CHECK_MSG(isnan(vq_speed_log2(-1.0)) && isnan(vq_speed_log2(NAN)), "log2(<0)");
    CHECK_MSG(vq_speed_log2(INFINITY) == INFINITY, "log2(inf)");
    volatile double two_pi_e = 2 * M_PI * M_E;
    CHECK_MSG(VQ_SPEED_LOG2_2PIE == log2(two_pi_e), "log2(2 pi e) constant");
    CHECK_MSG(VQ_SPEED_LOG2_2PIE == log2(2 * M_PI * M_E), "log2(2 pi e) folded");
}

static void sqrt_one(double x, int seed_error)
{
    const double a = vq_speed_sqrt_exact_seeded(x, seed_error), b = sqrt(x);
    CHECK_MSG(!memcmp(&a, &b, sizeof(a)), "sqrt(%a) = %a, CPU %a (seed %d)", x, a,
          b, seed_error);
}

static void test_sqrt(void)
{
    const unsigned before = n_fail;
    for (int i = 0; i < 2000000; i++) {
        const double x = vq_speed_from_bits(rng() & 0x7fffffffffffffffULL);
        if (isfinite(x))
            sqrt_one(x, i % 64 ? 0 : (int)(rng() % 7) - 3);
        if (n_fail - before > 10)
            return;
    }
    for (int i = 0; i < 2000000; i++) {
        uint32_t b = (uint32_t)rng() & 0x7fffffffu;
        float f;
        memcpy(&f, &b, sizeof(f));
        if (isfinite(f))
            sqrt_one(f, 0);
        const float t = (float)((int64_t)(rng() % 2000001) - 1000000) / 997.0f;
        sqrt_one((double)(1 + t * t), (int)(rng() % 5) - 2);
    }
    for (uint64_t k = 1; k < 200000; k++)
        sqrt_one((double)(k * k), 0);
    const double specials[] = { 0.0, -0.0, INFINITY, 0x1p-1074, 0x1p-1022,
                                0x1.fffffffffffffp+1023, 1.0, 2.0, 4.0 };
    for (size_t i = 0; i < sizeof(specials) / sizeof(specials[0]); i++)
        sqrt_one(specials[i], 0);
    CHECK_MSG(isnan(vq_speed_sqrt_exact(-1.0)) && isnan(vq_speed_sqrt_exact(NAN)),
          "sqrt of negative or NaN");
    printf("sqrt: %s\n", n_fail == before ? "bit-identical to the CPU's on "
           "6 million inputs" : "MISMATCH");
}

static void test_mul64(void)
{
#if defined(__SIZEOF_INT128__)
    for (int i = 0; i < 1000000; i++) {
        const uint64_t a = rng(), b = rng() >> (rng() % 64);
        uint64_t hi, lo;
        vq_speed_mul64(a, b, &hi, &lo);
        const unsigned __int128 p = (unsigned __int128)a * b;
        CHECK_MSG(hi == (uint64_t)(p >> 64) && lo == (uint64_t)p, "mul64");
        if (n_fail)
            return;
    }
#endif
}

int main(void)
{
    test_log2();
    test_sqrt();
    test_mul64();
    printf("speed_math: %s\n", n_fail ? "FAILED" : "passed");
    return n_fail ? 1 : 0;
}
