/*
 * Integer VIF, CPU row filters, written for the compiler's vectorizer:
 *  - each filter is instantiated with its tap count known and the tap loop
 *    unrolled inside the loop over columns, so sums stay in registers;
 *  - a pass filters two quantities, the most whose sums still fit the
 *    vector registers next to the taps;
 *  - every multiplication is 16 x 16 -> 32 bits, which any SIMD unit has.
 *    Squares and products of 16-bit samples are therefore filtered as their
 *    high and low 16-bit halves (8-bit samples: the low half is all), and
 *    the halves are joined once per output (vq_vif_filt_halves).
 * The sums are exact integers: none of this changes a result.
 * This is the C function of the DSP table (vif_dsp.h); the AVX2 and AVX-512
 * ones are written with intrinsics (vif_simd_tmpl.h).
 */
#include <string.h>

#include "vif_dsp.h"

#if defined(__GNUC__)
#define VIF_INLINE static inline __attribute__((always_inline))
#define VIF_UNROLL _Pragma("GCC unroll 17")
/* Hides the taps' values from the optimizer. For SSE2 the compiler turns
 * multiplications by known taps into slower shift-and-add sequences; for
 * AVX2 known taps are better (fewer registers held). */
#define VIF_OPAQUE(arr) __asm__("" : : "r"(arr) : "memory")
#else
#define VIF_INLINE static inline
#define VIF_UNROLL
#define VIF_OPAQUE(arr) ((void)(arr))
#endif

static const uint16_t taps_0[] = { VQ_VIF_TAPS_0 };
static const uint16_t taps_1[] = { VQ_VIF_TAPS_1 };
static const uint16_t taps_2[] = { VQ_VIF_TAPS_2 };
static const uint16_t taps_3[] = { VQ_VIF_TAPS_3 };

/* The taps a filter multiplies by: the constants, or a copy the optimizer
 * cannot see through. */
#define VIF_TAPS(name, taps, n, opaque)                                       \
    uint16_t name##_copy[VQ_VIF_MAX_TAPS];                                    \
    const uint16_t *name = taps;                                              \
    if (opaque) {                                                             \
        memcpy(name##_copy, taps, (n) * sizeof(uint16_t));                    \
        VIF_OPAQUE(name##_copy);                                              \
        name = name##_copy;                                                   \
    }

/* Mirrored borders of a row buffer, in libvmaf's order: p[-f] = p[f],
 * p[w-1+f] = p[w-1-f] for f = 1, 2, ... (for w = 1 this keeps p[1] as it
 * was, which is what libvmaf reads there: VQ_VIF_EDGE_*). */
void vq_vif_pad16(uint16_t *p, unsigned w, unsigned half)
{
    int last = (int)w - 1;
    for (int f = 1; f <= (int)half; f++) {
        p[-f] = p[f];
        p[last + f] = p[last - f];
    }
}

static inline uint16_t hi16(uint32_t v) { return (uint16_t)(v >> 16); }

/* What a vertical pass filters, from a reference sample r and a distorted
 * sample d: the samples, or a square or product (whole when the samples
 * have 8 bits, else its high or low 16 bits). A constant after inlining. */
enum { Q_R, Q_D, Q_RR, Q_DD, Q_RD, Q_RR_HI, Q_RR_LO, Q_DD_HI, Q_DD_LO,
       Q_RD_HI, Q_RD_LO };

VIF_INLINE uint16_t quantity(unsigned q, uint16_t r, uint16_t d)
{
    switch (q) {
    case Q_R: return r;
    case Q_D: return d;
    case Q_RR: return (uint16_t)(r * r);
    case Q_DD: return (uint16_t)(d * d);
    case Q_RD: return (uint16_t)(r * d);
    case Q_RR_HI: return hi16((uint32_t)r * r);
    case Q_RR_LO: return (uint16_t)((uint32_t)r * r);
    case Q_DD_HI: return hi16((uint32_t)d * d);
    case Q_DD_LO: return (uint16_t)((uint32_t)d * d);
    case Q_RD_HI: return hi16((uint32_t)r * d);
    default: return (uint16_t)((uint32_t)r * d);
    }
}

/* Vertical pass of two quantities: out_a[j] = sum over k of
 * tap[k] * quantity(qa) of rows k at column j. */
#define VIF_VERT_PAIR(NAME, T)                                                \
    VIF_INLINE void NAME(const T *const *rr, const T *const *rd,             \
                         const uint16_t *tap, unsigned n, unsigned w,        \
                         unsigned qa, unsigned qb, uint32_t *restrict out_a, \
                         uint32_t *restrict out_b)                           \
    {                                                                         \
        for (unsigned j = 0; j < w; j++) {                                    \
            uint32_t a = 0, b = 0;                                            \
            VIF_UNROLL                                                        \
            for (unsigned k = 0; k < n; k++) {                                \
                uint16_t r = rr[k][j], d = rd[k][j];                          \
                a += (uint32_t)tap[k] * quantity(qa, r, d);                   \
                b += (uint32_t)tap[k] * quantity(qb, r, d);                   \
            }                                                                 \
            out_a[j] = a;                                                     \
            out_b[j] = b;                                                     \
        }                                                                     \
    }
VIF_VERT_PAIR(vert_pair_u8, uint8_t)
VIF_VERT_PAIR(vert_pair_u16, uint16_t)
#undef VIF_VERT_PAIR

/* Horizontal pass of two padded 16-bit rows. */
VIF_INLINE void horiz_pair(const uint16_t *pa, const uint16_t *pb,
                           const uint16_t *tap, unsigned n, unsigned w,
                           uint32_t *restrict out_a, uint32_t *restrict out_b)
{
    pa -= n / 2;
    pb -= n / 2;
    for (unsigned j = 0; j < w; j++) {
        uint32_t a = 0, b = 0;
        VIF_UNROLL
        for (unsigned k = 0; k < n; k++) {
            a += (uint32_t)tap[k] * (pa + k)[j];
            b += (uint32_t)tap[k] * (pb + k)[j];
        }
        out_a[j] = a;
        out_b[j] = b;
    }
}

/* Joins the 16-bit halves' sums of square or product rows q (hi) and
 * q + 1 (lo) into their rounded 16-bit halves (vert_stat's join). */
static void join_halves(bool u8, VqVifWork *t, unsigned q, unsigned w,
                        VqVifVRound rnd)
{
    uint32_t *const *a = t->sum;
    uint16_t *restrict hi = t->v[q], *restrict lo = t->v[q + 1];
    for (unsigned j = 0; j < w; j++) {
        uint32_t x = u8 ? a[q + 1][j]
                        : (uint32_t)(((((uint64_t)a[q][j] << 16) +
                                       a[q + 1][j]) + rnd.sq_add) >>
                                     rnd.sq_shift);
        hi[j] = hi16(x);
        lo[j] = (uint16_t)x;
    }
}

static void round_mu(VqVifWork *t, unsigned q, unsigned w, VqVifVRound rnd)
{
    for (unsigned j = 0; j < w; j++)
        t->v[q][j] = (uint16_t)((t->sum[q][j] + rnd.mu_add) >> rnd.mu_shift);
}

/* Vertical pass of the statistic: 8-bit samples give squares and products
 * that fit 16 bits, with sums below 2^32 (65536 * 255^2); 16-bit samples
 * give them as halves, whose sums are joined, rounded and split again. */
VIF_INLINE void vert_stat(bool u8, const void *const *rr, const void *const *rd,
                          const uint16_t *taps, unsigned n, unsigned w,
                          VqVifVRound rnd, VqVifWork *t, bool opaque)
{
    VIF_TAPS(tap, taps, n, opaque)
    uint32_t *const *a = t->sum;
    if (u8) {
        const uint8_t *const *r8 = (const uint8_t *const *)rr;
        const uint8_t *const *d8 = (const uint8_t *const *)rd;
        vert_pair_u8(r8, d8, tap, n, w, Q_R, Q_D, a[VQ_VIF_MU1],
                     a[VQ_VIF_MU2]);
        vert_pair_u8(r8, d8, tap, n, w, Q_RR, Q_DD, a[VQ_VIF_XX_LO],
                     a[VQ_VIF_YY_LO]);
        vert_pair_u8(r8, d8, tap, n, w, Q_RD, Q_RD, a[VQ_VIF_XY_LO],
                     a[VQ_VIF_XY_HI]);
    } else {
        const uint16_t *const *r16 = (const uint16_t *const *)rr;
        const uint16_t *const *d16 = (const uint16_t *const *)rd;
        vert_pair_u16(r16, d16, tap, n, w, Q_R, Q_D, a[VQ_VIF_MU1],
                      a[VQ_VIF_MU2]);
        vert_pair_u16(r16, d16, tap, n, w, Q_RR_HI, Q_RR_LO, a[VQ_VIF_XX_HI],
                      a[VQ_VIF_XX_LO]);
        vert_pair_u16(r16, d16, tap, n, w, Q_DD_HI, Q_DD_LO, a[VQ_VIF_YY_HI],
                      a[VQ_VIF_YY_LO]);
        vert_pair_u16(r16, d16, tap, n, w, Q_RD_HI, Q_RD_LO, a[VQ_VIF_XY_HI],
                      a[VQ_VIF_XY_LO]);
    }
    for (unsigned q = VQ_VIF_XX_HI; q <= VQ_VIF_XY_LO; q += 2)
        join_halves(u8, t, q, w, rnd);
    round_mu(t, VQ_VIF_MU1, w, rnd);
    round_mu(t, VQ_VIF_MU2, w, rnd);
}

/* Horizontal pass over the padded vertical rows, into sigma rows. */
VIF_INLINE void horiz_stat(VqVifWork *t, const uint16_t *taps, unsigned n,
                           unsigned w, bool opaque)
{
    VIF_TAPS(tap, taps, n, opaque)
    uint32_t *const *a = t->sum;
    uint16_t *const *v = t->v;
    for (unsigned q = 0; q < VQ_VIF_ROWS; q += 2)
        horiz_pair(v[q], v[q + 1], tap, n, w, a[q], a[q + 1]);
    const uint32_t *m1 = a[VQ_VIF_MU1], *m2 = a[VQ_VIF_MU2];
    const uint32_t *xh = a[VQ_VIF_XX_HI], *xl = a[VQ_VIF_XX_LO];
    const uint32_t *yh = a[VQ_VIF_YY_HI], *yl = a[VQ_VIF_YY_LO];
    const uint32_t *ch = a[VQ_VIF_XY_HI], *cl = a[VQ_VIF_XY_LO];
    int32_t *restrict s1 = t->s1, *restrict s2 = t->s2, *restrict s12 = t->s12;
    for (unsigned j = 0; j < w; j++) {
        s1[j] = vq_vif_sigma_filt(vq_vif_filt_halves(xh[j], xl[j]), m1[j],
                                  m1[j]);
        s2[j] = vq_vif_sigma_filt(vq_vif_filt_halves(yh[j], yl[j]), m2[j],
                                  m2[j]);
        s12[j] = vq_vif_sigma_filt(vq_vif_filt_halves(ch[j], cl[j]), m1[j],
                                   m2[j]);
    }
}

VIF_INLINE void stat_row(unsigned s, bool u8, const void *const *rr,
                         const void *const *rd, unsigned w, VqVifVRound rnd,
                         VqVifWork *t, bool opaque)
{
    switch (s) {
    case 0: vert_stat(u8, rr, rd, taps_0, 17, w, rnd, t, opaque); break;
    case 1: vert_stat(false, rr, rd, taps_1, 9, w, rnd, t, opaque); break;
    case 2: vert_stat(false, rr, rd, taps_2, 5, w, rnd, t, opaque); break;
    default: vert_stat(false, rr, rd, taps_3, 3, w, rnd, t, opaque); break;
    }
    for (unsigned q = 0; q < VQ_VIF_ROWS; q++)
        vq_vif_pad16(t->v[q], w, VQ_VIF_HALF(s));
    switch (s) {
    case 0: horiz_stat(t, taps_0, 17, w, opaque); break;
    case 1: horiz_stat(t, taps_1, 9, w, opaque); break;
    case 2: horiz_stat(t, taps_2, 5, w, opaque); break;
    default: horiz_stat(t, taps_3, 3, w, opaque); break;
    }
}

/* Vertical pass of the next scale's filter (one even row). */
#define VIF_VERT_DOWN(NAME, T)                                                \
    VIF_INLINE void NAME(const T *const *rr, const T *const *rd,             \
                         const uint16_t *taps, unsigned n, unsigned w,       \
                         VqVifVRound rnd, uint16_t *restrict out_r,          \
                         uint16_t *restrict out_d, bool opaque)              \
    {                                                                         \
        VIF_TAPS(tap, taps, n, opaque)                                        \
        for (unsigned j = 0; j < w; j++) {                                    \
            uint32_t ar = 0, ad = 0;                                          \
            VIF_UNROLL                                                        \
            for (unsigned k = 0; k < n; k++) {                                \
                ar += (uint32_t)tap[k] * rr[k][j];                            \
                ad += (uint32_t)tap[k] * rd[k][j];                            \
            }                                                                 \
            out_r[j] = (uint16_t)((ar + rnd.mu_add) >> rnd.mu_shift);         \
            out_d[j] = (uint16_t)((ad + rnd.mu_add) >> rnd.mu_shift);         \
        }                                                                     \
    }
VIF_VERT_DOWN(vert_down_u8, uint8_t)
VIF_VERT_DOWN(vert_down_u16, uint16_t)
#undef VIF_VERT_DOWN

/* Horizontal pass of the next scale's filter at even columns of a padded
 * row: out[c] is the filtered sample at column 2c. */
VIF_INLINE void horiz_down(const uint16_t *row, const uint16_t *taps,
                           unsigned n, unsigned w_out, uint16_t *restrict out,
                           bool opaque)
{
    VIF_TAPS(tap, taps, n, opaque)
    const uint16_t *p = row - (int)n / 2;
    for (unsigned c = 0; c < w_out; c++) {
        uint32_t a = 0;
        VIF_UNROLL
        for (unsigned k = 0; k < n; k++)
            a += (uint32_t)tap[k] * (p + k)[2 * c];
        out[c] = (uint16_t)((a + 32768) >> 16);
    }
}

VIF_INLINE void down_row(unsigned s, bool u8, const void *const *rr,
                         const void *const *rd, unsigned w, VqVifVRound rnd,
                         VqVifWork *t, uint16_t *out_r, uint16_t *out_d,
                         bool opaque)
{
    const uint16_t *const *r16 = (const uint16_t *const *)rr;
    const uint16_t *const *d16 = (const uint16_t *const *)rd;
    switch (s) {
    case 0:
        if (u8)
            vert_down_u8((const uint8_t *const *)rr, (const uint8_t *const *)rd,
                         taps_1, 9, w, rnd, t->d_ref, t->d_dis, opaque);
        else
            vert_down_u16(r16, d16, taps_1, 9, w, rnd, t->d_ref, t->d_dis,
                          opaque);
        break;
    case 1:
        vert_down_u16(r16, d16, taps_2, 5, w, rnd, t->d_ref, t->d_dis, opaque);
        break;
    default:
        vert_down_u16(r16, d16, taps_3, 3, w, rnd, t->d_ref, t->d_dis, opaque);
        break;
    }
    vq_vif_pad16(t->d_ref, w, VQ_VIF_HALF(s + 1));
    vq_vif_pad16(t->d_dis, w, VQ_VIF_HALF(s + 1));
    for (unsigned k = 0; k < 2; k++) {
        const uint16_t *row = k ? t->d_dis : t->d_ref;
        uint16_t *out = k ? out_d : out_r;
        switch (s) {
        case 0: horiz_down(row, taps_1, 9, w / 2, out, opaque); break;
        case 1: horiz_down(row, taps_2, 5, w / 2, out, opaque); break;
        default: horiz_down(row, taps_3, 3, w / 2, out, opaque); break;
        }
    }
}

/* ---- the split of stat_row (vif_dsp.h): the C functions only, each
 * filter pass written once with the pair functions above (a pass's second
 * quantity is a throwaway where it has one quantity to filter) ---- */

static const uint16_t *const split_taps[VQ_VIF_SCALES] = { taps_0, taps_1,
                                                           taps_2, taps_3 };

decl_vif_stat_ref_row_fn(vq_vif_stat_ref_row_c)
{
    const uint16_t *tap = split_taps[s];
    unsigned n = 2 * VQ_VIF_HALF(s) + 1;
    uint32_t *const *a = t->sum;
    uint16_t *const *v = t->v;
    if (u8) {
        const uint8_t *const *r8 = (const uint8_t *const *)rr;
        vert_pair_u8(r8, r8, tap, n, w, Q_R, Q_RR, a[VQ_VIF_MU1],
                     a[VQ_VIF_XX_LO]);
    } else {
        const uint16_t *const *r16 = (const uint16_t *const *)rr;
        vert_pair_u16(r16, r16, tap, n, w, Q_R, Q_RR_HI, a[VQ_VIF_MU1],
                      a[VQ_VIF_XX_HI]);
        vert_pair_u16(r16, r16, tap, n, w, Q_RR_LO, Q_R, a[VQ_VIF_XX_LO],
                      a[VQ_VIF_MU2]);
    }
    join_halves(u8, t, VQ_VIF_XX_HI, w, rnd);
    round_mu(t, VQ_VIF_MU1, w, rnd);
    vq_vif_pad16(v[VQ_VIF_MU1], w, VQ_VIF_HALF(s));
    vq_vif_pad16(v[VQ_VIF_XX_HI], w, VQ_VIF_HALF(s));
    vq_vif_pad16(v[VQ_VIF_XX_LO], w, VQ_VIF_HALF(s));
    horiz_pair(v[VQ_VIF_MU1], v[VQ_VIF_XX_HI], tap, n, w, a[VQ_VIF_MU1],
               a[VQ_VIF_XX_HI]);
    horiz_pair(v[VQ_VIF_XX_LO], v[VQ_VIF_XX_LO], tap, n, w, a[VQ_VIF_XX_LO],
               a[VQ_VIF_MU2]);
    for (unsigned j = 0; j < w; j++) {
        uint32_t mu = a[VQ_VIF_MU1][j];
        m1[j] = mu;
        s1[j] = vq_vif_sigma_filt(vq_vif_filt_halves(a[VQ_VIF_XX_HI][j],
                                                     a[VQ_VIF_XX_LO][j]),
                                  mu, mu);
    }
}

decl_vif_stat_dis_row_fn(vq_vif_stat_dis_row_c)
{
    const uint16_t *tap = split_taps[s];
    unsigned n = 2 * VQ_VIF_HALF(s) + 1;
    uint32_t *const *a = t->sum;
    uint16_t *const *v = t->v;
    if (u8) {
        const uint8_t *const *r8 = (const uint8_t *const *)rr;
        const uint8_t *const *d8 = (const uint8_t *const *)rd;
        vert_pair_u8(r8, d8, tap, n, w, Q_D, Q_DD, a[VQ_VIF_MU2],
                     a[VQ_VIF_YY_LO]);
        vert_pair_u8(r8, d8, tap, n, w, Q_RD, Q_RD, a[VQ_VIF_XY_LO],
                     a[VQ_VIF_XY_HI]);
    } else {
        const uint16_t *const *r16 = (const uint16_t *const *)rr;
        const uint16_t *const *d16 = (const uint16_t *const *)rd;
        vert_pair_u16(r16, d16, tap, n, w, Q_DD_HI, Q_DD_LO, a[VQ_VIF_YY_HI],
                      a[VQ_VIF_YY_LO]);
        vert_pair_u16(r16, d16, tap, n, w, Q_RD_HI, Q_RD_LO, a[VQ_VIF_XY_HI],
                      a[VQ_VIF_XY_LO]);
        vert_pair_u16(r16, d16, tap, n, w, Q_D, Q_D, a[VQ_VIF_MU2],
                      a[VQ_VIF_MU1]);
    }
    join_halves(u8, t, VQ_VIF_YY_HI, w, rnd);
    join_halves(u8, t, VQ_VIF_XY_HI, w, rnd);
    round_mu(t, VQ_VIF_MU2, w, rnd);
    for (unsigned q = VQ_VIF_MU2; q < VQ_VIF_ROWS; q++)
        if (q != VQ_VIF_XX_HI && q != VQ_VIF_XX_LO)
            vq_vif_pad16(v[q], w, VQ_VIF_HALF(s));
    horiz_pair(v[VQ_VIF_MU2], v[VQ_VIF_YY_HI], tap, n, w, a[VQ_VIF_MU2],
               a[VQ_VIF_YY_HI]);
    horiz_pair(v[VQ_VIF_YY_LO], v[VQ_VIF_XY_HI], tap, n, w, a[VQ_VIF_YY_LO],
               a[VQ_VIF_XY_HI]);
    horiz_pair(v[VQ_VIF_XY_LO], v[VQ_VIF_XY_LO], tap, n, w, a[VQ_VIF_XY_LO],
               a[VQ_VIF_MU1]);
    for (unsigned j = 0; j < w; j++) {
        uint32_t m2 = a[VQ_VIF_MU2][j];
        t->s2[j] = vq_vif_sigma_filt(vq_vif_filt_halves(a[VQ_VIF_YY_HI][j],
                                                        a[VQ_VIF_YY_LO][j]),
                                     m2, m2);
        t->s12[j] = vq_vif_sigma_filt(
            vq_vif_filt_halves(a[VQ_VIF_XY_HI][j], a[VQ_VIF_XY_LO][j]),
            m1[j], m2);
    }
}

decl_vif_down_one_row_fn(vq_vif_down_one_row_c)
{
    const uint16_t *tap = split_taps[s + 1];
    unsigned n = 2 * VQ_VIF_HALF(s + 1) + 1;
    if (u8)
        vert_down_u8((const uint8_t *const *)rows,
                     (const uint8_t *const *)rows, tap, n, w, rnd, t->d_ref,
                     t->d_dis, true);
    else
        vert_down_u16((const uint16_t *const *)rows,
                      (const uint16_t *const *)rows, tap, n, w, rnd, t->d_ref,
                      t->d_dis, true);
    vq_vif_pad16(t->d_ref, w, VQ_VIF_HALF(s + 1));
    horiz_down(t->d_ref, tap, n, w / 2, out, true);
}

/* The C row functions (vif_dsp.h), with the taps opaque (VIF_OPAQUE). */
#define VIF_ROW_VARIANT(isa, TARGET, opaque)                                  \
    TARGET decl_vif_stat_row_fn(vq_vif_stat_row_##isa)                        \
    {                                                                         \
        stat_row(s, u8, rr, rd, w, rnd, t, opaque);                           \
    }                                                                         \
    TARGET decl_vif_down_row_fn(vq_vif_down_row_##isa)                        \
    {                                                                         \
        down_row(s, u8, rr, rd, w, rnd, t, out_r, out_d, opaque);             \
    }

VIF_ROW_VARIANT(c, , true)
