/*
 * Integer ADM unit tests (CPU path): size and option checks, libvmaf's
 * output names, and values on small generated frames against libvmaf's
 * doubles for the same bytes (adm_unit_expect.h), bit for bit.
 *
 * usage: adm_unit            run the tests
 *        adm_unit --dump DIR write the generated pairs as raw 4:4:4 files
 *                            and print one line per case for
 *                            adm_unit_expect.sh, which made adm_unit_expect.h
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/unit_check.h"
#include "vqhip.h"


/* A deterministic pair: a smooth pattern plus noise as reference, the
 * reference with a crude blur and an offset as distorted. */
typedef struct Pair {
    unsigned w, h, bpc, frames;
    uint16_t *ref, *dis; /* frames * w * h samples */
} Pair;

static uint32_t lcg(uint32_t *s)
{
    *s = *s * 1664525u + 1013904223u;
    return *s >> 8;
}

static int make_pair(Pair *p, unsigned w, unsigned h, unsigned bpc,
                     unsigned frames, uint32_t seed)
{
    size_t n = (size_t)w * h * frames;
    p->w = w;
    p->h = h;
    p->bpc = bpc;
    p->frames = frames;
    p->ref = malloc(n * sizeof(uint16_t));
    p->dis = malloc(n * sizeof(uint16_t));
    if (!p->ref || !p->dis)
        return -1;
    unsigned maxv = (1u << bpc) - 1;
    for (unsigned f = 0; f < frames; f++) {
        uint16_t *r = p->ref + (size_t)f * w * h, *d = p->dis + (size_t)f * w * h;
        for (unsigned y = 0; y < h; y++)
            for (unsigned x = 0; x < w; x++) {
                unsigned v = ((x * 7 + y * 13 + f * 5) % 64) * (maxv / 64) +
                             lcg(&seed) % (maxv / 8 + 1);
                r[y * w + x] = (uint16_t)(v > maxv ? maxv : v);
            }
        for (unsigned y = 0; y < h; y++)
            for (unsigned x = 0; x < w; x++) {
                unsigned xl = x ? x - 1 : x, xr = x + 1 < w ? x + 1 : x;
                unsigned v = (r[y * w + xl] + 2u * r[y * w + x] + r[y * w + xr]) / 4 +
                             maxv / 100;
                d[y * w + x] = (uint16_t)(v > maxv ? maxv : v);
            }
    }
    return 0;
}

static void free_pair(Pair *p)
{
    free(p->ref);
    free(p->dis);
}

static void picture(VqPicture *pic, const Pair *p, const uint16_t *plane,
                    uint8_t *tmp8, const uint16_t *grey)
{
    memset(pic, 0, sizeof(*pic));
    pic->fmt = VQ_PIX_FMT_444;
    pic->bpc = p->bpc;
    pic->w = p->w;
    pic->h = p->h;
    if (p->bpc == 8) {
        for (size_t i = 0; i < (size_t)p->w * p->h; i++)
            tmp8[i] = (uint8_t)plane[i];
        pic->data[0] = tmp8;
        pic->stride[0] = p->w;
    } else {
        pic->data[0] = plane;
        pic->stride[0] = (ptrdiff_t)p->w * 2;
    }
    for (int c = 1; c < 3; c++) {
        pic->data[c] = grey;
        pic->stride[c] = (ptrdiff_t)p->w * 2;
    }
}

#define N_FRAMES 2  /* frames of every pair compared with libvmaf */
#define MAX_KEYS 24 /* libvmaf's outputs of adm with debug=true: 18 */

/* Runs the CPU path; fills values[frame][k] for the named outputs. */
static int score(const Pair *p, const char *spec, const char *const *names,
                 unsigned n_names, double values[][MAX_KEYS], char *err,
                 size_t errsz)
{
    VqConfig cfg = vq_default_config();
    cfg.backend = VQ_BACKEND_CPU;
    cfg.n_threads = 1;
    VqContext *ctx = NULL;
    int r = vq_open(&ctx, &cfg);
    if (!r)
        r = vq_use_feature(ctx, spec);
    size_t n = (size_t)p->w * p->h;
    uint8_t *r8 = malloc(n), *d8 = malloc(n);
    uint16_t *grey = calloc(n, sizeof(uint16_t));
    if (!r8 || !d8 || !grey)
        r = VQ_ENOMEM;
    unsigned got = 0;
    for (unsigned f = 0; !r && f < p->frames; f++) {
        VqPicture rp, dp;
        picture(&rp, p, p->ref + f * n, r8, grey);
        picture(&dp, p, p->dis + f * n, d8, grey);
        r = vq_submit(ctx, &rp, &dp);
        if (!r && f + 1 == p->frames)
            r = vq_flush(ctx);
        VqFrameScores fs;
        while (!r && vq_receive(ctx, &fs) == 0) {
            for (unsigned k = 0; k < n_names; k++) {
                values[fs.index][k] = -1e300;
                for (unsigned i = 0; i < fs.n; i++)
                    if (!strcmp(fs.scores[i].name, names[k]))
                        values[fs.index][k] = fs.scores[i].value;
            }
            got++;
        }
    }
    if (r < 0)
        snprintf(err, errsz, "%s", ctx ? vq_last_error(ctx) : vq_strerror(r));
    else if (got != p->frames)
        r = VQ_EINVAL;
    free(r8);
    free(d8);
    free(grey);
    vq_close(&ctx);
    return r;
}

static void test_rejects(void)
{
    static const struct { unsigned w, h; const char *spec; int ok; } cases[] = {
        { 33, 33, "adm", 1 },
        { 32, 33, "adm", 0 },
        { 33, 32, "adm", 0 },
        { 7, 5, "adm", 0 },
        { 33, 17, "adm", 0 },
        { 40, 40, "name=adm:adm_norm_view_dist=2", 0 },
        { 40, 40, "name=adm:adm_norm_view_dist=1.5:adm_ref_display_height=2160", 1 },
        { 40, 40, "name=adm:adm_csf_mode=2:adm_ref_display_height=1000:"
                  "adm_norm_view_dist=4", 0 },
        { 40, 40, "name=adm:adm_csf_mode=3:adm_ref_display_height=720:"
                  "adm_norm_view_dist=5", 1 },
    };
    for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        Pair p;
        if (make_pair(&p, cases[i].w, cases[i].h, 8, 1, 7)) {
            CHECK_MSG(0, "out of memory");
            return;
        }
        const char *names[1] = { "integer_adm2" };
        double v[1][MAX_KEYS];
        char err[512] = "";
        int r = score(&p, cases[i].spec, names, 0, v, err, sizeof(err));
        if (cases[i].ok)
            CHECK_MSG(r == 0, "%ux%u %s: %s", cases[i].w, cases[i].h, cases[i].spec, err);
        else
            CHECK_MSG(r == VQ_EUNSUPPORTED && strstr(err, "adm"),
                  "%ux%u %s: expected a clear VQ_EUNSUPPORTED, got %d '%s'",
                  cases[i].w, cases[i].h, cases[i].spec, r, err);
        free_pair(&p);
    }
    /* Option ranges as libvmaf's table. */
    VqConfig cfg = vq_default_config();
    cfg.backend = VQ_BACKEND_CPU;
    VqContext *ctx = NULL;
    if (vq_open(&ctx, &cfg) == 0) {
        CHECK_MSG(vq_use_feature(ctx, "name=adm:adm_enhn_gain_limit=0.5") < 0,
              "egl below 1 accepted");
        CHECK_MSG(vq_use_feature(ctx, "name=adm:adm_csf_mode=4") < 0, "csf 4 accepted");
        CHECK_MSG(vq_use_feature(ctx, "name=adm:adm_norm_view_dist=0.5") < 0,
              "nvd 0.5 accepted");
    }
    vq_close(&ctx);
}

/* The pairs compared with libvmaf: make_pair(w, h, bpc, N_FRAMES, seed),
 * scored by adm with the options. The expected values are those of
 * libvmaf's C path, which vqhip follows: its x86 SIMD path gives others at
 * these small sizes (adm_unit_expect.sh). */
typedef struct AdmCase {
    const char *name;
    unsigned w, h, bpc;
    uint32_t seed;
    const char *options; /* key=value:... (libvmaf's and vqhip's syntax) */
} AdmCase;

static const AdmCase cases[] = {
    { "33x33_8bit_debug", 33, 33, 8, 1, "debug=true" },
    { "47x35_10bit_egl", 47, 35, 10, 2, "adm_enhn_gain_limit=1" },
    { "64x41_16bit_csf2", 64, 41, 16, 3,
      "adm_csf_mode=2:adm_dlm_weight=0.7:adm_enhn_gain_limit=1:"
      "adm_noise_weight=0.02:adm_min_val=0.5" },
    { "35x37_12bit_csf1_skip0", 35, 37, 12, 4,
      "adm_csf_mode=1:adm_skip_scale0=true:adm_enhn_gain_limit=1.5" },
};
#define N_CASES (sizeof(cases) / sizeof(cases[0]))

typedef struct AdmExpect {
    const char *name;
    const char *keys[MAX_KEYS + 1];
    double value[N_FRAMES][MAX_KEYS];
} AdmExpect;

#include "adm_unit_expect.h"

static const AdmExpect *expect_for(const char *name)
{
    for (size_t i = 0; i < sizeof(adm_expect) / sizeof(adm_expect[0]); i++)
        if (!strcmp(adm_expect[i].name, name))
            return &adm_expect[i];
    return NULL;
}

/* Every output libvmaf wrote, every frame, the same double. */
static void test_values(void)
{
    for (size_t i = 0; i < N_CASES; i++) {
        const AdmCase *c = &cases[i];
        const AdmExpect *e = expect_for(c->name);
        Pair p;
        if (!e) {
            CHECK_MSG(0, "%s: no expected values", c->name);
            continue;
        }
        if (make_pair(&p, c->w, c->h, c->bpc, N_FRAMES, c->seed)) {
            CHECK_MSG(0, "out of memory");
            return;
        }
        unsigned n = 0;
        while (n < MAX_KEYS && e->keys[n])
            n++;
        char spec[256];
        snprintf(spec, sizeof(spec), "name=adm:%s", c->options);
        double v[N_FRAMES][MAX_KEYS];
        char err[512] = "";
        int r = score(&p, spec, e->keys, n, v, err, sizeof(err));
        CHECK_MSG(r == 0, "%s: %s", c->name, err);
        for (unsigned f = 0; !r && f < N_FRAMES; f++)
            for (unsigned k = 0; k < n; k++)
                CHECK_MSG(!memcmp(&v[f][k], &e->value[f][k], sizeof(double)),
                      "%s frame %u %s: %.17g, libvmaf %.17g", c->name, f,
                      e->keys[k], v[f][k], e->value[f][k]);
        free_pair(&p);
    }
}

static int dump(const char *dir)
{
    for (size_t i = 0; i < N_CASES; i++) {
        const AdmCase *c = &cases[i];
        Pair p;
        if (make_pair(&p, c->w, c->h, c->bpc, N_FRAMES, c->seed))
            return 1;
        for (int which = 0; which < 2; which++) {
            char path[512];
            snprintf(path, sizeof(path), "%s/%s_%s.yuv", dir, c->name,
                     which ? "dis" : "ref");
            FILE *f = fopen(path, "wb");
            if (!f)
                return 1;
            size_t n = (size_t)c->w * c->h;
            unsigned bps = c->bpc > 8 ? 2 : 1;
            for (unsigned fr = 0; fr < N_FRAMES; fr++) {
                const uint16_t *pl = (which ? p.dis : p.ref) + fr * n;
                for (size_t k = 0; k < n; k++)
                    fwrite(&pl[k], bps, 1, f); /* little-endian host */
                uint16_t mid = (uint16_t)(1u << (c->bpc - 1));
                for (size_t k = 0; k < 2 * n; k++)
                    fwrite(&mid, bps, 1, f);
            }
            fclose(f);
        }
        free_pair(&p);
        printf("%s %u %u %u %u %s\n", c->name, c->w, c->h, c->bpc, N_FRAMES,
               c->options);
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 3 && !strcmp(argv[1], "--dump"))
        return dump(argv[2]);
    test_rejects();
    test_values();
    printf("%s: %d failure(s)\n", n_fail ? "FAIL" : "PASS", n_fail);
    return n_fail ? 1 : 0;
}
