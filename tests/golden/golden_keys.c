#include <math.h>
#include <stdio.h>
#include <string.h>

#include "golden_keys.h"

/* Longer prefixes first. */
static const GoldenKey golden_keys[] = {
    { "psnr_hvs", "psnr_hvs", 0 },
    { "psnr_", "psnr", 0 },
    { "mse_", "psnr", 0 },
    { "apsnr_", "psnr", 0 },
    { "float_psnr", "float_psnr", 0 },
    /* exact: vqhip computes libvmaf's float operations in its order */
    { "float_ssim", "float_ssim", 0 },
    { "float_ms_ssim", "float_ms_ssim", 0 },
    { "float_moment", "float_moment", 0 },
    { "float_ansnr", "float_ansnr", 0 },
    { "float_anpsnr", "float_ansnr", 0 },
    { "ciede2000", "ciede", 0 },
    { "cambi", "cambi", 0 },
    { "VMAF_integer_feature_motion", "motion", 0 },
    { "integer_motion", "motion", 0 },
    { "integer_vif", "vif", 0 },
    { "integer_adm", "adm", 0 },
    { "integer_aim", "adm", 0 },
    /* float_vif, float_adm, float_motion: libvmaf's printed values */
    { "vif_scale", "float_vif", 0 },
    { "adm", "float_adm", 0 },
    { "aim", "float_adm", 0 },
    { "motion", "float_motion", 0 },
    { "speed_chroma", "speed_chroma", 0 },
    { "speed_temporal", "speed_temporal", 0 },
    { "vmaf", NULL, 0 },
};

const GoldenKey *golden_key(const char *key)
{
    for (size_t i = 0; i < sizeof(golden_keys) / sizeof(golden_keys[0]); i++)
        if (!strncmp(key, golden_keys[i].prefix, strlen(golden_keys[i].prefix)))
            return &golden_keys[i];
    return NULL;
}

/* A value as libvmaf's log prints it (output.c's count_leading_zeros_d
 * decides between %.6f and %.16f). */
static void libvmaf_text(char *buf, size_t size, double v)
{
    double frac = fabs(v) - (double)(long long)fabs(v);
    int zeros = 0;
    while (frac < 1.0 && frac != 0) {
        frac *= 10;
        zeros++;
    }
    snprintf(buf, size, zeros <= 6 ? "%.6f" : "%.16f", v);
}

int golden_same(double ours, double gold, const GoldenKey *gk)
{
    if (!isfinite(gold) || !isfinite(ours))
        return !isfinite(gold) && !isfinite(ours);
    if (gk->tolerance == 0) {
        char a[64], b[64];
        libvmaf_text(a, sizeof(a), ours);
        libvmaf_text(b, sizeof(b), gold);
        return !strcmp(a, b);
    }
    return fabs(ours - gold) <= gk->tolerance;
}

int golden_same_full(double ours, double full, const GoldenKey *gk)
{
    if (!isfinite(full) || !isfinite(ours))
        return !isfinite(full) && !isfinite(ours);
    return gk->tolerance == 0 ? ours == full
                              : fabs(ours - full) <= gk->tolerance;
}

int golden_same_ciede(double ours, double full, unsigned long n_samples)
{
    if (!isfinite(full) || !isfinite(ours))
        return !isfinite(full) && !isfinite(ours);
    return fabs(ours - full) <= 20.0 / log(10.0) * (double)n_samples *
                                    0x1p-53;
}

int golden_vendor_dependent(const char *key)
{
    return !strncmp(key, "adm", 3) || !strncmp(key, "aim", 3) ||
           !strncmp(key, "vmaf_float", 10);
}

const char *golden_model_of(const GoldenRun *run, const char *key)
{
    const char *best = NULL;
    for (unsigned i = 0; i < run->n_model; i++) {
        size_t n = strlen(run->model[i]);
        if (!strncmp(key, run->model[i], n) && (!key[n] || key[n] == '_') &&
            (!best || n > strlen(best)))
            best = run->model[i];
    }
    return best;
}

GoldenFate golden_account(const GoldenRun *run, const char *key, int found,
                          int skip, GoldenTally *t, const char **owner)
{
    t->total++;
    *owner = NULL;
    if (skip) {
        t->caveat++;
        return GOLDEN_CAVEAT;
    }
    const GoldenKey *gk = golden_key(key);
    *owner = gk ? gk->extractor : NULL;
    if (gk && !*owner)
        *owner = golden_model_of(run, key);
    if (!*owner) {
        t->failed++;
        return GOLDEN_NO_CLASS;
    }
    if (found >= 0)
        return GOLDEN_COMPARE;
    t->failed++;
    return GOLDEN_MISSING;
}

void golden_totals_add(GoldenTotals *all, const GoldenTally *t)
{
    all->keys.total += t->total;
    all->keys.compared += t->compared;
    all->keys.full += t->full;
    all->keys.caveat += t->caveat;
    all->keys.failed += t->failed;
    all->keys.skipped += t->skipped;
    all->keys.from_cpath += t->from_cpath;
    all->n_logs++;
}
