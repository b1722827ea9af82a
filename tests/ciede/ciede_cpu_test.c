/*
 * ciede's CPU row (the C function of its DSP table, and the variant this
 * machine would use) against vq_ciede_pixel(), the per-sample composition
 * the GPU kernel uses, on random rows of every bit depth, both chroma
 * subsamplings, odd widths, clamped chroma columns, extreme and identical
 * samples. The records must be identical. (tests/checkasm compares the
 * variants with the C function.)
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "extractors/ciede/ciede_dsp.h"
#include "../common/unit_check.h"

static uint64_t rng_state = 0x853c49e6748fea9bULL;
static uint32_t rng(void)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return (uint32_t)((rng_state * 0x2545F4914F6CDD1DULL) >> 32);
}

static void add(VqCiedeAcc *a, float v)
{
    uint32_t sig;
    unsigned e = vq_ciede_bin(v, &sig);
    if (e < 255)
        a->bin[e] += sig;
    else if (sig)
        a->n_nan++;
    else
        a->n_inf++;
}

static unsigned get(const uint8_t *row, unsigned bps, unsigned x)
{
    return bps == 1 ? row[x] : ((const uint16_t *)(const void *)row)[x];
}

int main(void)
{
    VqCiedeDsp c, best;
    vq_ciede_dsp_init(&c, 0);
    vq_ciede_dsp_init(&best, vq_cpu_flags());
    vq_ciede_row_fn fns[2] = { c.row, best.row };
    const char *names[2] = { "c", "this machine's variant" };
    unsigned nv = 2;
    char flags[64];
    printf("ciede row: c and the variant for CPU flags %s\n",
           vq_cpu_flags_string(vq_cpu_flags(), flags, sizeof(flags)));
    static const unsigned bpcs[] = { 8, 10, 12, 16 };
    unsigned cases = 0;
    for (unsigned round = 0; round < 96; round++) {
        unsigned bpc = bpcs[round % 4], bps = bpc > 8 ? 2 : 1;
        unsigned ss_x = (round / 4) % 2, w = 1 + rng() % 301;
        unsigned cw = ss_x ? (w >> 1 ? w >> 1 : 1) : w, max = (1u << bpc) - 1;
        unsigned mode = (round / 8) % 4; /* random, extremes, identical, near */
        uint8_t *buf[6];
        for (int k = 0; k < 6; k++) {
            unsigned n = k % 3 ? cw : w;
            buf[k] = malloc((size_t)n * bps);
            if (!buf[k])
                return 1;
            for (unsigned x = 0; x < n; x++) {
                unsigned v = rng() % (max + 1);
                if (mode == 1)
                    v = rng() & 1 ? max : 0;
                if (mode >= 2 && k >= 3) { /* distorted from the reference */
                    v = get(buf[k - 3], bps, x);
                    if (mode == 3) {
                        int d = (int)v + (int)(rng() % 5) - 2;
                        v = d < 0 ? 0 : d > (int)max ? max : (unsigned)d;
                    }
                }
                if (bps == 1)
                    buf[k][x] = (uint8_t)v;
                else
                    ((uint16_t *)(void *)buf[k])[x] = (uint16_t)v;
            }
        }
        VqCiedeAcc want;
        memset(&want, 0, sizeof(want));
        for (unsigned x = 0; x < w; x++) {
            unsigned cx = x >> ss_x < cw ? x >> ss_x : cw - 1;
            add(&want, vq_ciede_pixel(get(buf[0], bps, x), get(buf[1], bps, cx),
                                      get(buf[2], bps, cx), get(buf[3], bps, x),
                                      get(buf[4], bps, cx), get(buf[5], bps, cx),
                                      bpc));
        }
        void *scratch = malloc(vq_ciede_row_scratch(w));
        if (!scratch)
            return 1;
        for (unsigned v = 0; v < nv; v++) {
            VqCiedeAcc got;
            memset(&got, 0, sizeof(got));
            const uint8_t *rows[6] = { buf[0], buf[1], buf[2], buf[3], buf[4], buf[5] };
            fns[v](rows, bps, w, ss_x, cw, bpc, scratch, &got);
            CHECK_MSG(!memcmp(&got, &want, sizeof(got)),
                      "%s: %u-bit, w %u, ss_x %u, mode %u: record differs",
                      names[v], bpc, w, ss_x, mode);
            cases++;
        }
        free(scratch);
        for (int k = 0; k < 6; k++)
            free(buf[k]);
    }
    printf("%u row checks\n", cases);
    TEST_END();
}
