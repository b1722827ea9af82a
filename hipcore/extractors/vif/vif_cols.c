/*
 * Integer VIF: the tap pairs of the SIMD row functions and their columns
 * beyond the last full vector, one column at a time (vif_dsp.h). The same
 * arithmetic as vif_filter.c, column by column.
 */
#include "vif_dsp.h"

static const uint16_t taps_0[] = { VQ_VIF_TAPS_0 };
static const uint16_t taps_1[] = { VQ_VIF_TAPS_1 };
static const uint16_t taps_2[] = { VQ_VIF_TAPS_2 };
static const uint16_t taps_3[] = { VQ_VIF_TAPS_3 };
static const uint16_t *const taps[VQ_VIF_SCALES] = { taps_0, taps_1, taps_2,
                                                     taps_3 };

static inline uint32_t sample(const void *row, bool u8, unsigned j)
{
    return u8 ? ((const uint8_t *)row)[j] : ((const uint16_t *)row)[j];
}

static inline uint16_t flip(uint32_t v)
{
    return (uint16_t)(v ^ 0x8000);
}

void vq_vif_vert_stat_cols(unsigned s, bool u8, const void *const *rr,
                           const void *const *rd, unsigned j0, unsigned j1,
                           VqVifVRound rnd, VqVifWork *t)
{
    const uint16_t *tap = taps[s];
    unsigned n = 2 * VQ_VIF_HALF(s) + 1;
    for (unsigned j = j0; j < j1; j++) {
        uint32_t m1 = 0, m2 = 0;
        uint64_t xx = 0, yy = 0, xy = 0;
        for (unsigned k = 0; k < n; k++) {
            uint32_t r = sample(rr[k], u8, j), d = sample(rd[k], u8, j);
            m1 += tap[k] * r;
            m2 += tap[k] * d;
            xx += (uint64_t)tap[k] * (r * r);
            yy += (uint64_t)tap[k] * (d * d);
            xy += (uint64_t)tap[k] * (r * d);
        }
        t->v[VQ_VIF_MU1][j] = flip((m1 + rnd.mu_add) >> rnd.mu_shift);
        t->v[VQ_VIF_MU2][j] = flip((m2 + rnd.mu_add) >> rnd.mu_shift);
        uint64_t q[3] = { xx, yy, xy };
        for (unsigned i = 0; i < 3; i++) {
            uint32_t x = (uint32_t)((q[i] + rnd.sq_add) >> rnd.sq_shift);
            t->v[VQ_VIF_XX_HI + 2 * i][j] = flip(x >> 16);
            t->v[VQ_VIF_XX_LO + 2 * i][j] = flip(x & 0xffff);
        }
    }
}

/* sum of tap x (value XOR 0x8000) around column j of a padded row */
static inline uint32_t hsum(const uint16_t *v, const uint16_t *tap,
                            unsigned n, unsigned j)
{
    const uint16_t *p = v + (int)j - (int)n / 2;
    uint32_t a = 0;
    for (unsigned k = 0; k < n; k++)
        a += (uint32_t)tap[k] * flip(p[k]);
    return a;
}

void vq_vif_horiz_stat_cols(unsigned s, VqVifWork *t, unsigned j0,
                            unsigned j1)
{
    const uint16_t *tap = taps[s];
    unsigned n = 2 * VQ_VIF_HALF(s) + 1;
    uint16_t *const *v = t->v;
    for (unsigned j = j0; j < j1; j++) {
        uint32_t m1 = hsum(v[VQ_VIF_MU1], tap, n, j);
        uint32_t m2 = hsum(v[VQ_VIF_MU2], tap, n, j);
        uint32_t f[3];
        for (unsigned i = 0; i < 3; i++)
            f[i] = vq_vif_filt_halves(hsum(v[VQ_VIF_XX_HI + 2 * i], tap, n, j),
                                      hsum(v[VQ_VIF_XX_LO + 2 * i], tap, n, j));
        t->s1[j] = vq_vif_sigma_filt(f[0], m1, m1);
        t->s2[j] = vq_vif_sigma_filt(f[1], m2, m2);
        t->s12[j] = vq_vif_sigma_filt(f[2], m1, m2);
    }
}

void vq_vif_vert_down_cols(unsigned s, bool u8, const void *const *rr,
                           const void *const *rd, unsigned j0, unsigned j1,
                           VqVifVRound rnd, VqVifWork *t)
{
    const uint16_t *tap = taps[s + 1];
    unsigned n = 2 * VQ_VIF_HALF(s + 1) + 1;
    for (unsigned j = j0; j < j1; j++) {
        uint32_t ar = 0, ad = 0;
        for (unsigned k = 0; k < n; k++) {
            ar += tap[k] * sample(rr[k], u8, j);
            ad += tap[k] * sample(rd[k], u8, j);
        }
        t->d_ref[j] = flip((ar + rnd.mu_add) >> rnd.mu_shift);
        t->d_dis[j] = flip((ad + rnd.mu_add) >> rnd.mu_shift);
    }
}

void vq_vif_horiz_down_one_cols(unsigned s, const uint16_t *row,
                                unsigned j0, unsigned j1, uint16_t *out)
{
    const uint16_t *tap = taps[s + 1];
    unsigned n = 2 * VQ_VIF_HALF(s + 1) + 1;
    for (unsigned c = j0 / 2; c < j1 / 2; c++)
        out[c] = (uint16_t)((hsum(row, tap, n, 2 * c) + 32768) >> 16);
}

void vq_vif_horiz_down_cols(unsigned s, VqVifWork *t, unsigned j0,
                            unsigned j1, uint16_t *out_r, uint16_t *out_d)
{
    vq_vif_horiz_down_one_cols(s, t->d_ref, j0, j1, out_r);
    vq_vif_horiz_down_one_cols(s, t->d_dis, j0, j1, out_d);
}

/* The filtered halves of square or product rows q, q + 1 at column j. */
static uint32_t hsum_halves(uint16_t *const *v, unsigned q,
                            const uint16_t *tap, unsigned n, unsigned j)
{
    return vq_vif_filt_halves(hsum(v[q], tap, n, j),
                              hsum(v[q + 1], tap, n, j));
}

void vq_vif_horiz_ref_cols(unsigned s, const VqVifWork *t, unsigned j0,
                           unsigned j1, uint32_t *m1, int32_t *s1)
{
    const uint16_t *tap = taps[s];
    unsigned n = 2 * VQ_VIF_HALF(s) + 1;
    for (unsigned j = j0; j < j1; j++) {
        uint32_t mu = hsum(t->v[VQ_VIF_MU1], tap, n, j);
        m1[j] = mu;
        s1[j] = vq_vif_sigma_filt(hsum_halves(t->v, VQ_VIF_XX_HI, tap, n, j),
                                  mu, mu);
    }
}

void vq_vif_horiz_dis_cols(unsigned s, VqVifWork *t, unsigned j0,
                           unsigned j1, const uint32_t *m1)
{
    const uint16_t *tap = taps[s];
    unsigned n = 2 * VQ_VIF_HALF(s) + 1;
    for (unsigned j = j0; j < j1; j++) {
        uint32_t m2 = hsum(t->v[VQ_VIF_MU2], tap, n, j);
        t->s2[j] = vq_vif_sigma_filt(
            hsum_halves(t->v, VQ_VIF_YY_HI, tap, n, j), m2, m2);
        t->s12[j] = vq_vif_sigma_filt(
            hsum_halves(t->v, VQ_VIF_XY_HI, tap, n, j), m1[j], m2);
    }
}
