/*
 * float_vif, float_adm, float_motion internals, checkasm style:
 *  - the C functions of float_vif's and float_adm's DSP tables, and every
 *    variant this CPU has, against plain loops over the shared scalar
 *    helpers (tests/checkasm compares the variants with the C functions),
 *    on random and extreme inputs, odd widths included;
 *  - vq_powf against the C library's powf (when that is glibc, whose
 *    results libvmaf's float_adm has);
 *  - the approximate reciprocal against the CPU's RCPSS on Intel CPUs (on
 *    others it is reported, not checked: AMD's differs);
 *  - sizes and options the extractors refuse, through the public API.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "extractors/float_adm/float_adm_priv.h"
#include "extractors/float_vif/float_vif_priv.h"
#include "vqhip.h"
#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include "../common/unit_check.h"

static uint64_t rng_s = 0x2545f4914f6cdd1dull;
static uint32_t rnd(void)
{
    return (uint32_t)(vq_test_xorshift(&rng_s) >> 16);
}

/* A sample value: mostly in libvmaf's range, sometimes extreme. */
static float sample(int mode)
{
    float u = (float)(rnd() % 65536) / 65536.0f;
    switch (mode) {
    case 0: return 255.0f * u - 128.0f;
    case 1: return rnd() & 1 ? 127.0f : -128.0f;
    case 2: return 1e-3f * u;
    default: return (float)(rnd() % 4) - 1.5f;
    }
}

static int same(float a, float b)
{
    return !memcmp(&a, &b, sizeof(a)) || (isnan(a) && isnan(b));
}

/* ---- float_vif rows ---------------------------------------------------- */

static void test_vif_rows(const VqFloatVifDsp *fn, const char *name)
{
    enum { W = 300, N = 17 };
    static float img[2][N][W + 64], out[5][W + 64], ref[5][W], hout[W];
    float taps[N], tsum = 0;
    for (int k = 0; k < N; k++)
        tsum += taps[k] = 1.0f + (float)(rnd() % 100);
    for (int k = 0; k < N; k++)
        taps[k] /= tsum;
    VqFloatVifConst c = { 2.0, (float)(4.0 / (255.0 * 255.0)), 100.0f, 1 };
    for (int mode = 0; mode < 4; mode++)
        for (unsigned w = 1; w <= W; w += w < 40 ? 1 : 37) {
            const float *ra[N], *rb[N];
            for (int k = 0; k < N; k++) {
                for (unsigned j = 0; j < w; j++) {
                    img[0][k][j] = sample(mode);
                    img[1][k][j] = mode == 3 ? img[0][k][j] : sample(mode);
                }
                ra[k] = img[0][k];
                rb[k] = img[1][k];
            }
            float *o[5];
            for (int q = 0; q < 5; q++)
                o[q] = out[q] + 32;
            fn->vert(ra, rb, taps, N, w, 5, o);
            for (unsigned j = 0; j < w; j++) {
                float a[N], b[N], aa[N], bb[N], ab[N];
                for (int k = 0; k < N; k++) {
                    a[k] = ra[k][j];
                    b[k] = rb[k][j];
                    aa[k] = a[k] * a[k];
                    bb[k] = b[k] * b[k];
                    ab[k] = a[k] * b[k];
                }
                ref[0][j] = vq_fconv_dot(taps, N, a, 1);
                ref[1][j] = vq_fconv_dot(taps, N, b, 1);
                ref[2][j] = vq_fconv_dot(taps, N, aa, 1);
                ref[3][j] = vq_fconv_dot(taps, N, bb, 1);
                ref[4][j] = vq_fconv_dot(taps, N, ab, 1);
                for (int q = 0; q < 5; q++)
                    CHECK_MSG(same(o[q][j], ref[q][j]), "%s vif vert w %u q %d",
                          name, w, q);
            }
            /* horizontal over a row with 8 values of border each side */
            fn->horiz(o[0], w > 16 ? w - 16 : 1, taps, N, hout);
            for (unsigned j = 0; w > 16 && j < w - 16; j++)
                CHECK_MSG(same(hout[j], vq_fconv_dot(taps, N, o[0] + j - 8, 1)),
                      "%s vif horiz w %u j %u", name, w, j);
            float num[W], den[W];
            fn->stats(&c, 2.0f, o[0], o[1], o[2], o[3], o[4], w, num, den);
            for (unsigned j = 0; j < w; j++) {
                float n1, d1;
                vq_float_vif_terms(&c, o[0][j], o[1][j], o[2][j], o[3][j], o[4][j],
                              &n1, &d1);
                CHECK_MSG(same(num[j], n1) && same(den[j], d1),
                      "%s vif stats w %u j %u", name, w, j);
            }
        }
}

/* ---- float_adm rows ---------------------------------------------------- */

static void test_adm_rows(const VqFloatAdmDsp *fn, const char *name)
{
    enum { W = 200 };
    static float band[6][W], csf[3][12][W], term[9][W];
    VqFloatAdmDims d;
    memset(&d, 0, sizeof(d));
    d.cos_1deg_sq = (float)(cos(3.14159265358979323846 / 180.0) *
                            cos(3.14159265358979323846 / 180.0));
    d.cube = 1;
    const float rf[3] = { 0.11f, 0.11f, 0.05f };
    for (int g = 0; g < 2; g++)
        for (int mode = 0; mode < 4; mode++)
            for (int w = 3; w <= W; w += w < 30 ? 1 : 41) {
                d.gain_limit = g ? 1.0 : 100.0;
                d.gain_f = (float)d.gain_limit;
                d.gain_exact = 1;
                float *csf_rows[3][12];
                for (int r = 0; r < 3; r++) {
                    for (int b = 0; b < 6; b++)
                        for (int j = 0; j < w; j++)
                            band[b][j] = mode == 2 && (rnd() & 1)
                                       ? 0.0f : 0.25f * sample(mode);
                    float *ref[3] = { band[0], band[1], band[2] };
                    float *dis[3] = { band[3], band[4], band[5] };
                    for (int q = 0; q < 12; q++)
                        csf_rows[r][q] = csf[r][q];
                    fn->csf_row(&d, rf, vq_float_adm_rcp_tab, ref, dis, csf_rows[r],
                                0, w);
                    for (int j = 0; j < w; j++) {
                        float ov[3] = { ref[0][j], ref[1][j], ref[2][j] };
                        float tv[3] = { dis[0][j], dis[1][j], dis[2][j] };
                        float rr[3], aa[3];
                        vq_float_adm_decouple(&d, vq_float_adm_rcp_tab, ov, tv, rr, aa);
                        for (int b = 0; b < 3; b++) {
                            float ca = rf[b] * aa[b], cr = rf[b] * rr[b];
                            CHECK_MSG(same(csf_rows[r][b][j], ca) &&
                                  same(csf_rows[r][3 + b][j],
                                       vq_float_adm_csf_f(ca)) &&
                                  same(csf_rows[r][6 + b][j], cr) &&
                                  same(csf_rows[r][9 + b][j],
                                       vq_float_adm_csf_f(cr)),
                                  "%s adm csf w %d j %d", name, w, j);
                        }
                    }
                }
                float *t6[6];
                for (int q = 0; q < 6; q++)
                    t6[q] = term[q];
                fn->cm_row(&d, csf_rows[0], csf_rows[1], csf_rows[2], 1,
                           w - 1, t6);
                float *const *u = csf_rows[0], *const *m = csf_rows[1];
                float *const *l = csf_rows[2];
                for (int j = 1; j < w - 1; j++) {
                    float tn = 0.0, ta = 0.0;
                    for (int b = 0; b < 3; b++) {
                        tn += vq_float_adm_thr_band(u[3 + b], m[3 + b], l[3 + b],
                                               m[b][j], j - 1, j, j + 1);
                        ta += vq_float_adm_thr_band(u[9 + b], m[9 + b], l[9 + b],
                                               m[6 + b][j], j - 1, j, j + 1);
                    }
                    for (int b = 0; b < 3; b++)
                        CHECK_MSG(same(term[b][j],
                                   vq_float_adm_cm_term(&d, m[6 + b][j], tn)) &&
                              same(term[3 + b][j],
                                   vq_float_adm_cm_term(&d, m[b][j], ta)),
                              "%s adm cm w %d j %d", name, w, j);
                }
                float *ref[3] = { band[0], band[1], band[2] };
                float *t3[3] = { term[6], term[7], term[8] };
                fn->den_row(&d, rf, ref, 0, w, t3);
                for (int j = 0; j < w; j++)
                    for (int b = 0; b < 3; b++)
                        CHECK_MSG(same(term[6 + b][j],
                                   vq_float_adm_den_term(&d, rf[b], ref[b][j])),
                              "%s adm den w %d j %d", name, w, j);
            }
}

/* ---- powf, reciprocal -------------------------------------------------- */

static void test_powf(void)
{
#if defined(__GLIBC__)
    const float ys[] = { 0.33333334f, 3.0f, 2.5f, 0.4f, 20.0f, 0.05f, 1.0f };
    unsigned bad = 0, n = 0;
    for (size_t k = 0; k < sizeof(ys) / sizeof(ys[0]); k++)
        for (int i = 0; i < 300000; i++) {
            uint32_t u = rnd() << 1 | (rnd() & 1);
            float x;
            u &= 0x7fffffffu;
            memcpy(&x, &u, sizeof(x));
            float a = powf(x, ys[k]), b = vq_powf(x, ys[k]);
            n++;
            if (!same(a, b) && bad++ < 5)
                printf("FAIL powf(%a, %a): glibc %a, vq_powf %a\n", x, ys[k],
                       a, b);
        }
    n_fail += bad;
    printf("vq_powf: %u of %u equal glibc's powf\n", n - bad, n);
#else
    printf("vq_powf: not compared (the C library is not glibc)\n");
#endif
}

static void test_rcp(void)
{
#if defined(__x86_64__) && defined(__GNUC__)
    unsigned diff = 0, n = 0;
    for (int i = 0; i < 2000000; i++) {
        uint32_t u = rnd() << 1 ^ rnd() << 17;
        float x;
        memcpy(&x, &u, sizeof(x));
        float hw = _mm_cvtss_f32(_mm_rcp_ss(_mm_set_ss(x)));
        diff += !same(hw, vq_float_adm_rcp_approx(vq_float_adm_rcp_tab, x));
        n++;
    }
    if (__builtin_cpu_is("intel")) {
        CHECK_MSG(diff == 0, "RCPSS emulation differs from this Intel CPU on %u "
              "of %u inputs", diff, n);
        printf("rcp: equals this Intel CPU's RCPSS on %u inputs\n", n);
    } else {
        printf("rcp: differs from this (non-Intel) CPU's RCPSS on %u of %u "
               "inputs (expected: libvmaf's float_adm follows the CPU)\n",
               diff, n);
    }
#endif
}

/* ---- refused sizes and options ----------------------------------------- */

static int first_frame(const char *spec, unsigned w, unsigned h, char *msg,
                       size_t sz)
{
    VqConfig cfg = vq_default_config();
    cfg.backend = VQ_BACKEND_CPU;
    cfg.log_level = VQ_LOG_LEVEL_ERROR;
    VqContext *ctx = NULL;
    int err = vq_open(&ctx, &cfg);
    if (!err)
        err = vq_use_feature(ctx, spec);
    uint8_t *buf = calloc((size_t)w * h * 2, 1);
    if (!err && buf) {
        VqPicture p = { .fmt = VQ_PIX_FMT_420, .bpc = 8, .w = w, .h = h,
                        .data = { buf, buf, buf },
                        .stride = { (ptrdiff_t)w, (ptrdiff_t)w,
                                    (ptrdiff_t)w } };
        err = vq_submit(ctx, &p, &p);
    }
    snprintf(msg, sz, "%s", err ? vq_last_error(ctx) : "");
    free(buf);
    vq_close(&ctx);
    return err;
}

static void test_refusals(void)
{
    char msg[512];
    struct {
        const char *spec;
        unsigned w, h;
        int err;
        const char *says;
    } t[] = {
        { "float_vif", 15, 64, VQ_EUNSUPPORTED, "at least 16x16" },
        { "float_vif", 16, 16, 0, "" },
        { "name=float_vif:vif_kernelscale=0.3", 64, 64, VQ_EINVAL,
          "vif_kernelscale" },
        { "name=float_vif:vif_prescale=0.5", 24, 24, VQ_EUNSUPPORTED,
          "after vif_prescale) it needs at least 31x31" },
        { "name=float_vif:vif_prescale_method=cubic", 64, 64, VQ_EINVAL,
          "nearest, bilinear, bicubic, lanczos4" },
        { "float_adm", 16, 40, VQ_EUNSUPPORTED, "at least 17x17" },
        { "float_adm", 17, 17, 0, "" },
        { "float_motion", 3, 3, 0, "" },
        { "float_motion", 2, 8, VQ_EUNSUPPORTED, "at least 3x3" },
        { "name=float_motion:motion_add_uv=true", 5, 8, VQ_EUNSUPPORTED,
          "chroma" },
    };
    for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
        int err = first_frame(t[i].spec, t[i].w, t[i].h, msg, sizeof(msg));
        CHECK_MSG(err == t[i].err && strstr(msg, t[i].says),
              "%s at %ux%u: %d '%s'", t[i].spec, t[i].w, t[i].h, err, msg);
    }
}

int main(void)
{
    /* the C functions, then each variant this CPU has */
    const unsigned levels[] = { 0, VQ_CPU_AVX2, VQ_CPU_AVX2 | VQ_CPU_AVX512 };
    const char *const names[] = { "c", "avx2", "avx512" };
    for (unsigned k = 0; k < 3; k++) {
        if ((levels[k] & vq_cpu_flags_detected()) != levels[k]) {
            printf("row functions: %s not on this CPU\n", names[k]);
            continue;
        }
        VqFloatVifDsp vf;
        VqFloatAdmDsp af;
        vq_float_vif_dsp_init(&vf, levels[k]);
        vq_float_adm_dsp_init(&af, levels[k]);
        test_vif_rows(&vf, names[k]);
        test_adm_rows(&af, names[k]);
        printf("row functions: %s checked\n", names[k]);
    }
    test_powf();
    test_rcp();
    test_refusals();
    printf("%u failure(s)\n", n_fail);
    return n_fail ? 1 : 0;
}
