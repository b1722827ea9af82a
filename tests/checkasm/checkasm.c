/*
 * checkasm harness (checkasm.h): runs every function's check for the C
 * function and for each variant the CPU has, prints what ran and what was
 * skipped, times them with --bench, and with --selftest makes sure that
 * every check compares outputs (a difference injected into one compared
 * value has to be reported).
 *
 * usage: checkasm [--seed N] [--test NAME[.FUNC]] [--bench] [--list]
 *                 [--selftest]
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "checkasm.h"

static const CaTable *const tables[] = {
    &ca_table_adm,
    &ca_table_adm_rows,
    &ca_table_float_adm,
    &ca_table_float_vif,
    &ca_table_cambi,
    &ca_table_motion,
    &ca_table_motion_v2,
    &ca_table_psnr,
    &ca_table_vif,
    &ca_table_float_ssim,
    &ca_table_float_ms_ssim,
    &ca_table_ssim,
    &ca_table_psnr_hvs,
    &ca_table_ciede,
    &ca_table_speed,
    &ca_table_ssimulacra2,
    &ca_table_float_motion,
    &ca_table_float_moment,
    &ca_table_float_ansnr,
};
#define N_TABLES (sizeof(tables) / sizeof(tables[0]))

#define N_LEVELS (VQ_CPU_N_FLAGS + 1) /* C, then one more flag each */
#define MAX_MSGS 4                    /* reported differences per variant */

const unsigned ca_widths[] = {
    1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13, 14, 15, 16, 17, 18,
    19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36,
    37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54,
    55, 56, 57, 58, 59, 60, 61, 62, 63, 64, 65, 66, 67, 68, 69, 70, CA_WIDE,
};
const unsigned ca_n_widths = sizeof(ca_widths) / sizeof(ca_widths[0]);

const char *const ca_fill_names[CA_FILL_MODES] = { "random", "zero", "max",
                                                   "extremes" };

static uint64_t rng_state;
static char context[160];
static unsigned n_diff;      /* differences of the variant being checked */
static unsigned n_compared;  /* ca_check calls of the variant being checked */
static bool fault_pending;   /* --selftest: corrupt the next comparison */
static bool quiet;           /* --selftest: no difference messages */
static const char *variant;  /* the one being checked, for messages */
static double bench_seconds = 0.1, bench_start, bench_ns;

static uint64_t splitmix(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

uint64_t ca_rand64(void)
{
    return splitmix(&rng_state);
}

uint32_t ca_rand(void)
{
    return (uint32_t)(ca_rand64() >> 32);
}

/* Each function's inputs depend only on the seed and the function's name,
 * so --test NAME repeats what the full run did. */
static void reseed(uint64_t seed, const char *table, const char *func)
{
    uint64_t h = 1469598103934665603ull; /* FNV-1a */
    for (const char *s = table; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ull;
    h = (h ^ '.') * 1099511628211ull;
    for (const char *s = func; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ull;
    rng_state = seed ^ h;
}

void ca_fill_bytes(void *p, size_t n)
{
    uint8_t *b = p;
    for (size_t i = 0; i < n; i++)
        b[i] = (uint8_t)ca_rand();
}

static unsigned fill_one(unsigned maxv, int mode)
{
    switch (mode) {
    case CA_FILL_ZERO: return 0;
    case CA_FILL_MAX: return maxv;
    case CA_FILL_EXTREMES: return ca_rand() & 1 ? maxv : 0;
    default: return (unsigned)(ca_rand64() % ((uint64_t)maxv + 1));
    }
}

void ca_fill_u8(uint8_t *p, size_t n, int mode)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (uint8_t)fill_one(255, mode);
}

void ca_fill_u16(uint16_t *p, size_t n, unsigned bpc, int mode)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (uint16_t)fill_one((1u << bpc) - 1, mode);
}

void ca_fill_rows(const void **rows, unsigned n, size_t w, unsigned bpc,
                  int mode)
{
    for (unsigned k = 0; k < n; k++) {
        if (bpc == 8) {
            uint8_t *r = ca_buf_alloc(w);
            ca_fill_u8(r, w, mode);
            rows[k] = r;
        } else {
            uint16_t *r = ca_buf_alloc(2 * w);
            ca_fill_u16(r, w, bpc, mode);
            rows[k] = r;
        }
    }
}

int32_t ca_fill_signed(int mode, int32_t max)
{
    switch (mode) {
    case CA_FILL_ZERO: return 0;
    case CA_FILL_MAX: return max;
    case CA_FILL_EXTREMES: return ca_rand() % 3 == 0 ? 0
                                  : ca_rand() & 1  ? max : -max;
    default: return (int32_t)(ca_rand() % (uint32_t)(2 * max + 1)) - max;
    }
}

float ca_fill_centred(int mode)
{
    switch (mode) {
    case CA_FILL_ZERO: return 0.0f;
    case CA_FILL_MAX: return 127.99609375f;
    case CA_FILL_EXTREMES: return ca_rand() & 1 ? 127.99609375f : -128.0f;
    default: return (float)(ca_rand() % 65536) * (1.0f / 256.0f) - 128.0f;
    }
}

/* ---- memory ------------------------------------------------------------ */

static void **bufs;
static size_t n_bufs, cap_bufs;

void *ca_buf_alloc(size_t bytes)
{
    if (n_bufs == cap_bufs) {
        size_t cap = cap_bufs ? 2 * cap_bufs : 64;
        void **b = realloc(bufs, cap * sizeof(*b));
        if (!b) {
            fprintf(stderr, "checkasm: out of memory\n");
            exit(2);
        }
        bufs = b;
        cap_bufs = cap;
    }
    void *p = calloc(1, bytes ? bytes : 1);
    if (!p) {
        fprintf(stderr, "checkasm: out of memory\n");
        exit(2);
    }
    bufs[n_bufs++] = p;
    return p;
}

void ca_buf_free_all(void)
{
    for (size_t i = 0; i < n_bufs; i++)
        free(bufs[i]);
    n_bufs = 0;
}

/* ---- comparisons ------------------------------------------------------- */

void ca_context(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(context, sizeof(context), fmt, ap);
    va_end(ap);
}

static long long elem_value(const uint8_t *p, size_t elem, bool sgn)
{
    switch (elem) {
    case 1: return sgn ? (long long)*(const int8_t *)p : (long long)*p;
    case 2: {
        uint16_t v;
        memcpy(&v, p, 2);
        return sgn ? (long long)(int16_t)v : (long long)v;
    }
    case 4: {
        uint32_t v;
        memcpy(&v, p, 4);
        return sgn ? (long long)(int32_t)v : (long long)v;
    }
    default: {
        uint64_t v;
        memcpy(&v, p, 8);
        return (long long)v; /* unsigned 64-bit values print as signed */
    }
    }
}

bool ca_check(const char *what, const void *ref, const void *got, size_t n,
              size_t elem, bool sgn)
{
    n_compared++;
    const uint8_t *a = ref, *b = got;
    uint8_t *copy = NULL;
    if (fault_pending && n) {
        copy = malloc(n * elem);
        if (!copy) {
            fprintf(stderr, "checkasm: out of memory\n");
            exit(2);
        }
        memcpy(copy, got, n * elem);
        copy[(n - 1) * elem] ^= 1;
        b = copy;
        fault_pending = false;
    }
    bool same = !memcmp(a, b, n * elem);
    if (!same) {
        size_t i = 0;
        while (!memcmp(a + i * elem, b + i * elem, elem))
            i++;
        if (n_diff++ < MAX_MSGS && !quiet)
            printf("  %s: %s differs at [%zu] of %zu: c %lld, %s %lld (%s)\n",
                   variant, what, i, n, elem_value(a + i * elem, elem, sgn),
                   variant, elem_value(b + i * elem, elem, sgn), context);
    }
    free(copy);
    return same;
}

/* ---- bench ------------------------------------------------------------- */

/* CPU time of this thread: on a shared, loaded machine wall-clock times
 * mostly measure the other processes. */
static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

void ca_bench_begin(void)
{
    bench_start = now();
}

bool ca_bench_more(void)
{
    return now() - bench_start < bench_seconds;
}

void ca_bench_end(unsigned long calls)
{
    bench_ns = (now() - bench_start) * 1e9 / (double)calls;
}

/* ---- the run ----------------------------------------------------------- */

static CaFn fn_at(const void *table, size_t offset)
{
    CaFn fn;
    memcpy(&fn, (const char *)table + offset, sizeof(fn));
    return fn;
}

static const char *level_name(unsigned level)
{
    return level ? vq_cpu_flag_name(1u << (level - 1)) : "c";
}

static bool selected(const char *test, const CaTable *t, const CaFunc *f)
{
    if (!test)
        return true;
    size_t n = strlen(t->name);
    if (strncmp(test, t->name, n))
        return false;
    return test[n] == '\0' || (test[n] == '.' && !strcmp(test + n + 1, f->name));
}

typedef struct Totals {
    unsigned checked, failed, ran[N_LEVELS], absent[N_LEVELS];
    unsigned masked[N_LEVELS];
    unsigned untested; /* --selftest: checks that reported no fault */
} Totals;

/* Appends to the function's status line. */
static void status(char *line, size_t size, const char *fmt, const char *a,
                   const char *b)
{
    size_t len = strlen(line);
    snprintf(line + len, size - len, fmt, a, b);
}

static void run_func(const CaTable *t, const CaFunc *f, void *const *tab,
                     uint64_t seed, bool bench, bool selftest, Totals *tot)
{
    unsigned have = vq_cpu_flags_detected(), allowed = vq_cpu_flags();
    CaFn ref = fn_at(tab[0], f->offset), prev = NULL;
    CaFn ran_fn[N_LEVELS];
    unsigned ran_level[N_LEVELS], n_ran = 0;
    char line[256];
    snprintf(line, sizeof(line), "%s.%s:", t->name, f->name);
    for (unsigned level = 0; level < N_LEVELS; level++) {
        CaFn fn = fn_at(tab[level], f->offset);
        const char *name = level_name(level), *sep = level ? "," : "";
        if (fn == prev)
            continue; /* no variant of this instruction set */
        prev = fn;
        if (level && !(have & (1u << (level - 1)))) {
            status(line, sizeof(line), "%s %s: not on this CPU", sep, name);
            tot->absent[level]++;
            continue;
        }
        if (level && !(allowed & (1u << (level - 1)))) {
            status(line, sizeof(line), "%s %s: off (VQHIP_CPU_MASK)", sep,
                   name);
            tot->masked[level]++;
            continue;
        }
        reseed(seed, t->name, f->name);
        n_diff = n_compared = 0;
        fault_pending = quiet = selftest;
        variant = name;
        f->check(ref, fn);
        ca_buf_free_all();
        tot->checked++;
        tot->ran[level]++;
        if (selftest) {
            bool caught = n_diff > 0;
            status(line, sizeof(line), "%s%s", " injected difference ",
                   caught ? "caught" : "NOT CAUGHT: the check compares nothing");
            tot->untested += !caught;
            break;
        }
        bool failed = n_diff || !n_compared;
        status(line, sizeof(line), "%s %s ", sep, name);
        status(line, sizeof(line), "%s%s", failed ? "FAIL" : "ok",
               n_compared ? "" : " (nothing compared)");
        tot->failed += failed;
        ran_fn[n_ran] = fn;
        ran_level[n_ran++] = level;
    }
    printf("%s\n", line);
    if (!bench || !f->bench)
        return;
    double c_ns = 0;
    printf("  bench:");
    for (unsigned k = 0; k < n_ran; k++) {
        reseed(seed, t->name, f->name);
        f->bench(ran_fn[k]);
        ca_buf_free_all();
        if (!k)
            c_ns = bench_ns;
        printf("%s %s %.0f ns", k ? "," : "", level_name(ran_level[k]),
               bench_ns);
        if (k)
            printf(" (%.2fx)", c_ns / bench_ns);
    }
    printf("\n");
}

static void usage(void)
{
    fprintf(stderr, "usage: checkasm [--seed N] [--test NAME[.FUNC]] "
                    "[--bench] [--list] [--selftest]\n");
}

int main(int argc, char **argv)
{
    uint64_t seed = 20240607;
    const char *test = NULL;
    bool bench = false, list = false, selftest = false;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        bool v = i + 1 < argc;
        if (!strcmp(a, "--seed") && v)
            seed = strtoull(argv[++i], NULL, 0);
        else if (!strcmp(a, "--test") && v)
            test = argv[++i];
        else if (!strcmp(a, "--bench"))
            bench = true;
        else if (!strcmp(a, "--list"))
            list = true;
        else if (!strcmp(a, "--selftest"))
            selftest = true;
        else {
            usage();
            return 2;
        }
    }
    char have[64], allowed[64];
    vq_cpu_flags_string(vq_cpu_flags_detected(), have, sizeof(have));
    vq_cpu_flags_string(vq_cpu_flags(), allowed, sizeof(allowed));
    if (!list)
        printf("checkasm: seed %llu (--seed %llu repeats this run); CPU "
               "has: %s; VQHIP_CPU_MASK allows: %s\n",
               (unsigned long long)seed, (unsigned long long)seed, have,
               vq_cpu_mask_env_error() ? "none (not understood)" : allowed);
    Totals tot;
    memset(&tot, 0, sizeof(tot));
    unsigned n_selected = 0;
    for (size_t i = 0; i < N_TABLES; i++) {
        const CaTable *t = tables[i];
        void *tab[N_LEVELS];
        for (unsigned level = 0; level < N_LEVELS; level++) {
            tab[level] = calloc(1, t->size);
            if (!tab[level]) {
                fprintf(stderr, "checkasm: out of memory\n");
                return 2;
            }
            t->init(tab[level], (1u << level) - 1);
        }
        for (const CaFunc *f = t->funcs; f->name; f++) {
            if (!selected(test, t, f))
                continue;
            n_selected++;
            if (list)
                printf("%s.%s\n", t->name, f->name);
            else
                run_func(t, f, tab, seed, bench, selftest, &tot);
        }
        for (unsigned level = 0; level < N_LEVELS; level++)
            free(tab[level]);
    }
    free(bufs);
    if (list)
        return 0;
    if (!n_selected) {
        fprintf(stderr, "checkasm: no function matches --test %s\n", test);
        return 2;
    }
    if (selftest) {
        printf("selftest: %u of %u checks catch an injected difference\n",
               tot.checked - tot.untested, tot.checked);
        return tot.untested ? 1 : 0;
    }
    printf("variants run:");
    for (unsigned level = 1; level < N_LEVELS; level++)
        printf(" %s %u", level_name(level), tot.ran[level]);
    for (unsigned level = 1; level < N_LEVELS; level++)
        if (tot.absent[level])
            printf("; %s: not on this CPU (%u skipped)", level_name(level),
                   tot.absent[level]);
    for (unsigned level = 1; level < N_LEVELS; level++)
        if (tot.masked[level])
            printf("; %s: off by VQHIP_CPU_MASK (%u skipped)",
                   level_name(level), tot.masked[level]);
    printf("\n%u of %u checks passed (seed %llu)\n", tot.checked - tot.failed,
           tot.checked, (unsigned long long)seed);
    return tot.failed ? 1 : 0;
}
