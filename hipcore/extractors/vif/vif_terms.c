/*
 * Integer VIF, CPU path: the per-pixel terms of a row (vq_vif_pixel of
 * kernels/vif.h). The plain terms are summed in a branch-free loop and the
 * log-domain pixels gathered without branches (which pixels they are is
 * not predictable). Then the gathered pixels go through the table's
 * log_terms: vq_vif_log_terms on each (C), or the batch form below.
 */
#include <string.h>

#include "vif_dsp.h"

decl_vif_plain_terms_fn(vq_vif_plain_terms_c)
{
    int64_t num = 0, den = 0;
    for (unsigned j = 0; j < n; j++) {
        int32_t plain = !vq_vif_is_log(s1[j]);
        num += (uint32_t)(vq_vif_non_log_num(s2[j]) & -plain);
        den += plain;
    }
    acc->num_non_log += num;
    acc->den_non_log += den;
    unsigned m = 0;
    for (unsigned j = 0; j < n; j++) {
        l1[m] = s1[j];
        l2[m] = s2[j];
        l12[m] = s12[j];
        m += vq_vif_is_log(s1[j]);
    }
    return m;
}

#if VQ_ARCH_X86_64
/*
 * vq_vif_log_terms for m pixels, in a form the compiler vectorizes. The
 * same IEEE double operations in the same order; what differs is how
 * integers leave the doubles, each exact where it is used:
 *  - floor_i(x), |x| < 2^51: adding 1.5 * 2^52 rounds x to an integer held
 *    in the low mantissa bits; one comparison turns rounding into floor.
 *    (int32_t)sv and (int64_t)(g * g * sigma1_sq) truncate non-negative
 *    values (a negative sv gives 0 either way), i.e. floor; |sv| <= 2^45
 *    since |sigma12| < 2^31 and sigma1_sq >= 2^17, and g * g * sigma1_sq
 *    < 2^45 where it is used (0 < g <= 100).
 *  - 2048 * log2(v) of vq_vif_log2_32/64 for an integer 2^15 <= v < 2^52
 *    looks up v's top 16 bits: as a double, the implicit one and the top
 *    15 mantissa bits; the shift is the exponent minus 15.
 * Lanes without the numerator terms compute values that are then dropped
 * by masks (no branch: a branch would stop the vectorizer).
 */
static inline uint64_t dbits(double v)
{
    uint64_t b;
    memcpy(&b, &v, sizeof(b));
    return b;
}

static inline double bitsd(uint64_t b)
{
    double v;
    memcpy(&v, &b, sizeof(v));
    return v;
}

static inline int64_t floor_i(double x)
{
    const double magic = 6755399441055744.0; /* 1.5 * 2^52 */
    double y = x + magic;
    int64_t r = (int64_t)(dbits(y) - dbits(magic));
    return r - (int64_t)(y - magic > x);
}

/* (double)v for 0 <= v < 2^52 */
static inline double to_double(int64_t v)
{
    const double two52 = 4503599627370496.0;
    return bitsd(dbits(two52) | (uint64_t)v) - two52;
}

static inline int32_t log2_index(double v)
{
    return (int32_t)((dbits(v) >> 37) & 0x7fff);
}

static inline int32_t log2_shift(double v)
{
    return (int32_t)(dbits(v) >> 52) - 1023 - 15;
}

static inline __attribute__((always_inline)) void
log_terms_batch(const VqVifParams *p, unsigned m, const int32_t *restrict l1,
                const int32_t *restrict l2, const int32_t *restrict l12,
                int32_t *restrict i_den, int32_t *restrict i_num,
                int32_t *restrict i_numer1, VqVifScaleAcc *acc)
{
    const double eps = 65536 * 1.0e-10, nsq = VQ_VIF_SIGMA_NSQ;
    const uint64_t limit = dbits(p->gain_limit);
    int64_t k_den = 0, k_num = 0;
    for (unsigned q = 0; q < m; q++) {
        double x1 = l1[q], x2 = l2[q], x12 = l12[q];
        double v_den = x1 + nsq;
        i_den[q] = log2_index(v_den);
        k_den += log2_shift(v_den) - 17;
        double g = x12 / (x1 + eps);
        double sv = x2 - g * x12;
        int64_t sv_i = floor_i(sv);
        int64_t sv_sq = sv_i & ((int64_t)((uint64_t)sv_i >> 63) - 1);
        uint64_t over = (uint64_t)0 - (uint64_t)(g > p->gain_limit);
        double gc = bitsd((dbits(g) & ~over) | (limit & over));
        int64_t numer1 = sv_sq + VQ_VIF_SIGMA_NSQ;
        int64_t numer1_tmp = floor_i(gc * gc * x1) + numer1;
        double d1 = to_double(numer1), d1t = to_double(numer1_tmp);
        int32_t keep = -((l12[q] > 0) & (l2[q] > 0));
        int32_t in1 = log2_index(d1);
        i_numer1[q] = in1;
        i_num[q] = in1 + ((log2_index(d1t) - in1) & keep);
        k_num += (log2_shift(d1t) - log2_shift(d1)) & keep;
    }
    const uint16_t *tab = p->log2_tab;
    int64_t den = 0, num = 0;
    for (unsigned q = 0; q < m; q++) {
        den += tab[i_den[q]];
        num += tab[i_num[q]] - tab[i_numer1[q]];
    }
    acc->den_log += den + 2048 * k_den;
    acc->num_log += num + 2048 * k_num;
}

VQ_TARGET_AVX2 decl_vif_log_terms_fn(vq_vif_log_terms_avx2)
{
    log_terms_batch(p, m, l1, l2, l12, idx, idx + m, idx + 2 * m, acc);
}

VQ_TARGET_AVX512 decl_vif_log_terms_fn(vq_vif_log_terms_avx512)
{
    log_terms_batch(p, m, l1, l2, l12, idx, idx + m, idx + 2 * m, acc);
}
#endif

decl_vif_log_terms_fn(vq_vif_log_terms_c)
{
    (void)idx;
    int64_t num = 0, den = 0;
    for (unsigned q = 0; q < m; q++) {
        VqVifLogTerms lt = vq_vif_log_terms(p->log2_tab, l1[q], l2[q], l12[q],
                                            p->gain_limit);
        num += lt.num;
        den += lt.den;
    }
    acc->num_log += num;
    acc->den_log += den;
}

void vq_vif_cpu_stat_sums(const VqVifDsp *dsp, const VqVifParams *p,
                          const int32_t *s1, const int32_t *s2,
                          const int32_t *s12, unsigned n, VqVifWork *t,
                          VqVifScaleAcc *acc)
{
    unsigned m = dsp->plain_terms(s1, s2, s12, n, t->lg[0], t->lg[1],
                                  t->lg[2], acc);
    dsp->log_terms(p, m, t->lg[0], t->lg[1], t->lg[2], t->lg_idx, acc);
}
