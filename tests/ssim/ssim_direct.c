/*
 * A direct, unoptimised evaluation of vqhip's integer SSIM, written from
 * the definition in kernels/ssim/ssim.h and sharing no code with it: the
 * taps are derived from the Gaussian here, the window is applied in 2-D
 * (81 weights per pixel, no separable passes, no ring of rows), borders are
 * reflected by repeated folding, the moments and constants are formed in
 * 128-bit integers, and the pixel formula is written out again.
 *
 * Used by tests/ssim/ssim_test.c (compiled in), and as a tool that makes
 * the FATE reference of the ssim feature (fate/make-refs.sh):
 *   ssim_direct REF.yuv DIS.yuv W H 420|422|444|400 BITS
 * prints "frame:N ssim=%.6f"-style metadata lines.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#ifndef SSIM_DIRECT_STATIC
#define SSIM_DIRECT_STATIC
#endif

typedef unsigned __int128 u128;

/* sum-256 integer Gaussian, sigma 1.5, 9 taps: the off-centre taps are
 * rounded, the centre takes what is left. */
SSIM_DIRECT_STATIC void ssim_direct_taps(int t[9])
{
    double g[9], sum = 0;
    for (int k = -4; k <= 4; k++) {
        g[k + 4] = exp(-(double)(k * k) / (2.0 * 1.5 * 1.5));
        sum += g[k + 4];
    }
    int rest = 256;
    for (int k = 0; k < 9; k++) {
        if (k == 4)
            continue;
        t[k] = (int)floor(256.0 * g[k] / sum + 0.5);
        rest -= t[k];
    }
    t[4] = rest;
}

/* round(k * (L * 65536)^2 / 10^4), half up */
SSIM_DIRECT_STATIC uint64_t ssim_direct_const(unsigned bpc, unsigned k)
{
    u128 lw = (u128)((1u << bpc) - 1) * 65536u;
    return (uint64_t)((lw * lw * k + 5000) / 10000);
}

static int fold(int k, int n)
{
    while (k < 0 || k >= n)
        k = k < 0 ? -1 - k : 2 * n - 1 - k;
    return k;
}

/* The frame's sum of per-pixel fixed-point values; planes of w x h samples
 * with a stride in samples. */
SSIM_DIRECT_STATIC int64_t ssim_direct_sum(const uint16_t *ref,
                                           const uint16_t *dis, int stride,
                                           int w, int h, unsigned bpc)
{
    int t[9];
    ssim_direct_taps(t);
    double c1 = (double)ssim_direct_const(bpc, 1);
    double c2 = (double)ssim_direct_const(bpc, 9);
    int64_t total = 0;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            uint64_t sx = 0, sy = 0, sxx = 0, syy = 0, sxy = 0;
            for (int j = -4; j <= 4; j++)
                for (int i = -4; i <= 4; i++) {
                    uint64_t wt = (uint64_t)(t[j + 4] * t[i + 4]);
                    size_t at = (size_t)fold(y + j, h) * (size_t)stride +
                                (size_t)fold(x + i, w);
                    uint64_t a = ref[at], b = dis[at];
                    sx += wt * a;
                    sy += wt * b;
                    sxx += wt * a * a;
                    syy += wt * b * b;
                    sxy += wt * a * b;
                }
            u128 px = (u128)sx * sx, py = (u128)sy * sy, pxy = (u128)sx * sy;
            u128 vx = (u128)65536 * sxx - px, vy = (u128)65536 * syy - py;
            u128 wxy = (u128)65536 * sxy;
            double cov = wxy >= pxy ? (double)(int64_t)(uint64_t)(wxy - pxy)
                                    : -(double)(int64_t)(uint64_t)(pxy - wxy);
            double num_l = 2.0 * (double)(uint64_t)pxy + c1;
            double num_c = 2.0 * cov + c2;
            double den_l = (double)(uint64_t)px + (double)(uint64_t)py + c1;
            double den_c = (double)(uint64_t)vx + (double)(uint64_t)vy + c2;
            double r = (num_l * num_c) / (den_l * den_c);
            total += (int64_t)floor(r * 1073741824.0 + 0.5);
        }
    return total;
}

#ifdef SSIM_DIRECT_MAIN
int main(int argc, char **argv)
{
    if (argc != 7) {
        fprintf(stderr, "usage: ssim_direct REF DIS W H 420|422|444|400 BITS\n");
        return 2;
    }
    int w = atoi(argv[3]), h = atoi(argv[4]), fmt = atoi(argv[5]);
    unsigned bpc = (unsigned)atoi(argv[6]), bps = bpc > 8 ? 2 : 1;
    size_t cw = fmt == 444 ? (size_t)w : fmt == 400 ? 0 : (size_t)(w + 1) / 2;
    size_t ch = fmt == 420 ? (size_t)(h + 1) / 2 : fmt == 400 ? 0 : (size_t)h;
    size_t luma = (size_t)w * h, frame = (luma + 2 * cw * ch) * bps;
    FILE *fr = fopen(argv[1], "rb"), *fd = fopen(argv[2], "rb");
    unsigned char *br = malloc(frame), *bd = malloc(frame);
    uint16_t *r = malloc(luma * 2), *d = malloc(luma * 2);
    if (!fr || !fd || !br || !bd || !r || !d) {
        fprintf(stderr, "ssim_direct: cannot open the inputs\n");
        return 1;
    }
    for (int n = 0; fread(br, 1, frame, fr) == frame &&
                    fread(bd, 1, frame, fd) == frame; n++) {
        for (size_t i = 0; i < luma; i++) {
            r[i] = bps == 1 ? br[i] : (uint16_t)(br[2 * i] | br[2 * i + 1] << 8);
            d[i] = bps == 1 ? bd[i] : (uint16_t)(bd[2 * i] | bd[2 * i + 1] << 8);
        }
        int64_t s = ssim_direct_sum(r, d, w, w, h, bpc);
        printf("%d %.6f\n", n, (double)s / 1073741824.0 / ((double)w * h));
    }
    return 0;
}
#endif
