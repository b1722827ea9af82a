/*
 * Integer ssim against tests/ssim/ssim_direct.c, an independent direct
 * evaluation of its definition (kernels/ssim/ssim.h):
 *  - the taps and constants of the header equal the ones derived there;
 *  - the CPU path's frame sum (C tables and every instruction set this
 *    machine has) equals the direct sum exactly, on random and extreme
 *    frames of odd, tiny and ordinary sizes at every bit depth;
 *  - through the public API (CPU backend), the ssim value of each frame
 *    equals the direct value bit for bit, for gray and 4:2:0 inputs with
 *    padded strides, and a 1x1 frame is scored.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu.h"
#include "extractors/ssim/ssim_priv.h"
#include "vqhip.h"

#define SSIM_DIRECT_STATIC static
#include "ssim_direct.c"

#include "../common/unit_check.h"

static uint64_t rng = 0x2545f4914f6cdd1dull;
static uint32_t rnd32(void)
{
    return (uint32_t)(vq_test_xorshift(&rng) >> 11);
}

enum { F_RANDOM, F_NOISY, F_ZERO, F_MAX, F_CHECKER, F_ZERO_MAX, F_NEAR, F_N };
static const char *const fill_name[] = { "random", "noisy copy", "zero", "max",
                                         "0/max checker", "0 vs max",
                                         "max-1 vs max" };

static void fill(uint16_t *r, uint16_t *d, int w, int h, unsigned bpc, int f)
{
    unsigned max = (1u << bpc) - 1;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            size_t i = (size_t)y * w + x;
            unsigned a, b;
            switch (f) {
            case F_RANDOM: a = rnd32() & max; b = rnd32() & max; break;
            case F_NOISY: {
                a = rnd32() & max;
                int e = (int)(rnd32() % 33) - 16, v = (int)a + e * (int)(max >> 6);
                b = v < 0 ? 0 : v > (int)max ? max : (unsigned)v;
                break;
            }
            case F_ZERO: a = b = 0; break;
            case F_MAX: a = b = max; break;
            case F_CHECKER: a = (x + y) & 1 ? max : 0; b = (x + y) & 1 ? 0 : max; break;
            case F_ZERO_MAX: a = 0; b = max; break;
            default: a = rnd32() & 1 ? max : max - 1; b = rnd32() & 1 ? max : max - 1;
            }
            r[i] = (uint16_t)a;
            d[i] = (uint16_t)b;
        }
}

/* A plane view of 16-bit samples in the host layout the CPU path reads. */
static VqPlane as_plane(const void *buf, int w, int h, unsigned bps,
                        size_t stride)
{
    VqPlane p = { buf, (ptrdiff_t)stride, (unsigned)w, (unsigned)h };
    (void)bps;
    return p;
}

static void check_cpu_path(int w, int h, unsigned bpc, int f)
{
    size_t n = (size_t)w * h;
    uint16_t *r = malloc(n * 2), *d = malloc(n * 2);
    unsigned bps = bpc > 8 ? 2 : 1;
    size_t stride = (size_t)w * bps + 24; /* padded, junk-filled */
    uint8_t *br = malloc(stride * h), *bd = malloc(stride * h);
    fill(r, d, w, h, bpc, f);
    memset(br, 0xa5, stride * h);
    memset(bd, 0x5a, stride * h);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            size_t i = (size_t)y * w + x;
            if (bps == 1) {
                br[y * stride + x] = (uint8_t)r[i];
                bd[y * stride + x] = (uint8_t)d[i];
            } else {
                memcpy(br + y * stride + 2 * x, &r[i], 2);
                memcpy(bd + y * stride + 2 * x, &d[i], 2);
            }
        }
    int64_t want = ssim_direct_sum(r, d, w, w, h, bpc);
    VqPlane pr = as_plane(br, w, h, bps, stride), pd = as_plane(bd, w, h, bps, stride);
    void *scratch = malloc(vq_ssim_cpu_scratch((unsigned)w));
    VqSsimConsts k = vq_ssim_consts(bpc);
    /* the C table, then each instruction set the CPU has */
    unsigned have = vq_cpu_flags();
    for (unsigned flags = 0; flags <= VQ_CPU_ALL; flags = flags * 2 + 1) {
        if (flags & ~have)
            break;
        VqSsimDsp dsp;
        vq_ssim_dsp_init(&dsp, flags);
        int64_t got = vq_ssim_cpu_frame(&dsp, &pr, &pd, bps, k, scratch);
        CHECK_MSG(got == want, "%dx%d %u-bit %s (cpu flags %u): CPU sum %lld, "
              "direct %lld", w, h, bpc, fill_name[f], flags, (long long)got,
              (long long)want);
    }
    free(scratch);
    free(br);
    free(bd);
    free(r);
    free(d);
}

/* The public API on nframes frames of a gray or 4:2:0 picture. */
static void check_api(int w, int h, unsigned bpc, VqPixFmt fmt)
{
    unsigned bps = bpc > 8 ? 2 : 1;
    size_t n = (size_t)w * h, stride = (size_t)w * bps + 40;
    uint16_t *r = malloc(n * 2), *d = malloc(n * 2);
    uint8_t *plane[2][3];
    size_t cs = ((size_t)(w + 1) / 2) * bps + 8, ch = (size_t)(h + 1) / 2;
    for (int k = 0; k < 2; k++) {
        plane[k][0] = malloc(stride * h);
        plane[k][1] = calloc(cs, ch);
        plane[k][2] = calloc(cs, ch);
    }
    VqConfig cfg = vq_default_config();
    cfg.backend = VQ_BACKEND_CPU;
    VqContext *ctx = NULL;
    int e = vq_open(&ctx, &cfg);
    if (!e)
        e = vq_use_feature(ctx, "ssim");
    CHECK_MSG(!e, "open: %s", ctx ? vq_last_error(ctx) : "no context");
    double want[3];
    for (int f = 0; !e && f < 3; f++) {
        fill(r, d, w, h, bpc, f == 0 ? F_NOISY : f == 1 ? F_RANDOM : F_CHECKER);
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) {
                size_t i = (size_t)y * w + x;
                if (bps == 1) {
                    plane[0][0][y * stride + x] = (uint8_t)r[i];
                    plane[1][0][y * stride + x] = (uint8_t)d[i];
                } else {
                    memcpy(plane[0][0] + y * stride + 2 * x, &r[i], 2);
                    memcpy(plane[1][0] + y * stride + 2 * x, &d[i], 2);
                }
            }
        want[f] = (double)ssim_direct_sum(r, d, w, w, h, bpc) / 1073741824.0 /
                  ((double)w * (double)h);
        VqPicture pic[2];
        for (int k = 0; k < 2; k++) {
            memset(&pic[k], 0, sizeof(pic[k]));
            pic[k].fmt = fmt;
            pic[k].bpc = bpc;
            pic[k].w = (unsigned)w;
            pic[k].h = (unsigned)h;
            for (int c = 0; c < (fmt == VQ_PIX_FMT_GRAY ? 1 : 3); c++) {
                pic[k].data[c] = plane[k][c];
                pic[k].stride[c] = c ? (ptrdiff_t)cs : (ptrdiff_t)stride;
            }
        }
        e = vq_submit(ctx, &pic[0], &pic[1]);
        CHECK_MSG(!e, "submit: %s", vq_last_error(ctx));
    }
    if (!e)
        e = vq_flush(ctx);
    VqFrameScores fs;
    unsigned got = 0;
    while (!e && vq_receive(ctx, &fs) == 0) {
        CHECK_MSG(fs.n == 1 && !strcmp(fs.scores[0].name, "ssim"),
              "frame %u: unexpected outputs", fs.index);
        if (fs.n == 1 && fs.index < 3)
            CHECK_MSG(!memcmp(&fs.scores[0].value, &want[fs.index], sizeof(double)),
                  "%dx%d %u-bit: frame %u ssim %.17g, direct %.17g", w, h, bpc,
                  fs.index, fs.scores[0].value, want[fs.index]);
        got++;
    }
    CHECK_MSG(e || got == 3, "%dx%d: %u frames scored, 3 submitted", w, h, got);
    vq_close(&ctx);
    for (int k = 0; k < 2; k++)
        for (int c = 0; c < 3; c++)
            free(plane[k][c]);
    free(r);
    free(d);
}

int main(void)
{
    int taps[9];
    ssim_direct_taps(taps);
    const int header_taps[9] = { VQ_SSIM_TAP_LIST };
    CHECK_MSG(!memcmp(taps, header_taps, sizeof(taps)),
          "taps %d %d %d %d %d differ from the header's", taps[0], taps[1],
          taps[2], taps[3], taps[4]);
    static const unsigned depths[] = { 8, 10, 12, 16 };
    for (unsigned b = 0; b < 4; b++) {
        CHECK_MSG(vq_ssim_const(depths[b], 1) == ssim_direct_const(depths[b], 1) &&
              vq_ssim_const(depths[b], 9) == ssim_direct_const(depths[b], 9),
              "%u-bit constants differ", depths[b]);
    }
    static const int sizes[][2] = { { 1, 1 }, { 1, 7 }, { 7, 1 }, { 2, 3 },
                                    { 4, 4 }, { 5, 5 }, { 8, 9 }, { 9, 8 },
                                    { 13, 11 }, { 33, 17 }, { 64, 36 },
                                    { 203, 117 } };
    for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++)
        for (unsigned b = 0; b < 4; b++)
            for (int f = 0; f < F_N; f++)
                check_cpu_path(sizes[s][0], sizes[s][1], depths[b], f);
    check_api(1, 1, 8, VQ_PIX_FMT_GRAY);
    check_api(37, 23, 10, VQ_PIX_FMT_420);
    check_api(64, 48, 16, VQ_PIX_FMT_GRAY);
    check_api(203, 117, 8, VQ_PIX_FMT_420);
    printf("ssim_test: %u checks, %u failure(s)\n", n_checks, n_fail);
    return n_fail ? 1 : 0;
}
