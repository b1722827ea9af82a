/*
 * Compares outputs of a vqhip JSON log with a libvmaf JSON log at the
 * precision libvmaf prints: a value matches when both print the same with
 * %.6f (null in the golden must be non-finite/null in the candidate).
 * Checks every frame and the pooled min, max, mean and harmonic mean.
 *
 *   golden_check CANDIDATE.json GOLDEN.json KEY...
 *
 * Exit status 0 when every key matches, 1 otherwise; prints each mismatch
 * and the largest difference per key.
 */
#include <json.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

static int get_num(json_object *o, const char *key, double *v, int *is_null)
{
    json_object *x;
    if (!json_object_object_get_ex(o, key, &x))
        return -1;
    *is_null = x == NULL || json_object_is_type(x, json_type_null);
    *v = *is_null ? NAN : json_object_get_double(x);
    return 0;
}

/* Same printed value at 6 decimals; both non-finite also counts as equal. */
static int same(double cand, int cand_null, double gold, int gold_null,
                double *diff)
{
    if (gold_null || cand_null || !isfinite(cand))
        return (gold_null != 0) == (cand_null || !isfinite(cand));
    char a[64], b[64];
    snprintf(a, sizeof(a), "%.6f", cand);
    snprintf(b, sizeof(b), "%.6f", gold);
    double d = fabs(cand - gold);
    if (d > *diff)
        *diff = d;
    return !strcmp(a, b);
}

static int check_key(json_object *cand, json_object *gold, const char *key)
{
    json_object *cf, *gf, *cp, *gp;
    if (!json_object_object_get_ex(cand, "frames", &cf) ||
        !json_object_object_get_ex(gold, "frames", &gf)) {
        fprintf(stderr, "%s: a log has no frames\n", key);
        return 1;
    }
    size_t n = json_object_array_length(gf);
    if (json_object_array_length(cf) != n) {
        fprintf(stderr, "%s: %zu frames, golden has %zu\n", key,
                json_object_array_length(cf), n);
        return 1;
    }
    int bad = 0;
    double max_diff = 0;
    for (size_t i = 0; i < n; i++) {
        json_object *cm, *gm;
        json_object_object_get_ex(json_object_array_get_idx(cf, i), "metrics", &cm);
        json_object_object_get_ex(json_object_array_get_idx(gf, i), "metrics", &gm);
        double c, g;
        int cn, gn;
        if (get_num(gm, key, &g, &gn)) {
            fprintf(stderr, "%s: not in the golden log\n", key);
            return 1;
        }
        if (get_num(cm, key, &c, &cn)) {
            fprintf(stderr, "%s: frame %zu missing\n", key, i);
            bad = 1;
            continue;
        }
        if (!same(c, cn, g, gn, &max_diff)) {
            fprintf(stderr, "%s: frame %zu: %.6f, golden %.6f\n", key, i, c, g);
            bad = 1;
        }
    }
    static const char *const pools[] = { "min", "max", "mean", "harmonic_mean" };
    json_object *ck = NULL, *gk = NULL;
    if (!json_object_object_get_ex(cand, "pooled_metrics", &cp) ||
        !json_object_object_get_ex(gold, "pooled_metrics", &gp) ||
        !json_object_object_get_ex(cp, key, &ck) ||
        !json_object_object_get_ex(gp, key, &gk)) {
        fprintf(stderr, "%s: pooled values missing\n", key);
        return 1;
    }
    for (unsigned k = 0; k < 4; k++) {
        double c, g;
        int cn, gn;
        if (get_num(ck, pools[k], &c, &cn) || get_num(gk, pools[k], &g, &gn)) {
            fprintf(stderr, "%s: pooled %s missing\n", key, pools[k]);
            bad = 1;
        } else if (!same(c, cn, g, gn, &max_diff)) {
            fprintf(stderr, "%s: pooled %s: %.6f, golden %.6f\n", key,
                    pools[k], c, g);
            bad = 1;
        }
    }
    printf("%-50s %s (%zu frames, max |diff| %.3g)\n", key,
           bad ? "MISMATCH" : "ok", n, max_diff);
    return bad;
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: golden_check CANDIDATE.json GOLDEN.json KEY...\n");
        return 2;
    }
    json_object *cand = json_object_from_file(argv[1]);
    json_object *gold = json_object_from_file(argv[2]);
    if (!cand || !gold) {
        fprintf(stderr, "golden_check: cannot read %s\n", !cand ? argv[1] : argv[2]);
        return 2;
    }
    int bad = 0;
    for (int i = 3; i < argc; i++)
        bad |= check_key(cand, gold, argv[i]);
    json_object_put(cand);
    json_object_put(gold);
    return bad;
}
