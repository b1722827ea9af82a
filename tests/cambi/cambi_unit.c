/*
 * CAMBI internals (cambi_libvmaf checks the whole against libvmaf):
 *  - exact top-k pooling against a sort, on c-values with many ties, zeros
 *    and edge counts;
 *  - the sliding window histograms and c-values against a direct count of
 *    each window, on small pictures of flat patches with random masks, for
 *    window pads 1..32 and contrast counts 1..32;
 *  - the computed visibility thresholds against the ones carried from
 *    libvmaf, the reciprocal table against 1/i;
 *  - the CPU's SIMD variants against its C code on whole frames (records;
 *    tests/checkasm checks each DSP function).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cambi_frames.h"
#include "extractors/cambi/cambi_priv.h"

extern const VqFexDesc vq_fex_cambi;

#include "../common/unit_check.h"

static uint64_t rng = 0x243f6a8885a308d3ull;
static uint32_t rnd(void)
{
    return (uint32_t)(vq_test_xorshift(&rng) >> 11);
}

/* ---- a cambi instance without a context ------------------------------------- */

typedef struct Inst {
    VqFex fex;
    VqErrBuf err;
} Inst;

static int inst_open(Inst *in, const char *options, unsigned w, unsigned h,
                     unsigned bpc)
{
    memset(in, 0, sizeof(*in));
    in->fex.desc = &vq_fex_cambi;
    in->fex.err = &in->err;
    in->fex.priv = calloc(1, vq_fex_cambi.priv_size);
    if (!in->fex.priv)
        return -1;
    vq_opt_set_defaults(vq_fex_cambi.options, in->fex.priv);
    char buf[256];
    snprintf(buf, sizeof(buf), "%s", options);
    for (char *kv = strtok(buf, ":"); kv; kv = strtok(NULL, ":")) {
        char *v = strchr(kv, '=');
        if (!v)
            return -1;
        *v++ = '\0';
        if (vq_opt_set(vq_fex_cambi.options, in->fex.priv, "cambi", kv, v,
                       &in->err))
            return -1;
    }
    for (unsigned k = 0; k < 3; k++)
        in->fex.out_name[k] = strdup("unused");
    in->fex.n_outputs = 3;
    VqFormat *f = &in->fex.fmt;
    f->fmt = VQ_PIX_FMT_GRAY;
    f->bpc = bpc;
    f->bytes_per_sample = bpc > 8 ? 2 : 1;
    f->n_planes = 1;
    f->w[0] = w;
    f->h[0] = h;
    return vq_fex_cambi.init(&in->fex, f);
}

static void inst_close(Inst *in)
{
    vq_fex_cambi.close(&in->fex);
    free(in->fex.priv);
    for (unsigned k = 0; k < 3; k++)
        free(in->fex.out_name[k]);
}

/* ---- pooling ------------------------------------------------------------------- */

static int cmp_desc(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return x < y ? 1 : x > y ? -1 : 0;
}

static void test_topk(const float *recip)
{
    static const unsigned sizes[] = { 1, 2, 7, 100, 1000, 30000 };
    CambiTopkHist *t = malloc(sizeof(*t));
    float *c = malloc(30000 * sizeof(float)), *s = malloc(30000 * sizeof(float));
    unsigned runs = 0;
    for (unsigned si = 0; si < sizeof(sizes) / sizeof(sizes[0]); si++) {
        for (unsigned trial = 0; trial < 40; trial++) {
            const unsigned n = sizes[si];
            /* c-values as the kernels make them: a few distinct (p0, pm)
             * pairs (many ties), or many, with a share of zeros */
            unsigned distinct = trial % 3 == 0 ? 3 : trial % 3 == 1 ? 200 : 60000;
            unsigned zeros = rnd() % 100;
            for (unsigned i = 0; i < n; i++) {
                if (rnd() % 100 < zeros || trial == 5) {
                    c[i] = 0.0f;
                    continue;
                }
                unsigned r = rnd() % distinct;
                unsigned p0 = 1 + r % 2000, pm = 1 + (r / 7) % 2000;
                if (p0 + pm >= CAMBI_RECIP_SIZE)
                    pm = CAMBI_RECIP_SIZE - 1 - p0;
                c[i] = vq_cambi_term(1 + (int)(r % 9), p0, pm, recip[p0 + pm]);
            }
            uint64_t k = trial == 7 ? n : trial == 8 ? 1 : 1 + rnd() % n;
            memcpy(s, c, n * sizeof(float));
            qsort(s, n, sizeof(float), cmp_desc);
            uint64_t want = 0;
            for (uint64_t i = 0; i < k; i++)
                want += vq_cambi_fixed(vq_cambi_key(s[i]));
            cambi_topk_level1(c, n, t);
            uint64_t got = cambi_topk_sum(c, n, k, t);
            CHECK_MSG(got == want, "top %llu of %u (%u distinct): %llu, sorted %llu",
                  (unsigned long long)k, n, distinct, (unsigned long long)got,
                  (unsigned long long)want);
            runs++;
        }
    }
    /* fixed point: exact for every c-value, and summing it is exact */
    CHECK_MSG(vq_cambi_fixed(vq_cambi_key(0.5f)) == 1u << 23, "fixed(0.5)");
    CHECK_MSG(vq_cambi_fixed(vq_cambi_key(9506.25f)) == (uint64_t)(9506.25 * 16777216.0),
          "fixed(9506.25)");
    printf("top-k pooling: %u arrays against a sort\n", runs);
    free(t);
    free(c);
    free(s);
}

/* ---- sliding histograms against a direct count -------------------------------- */

static void test_cvalues(void)
{
    unsigned runs = 0;
    static const char *const opts[] = {
        "", "max_log_contrast=0", "max_log_contrast=5",
        "max_log_contrast=3:cambi_vis_lum_threshold=0.06",
        "tvi_threshold=0.2:eotf=pq", "max_log_contrast=4:tvi_threshold=0.005",
    };
    for (unsigned o = 0; o < sizeof(opts) / sizeof(opts[0]); o++) {
        Inst in;
        int e = inst_open(&in, opts[o], 640, 480, 10);
        CHECK_MSG(!e, "init %s: %s", opts[o], in.err.msg);
        if (e)
            continue;
        const CambiPriv *s = in.fex.priv;
        const VqCambiLuts *L = &s->luts;
        for (unsigned trial = 0; trial < 12; trial++) {
            unsigned pad = 1 + rnd() % 32;
            unsigned w = pad + rnd() % 50, h = pad + 1 + rnd() % 50;
            uint16_t *img = malloc((size_t)w * h * 2);
            uint8_t *mask = malloc((size_t)w * h);
            uint16_t *hist = malloc((size_t)L->band * w * 2 + 2);
            uint16_t *rows = malloc((size_t)w * 6);
            float *c = malloc((size_t)w * h * sizeof(float));
            CambiTopkHist *t = malloc(sizeof(*t));
            /* flat patches of values near each other, around the band */
            unsigned center = (unsigned)(L->base + rnd() % (L->band + 40));
            unsigned patch = 1 + rnd() % 5;
            for (unsigned y = 0; y < h; y++)
                for (unsigned x = 0; x < w; x++) {
                    uint32_t r = cambi_frames_hash((x / patch) * 131 + (y / patch) * 977 + trial);
                    int v = (int)center + (int)(r % (2 * (unsigned)L->nd + 5)) - L->nd - 2;
                    img[y * w + x] = (uint16_t)(v < 0 ? 0 : v > 1024 ? 1024 : v);
                    mask[y * w + x] = (uint8_t)(cambi_frames_hash(x + 7 * y + trial) % 5 != 0);
                }
            cambi_cvalues(s, img, mask, w, h, pad, hist, rows, c, t);
            unsigned bad = 0;
            for (unsigned y = 0; y < h && !bad; y++)
                for (unsigned x = 0; x < w; x++) {
                    unsigned v = img[y * w + x];
                    float want = 0.0f;
                    if (mask[y * w + x] && vq_cambi_in_band(L, v)) {
                        /* counts of v - nd .. v + nd in the clipped window */
                        unsigned cnt[2 * VQ_CAMBI_MAX_DIFFS + 1] = { 0 };
                        for (int yy = (int)y - (int)pad; yy <= (int)(y + pad); yy++)
                            for (int xx = (int)x - (int)pad; xx <= (int)(x + pad); xx++) {
                                if (yy < 0 || xx < 0 || yy >= (int)h || xx >= (int)w)
                                    continue;
                                unsigned u = img[yy * w + xx];
                                int dlt = (int)u - (int)v;
                                if (mask[yy * w + xx] && vq_cambi_in_band(L, u) &&
                                    dlt >= -L->nd && dlt <= L->nd)
                                    cnt[dlt + L->nd]++;
                            }
                        for (int d = 0; d < L->nd; d++) {
                            if (!vq_cambi_active(L, v, d))
                                continue;
                            unsigned p0 = cnt[L->nd], p1 = cnt[L->nd + d + 1];
                            unsigned p2 = cnt[L->nd - d - 1];
                            unsigned pm = p1 > p2 ? p1 : p2;
                            float term = vq_cambi_term(L->weight[d], p0, pm, s->recip[p0 + pm]);
                            if (term > want)
                                want = term;
                        }
                    }
                    float got = c[y * w + x];
                    if (memcmp(&got, &want, sizeof(float))) {
                        bad++;
                        CHECK_MSG(0, "[%s] %ux%u pad %u: c(%u, %u) = %.9g, direct count %.9g",
                              opts[o], w, h, pad, x, y, got, want);
                        break;
                    }
                }
            runs++;
            free(img);
            free(mask);
            free(hist);
            free(rows);
            free(c);
            free(t);
        }
        inst_close(&in);
    }
    printf("c-values: %u pictures against direct window counts\n", runs);
}

/* ---- tables --------------------------------------------------------------------- */

static void test_tables(const float *recip)
{
    static const char *const eotfs[] = { "bt1886", "pq" };
    for (unsigned e = 0; e < 2; e++)
        for (int d = 1; d <= VQ_CAMBI_MAX_DIFFS; d++) {
            int carried = -2, got = cambi_tvi_for_diff(d, 0.019, eotfs[e], &carried);
            CHECK_MSG(got == carried, "tvi %s diff %d: computed %d, libvmaf %d",
                  eotfs[e], d, got, carried);
        }
    unsigned differ = 0;
    for (int i = 1; i < CAMBI_RECIP_SIZE; i++) {
        float r = 1.0f / (float)i;
        if (r != recip[i]) {
            differ++;
            CHECK_MSG(fabsf(r - recip[i]) <= nextafterf(r, 1.0f) - r,
                  "reciprocal of %d more than one ulp from 1/%d", i, i);
        }
    }
    CHECK_MSG(differ == 42 && recip[0] == 0.0f, "%u reciprocals differ from 1/i",
          differ);
    printf("tables: tvi (2 EOTFs x 32 steps) as carried; %u reciprocals one "
           "ulp from 1/i, as libvmaf's table\n", differ);
}

/* ---- SIMD variants ----------------------------------------------------------------- */

static void test_simd(void)
{
    static const struct { unsigned w, h, bpc; const char *opts; } cfgs[] = {
        { 640, 360, 8, "" }, { 643, 361, 10, "full_ref=true:max_log_contrast=5" },
        { 1920, 1080, 8, "cambi_high_res_speedup=1080" },
    };
    char flags[64];
    vq_cpu_flags_string(vq_cpu_flags_detected(), flags, sizeof(flags));
    for (unsigned k = 0; k < sizeof(cfgs) / sizeof(cfgs[0]); k++) {
        uint8_t *acc[2] = { NULL, NULL };
        size_t size = 0;
        for (int base = 0; base < 2; base++) {
            vq_cpu_set_mask(base ? 0 : VQ_CPU_ALL);
            Inst in;
            if (inst_open(&in, cfgs[k].opts, cfgs[k].w, cfgs[k].h, cfgs[k].bpc)) {
                CHECK_MSG(0, "init: %s", in.err.msg);
                break;
            }
            size = in.fex.acc_size;
            acc[base] = calloc(1, size);
            void *scratch = aligned_alloc(64, (in.fex.scratch_size + 63) & ~(size_t)63);
            unsigned bps = cfgs[k].bpc > 8 ? 2 : 1;
            void *pl[2][3];
            VqFrame fr[2];
            memset(fr, 0, sizeof(fr));
            for (int d = 0; d < 2; d++) {
                unsigned cw = (cfgs[k].w + 1) / 2, ch = (cfgs[k].h + 1) / 2;
                pl[d][0] = malloc((size_t)cfgs[k].w * cfgs[k].h * bps);
                pl[d][1] = malloc((size_t)cw * ch * bps);
                pl[d][2] = malloc((size_t)cw * ch * bps);
                cambi_frames_fill(pl[d], cfgs[k].w, cfgs[k].h, cfgs[k].bpc, 1, d);
                fr[d].plane[0] = (VqPlane){ pl[d][0], (ptrdiff_t)(cfgs[k].w * bps),
                                            cfgs[k].w, cfgs[k].h };
            }
            vq_fex_cambi.cpu_run(&in.fex, &fr[0], &fr[1], 0, acc[base], scratch);
            for (int d = 0; d < 2; d++)
                for (int p = 0; p < 3; p++)
                    free(pl[d][p]);
            free(scratch);
            inst_close(&in);
        }
        vq_cpu_set_mask(VQ_CPU_ALL);
        CHECK_MSG(acc[0] && acc[1] && !memcmp(acc[0], acc[1], size),
              "%ux%u: the record with %s differs from the C record",
              cfgs[k].w, cfgs[k].h, flags);
        free(acc[0]);
        free(acc[1]);
    }
    printf("SIMD: C against this CPU's variants (%s): records identical on "
           "%zu frames\n", flags, sizeof(cfgs) / sizeof(cfgs[0]));
}

int main(void)
{
    float *recip = malloc(CAMBI_RECIP_SIZE * sizeof(float));
    cambi_recip_fill(recip);
    test_topk(recip);
    test_cvalues();
    test_tables(recip);
    test_simd();
    free(recip);
    printf("cambi_unit: %u failure(s)\n", n_fail);
    return n_fail ? 1 : 0;
}
