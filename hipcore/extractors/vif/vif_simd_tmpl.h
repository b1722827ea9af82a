/*
 * Integer VIF, the row functions in x86 intrinsics: one template,
 * included by vif_x86.c once per vector width (VW 256: AVX2, VW 512:
 * AVX-512), with the macros V_* naming that width's intrinsics and FN_*
 * the functions' names. Every result equals the C functions of
 * vif_filter.c (tests/checkasm); how:
 *
 *  - A filter tap times a sample is a 16 x 16 -> 32-bit multiplication,
 *    done two taps at a time by PMADDWD on (sample of tap a, sample of tap
 *    b) pairs (vq_vif_pairs). PMADDWD multiplies signed values, the samples
 *    and the filtered quantities are unsigned 16-bit ones: they enter as
 *    q - 32768 (q XOR 0x8000), which takes 32768 * 65536 = 2^31 off the
 *    sum (the taps of every scale add up to 65536); the sums are exact
 *    modulo 2^32 and below 2^32, so XOR 0x80000000 gives them back.
 *    8-bit samples and their sums are small enough to enter as they are.
 *  - The vertical pass writes its rows (t->v) with that XOR applied, so
 *    the horizontal pass loads them as they are. Only rows of at least
 *    V_N16 samples take this path (narrower ones go to the C function):
 *    their mirrored borders never reach columns beyond the row, so no
 *    stale value of another row is read (which the C path does on narrow
 *    rows, as libvmaf) and the C path never reads these rows.
 *  - Columns beyond the last full vector are computed one at a time.
 */

#define VQ_CAT_(a, b) a##b
#define VQ_CAT(a, b) VQ_CAT_(a, b)
#define FN(name) VQ_CAT(name, V_SUFFIX)
#define VFN static inline __attribute__((always_inline)) V_TARGET

/* Filter of the pairs pr (np of them) on 16-bit quantity rows qa[k]: the
 * 32-bit sums of PMADDWD, lanes of the low and high unpacked halves. */
#define KIND_MU 0      /* mu of r and of d: o1 = mu1, o2 = mu2 */
#define KIND_RR 1      /* r * r: o1 = high half, o2 = low half */
#define KIND_DD 2      /* d * d */
#define KIND_RD 3      /* r * d */
#define KIND_MU_R 4    /* mu of r alone: o1 = mu1 (o2 untouched) */
#define KIND_MU_D 5    /* mu of d alone: o2 = mu2 (o1 untouched) */

VFN V_T FN(load_q)(const void *row, bool u8, unsigned j)
{
    if (u8)
        return V_LOAD_U8((const uint8_t *)row + j);
    return V_LOADU((const uint16_t *)row + j);
}

/* The vertical pass of one kind over the columns [0, wb), wb a multiple
 * of V_N16: out rows get the results XOR 0x8000. For mu, the rounding
 * (mu_add, mu_shift); for squares and products, the 32-bit result
 * (sq_add, sq_shift) split into halves (out hi, out lo). */
VFN void FN(vert_kind)(int kind, bool u8, const void *const *rr,
                       const void *const *rd, const VqVifPairs *pr,
                       unsigned wb, VqVifVRound rnd, uint16_t *o1,
                       uint16_t *o2)
{
    const V_T bias16 = V_SET1_16((short)0x8000);
    const V_T bias32 = V_SET1_32((int)0x80000000u);
    const V_T mu_add = V_SET1_32((int)rnd.mu_add);
    const __m128i mu_sh = _mm_cvtsi32_si128((int)rnd.mu_shift);
    const V_T sq_add = V_SET1_32((int)(uint32_t)rnd.sq_add);
    const __m128i sq_sh = _mm_cvtsi32_si128((int)rnd.sq_shift);
    const __m128i sq_shl = _mm_cvtsi32_si128(16 - (int)rnd.sq_shift);
    const V_T lo16 = V_SET1_32(0xffff);
    V_T tap[VQ_VIF_MAX_PAIRS];
    VIF_UNROLL_PAIRS
        for (unsigned p = 0; p < pr->n; p++)
        tap[p] = V_SET1_32((int)pr->tap2[p]);
    for (unsigned j = 0; j < wb; j += V_N16) {
        /* a: the first quantity's sums (or the high half's), b: the
         * second's (or the low half's); _l, _h: unpacked halves */
        V_T a_l = V_ZERO, a_h = V_ZERO, b_l = V_ZERO, b_h = V_ZERO;
        VIF_UNROLL_PAIRS
        for (unsigned p = 0; p < pr->n; p++) {
            unsigned ka = pr->ka[p], kb = pr->kb[p];
            V_T ra = V_ZERO, rb = V_ZERO, da = V_ZERO, db = V_ZERO;
            if (kind != KIND_DD && kind != KIND_MU_D) {
                ra = FN(load_q)(rr[ka], u8, j);
                rb = FN(load_q)(rr[kb], u8, j);
            }
            if (kind != KIND_RR && kind != KIND_MU_R) {
                da = FN(load_q)(rd[ka], u8, j);
                db = FN(load_q)(rd[kb], u8, j);
            }
            V_T qa1, qb1, qa2 = V_ZERO, qb2 = V_ZERO;
            if (kind == KIND_MU || kind == KIND_MU_R || kind == KIND_MU_D) {
                if (!u8) {
                    ra = V_XOR(ra, bias16);
                    rb = V_XOR(rb, bias16);
                    da = V_XOR(da, bias16);
                    db = V_XOR(db, bias16);
                }
                qa1 = ra, qb1 = rb, qa2 = da, qb2 = db;
            } else {
                V_T xa = kind == KIND_DD ? da : ra;
                V_T xb = kind == KIND_DD ? db : rb;
                V_T ya = kind == KIND_RR ? ra : da;
                V_T yb = kind == KIND_RR ? rb : db;
                /* low halves of the products (all of them for 8 bits) */
                qa1 = V_XOR(V_MULLO16(xa, ya), bias16);
                qb1 = V_XOR(V_MULLO16(xb, yb), bias16);
                if (!u8) {
                    qa2 = V_XOR(V_MULHI_U16(xa, ya), bias16);
                    qb2 = V_XOR(V_MULHI_U16(xb, yb), bias16);
                }
            }
            /* kind MU: a = mu1, b = mu2; squares: a = low half sums,
             * b = high half sums (u16 only) */
            if (kind != KIND_MU_D) {
                a_l = V_ADD32(a_l,
                              V_MADD16(V_UNPACKLO16(qa1, qb1), tap[p]));
                a_h = V_ADD32(a_h,
                              V_MADD16(V_UNPACKHI16(qa1, qb1), tap[p]));
            }
            if (kind == KIND_MU || kind == KIND_MU_D ||
                (kind != KIND_MU_R && !u8)) {
                b_l = V_ADD32(b_l, V_MADD16(V_UNPACKLO16(qa2, qb2), tap[p]));
                b_h = V_ADD32(b_h, V_MADD16(V_UNPACKHI16(qa2, qb2), tap[p]));
            }
        }
        if (kind == KIND_MU || kind == KIND_MU_R || kind == KIND_MU_D) {
            if (!u8) {
                a_l = V_XOR(a_l, bias32), a_h = V_XOR(a_h, bias32);
                b_l = V_XOR(b_l, bias32), b_h = V_XOR(b_h, bias32);
            }
            a_l = V_SRL32(V_ADD32(a_l, mu_add), mu_sh);
            a_h = V_SRL32(V_ADD32(a_h, mu_add), mu_sh);
            b_l = V_SRL32(V_ADD32(b_l, mu_add), mu_sh);
            b_h = V_SRL32(V_ADD32(b_h, mu_add), mu_sh);
            if (kind != KIND_MU_D)
                V_STOREU(o1 + j, V_XOR(V_PACKUS32(a_l, a_h), bias16));
            if (kind != KIND_MU_R)
                V_STOREU(o2 + j, V_XOR(V_PACKUS32(b_l, b_h), bias16));
            continue;
        }
        V_T x_l, x_h;
        if (u8) {
            x_l = V_XOR(a_l, bias32);
            x_h = V_XOR(a_h, bias32);
        } else {
            /* x = ((hi << 16) + lo + sq_add) >> sq_shift, modulo 2^32 */
            V_T lo_l = V_XOR(a_l, bias32), lo_h = V_XOR(a_h, bias32);
            V_T hi_l = V_XOR(b_l, bias32), hi_h = V_XOR(b_h, bias32);
            x_l = V_ADD32(V_SLL32(hi_l, sq_shl),
                          V_SRL32(V_ADD32(lo_l, sq_add), sq_sh));
            x_h = V_ADD32(V_SLL32(hi_h, sq_shl),
                          V_SRL32(V_ADD32(lo_h, sq_add), sq_sh));
        }
        V_T h = V_PACKUS32(V_SRLI32(x_l, 16), V_SRLI32(x_h, 16));
        V_T l = V_PACKUS32(V_AND(x_l, lo16), V_AND(x_h, lo16));
        V_STOREU(o1 + j, V_XOR(h, bias16));
        V_STOREU(o2 + j, V_XOR(l, bias16));
    }
}

/* The horizontal sums of one padded row at the even (e) and odd (o)
 * columns of the vector at j: e lane m is column j + 2m, o lane m column
 * j + 2m + 1; unsigned 32-bit. */
VFN void FN(horiz_eo)(const uint16_t *v, const VqVifPairs *pr,
                      const V_T *tap, unsigned j, V_T *e, V_T *o)
{
    const V_T bias32 = V_SET1_32((int)0x80000000u);
    V_T se = V_ZERO, so = V_ZERO;
    VIF_UNROLL_PAIRS
        for (unsigned p = 0; p < pr->n; p++) {
        const uint16_t *q = v + (int)j + pr->off[p];
        se = V_ADD32(se, V_MADD16(V_LOADU(q), tap[p]));
        so = V_ADD32(so, V_MADD16(V_LOADU(q + 1), tap[p]));
    }
    *e = V_XOR(se, bias32);
    *o = V_XOR(so, bias32);
}

/* (a * b + 2^31) >> 32 per unsigned 32-bit lane (vq_vif_sigma_filt). */
VFN V_T FN(mumu)(V_T a, V_T b)
{
    const V_T half = V_SET1_64((long long)1 << 31);
    V_T pe = V_ADD64(V_MUL_EPU32(a, b), half);
    V_T po = V_ADD64(V_MUL_EPU32(V_SRLI64(a, 32), V_SRLI64(b, 32)), half);
    return V_BLEND_ODD32(V_SRLI64(pe, 32), po);
}

/* hi + ((lo + 32768) >> 16) (vq_vif_filt_halves) */
VFN V_T FN(halves)(V_T hi, V_T lo)
{
    return V_ADD32(hi, V_SRLI32(V_ADD32(lo, V_SET1_32(32768)), 16));
}

/* The horizontal pass and the sigmas of the columns [0, wb). */
VFN void FN(horiz_stat)(VqVifWork *t, const VqVifPairs *pr, unsigned wb)
{
    V_T tap[VQ_VIF_MAX_PAIRS];
    VIF_UNROLL_PAIRS
        for (unsigned p = 0; p < pr->n; p++)
        tap[p] = V_SET1_32((int)pr->tap2[p]);
    uint16_t *const *v = t->v;
    for (unsigned j = 0; j < wb; j += V_N16) {
        V_T m1e, m1o, m2e, m2o, he, ho, le, lo;
        FN(horiz_eo)(v[VQ_VIF_MU1], pr, tap, j, &m1e, &m1o);
        FN(horiz_eo)(v[VQ_VIF_MU2], pr, tap, j, &m2e, &m2o);
        int32_t *out[3] = { t->s1 + j, t->s2 + j, t->s12 + j };
        for (unsigned q = 0; q < 3; q++) {
            FN(horiz_eo)(v[VQ_VIF_XX_HI + 2 * q], pr, tap, j, &he, &ho);
            FN(horiz_eo)(v[VQ_VIF_XX_LO + 2 * q], pr, tap, j, &le, &lo);
            V_T ae = q == 1 ? m2e : m1e, ao = q == 1 ? m2o : m1o;
            V_T be = q == 0 ? m1e : m2e, bo = q == 0 ? m1o : m2o;
            V_T se = V_SUB32(FN(halves)(he, le), FN(mumu)(ae, be));
            V_T so = V_SUB32(FN(halves)(ho, lo), FN(mumu)(ao, bo));
            V_INTERLEAVE_STORE(out[q], se, so);
        }
    }
}

/* The split's horizontal passes (vif_dsp.h): the reference's part (mu1
 * and sigma1_sq, stored in column order), and the rest given mu1 (read
 * back into even and odd lanes). */
VFN void FN(horiz_ref)(VqVifWork *t, const VqVifPairs *pr, unsigned wb,
                       uint32_t *m1, int32_t *s1)
{
    V_T tap[VQ_VIF_MAX_PAIRS];
    VIF_UNROLL_PAIRS
        for (unsigned p = 0; p < pr->n; p++)
        tap[p] = V_SET1_32((int)pr->tap2[p]);
    uint16_t *const *v = t->v;
    for (unsigned j = 0; j < wb; j += V_N16) {
        V_T me, mo, he, ho, le, lo;
        FN(horiz_eo)(v[VQ_VIF_MU1], pr, tap, j, &me, &mo);
        FN(horiz_eo)(v[VQ_VIF_XX_HI], pr, tap, j, &he, &ho);
        FN(horiz_eo)(v[VQ_VIF_XX_LO], pr, tap, j, &le, &lo);
        V_T se = V_SUB32(FN(halves)(he, le), FN(mumu)(me, me));
        V_T so = V_SUB32(FN(halves)(ho, lo), FN(mumu)(mo, mo));
        V_INTERLEAVE_STORE(s1 + j, se, so);
        V_INTERLEAVE_STORE(m1 + j, me, mo);
    }
}

VFN void FN(horiz_dis)(VqVifWork *t, const VqVifPairs *pr, unsigned wb,
                       const uint32_t *m1)
{
    V_T tap[VQ_VIF_MAX_PAIRS];
    VIF_UNROLL_PAIRS
        for (unsigned p = 0; p < pr->n; p++)
        tap[p] = V_SET1_32((int)pr->tap2[p]);
    uint16_t *const *v = t->v;
    for (unsigned j = 0; j < wb; j += V_N16) {
        V_T m1e, m1o, m2e, m2o, he, ho, le, lo;
        V_DEINTERLEAVE_LOAD(m1 + j, m1e, m1o);
        FN(horiz_eo)(v[VQ_VIF_MU2], pr, tap, j, &m2e, &m2o);
        int32_t *out[2] = { t->s2 + j, t->s12 + j };
        for (unsigned q = 1; q < 3; q++) {
            FN(horiz_eo)(v[VQ_VIF_XX_HI + 2 * q], pr, tap, j, &he, &ho);
            FN(horiz_eo)(v[VQ_VIF_XX_LO + 2 * q], pr, tap, j, &le, &lo);
            V_T ae = q == 1 ? m2e : m1e, ao = q == 1 ? m2o : m1o;
            V_T se = V_SUB32(FN(halves)(he, le), FN(mumu)(ae, m2e));
            V_T so = V_SUB32(FN(halves)(ho, lo), FN(mumu)(ao, m2o));
            V_INTERLEAVE_STORE(out[q - 1], se, so);
        }
    }
}

/* Vertical filter of the down row for both pictures (mu rounding), and
 * its horizontal pass at even columns. */
VFN void FN(horiz_down)(const uint16_t *row, const VqVifPairs *pr,
                        unsigned wb, uint16_t *out)
{
    V_T tap[VQ_VIF_MAX_PAIRS];
    VIF_UNROLL_PAIRS
        for (unsigned p = 0; p < pr->n; p++)
        tap[p] = V_SET1_32((int)pr->tap2[p]);
    const V_T bias32 = V_SET1_32((int)0x80000000u);
    const V_T round = V_SET1_32(32768);
    /* wb input columns: wb / 2 outputs, V_N32 per vector */
    for (unsigned j = 0; j < wb; j += V_N16) {
        V_T se = V_ZERO;
        VIF_UNROLL_PAIRS
        for (unsigned p = 0; p < pr->n; p++)
            se = V_ADD32(se, V_MADD16(V_LOADU(row + (int)j + pr->off[p]),
                                      tap[p]));
        se = V_SRLI32(V_ADD32(V_XOR(se, bias32), round), 16);
        V_STORE_NARROW16(out + j / 2, se);
    }
}

VFN void FN(stat_row)(unsigned s, bool u8, const void *const *rr,
                     const void *const *rd, unsigned w, VqVifVRound rnd,
                     VqVifWork *t, const VqVifPairs *pr)
{
    unsigned wb = w - w % V_N16;
    uint16_t *const *v = t->v;
    FN(vert_kind)(KIND_MU, u8, rr, rd, pr, wb, rnd, v[VQ_VIF_MU1],
                  v[VQ_VIF_MU2]);
    FN(vert_kind)(KIND_RR, u8, rr, rd, pr, wb, rnd, v[VQ_VIF_XX_HI],
                  v[VQ_VIF_XX_LO]);
    FN(vert_kind)(KIND_DD, u8, rr, rd, pr, wb, rnd, v[VQ_VIF_YY_HI],
                  v[VQ_VIF_YY_LO]);
    FN(vert_kind)(KIND_RD, u8, rr, rd, pr, wb, rnd, v[VQ_VIF_XY_HI],
                  v[VQ_VIF_XY_LO]);
    vq_vif_vert_stat_cols(s, u8, rr, rd, wb, w, rnd, t);
    for (unsigned q = 0; q < VQ_VIF_ROWS; q++)
        vq_vif_pad16(t->v[q], w, VQ_VIF_HALF(s));
    FN(horiz_stat)(t, pr, wb);
    vq_vif_horiz_stat_cols(s, t, wb, w);
}

VFN void FN(down_row)(unsigned s, bool u8, const void *const *rr,
                     const void *const *rd, unsigned w, VqVifVRound rnd,
                     VqVifWork *t, uint16_t *out_r, uint16_t *out_d,
                     const VqVifPairs *pr)
{
    unsigned wb = w - w % V_N16;
    FN(vert_kind)(KIND_MU, u8, rr, rd, pr, wb, rnd, t->d_ref, t->d_dis);
    vq_vif_vert_down_cols(s, u8, rr, rd, wb, w, rnd, t);
    vq_vif_pad16(t->d_ref, w, VQ_VIF_HALF(s + 1));
    vq_vif_pad16(t->d_dis, w, VQ_VIF_HALF(s + 1));
    FN(horiz_down)(t->d_ref, pr, wb, out_r);
    FN(horiz_down)(t->d_dis, pr, wb, out_d);
    vq_vif_horiz_down_cols(s, t, wb, w, out_r, out_d);
}

VFN void FN(stat_ref_row)(unsigned s, bool u8, const void *const *rr,
                         unsigned w, VqVifVRound rnd, VqVifWork *t,
                         uint32_t *m1, int32_t *s1, const VqVifPairs *pr)
{
    unsigned wb = w - w % V_N16;
    uint16_t *const *v = t->v;
    FN(vert_kind)(KIND_MU_R, u8, rr, rr, pr, wb, rnd, v[VQ_VIF_MU1], NULL);
    FN(vert_kind)(KIND_RR, u8, rr, rr, pr, wb, rnd, v[VQ_VIF_XX_HI],
                  v[VQ_VIF_XX_LO]);
    vq_vif_vert_stat_cols(s, u8, rr, rr, wb, w, rnd, t);
    vq_vif_pad16(v[VQ_VIF_MU1], w, VQ_VIF_HALF(s));
    vq_vif_pad16(v[VQ_VIF_XX_HI], w, VQ_VIF_HALF(s));
    vq_vif_pad16(v[VQ_VIF_XX_LO], w, VQ_VIF_HALF(s));
    FN(horiz_ref)(t, pr, wb, m1, s1);
    vq_vif_horiz_ref_cols(s, t, wb, w, m1, s1);
}

VFN void FN(stat_dis_row)(unsigned s, bool u8, const void *const *rr,
                         const void *const *rd, unsigned w, VqVifVRound rnd,
                         VqVifWork *t, const uint32_t *m1,
                         const VqVifPairs *pr)
{
    unsigned wb = w - w % V_N16;
    uint16_t *const *v = t->v;
    FN(vert_kind)(KIND_MU_D, u8, rr, rd, pr, wb, rnd, NULL, v[VQ_VIF_MU2]);
    FN(vert_kind)(KIND_DD, u8, rr, rd, pr, wb, rnd, v[VQ_VIF_YY_HI],
                  v[VQ_VIF_YY_LO]);
    FN(vert_kind)(KIND_RD, u8, rr, rd, pr, wb, rnd, v[VQ_VIF_XY_HI],
                  v[VQ_VIF_XY_LO]);
    vq_vif_vert_stat_cols(s, u8, rr, rd, wb, w, rnd, t);
    for (unsigned q = VQ_VIF_MU2; q < VQ_VIF_ROWS; q++)
        if (q != VQ_VIF_XX_HI && q != VQ_VIF_XX_LO)
            vq_vif_pad16(v[q], w, VQ_VIF_HALF(s));
    FN(horiz_dis)(t, pr, wb, m1);
    vq_vif_horiz_dis_cols(s, t, wb, w, m1);
}

VFN void FN(down_one_row)(unsigned s, bool u8, const void *const *rows,
                         unsigned w, VqVifVRound rnd, VqVifWork *t,
                         uint16_t *out, const VqVifPairs *pr)
{
    unsigned wb = w - w % V_N16;
    FN(vert_kind)(KIND_MU_R, u8, rows, rows, pr, wb, rnd, t->d_ref, NULL);
    vq_vif_vert_down_cols(s, u8, rows, rows, wb, w, rnd, t);
    vq_vif_pad16(t->d_ref, w, VQ_VIF_HALF(s + 1));
    FN(horiz_down)(t->d_ref, pr, wb, out);
    vq_vif_horiz_down_one_cols(s, t->d_ref, wb, w, out);
}

/* Each scale with its pairs known to the compiler (loops unrolled, taps
 * as constants). */
V_TARGET decl_vif_stat_row_fn(FN(vq_vif_stat_row_))
{
    if (w < V_N16) {
        vq_vif_stat_row_c(s, u8, rr, rd, w, rnd, t);
        return;
    }
    switch (s) {
    case 0:
        if (u8)
            FN(stat_row)(0, true, rr, rd, w, rnd, t, &vif_pairs[0]);
        else
            FN(stat_row)(0, false, rr, rd, w, rnd, t, &vif_pairs[0]);
        break;
    case 1: FN(stat_row)(1, false, rr, rd, w, rnd, t, &vif_pairs[1]); break;
    case 2: FN(stat_row)(2, false, rr, rd, w, rnd, t, &vif_pairs[2]); break;
    default: FN(stat_row)(3, false, rr, rd, w, rnd, t, &vif_pairs[3]); break;
    }
}

V_TARGET decl_vif_down_row_fn(FN(vq_vif_down_row_))
{
    if (w < 2 * V_N16) {
        vq_vif_down_row_c(s, u8, rr, rd, w, rnd, t, out_r, out_d);
        return;
    }
    switch (s) {
    case 0:
        if (u8)
            FN(down_row)(0, true, rr, rd, w, rnd, t, out_r, out_d,
                         &vif_pairs[1]);
        else
            FN(down_row)(0, false, rr, rd, w, rnd, t, out_r, out_d,
                         &vif_pairs[1]);
        break;
    case 1:
        FN(down_row)(1, false, rr, rd, w, rnd, t, out_r, out_d, &vif_pairs[2]);
        break;
    default:
        FN(down_row)(2, false, rr, rd, w, rnd, t, out_r, out_d, &vif_pairs[3]);
        break;
    }
}

V_TARGET decl_vif_stat_ref_row_fn(FN(vq_vif_stat_ref_row_))
{
    if (w < V_N16) {
        vq_vif_stat_ref_row_c(s, u8, rr, w, rnd, t, m1, s1);
        return;
    }
    switch (s) {
    case 0:
        if (u8)
            FN(stat_ref_row)(0, true, rr, w, rnd, t, m1, s1, &vif_pairs[0]);
        else
            FN(stat_ref_row)(0, false, rr, w, rnd, t, m1, s1, &vif_pairs[0]);
        break;
    case 1:
        FN(stat_ref_row)(1, false, rr, w, rnd, t, m1, s1, &vif_pairs[1]);
        break;
    case 2:
        FN(stat_ref_row)(2, false, rr, w, rnd, t, m1, s1, &vif_pairs[2]);
        break;
    default:
        FN(stat_ref_row)(3, false, rr, w, rnd, t, m1, s1, &vif_pairs[3]);
        break;
    }
}

V_TARGET decl_vif_stat_dis_row_fn(FN(vq_vif_stat_dis_row_))
{
    if (w < V_N16) {
        vq_vif_stat_dis_row_c(s, u8, rr, rd, w, rnd, t, m1);
        return;
    }
    switch (s) {
    case 0:
        if (u8)
            FN(stat_dis_row)(0, true, rr, rd, w, rnd, t, m1, &vif_pairs[0]);
        else
            FN(stat_dis_row)(0, false, rr, rd, w, rnd, t, m1, &vif_pairs[0]);
        break;
    case 1:
        FN(stat_dis_row)(1, false, rr, rd, w, rnd, t, m1, &vif_pairs[1]);
        break;
    case 2:
        FN(stat_dis_row)(2, false, rr, rd, w, rnd, t, m1, &vif_pairs[2]);
        break;
    default:
        FN(stat_dis_row)(3, false, rr, rd, w, rnd, t, m1, &vif_pairs[3]);
        break;
    }
}

V_TARGET decl_vif_down_one_row_fn(FN(vq_vif_down_one_row_))
{
    if (w < 2 * V_N16) {
        vq_vif_down_one_row_c(s, u8, rows, w, rnd, t, out);
        return;
    }
    switch (s) {
    case 0:
        if (u8)
            FN(down_one_row)(0, true, rows, w, rnd, t, out, &vif_pairs[1]);
        else
            FN(down_one_row)(0, false, rows, w, rnd, t, out, &vif_pairs[1]);
        break;
    case 1:
        FN(down_one_row)(1, false, rows, w, rnd, t, out, &vif_pairs[2]);
        break;
    default:
        FN(down_one_row)(2, false, rows, w, rnd, t, out, &vif_pairs[3]);
        break;
    }
}

#undef FN
#undef VFN
#undef KIND_MU
#undef KIND_RR
#undef KIND_DD
#undef KIND_RD
#undef KIND_MU_R
#undef KIND_MU_D
