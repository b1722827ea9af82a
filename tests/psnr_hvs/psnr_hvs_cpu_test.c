/*
 * psnr_hvs's CPU plane function (the C function of its DSP table, and the
 * variant this machine would use) against the plain composition the GPU
 * uses (one block at a time, vq_hvs_block_terms with L = 1, terms added in
 * order), on random planes of 8 to 12 bits, sizes with and without a
 * partial batch of blocks, extreme and identical samples. The float sums
 * must be identical. (tests/checkasm compares the variants with the C
 * function.)
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "extractors/psnr_hvs/psnr_hvs_priv.h"
#include "../common/unit_check.h"

static uint64_t rng_state = 0x9E3779B97F4A7C15ULL;
static uint32_t rng(void)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return (uint32_t)((rng_state * 0x2545F4914F6CDD1DULL) >> 32);
}

static float plain(const VqPlane *r, const VqPlane *d, unsigned bps,
                   unsigned nbx, unsigned nby, const VqHvsTables *tab)
{
    float sum = 0;
    for (unsigned b = 0; b < nbx * nby; b++) {
        int32_t s[64], e[64];
        float t[64];
        unsigned x0 = (b % nbx) * VQ_HVS_STEP, y0 = (b / nbx) * VQ_HVS_STEP;
        for (unsigned k = 0; k < 64; k++) {
            const uint8_t *rr = r->data + (ptrdiff_t)(y0 + k / 8) * r->stride;
            const uint8_t *dr = d->data + (ptrdiff_t)(y0 + k / 8) * d->stride;
            unsigned x = x0 + k % 8;
            s[k] = bps == 1 ? rr[x] : ((const uint16_t *)(const void *)rr)[x];
            e[k] = bps == 1 ? dr[x] : ((const uint16_t *)(const void *)dr)[x];
        }
        vq_hvs_block_terms(s, e, tab, t, 1);
        for (unsigned k = 0; k < 64; k++)
            sum += t[k];
    }
    return sum;
}

int main(void)
{
    VqPsnrHvsDsp c, best;
    vq_psnr_hvs_dsp_init(&c, 0);
    vq_psnr_hvs_dsp_init(&best, vq_cpu_flags());
    vq_psnr_hvs_plane_fn fns[2] = { c.plane, best.plane };
    const char *names[2] = { "c", "this machine's variant" };
    unsigned nv = 2, checks = 0;
    VqHvsTables tab;
    for (int k = 0; k < 64; k++) {
        tab.csf[k] = (float)(0.1 + 2.5 / (1 + k % 8 + k / 8));
        tab.mask[k] = (float)((tab.csf[k] * 0.3885746225901003) *
                              (tab.csf[k] * 0.3885746225901003));
    }
    for (unsigned round = 0; round < 60; round++) {
        unsigned bpc = 8 + 2 * (round % 3), bps = bpc > 8 ? 2 : 1;
        unsigned w = 8 + rng() % 150, h = 8 + rng() % 40, mode = round / 3 % 4;
        unsigned max = (1u << bpc) - 1;
        size_t stride = (size_t)w * bps + 3 * bps;
        uint8_t *br = malloc(stride * h), *bd = malloc(stride * h);
        if (!br || !bd)
            return 1;
        for (unsigned y = 0; y < h; y++)
            for (unsigned x = 0; x < w; x++) {
                unsigned a = rng() % (max + 1), b = rng() % (max + 1);
                if (mode == 1) { /* extremes */
                    a = rng() & 1 ? max : 0;
                    b = rng() & 1 ? max : 0;
                } else if (mode == 2) { /* identical */
                    b = a;
                } else if (mode == 3) { /* small errors */
                    int v = (int)a + (int)(rng() % 7) - 3;
                    b = v < 0 ? 0 : v > (int)max ? max : (unsigned)v;
                }
                if (bps == 1) {
                    br[y * stride + x] = (uint8_t)a;
                    bd[y * stride + x] = (uint8_t)b;
                } else {
                    ((uint16_t *)(void *)(br + y * stride))[x] = (uint16_t)a;
                    ((uint16_t *)(void *)(bd + y * stride))[x] = (uint16_t)b;
                }
            }
        VqPlane r = { br, (ptrdiff_t)stride, w, h }, d = { bd, (ptrdiff_t)stride, w, h };
        unsigned nbx = vq_hvs_blocks(w), nby = vq_hvs_blocks(h);
        float want = plain(&r, &d, bps, nbx, nby, &tab);
        for (unsigned v = 0; v < nv; v++) {
            float got = fns[v](r.data, r.stride, d.data, d.stride, bps, nbx,
                               nby, &tab);
            CHECK_MSG(!memcmp(&got, &want, sizeof(got)),
                      "%s: %u-bit %ux%u mode %u: %a, plain %a", names[v], bpc,
                      w, h, mode, (double)got, (double)want);
            checks++;
        }
        free(br);
        free(bd);
    }
    printf("%u plane checks\n", checks);
    TEST_END();
}
