/*
 * float_ssim / float_ms_ssim CPU internals: the streamed, blocked map and
 * the decimations (with the C DSP tables and with every variant this CPU
 * has) against plain loops written here from libvmaf's iqa code
 * (_iqa_convolve's two passes, _iqa_ssim's pixel loop with one running
 * sum, _iqa_decimate), which must give the same floats. The variants
 * themselves are checked function by function in tests/checkasm.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "extractors/float_ms_ssim/float_ms_ssim_priv.h"
#include "cpu.h"
#include "extractors/common/float_ssim_map.h"

#include "../common/unit_check.h"

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint32_t rnd32(void)
{
    return (uint32_t)(vq_test_xorshift(&rng) >> 11);
}

/* ---- plain loops after libvmaf's iqa code ---- */

static const float gauss[11] = { VQ_FSSIM_GAUSS_TAPS };

/* _iqa_convolve (1-D separable branch): valid part, w x h -> (w-10) x (h-10) */
static void plain_convolve(const float *img, int w, int h, float *dst)
{
    int dw = w - 10, dh = h - 10;
    float *cache = calloc((size_t)w * h, sizeof(float));
    for (int y = 0; y < h; y++)
        for (int x = 0; x < dw; x++) {
            double sum = 0.0;
            for (int u = 0; u < 11; u++)
                sum += img[y * w + x + u] * gauss[u];
            cache[y * w + x + 5] = (float)sum;
        }
    for (int x = 0; x < dw; x++)
        for (int y = 0; y < dh; y++) {
            double sum = 0.0;
            for (int v = 0; v < 11; v++)
                sum += cache[(y + v) * w + x + 5] * gauss[v];
            dst[y * dw + x] = (float)sum;
        }
    free(cache);
}

/* _iqa_ssim with default arguments: the means of l, c, s and l*c*s. */
static void plain_ssim(const float *r, const float *d, int w, int h,
                       float out[4])
{
    size_t n = (size_t)w * h;
    int dw = w - 10, dh = h - 10;
    float *mr = malloc(n * 4), *md = malloc(n * 4), *rr = malloc(n * 4),
          *dd = malloc(n * 4), *rd = malloc(n * 4);
    float *sr = malloc(n * 4), *sd = malloc(n * 4), *sb = malloc(n * 4);
    plain_convolve(r, w, h, mr);
    plain_convolve(d, w, h, md);
    for (size_t i = 0; i < n; i++) {
        rr[i] = r[i] * r[i];
        dd[i] = d[i] * d[i];
        rd[i] = r[i] * d[i];
    }
    plain_convolve(rr, w, h, sr);
    plain_convolve(dd, w, h, sd);
    plain_convolve(rd, w, h, sb);
    VqFloatSsimConsts k = vq_float_ssim_consts();
    double ts = 0, tl = 0, tc = 0, tv = 0;
    for (int i = 0; i < dw * dh; i++) {
        double l, c, s;
        vq_float_ssim_pixel(mr[i], md[i], sr[i], sd[i], sb[i], k, &l, &c, &s);
        ts += l * c * s;
        tl += l;
        tc += c;
        tv += s;
    }
    double m = (double)(dw * dh);
    out[0] = (float)(ts / m);
    out[1] = (float)(tl / m);
    out[2] = (float)(tc / m);
    out[3] = (float)(tv / m);
    free(mr); free(md); free(rr); free(dd); free(rd);
    free(sr); free(sd); free(sb);
}

/* _iqa_decimate with a 2-D kernel of kw x kw taps, centre offset -kw/2. */
static void plain_decimate(const float *img, int w, int h, int f,
                           const float *kern, int kw, float *dst)
{
    int sw = w / f + (w & 1), sh = h / f + (h & 1), c = kw / 2;
    int even = !(kw & 1);
    for (int y = 0; y < sh; y++)
        for (int x = 0; x < sw; x++) {
            double sum = 0.0;
            int k = 0;
            for (int v = -c; v <= c - even; v++)
                for (int u = -c; u <= c - even; u++, k++)
                    sum += img[vq_float_ssim_mirror(y * f + v, h) * w +
                               vq_float_ssim_mirror(x * f + u, w)] * kern[k];
            dst[y * sw + x] = (float)sum;
        }
}

static void check_against_plain(int w, int h, unsigned flags)
{
    size_t n = (size_t)w * h;
    float *r = malloc(n * 4), *d = malloc(n * 4);
    for (size_t i = 0; i < n; i++) {
        int x = (int)(i % w), y = (int)(i / w);
        r[i] = (float)((int)(128 + 90 * sin(x / 5.0) * cos(y / 7.0)) & 255);
        int e = (int)(rnd32() % 41) - 20;
        int v = (int)r[i] + e;
        d[i] = (float)(v < 0 ? 0 : v > 255 ? 255 : v);
    }
    VqFloatSsimDsp dsp;
    vq_float_ssim_dsp_init(&dsp, flags);
    VqFloatSsimSrc sr = { (const uint8_t *)r, (ptrdiff_t)(w * 4), (unsigned)w,
                      (unsigned)h, 0 };
    VqFloatSsimSrc sd = sr;
    sd.data = (const uint8_t *)d;
    VqFloatSsimRow *rows = malloc((size_t)(h - 10) * sizeof(*rows));
    void *scratch = malloc(vq_float_ssim_map_scratch((unsigned)w) +
                           vq_float_ms_ssim_lpf_scratch((unsigned)w) +
                           vq_float_ssim_box_scratch((unsigned)w, (unsigned)w));
    vq_float_ssim_cpu_map(&dsp, &sr, &sd, vq_float_ssim_consts(), scratch, rows);
    float got[4], want[4];
    vq_float_ssim_means(rows, (unsigned)w - 10, (unsigned)h - 10, &got[0], &got[1],
                   &got[2], &got[3]);
    plain_ssim(r, d, w, h, want);
    CHECK_MSG(!memcmp(got, want, sizeof(got)),
          "%dx%d flags %u map: %.9g %.9g %.9g %.9g, plain %.9g %.9g %.9g %.9g",
          w, h, flags,
          got[0], got[1], got[2], got[3], want[0], want[1], want[2], want[3]);

    /* ms_ssim's decimation */
    int ow = w / 2 + (w & 1), oh = h / 2 + (h & 1);
    float *a = malloc((size_t)ow * oh * 4), *b = malloc((size_t)ow * oh * 4);
    const float lpf[81] = { VQ_FMS_LPF_TAPS };
    VqFloatMsSsimDsp fms;
    vq_float_ms_ssim_dsp_init(&fms, flags);
    vq_float_ms_ssim_cpu_lpf(&fms, &sr, a, scratch);
    plain_decimate(r, w, h, 2, lpf, 9, b);
    CHECK_MSG(!memcmp(a, b, (size_t)ow * oh * 4), "%dx%d flags %u lpf decimation",
          w, h, flags);
    /* float_ssim's box decimation, factors 2..5 */
    for (int f = 2; f <= 5; f++) {
        int bw = w / f + (w & 1), bh = h / f + (h & 1);
        float kern[25];
        for (int i = 0; i < f * f; i++)
            kern[i] = 1.0f / (float)(f * f);
        vq_float_ssim_cpu_box(&sr, (unsigned)f, a, (unsigned)bw, (unsigned)bh, scratch);
        plain_decimate(r, w, h, f, kern, f, b);
        CHECK_MSG(!memcmp(a, b, (size_t)bw * bh * 4), "%dx%d box %d", w, h, f);
    }
    free(a); free(b); free(r); free(d); free(rows); free(scratch);
}

int main(void)
{
    static const int sizes[][2] = { { 11, 11 }, { 12, 13 }, { 23, 31 },
                                    { 45, 44 }, { 203, 117 }, { 320, 181 } };
    unsigned all = vq_cpu_flags();
    for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
        check_against_plain(sizes[i][0], sizes[i][1], 0);
        if (all)
            check_against_plain(sizes[i][0], sizes[i][1], all);
    }
    printf("fssim_unit: %u checks, %u failure(s)\n", n_checks, n_fail);
    return n_fail ? 1 : 0;
}
