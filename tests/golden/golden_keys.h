/*
 * How the golden test classifies and accounts for the keys of libvmaf's
 * logs (see golden_check.c for the rules), and how it compares values.
 */
#ifndef VQHIP_GOLDEN_KEYS_H
#define VQHIP_GOLDEN_KEYS_H

/*
 * What a golden key is compared as and who writes it. `extractor` is the
 * libvmaf extractor (the --feature name) that writes keys starting with
 * `prefix`; NULL for model outputs, whose owner is the run's model of that
 * name. tolerance 0: printed-equal (golden_same); otherwise DESIGN.md's
 * absolute tolerance against libvmaf.
 */
typedef struct GoldenKey {
    const char *prefix, *extractor;
    double tolerance;
} GoldenKey;

const GoldenKey *golden_key(const char *key);

/* Whether vqhip's value matches libvmaf's under the key's class: with
 * tolerance 0, both formatted by libvmaf's rule (%.6f, or %.16f when the
 * value has more than six zeros after the decimal point) give the same
 * text; non-finite matches only non-finite (libvmaf's null). */
int golden_same(double ours, double gold, const GoldenKey *gk);

/* The same against libvmaf's value at full precision (tests/golden/ref17):
 * with tolerance 0 the doubles must be equal; non-finite matches only
 * non-finite. */
int golden_same_full(double ours, double full, const GoldenKey *gk);

/* ciede2000 at full precision: libvmaf adds a frame's n per-sample
 * differences to a double one by one, vqhip adds them exactly and rounds
 * once, so libvmaf's sum can be off by up to (n - 1) * 2^-53 of itself
 * (recursive summation of positive terms), and the score, 45 - 20 log10 of
 * the mean, by up to 20 / ln(10) * n * 2^-53: the bound both must keep. */
int golden_same_ciede(double ours, double full, unsigned long n_samples);

/* Keys whose libvmaf value depends on the CPU's vendor (float ADM divides
 * with x86's approximate reciprocal, which Intel and AMD compute
 * differently; vqhip computes Intel's): compared at libvmaf's printed
 * precision here, at full precision against Intel values by float_exact. */
int golden_vendor_dependent(const char *key);

typedef struct GoldenRun {
    char model[8][96];    /* output names of the configuration's models */
    unsigned n_model;
} GoldenRun;

/* The model of the run that writes `key` (its name, or name_...). */
const char *golden_model_of(const GoldenRun *run, const char *key);

/* One log's keys; compared, caveat and failed add up to total. skipped and
 * from_cpath count values (frames and pooled), not keys: those that caveats
 * exempt, skipped or taken from the C-path log instead. */
typedef struct GoldenTally {
    unsigned total, compared, caveat, failed;
    unsigned full; /* of compared: at full precision */
    unsigned skipped, from_cpath;
} GoldenTally;

typedef enum GoldenFate {
    GOLDEN_COMPARE,   /* vqhip has it: compare (the caller counts) */
    GOLDEN_CAVEAT,    /* every value exempted by a caveat (caveats.tsv) */
    GOLDEN_NO_CLASS,  /* no comparison class or owner: a failure */
    GOLDEN_MISSING,   /* its owner ran and did not write it: a failure */
} GoldenFate;

/* Counts one key of a log into t (all but GOLDEN_COMPARE) and says what
 * becomes of it; `found` >= 0 when vqhip has the key, `skip` when a caveat
 * exempts all its values; *owner names who should have written it. */
GoldenFate golden_account(const GoldenRun *run, const char *key, int found,
                          int skip, GoldenTally *t, const char **owner);

/* All logs together, for the summary line. */
typedef struct GoldenTotals {
    GoldenTally keys;
    unsigned n_logs;
} GoldenTotals;

void golden_totals_add(GoldenTotals *all, const GoldenTally *t);

#endif
