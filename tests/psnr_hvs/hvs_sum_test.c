/*
 * The GPU's way of computing psnr_hvs's sequential float sum
 * (kernels/psnr_hvs/psnr_hvs_sum.h) against the plain sum, on the CPU:
 *  - one term at a time: a summary step applied to s equals fl(s + t), for
 *    random and for constructed ties and binade crossings;
 *  - whole sequences (random, tie-heavy, crossing-heavy, stagnating, and
 *    the terms of psnr_hvs blocks of synthetic frames), with summaries
 *    built as the GPU kernels build them, and with deliberately wrong
 *    estimates, which may only change how often the slow path runs.
 * Also prints how many steps of each kind the walk took (the GPU's cost).
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../kernels/psnr_hvs/psnr_hvs.h"
#include "../common/unit_check.h"

static uint64_t rng_state = 0x9E3779B97F4A7C15ULL;
static uint64_t rng(void)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 0x2545F4914F6CDD1DULL;
}

static double uniform(void)
{
    return (double)(rng() >> 11) * (1.0 / 9007199254740992.0);
}

static int same_bits(float a, float b)
{
    return !memcmp(&a, &b, sizeof(a));
}

typedef struct Stats {
    unsigned long groups, group_jumps, chunk_jumps, chunk_adds;
} Stats;

/* The walk with counters: the same decisions as vq_hvs_walk(). */
static float walk_counted(const float *terms, unsigned n, const VqHvsStep *cst,
                          const int *cbase, const VqHvsStep *gst,
                          const int *gbase, Stats *st)
{
    float s = 0;
    for (unsigned g = 0; g * VQ_HVS_GROUP < n; g++) {
        st->groups++;
        if (vq_hvs_jump(&s, gst + g * VQ_HVS_CAND, gbase[g])) {
            st->group_jumps++;
            continue;
        }
        unsigned c0 = g * VQ_HVS_GROUP;
        for (unsigned c = c0; c < n && c < c0 + VQ_HVS_GROUP; c++) {
            if (vq_hvs_jump(&s, cst + c * VQ_HVS_CAND, cbase[c])) {
                st->chunk_jumps++;
                continue;
            }
            st->chunk_adds++;
            for (unsigned k = 0; k < VQ_HVS_CHUNK; k++)
                s += terms[(size_t)c * VQ_HVS_CHUNK + k];
        }
    }
    return s;
}

/* Summaries as hvs_estimates and hvs_summaries make them; bases moved by
 * skew binades. Returns the walk's sum (and checks vq_hvs_walk agrees). */
static float gpu_way(const float *t, unsigned n, int skew, Stats *st)
{
    unsigned ng = (n + VQ_HVS_GROUP - 1) / VQ_HVS_GROUP;
    double *csum = malloc(n * sizeof(double));
    VqHvsStep *cst = malloc((size_t)n * VQ_HVS_CAND * sizeof(VqHvsStep));
    VqHvsStep *gst = malloc((size_t)ng * VQ_HVS_CAND * sizeof(VqHvsStep));
    int *cbase = malloc(n * sizeof(int)), *gbase = malloc(ng * sizeof(int));
    if (!csum || !cst || !gst || !cbase || !gbase) {
        printf("out of memory\n");
        exit(1);
    }
    double run = 0;
    for (unsigned c = 0; c < n; c++) {
        double s = 0;
        for (unsigned k = 0; k < VQ_HVS_CHUNK; k++)
            s += t[(size_t)c * VQ_HVS_CHUNK + k];
        csum[c] = s;
        if (c % VQ_HVS_GROUP == 0)
            gbase[c / VQ_HVS_GROUP] = vq_hvs_base(run) + skew;
        cbase[c] = vq_hvs_base(run) + skew;
        run += s;
    }
    for (unsigned g = 0; g < ng; g++) {
        VqHvsStep acc[VQ_HVS_CAND];
        for (int k = 0; k < VQ_HVS_CAND; k++)
            acc[k] = (VqHvsStep){ { 0, 0 } };
        for (unsigned c = g * VQ_HVS_GROUP; c < n && c < (g + 1) * VQ_HVS_GROUP; c++)
            for (int k = 0; k < VQ_HVS_CAND; k++) {
                const float *tc = t + (size_t)c * VQ_HVS_CHUNK;
                cst[(size_t)c * VQ_HVS_CAND + k] =
                    vq_hvs_chunk_step(tc, VQ_HVS_CHUNK, cbase[c] + k);
                acc[k] = vq_hvs_compose(
                    acc[k], vq_hvs_chunk_step(tc, VQ_HVS_CHUNK, gbase[g] + k));
            }
        for (int k = 0; k < VQ_HVS_CAND; k++)
            gst[(size_t)g * VQ_HVS_CAND + k] = acc[k];
    }
    float s = walk_counted(t, n, cst, cbase, gst, gbase, st);
    float s2 = vq_hvs_walk(t, n, cst, cbase, gst, gbase);
    CHECK(same_bits(s, s2));
    free(csum);
    free(cst);
    free(gst);
    free(cbase);
    free(gbase);
    return s;
}

static float plain_sum(const float *t, size_t n)
{
    float s = 0;
    for (size_t k = 0; k < n; k++)
        s += t[k];
    return s;
}

static void check_sequence(const char *what, const float *t, unsigned n_chunks,
                           int verbose)
{
    float want = plain_sum(t, (size_t)n_chunks * VQ_HVS_CHUNK);
    static const int skews[] = { 0, -3, 2, 5, -40 };
    for (unsigned i = 0; i < sizeof(skews) / sizeof(skews[0]); i++) {
        Stats st = { 0, 0, 0, 0 };
        float got = gpu_way(t, n_chunks, skews[i], &st);
        CHECK_MSG(same_bits(got, want), "%s skew %d: walk %a, plain sum %a",
                  what, skews[i], got, want);
        if (verbose && !skews[i])
            printf("  %-26s %7u chunks: %lu of %lu groups jumped, %lu chunk "
                   "jumps, %lu chunks added term by term; sum %g\n", what,
                   n_chunks, st.group_jumps, st.groups, st.chunk_jumps,
                   st.chunk_adds, (double)want);
    }
}

/* One term: a valid step applied to s must give fl(s + t). */
static void check_single_terms(void)
{
    unsigned long applied = 0, ties = 0;
    for (int i = 0; i < 4000000; i++) {
        float s = (float)(ldexp(1 + uniform(), (int)(rng() % 80) - 40));
        float t;
        int e = 0;
        uint32_t m = 0;
        CHECK(vq_hvs_parts(s, &e, &m));
        switch (i % 4) {
        case 0: /* any size */
            t = (float)ldexp(uniform(), (int)(rng() % 90) - 60 + e);
            break;
        case 1: /* an exact tie: (k + 1/2) units */
            t = (float)ldexp((double)(rng() % 4096) + 0.5, e - 23);
            break;
        case 2: /* a tie a few units up, or just off it */
            t = (float)ldexp((double)(rng() % 64) + 0.5 +
                             (double)((int)(rng() % 3) - 1) * ldexp(1, -20),
                             e - 23);
            break;
        default: /* near the top of the binade */
            t = (float)((ldexp(1, e + 1) - s) * (0.999 + 0.002 * uniform()));
            break;
        }
        if (!(t >= 0))
            t = 0;
        VqHvsStep st = vq_hvs_chunk_step(&t, 1, e);
        VqHvsStep cand[VQ_HVS_CAND] = { st, st, st, st };
        float got = s;
        if (vq_hvs_jump(&got, cand, e)) {
            applied++;
            ties += i % 4 == 1;
            float want = s + t;
            CHECK_MSG(same_bits(got, want), "s %a + t %a: step %a, float %a",
                      (double)s, (double)t, (double)got, (double)want);
            if (n_fail > 10)
                return;
        }
    }
    printf("  single terms: %lu steps applied (%lu constructed ties)\n",
           applied, ties);
}

/* Terms of psnr_hvs blocks of a synthetic frame pair. */
static float *hvs_terms(unsigned w, unsigned h, unsigned bpc, int noise,
                        unsigned *n_chunks)
{
    unsigned bx = vq_hvs_blocks(w), by = vq_hvs_blocks(h);
    unsigned max = (1u << bpc) - 1;
    int32_t *ref = malloc((size_t)w * h * sizeof(int32_t));
    int32_t *dis = malloc((size_t)w * h * sizeof(int32_t));
    float *t = malloc((size_t)bx * by * VQ_HVS_CHUNK * sizeof(float));
    if (!ref || !dis || !t) {
        printf("out of memory\n");
        exit(1);
    }
    for (unsigned y = 0; y < h; y++)
        for (unsigned x = 0; x < w; x++) {
            double v = 0.5 + 0.3 * sin(x / 13.0) * cos(y / 7.0) +
                       0.1 * sin((x + y) / 3.0);
            int r = (int)(v * max), d = r + (int)(rng() % (2 * noise + 1)) - noise;
            ref[(size_t)y * w + x] = r;
            dis[(size_t)y * w + x] = d < 0 ? 0 : d > (int)max ? (int)max : d;
        }
    VqHvsTables tab;
    for (int k = 0; k < 64; k++) {
        tab.csf[k] = (float)(0.2 + 2.0 / (1 + k % 8 + k / 8));
        tab.mask[k] = (float)((tab.csf[k] * 0.3885746225901003) *
                              (tab.csf[k] * 0.3885746225901003));
    }
    for (unsigned b = 0; b < bx * by; b++) {
        int32_t s[64], d[64];
        unsigned x0 = (b % bx) * VQ_HVS_STEP, y0 = (b / bx) * VQ_HVS_STEP;
        for (unsigned i = 0; i < 8; i++)
            for (unsigned j = 0; j < 8; j++) {
                s[i * 8 + j] = ref[(size_t)(y0 + i) * w + x0 + j];
                d[i * 8 + j] = dis[(size_t)(y0 + i) * w + x0 + j];
            }
        vq_hvs_block_terms(s, d, &tab, t + (size_t)b * VQ_HVS_CHUNK, 1);
    }
    free(ref);
    free(dis);
    *n_chunks = bx * by;
    return t;
}

int main(void)
{
    check_single_terms();
    enum { N = 3000 }; /* chunks */
    float *t = malloc((size_t)N * VQ_HVS_CHUNK * sizeof(float));
    if (!t)
        return 1;
    size_t nt = (size_t)N * VQ_HVS_CHUNK;
    for (size_t k = 0; k < nt; k++)
        t[k] = (float)(uniform() * 100);
    check_sequence("uniform", t, N, 1);
    for (size_t k = 0; k < nt; k++)
        t[k] = (float)ldexp(uniform(), (int)(rng() % 40) - 20);
    check_sequence("wide exponents", t, N, 1);
    for (size_t k = 0; k < nt; k++) /* small multiples of halves: ties */
        t[k] = (float)ldexp((double)(rng() % 8) * 0.5, (int)(rng() % 4));
    check_sequence("tie-heavy", t, N, 1);
    for (size_t k = 0; k < nt; k++) /* mostly zeros, rare large values */
        t[k] = rng() % 97 ? 0 : (float)(uniform() * 1e6);
    check_sequence("sparse", t, N, 1);
    float run = 1;
    for (size_t k = 0; k < nt; k++) { /* growing with the sum: crossings */
        t[k] = (float)(run * uniform() * 0.0002);
        run += t[k];
    }
    check_sequence("geometric growth", t, N, 1);
    for (size_t k = 0; k < nt; k++) /* a large start, then below half an ulp */
        t[k] = k < 64 ? 1e9f : (float)(uniform() * 20);
    check_sequence("stagnating", t, N, 1);
    free(t);
    static const unsigned depth[] = { 8, 10, 12 };
    static const int noise[] = { 1, 3, 40 };
    for (int i = 0; i < 3; i++) {
        unsigned n;
        char what[64];
        t = hvs_terms(640, 360, depth[i], noise[i], &n);
        snprintf(what, sizeof(what), "psnr_hvs %u-bit noise %d", depth[i],
                 noise[i]);
        check_sequence(what, t, n, 1);
        free(t);
    }
    t = hvs_terms(1920, 1080, 8, 2, &(unsigned){ 0 });
    unsigned n1080 = vq_hvs_blocks(1920) * vq_hvs_blocks(1080);
    check_sequence("psnr_hvs 1080p 8-bit", t, n1080, 1);
    free(t);
    TEST_END();
}
