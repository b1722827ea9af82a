/*
 * Integer ADM, DSP functions in x86 intrinsics: one template, included by
 * adm_x86.c once per vector width (simd_x86.h names the intrinsics). Each
 * equals its C function (adm_rows.c, adm_dsp.c) on every input
 * (tests/checkasm); the columns after the last full vector go through the
 * C function. How the arithmetic stays exact:
 *
 *  - The DWT of scale 0 multiplies 16-bit samples by two taps at a time
 *    (PMADDWD); 9..16-bit samples enter as u - 32768, which takes
 *    32768 x (sum of the taps) off the sums: 32768 x 46342 for the low
 *    filter (added back), 0 for the high one. Sums are modulo 2^32, as in
 *    C; a narrowing to int16 is a sign extension of the low 16 bits.
 *  - 64-bit products of 32-bit lanes are done on the even and the odd
 *    lanes (PMULUDQ / PMULDQ); a result truncated to 32 bits is the low
 *    dword of a logical shift, which equals the arithmetic one there.
 *  - Clamped shifts ((x >> s) clamped to [0, 32768]) compare x with 0 and
 *    32768 << s instead of shifting arithmetically.
 *  - The angle test converts the (exact) dot products and norms to float
 *    and compares in double, the same operations as C. At scales 1..3
 *    AVX-512 forms them in int64 and rounds them to float once (VCVTQQ2PS);
 *    AVX2 has no such rounding: it works in double, whose products are
 *    exact while every |value| < 2^26, and a vector with a larger value
 *    goes through the C function.
 *  - The enhancement-gain limit is computed in double (as C does for a
 *    non-integer limit; for an integer one the double product is exact
 *    while |limit| < 2^22, and larger limits take the C function), or at
 *    scale 0 for an integer limit below 2^16 in int32, exactly.
 */

#define VQ_CAT_(a, b) a##b
#define VQ_CAT(a, b) VQ_CAT_(a, b)
#define FN(name) VQ_CAT(name, V_SUFFIX)
#define VFN static inline __attribute__((always_inline)) V_TARGET

/* the low 16 bits of each lane, sign-extended */
VFN V_T FN(sext16)(V_T x)
{
    return V_SRAI32(V_SLLI32(x, 16), 16);
}

/* PMADDWD taps a (low) and b (high) */
VFN V_T FN(tap2)(int a, int b)
{
    return V_SET1_32((int)((uint32_t)(uint16_t)a | (uint32_t)(uint16_t)b << 16));
}

/* a, b: 64-bit lanes whose low dwords are the results of the even (a) and
 * odd (b) lanes */
VFN V_T FN(join_lo)(V_T even, V_T odd)
{
    return V_BLEND_ODD32(even, V_SLLI64(odd, 32));
}

/* x >> s for signed 64-bit lanes (s in 0..63); hm = all ones << (64 - s) */
VFN V_T FN(sra64)(V_T x, __m128i s, V_T hm)
{
#if VQ_SIMD_W == 512
    (void)hm;
    return _mm512_sra_epi64(x, s);
#else
    V_T neg = V_CMPGT64(V_ZERO, x);
    return V_OR(V_SRL64(x, s), V_AND(neg, hm));
#endif
}

VFN bool FN(any)(V_T x)
{
#if VQ_SIMD_W == 512
    return _mm512_test_epi32_mask(x, x) != 0;
#else
    return !_mm256_testz_si256(x, x);
#endif
}

/* ---- DWT, scale 0 ---------------------------------------------------- */

VFN void FN(vert0)(bool u8, const void *p0, const void *p1, const void *p2,
                   const void *p3, int nb, int bpc, int with_hi, int16_t *lo,
                   int16_t *hi)
{
    const V_T lo01 = FN(tap2)(VQ_ADM_LO0, VQ_ADM_LO1);
    const V_T lo23 = FN(tap2)(VQ_ADM_LO2, VQ_ADM_LO3);
    const V_T hi01 = FN(tap2)(VQ_ADM_HI0, VQ_ADM_HI1);
    const V_T hi23 = FN(tap2)(VQ_ADM_HI2, VQ_ADM_HI3);
    const uint32_t half = 1u << (bpc - 1);
    uint32_t add_lo = half - (uint32_t)VQ_ADM_LO_SUM * half;
    if (!u8)
        add_lo += 32768u * (uint32_t)VQ_ADM_LO_SUM;
    const V_T c_lo = V_SET1_32((int)add_lo), c_hi = V_SET1_32((int)half);
    const __m128i sh = _mm_cvtsi32_si128(bpc);
    const V_T bias16 = V_SET1_16((short)0x8000);
    for (int x = 0; x < nb; x += V_N16) {
        V_T u0, u1, u2, u3;
        if (u8) {
            u0 = V_LOAD_U8((const uint8_t *)p0 + x);
            u1 = V_LOAD_U8((const uint8_t *)p1 + x);
            u2 = V_LOAD_U8((const uint8_t *)p2 + x);
            u3 = V_LOAD_U8((const uint8_t *)p3 + x);
        } else {
            u0 = V_XOR(V_LOADU((const uint16_t *)p0 + x), bias16);
            u1 = V_XOR(V_LOADU((const uint16_t *)p1 + x), bias16);
            u2 = V_XOR(V_LOADU((const uint16_t *)p2 + x), bias16);
            u3 = V_XOR(V_LOADU((const uint16_t *)p3 + x), bias16);
        }
        V_T a_l = V_UNPACKLO16(u0, u1), a_h = V_UNPACKHI16(u0, u1);
        V_T b_l = V_UNPACKLO16(u2, u3), b_h = V_UNPACKHI16(u2, u3);
        V_T s_l = V_ADD32(V_MADD16(a_l, lo01), V_MADD16(b_l, lo23));
        V_T s_h = V_ADD32(V_MADD16(a_h, lo01), V_MADD16(b_h, lo23));
        s_l = FN(sext16)(V_SRA32(V_ADD32(s_l, c_lo), sh));
        s_h = FN(sext16)(V_SRA32(V_ADD32(s_h, c_lo), sh));
        V_STOREU(lo + x, V_PACKS32(s_l, s_h));
        if (with_hi) {
            s_l = V_ADD32(V_MADD16(a_l, hi01), V_MADD16(b_l, hi23));
            s_h = V_ADD32(V_MADD16(a_h, hi01), V_MADD16(b_h, hi23));
            s_l = FN(sext16)(V_SRA32(V_ADD32(s_l, c_hi), sh));
            s_h = FN(sext16)(V_SRA32(V_ADD32(s_h, c_hi), sh));
            V_STOREU(hi + x, V_PACKS32(s_l, s_h));
        }
    }
}

V_TARGET decl_adm_dwt_vert0_u8_fn(FN(vq_adm_dwt_vert0_u8_))
{
    int nb = n - n % V_N16;
    FN(vert0)(true, r0, r1, r2, r3, nb, bpc, with_hi, lo, hi);
    vq_adm_dwt_vert0_u8_c(r0 + nb, r1 + nb, r2 + nb, r3 + nb, n - nb, bpc,
                          with_hi, lo + nb, hi + nb);
}

V_TARGET decl_adm_dwt_vert0_u16_fn(FN(vq_adm_dwt_vert0_u16_))
{
    int nb = n - n % V_N16;
    FN(vert0)(false, r0, r1, r2, r3, nb, bpc, with_hi, lo, hi);
    vq_adm_dwt_vert0_u16_c(r0 + nb, r1 + nb, r2 + nb, r3 + nb, n - nb, bpc,
                           with_hi, lo + nb, hi + nb);
}

VFN int FN(horiz0)(V_T t01, V_T t23, const int16_t *t, int j0, int j1,
                   int32_t *out)
{
    const V_T rnd = V_SET1_32(32768);
    int j = j0;
    for (; j + V_N32 <= j1; j += V_N32) {
        V_T a = V_LOADU(t + 2 * j - 1), b = V_LOADU(t + 2 * j + 1);
        V_T s = V_ADD32(V_MADD16(a, t01), V_MADD16(b, t23));
        V_STOREU(out + j, V_SRAI32(V_ADD32(s, rnd), 16));
    }
    return j;
}

V_TARGET decl_adm_dwt_horiz0_fn(FN(vq_adm_dwt_horiz0_lo_))
{
    int j = FN(horiz0)(FN(tap2)(VQ_ADM_LO0, VQ_ADM_LO1),
                       FN(tap2)(VQ_ADM_LO2, VQ_ADM_LO3), t, j0, j1, out);
    vq_adm_dwt_horiz0_lo_c(t, j, j1, out);
}

V_TARGET decl_adm_dwt_horiz0_fn(FN(vq_adm_dwt_horiz0_hi_))
{
    int j = FN(horiz0)(FN(tap2)(VQ_ADM_HI0, VQ_ADM_HI1),
                       FN(tap2)(VQ_ADM_HI2, VQ_ADM_HI3), t, j0, j1, out);
    vq_adm_dwt_horiz0_hi_c(t, j, j1, out);
}

/* ---- DWT, scales 1..3 ------------------------------------------------------ */

/* (int32)((sum of 64-bit products + add) >> shift) of the even (or, with
 * odd, the odd) lanes of four rows, as low dwords */
VFN V_T FN(fir4)(V_T a, V_T b, V_T c, V_T d, V_T t0, V_T t1, V_T t2, V_T t3,
                 V_T add, __m128i sh)
{
    V_T s = V_ADD64(V_ADD64(V_MUL_EPI32(a, t0), V_MUL_EPI32(b, t1)),
                    V_ADD64(V_MUL_EPI32(c, t2), V_MUL_EPI32(d, t3)));
    return V_SRL64(V_ADD64(s, add), sh);
}

VFN void FN(vert_s123)(const int32_t *r0, const int32_t *r1,
                       const int32_t *r2, const int32_t *r3, int nb,
                       int shift, V_T t0, V_T t1, V_T t2, V_T t3,
                       int32_t *out)
{
    const V_T add = V_SET1_64(shift ? 1LL << (shift - 1) : 0);
    const __m128i sh = _mm_cvtsi32_si128(shift);
    for (int x = 0; x < nb; x += V_N32) {
        V_T a = V_LOADU(r0 + x), b = V_LOADU(r1 + x);
        V_T c = V_LOADU(r2 + x), d = V_LOADU(r3 + x);
        V_T e = FN(fir4)(a, b, c, d, t0, t1, t2, t3, add, sh);
        V_T o = FN(fir4)(V_SRLI64(a, 32), V_SRLI64(b, 32), V_SRLI64(c, 32),
                         V_SRLI64(d, 32), t0, t1, t2, t3, add, sh);
        V_STOREU(out + x, FN(join_lo)(e, o));
    }
}

V_TARGET decl_adm_dwt_vert_fn(FN(vq_adm_dwt_vert_))
{
    int nb = n - n % V_N32;
    FN(vert_s123)(r0, r1, r2, r3, nb, shift, V_SET1_32(VQ_ADM_LO0),
                  V_SET1_32(VQ_ADM_LO1), V_SET1_32(VQ_ADM_LO2),
                  V_SET1_32(VQ_ADM_LO3), lo);
    if (with_hi)
        FN(vert_s123)(r0, r1, r2, r3, nb, shift, V_SET1_32(VQ_ADM_HI0),
                      V_SET1_32(VQ_ADM_HI1), V_SET1_32(VQ_ADM_HI2),
                      V_SET1_32(VQ_ADM_HI3), hi);
    vq_adm_dwt_vert_c(r0 + nb, r1 + nb, r2 + nb, r3 + nb, n - nb, shift,
                      with_hi, lo + nb, hi + nb);
}

/* out[j] from t[2j - 1 .. 2j + 2]: the qwords of a load at t + 2j - 1 hold
 * (t[2j - 1], t[2j]), those of a load at t + 2j + 1 (t[2j + 1], t[2j + 2]) */
VFN int FN(horiz_s123)(const int32_t *t, int j0, int j1, int shift, V_T t0,
                       V_T t1, V_T t2, V_T t3, int32_t *out)
{
    const V_T add = V_SET1_64(shift ? 1LL << (shift - 1) : 0);
    const __m128i sh = _mm_cvtsi32_si128(shift);
    const int half = V_N32 / 2;
    int j = j0;
    for (; j + V_N32 <= j1; j += V_N32) {
        V_T r[2];
        for (int k = 0; k < 2; k++) {
            V_T a = V_LOADU(t + 2 * (j + k * half) - 1);
            V_T b = V_LOADU(t + 2 * (j + k * half) + 1);
            r[k] = FN(fir4)(a, V_SRLI64(a, 32), b, V_SRLI64(b, 32), t0, t1, t2,
                            t3, add, sh);
        }
        V_STOREU(out + j, V_PACK_LO64(r[0], r[1]));
    }
    return j;
}

V_TARGET decl_adm_dwt_horiz_fn(FN(vq_adm_dwt_horiz_lo_))
{
    int j = FN(horiz_s123)(t, j0, j1, shift, V_SET1_32(VQ_ADM_LO0),
                           V_SET1_32(VQ_ADM_LO1), V_SET1_32(VQ_ADM_LO2),
                           V_SET1_32(VQ_ADM_LO3), out);
    vq_adm_dwt_horiz_lo_c(t, j, j1, shift, out);
}

V_TARGET decl_adm_dwt_horiz_fn(FN(vq_adm_dwt_horiz_hi_))
{
    int j = FN(horiz_s123)(t, j0, j1, shift, V_SET1_32(VQ_ADM_HI0),
                           V_SET1_32(VQ_ADM_HI1), V_SET1_32(VQ_ADM_HI2),
                           V_SET1_32(VQ_ADM_HI3), out);
    vq_adm_dwt_horiz_hi_c(t, j, j1, shift, out);
}

/* ---- denominator --------------------------------------------------------- */

V_TARGET decl_adm_den0_fn(FN(vq_adm_den0_))
{
    const V_T m16 = V_SET1_32(0xffff);
    V_T acc = V_ZERO;
    int j = j0;
    for (; j + V_N32 <= j1; j += V_N32) {
        V_T a = V_AND(V_ABS32(V_LOADU(o + j)), m16);
        V_T sq = V_MULLO32(a, a);
        acc = V_ADD64(acc, V_MUL_EPU32(sq, a));
        acc = V_ADD64(acc, V_MUL_EPU32(V_SRLI64(sq, 32), V_SRLI64(a, 32)));
    }
    return V_REDUCE_ADD64(acc) + vq_adm_den0_c(o, j, j1);
}

/* ((a * a + sq_add) >> sq_shift) * a + cub_add) >> cub_shift, 64-bit lanes
 * with a in their low dwords */
VFN V_T FN(den_cube)(V_T a, V_T sq_add, __m128i sq_sh, V_T cub_add,
                     __m128i cub_sh)
{
    V_T q = V_SRL64(V_ADD64(V_MUL_EPU32(a, a), sq_add), sq_sh);
    V_T qa = V_ADD64(V_MUL_EPU32(q, a),
                     V_SLLI64(V_MUL_EPU32(V_SRLI64(q, 32), a), 32));
    return V_SRL64(V_ADD64(qa, cub_add), cub_sh);
}

V_TARGET decl_adm_den123_fn(FN(vq_adm_den123_))
{
    const V_T sqa = V_SET1_64((long long)sq_add);
    const V_T cua = V_SET1_64((long long)cub_add);
    const __m128i sqs = _mm_cvtsi32_si128(sq_shift);
    const __m128i cus = _mm_cvtsi32_si128(cub_shift);
    V_T acc = V_ZERO;
    int j = j0;
    for (; j + V_N32 <= j1; j += V_N32) {
        V_T a = V_ABS32(V_LOADU(o + j));
        acc = V_ADD64(acc, FN(den_cube)(a, sqa, sqs, cua, cus));
        acc = V_ADD64(acc, FN(den_cube)(V_SRLI64(a, 32), sqa, sqs, cua, cus));
    }
    return V_REDUCE_ADD64(acc) +
           vq_adm_den123_c(o, j, j1, sq_shift, sq_add, cub_shift, cub_add);
}

/* ---- decoupling ------------------------------------------------------------ */

/* The angle test (vq_adm_angle_cmp) of dot products and norms rounded to
 * float, in two halves of double lanes. */
VFN V_M FN(angle_cmp)(V_D dp0, V_D om0, V_D tm0, V_D dp1, V_D om1, V_D tm1,
                      V_D cos1)
{
    /* the 1/4096 scalings of libvmaf cancel: powers of two, exact */
    const V_D zero = V_SET1_PD(0.0);
    V_M pos = V_PD_GE_MASK(dp0, zero, dp1, zero);
    V_M in = V_PD_GE_MASK(V_MUL_PD(dp0, dp0), V_MUL_PD(V_MUL_PD(cos1, om0), tm0),
                          V_MUL_PD(dp1, dp1),
                          V_MUL_PD(V_MUL_PD(cos1, om1), tm1));
    return V_MAND(pos, in);
}

#if VQ_SIMD_W == 512
/* The angle test of vq_adm_angle_flag for any int32 values: int64 dot
 * products and norms (modulo 2^64, as C), rounded to float once. */
VFN V_D FN(f64)(__m512i a, __m512i b, __m512i c, __m512i d)
{
    __m512i v = _mm512_add_epi64(_mm512_mul_epi32(a, b), _mm512_mul_epi32(c, d));
    return _mm512_cvtps_pd(_mm512_cvtepi64_ps(v));
}

VFN V_M FN(angle64)(V_T oh, V_T ov, V_T th, V_T tv, V_D cos1)
{
    V_D r[2][3];
    for (int h = 0; h < 2; h++) {
        __m512i a = _mm512_cvtepi32_epi64(h ? _mm512_extracti64x4_epi64(oh, 1)
                                            : _mm512_castsi512_si256(oh));
        __m512i b = _mm512_cvtepi32_epi64(h ? _mm512_extracti64x4_epi64(ov, 1)
                                            : _mm512_castsi512_si256(ov));
        __m512i c = _mm512_cvtepi32_epi64(h ? _mm512_extracti64x4_epi64(th, 1)
                                            : _mm512_castsi512_si256(th));
        __m512i d = _mm512_cvtepi32_epi64(h ? _mm512_extracti64x4_epi64(tv, 1)
                                            : _mm512_castsi512_si256(tv));
        r[h][0] = FN(f64)(a, c, b, d);
        r[h][1] = FN(f64)(a, a, b, b);
        r[h][2] = FN(f64)(c, c, d, d);
    }
    return FN(angle_cmp)(r[0][0], r[0][1], r[0][2], r[1][0], r[1][1], r[1][2],
                         cos1);
}
#endif

/* The angle test of products that are exact in double (|values| < 2^26). */
VFN V_M FN(angle)(V_T oh, V_T ov, V_T th, V_T tv, V_D cos1)
{
    V_D a0 = V_CVT_PD_LO(oh), b0 = V_CVT_PD_LO(ov);
    V_D c0 = V_CVT_PD_LO(th), d0 = V_CVT_PD_LO(tv);
    V_D a1 = V_CVT_PD_HI(oh), b1 = V_CVT_PD_HI(ov);
    V_D c1 = V_CVT_PD_HI(th), d1 = V_CVT_PD_HI(tv);
    V_D dp0 = V_PD_ROUND_F(V_ADD_PD(V_MUL_PD(a0, c0), V_MUL_PD(b0, d0)));
    V_D dp1 = V_PD_ROUND_F(V_ADD_PD(V_MUL_PD(a1, c1), V_MUL_PD(b1, d1)));
    V_D om0 = V_PD_ROUND_F(V_ADD_PD(V_MUL_PD(a0, a0), V_MUL_PD(b0, b0)));
    V_D om1 = V_PD_ROUND_F(V_ADD_PD(V_MUL_PD(a1, a1), V_MUL_PD(b1, b1)));
    V_D tm0 = V_PD_ROUND_F(V_ADD_PD(V_MUL_PD(c0, c0), V_MUL_PD(d0, d0)));
    V_D tm1 = V_PD_ROUND_F(V_ADD_PD(V_MUL_PD(c1, c1), V_MUL_PD(d1, d1)));
    return FN(angle_cmp)(dp0, om0, tm0, dp1, om1, tm1, cos1);
}

/* vq_adm_egl_limit in double: min (o > 0) or max of rst * egl and t */
VFN V_T FN(egl_limit)(V_T rst, V_T t, V_T o, V_D egl)
{
    V_D g0 = V_MUL_PD(V_CVT_PD_LO(rst), egl), g1 = V_MUL_PD(V_CVT_PD_HI(rst), egl);
    V_D t0 = V_CVT_PD_LO(t), t1 = V_CVT_PD_HI(t);
    V_T mn = V_CVTT_PD_2(V_MIN_PD(g0, t0), V_MIN_PD(g1, t1));
    V_T mx = V_CVTT_PD_2(V_MAX_PD(g0, t0), V_MAX_PD(g1, t1));
    return V_SEL(V_CMPGT32(o, V_ZERO), mx, mn);
}

/* (x >> s) clamped to [0, 32768] for signed 64-bit x, as a low dword;
 * lim = 32768 << s */
VFN V_T FN(clamp_k)(V_T x, V_T s, V_T lim)
{
    const V_T k_max = V_SET1_64(32768);
#if VQ_SIMD_W == 512
    V_T y = _mm512_srlv_epi64(x, s);
#else
    V_T y = _mm256_srlv_epi64(x, s);
#endif
    y = V_SEL64(V_CMPGT64(lim, x), k_max, y);
    return V_SEL64(V_CMPGT64(V_ZERO, x), y, V_ZERO);
}

VFN bool FN(egl_ok)(double egl)
{
    return egl > -4194304.0 && egl < 4194304.0;
}

V_TARGET decl_adm_decouple_fn(FN(vq_adm_decouple0_))
{
    if (!FN(egl_ok)(p->egl)) {
        vq_adm_decouple0_c(o, t, c0, c1, p, xr, xa);
        return;
    }
    const V_D cos1 = V_SET1_PD((double)p->cos1_sq), egl = V_SET1_PD(p->egl);
    /* an integral limit below 2^16: rst * limit fits int32 (|rst| <= 2^15) */
    const bool egl_i = p->egl_int > 0 && p->egl_int <= 65535;
    const V_T egl_iv = V_SET1_32(p->egl_int);
    const V_T k_max = V_SET1_32(32768), r15 = V_SET1_32(16384);
    const V_T r15_64 = V_SET1_64(16384), s15 = V_SET1_64(15);
    const V_T lim15 = V_SET1_64((long long)32768 << 15);
    int j = c0;
    for (; j + V_N32 <= c1; j += V_N32) {
        V_T ov[3], tv[3];
        for (int b = 0; b < 3; b++) {
            ov[b] = V_LOADU(o[b] + j);
            tv[b] = V_LOADU(t[b] + j);
        }
        V_M angle = FN(angle)(ov[VQ_ADM_H], ov[VQ_ADM_V], tv[VQ_ADM_H],
                              tv[VQ_ADM_V], cos1);
        for (int b = 0; b < 3; b++) {
            V_T ob = ov[b], tb = tv[b];
            V_T rc = V_GATHER32(p->recip, ob);
            /* vq_adm_k0: (recip * t + 16384) >> 15, clamped */
            V_T xe = V_ADD64(V_MUL_EPI32(rc, tb), r15_64);
            V_T xo = V_ADD64(V_MUL_EPI32(V_SRLI64(rc, 32), V_SRLI64(tb, 32)),
                             r15_64);
            V_T k = FN(join_lo)(FN(clamp_k)(xe, s15, lim15),
                                FN(clamp_k)(xo, s15, lim15));
            V_M zero_o = V_CMPEQ32(ob, V_ZERO);
            k = V_SEL(zero_o, k, k_max);
            V_T rst = FN(sext16)(
                V_SRAI32(V_ADD32(V_MULLO32(k, ob), r15), 15));
            V_M lim = V_MANDNOT(zero_o, V_MAND(angle, V_CMPGT32(k, V_ZERO)));
            V_T g;
            if (egl_i) {
                g = V_MULLO32(rst, egl_iv);
                g = V_SEL(V_CMPGT32(ob, V_ZERO), V_MAX32(g, tb), V_MIN32(g, tb));
            } else {
                g = FN(egl_limit)(rst, tb, ob, egl);
            }
            rst = V_SEL(lim, rst, FN(sext16)(g));
            V_STOREU(xr[b] + j, rst);
            V_STOREU(xa[b] + j, FN(sext16)(V_SUB32(tb, rst)));
        }
    }
    vq_adm_decouple0_c(o, t, j, c1, p, xr, xa);
}

/* vq_adm_best15 and vq_adm_k123 of one vector: k (low dwords joined) */
VFN V_T FN(k123)(const int32_t *recip, V_T ob, V_T tb)
{
    const V_T one = V_SET1_32(1), lo32 = V_SET1_64(0xffffffffLL);
    V_T a = V_ABS32(ob); /* |o| as uint32 (INT32_MIN: 2^31) */
    /* floor(log2 a) for a >= 256 from the exponent of (float)(a >> 8) */
#if VQ_SIMD_W == 512
    V_T fb = _mm512_castps_si512(_mm512_cvtepi32_ps(V_SRLI32(a, 8)));
#else
    V_T fb = _mm256_castps_si256(_mm256_cvtepi32_ps(V_SRLI32(a, 8)));
#endif
    V_T e = V_SUB32(V_SRLI32(fb, 23), V_SET1_32(127 - 8));
    V_T sh = V_MAX32(V_SUB32(e, V_SET1_32(14)), V_ZERO);
#if VQ_SIMD_W == 512
    V_T radd = _mm512_sllv_epi32(one, V_SUB32(sh, one));
    V_T msb = V_AND(_mm512_srlv_epi32(V_ADD32(a, radd), sh), V_SET1_32(0xffff));
#else
    V_T radd = _mm256_sllv_epi32(one, V_SUB32(sh, one));
    V_T msb = V_AND(_mm256_srlv_epi32(V_ADD32(a, radd), sh), V_SET1_32(0xffff));
#endif
    V_T rc = V_GATHER32(recip, msb);
    V_T res[2];
    for (int h = 0; h < 2; h++) {
        V_T r = h ? V_SRLI64(rc, 32) : rc, t = h ? V_SRLI64(tb, 32) : tb;
        V_T s = V_AND(h ? V_SRLI64(sh, 32) : sh, lo32);
        /* the sign of o, as a qword mask */
        V_M neg = V_CMPGT64(V_ZERO, h ? ob : V_SLLI64(ob, 32));
        V_T x = V_MUL_EPI32(r, t);
        x = V_SEL64(neg, x, V_SUB64(V_ZERO, x));
        /* (int32_t)(1u << (14 + s)): -2^31 for s = 17 */
        V_T s14 = V_ADD64(s, V_SET1_64(14));
#if VQ_SIMD_W == 512
        V_T rnd = _mm512_sllv_epi64(V_SET1_64(1), s14);
        V_M top = (__mmask16)_mm512_cmpeq_epi64_mask(s, V_SET1_64(17));
        rnd = V_SEL64(top, rnd, V_SUB64(rnd, V_SET1_64(1LL << 32)));
        V_T s15 = V_ADD64(s, V_SET1_64(15));
        V_T lim = _mm512_sllv_epi64(V_SET1_64(32768), s15);
#else
        V_T rnd = _mm256_sllv_epi64(V_SET1_64(1), s14);
        V_T top = _mm256_cmpeq_epi64(s, V_SET1_64(17));
        rnd = V_SUB64(rnd, V_AND(top, V_SET1_64(1LL << 32)));
        V_T s15 = V_ADD64(s, V_SET1_64(15));
        V_T lim = _mm256_sllv_epi64(V_SET1_64(32768), s15);
#endif
        res[h] = FN(clamp_k)(V_ADD64(x, rnd), s15, lim);
    }
    V_T k = FN(join_lo)(res[0], res[1]);
    return V_SEL(V_CMPEQ32(ob, V_ZERO), k, V_SET1_32(32768));
}

V_TARGET decl_adm_decouple_fn(FN(vq_adm_decouple123_))
{
    if (!FN(egl_ok)(p->egl)) {
        vq_adm_decouple123_c(o, t, c0, c1, p, xr, xa);
        return;
    }
    const V_D cos1 = V_SET1_PD((double)p->cos1_sq), egl = V_SET1_PD(p->egl);
    const V_T r15_64 = V_SET1_64(16384);
    const V_T big = V_SET1_32(~((1 << 26) - 1));
    int j = c0;
    for (; j + V_N32 <= c1; j += V_N32) {
        V_T ov[3], tv[3];
        for (int b = 0; b < 3; b++) {
            ov[b] = V_LOADU(o[b] + j);
            tv[b] = V_LOADU(t[b] + j);
        }
#if VQ_SIMD_W == 512
        (void)big;
        V_M angle = FN(angle64)(ov[VQ_ADM_H], ov[VQ_ADM_V], tv[VQ_ADM_H],
                                tv[VQ_ADM_V], cos1);
#else
        V_T mag = V_OR(V_OR(V_ABS32(ov[VQ_ADM_H]), V_ABS32(ov[VQ_ADM_V])),
                       V_OR(V_ABS32(tv[VQ_ADM_H]), V_ABS32(tv[VQ_ADM_V])));
        if (FN(any)(V_AND(mag, big))) {
            vq_adm_decouple123_c(o, t, j, j + V_N32, p, xr, xa);
            continue;
        }
        V_M angle = FN(angle)(ov[VQ_ADM_H], ov[VQ_ADM_V], tv[VQ_ADM_H],
                              tv[VQ_ADM_V], cos1);
#endif
        for (int b = 0; b < 3; b++) {
            V_T ob = ov[b], tb = tv[b];
            V_T k = FN(k123)(p->recip, ob, tb);
            /* (int32_t)((k * o + 16384) >> 15) */
            V_T re = V_SRLI64(V_ADD64(V_MUL_EPI32(k, ob), r15_64), 15);
            V_T ro = V_SRLI64(
                V_ADD64(V_MUL_EPI32(V_SRLI64(k, 32), V_SRLI64(ob, 32)), r15_64),
                15);
            V_T rst = FN(join_lo)(re, ro);
            V_M zero_o = V_CMPEQ32(ob, V_ZERO);
            V_M lim = V_MANDNOT(zero_o, V_MAND(angle, V_CMPGT32(k, V_ZERO)));
            rst = V_SEL(lim, rst, FN(egl_limit)(rst, tb, ob, egl));
            V_STOREU(xr[b] + j, rst);
            V_STOREU(xa[b] + j, V_SUB32(tb, rst));
        }
    }
    vq_adm_decouple123_c(o, t, j, c1, p, xr, xa);
}

/* ---- CSF ------------------------------------------------------------------- */

/* |csf| / 30 and |csf| / 15 of scale 0 (vq_adm_flt0, vq_adm_ctr0) */
VFN void FN(flt_ctr0)(V_T c, V_T *f, V_T *ctr)
{
    const V_T r = V_SET1_32(2048);
    V_T a = V_ABS32(c);
    *f = V_ADD32(*f, FN(sext16)(V_SRAI32(
                         V_ADD32(V_MULLO32(a, V_SET1_32(4369)), r), 12)));
    *ctr = V_ADD32(*ctr, FN(sext16)(V_SRAI32(
                             V_ADD32(V_MULLO32(a, V_SET1_32(8738)), r), 12)));
}

V_TARGET decl_adm_csf_fn(FN(vq_adm_csf0_))
{
    V_T rfv[3], addv[3];
    __m128i shv[3];
    for (int b = 0; b < 3; b++) {
        rfv[b] = V_SET1_32((int)rf[b]);
        addv[b] = V_SET1_32(b == VQ_ADM_D ? 65535 : 16384);
        shv[b] = _mm_cvtsi32_si128(b == VQ_ADM_D ? 17 : 15);
    }
    int j = c0;
    for (; j + V_N32 <= c1; j += V_N32) {
        V_T fn = V_ZERO, fm = V_ZERO, cn = V_ZERO, cm = V_ZERO;
        for (int b = 0; b < 3; b++) {
            V_T n = V_MULLO32(V_LOADU(xa[b] + j), rfv[b]);
            V_T m = V_MULLO32(V_LOADU(xr[b] + j), rfv[b]);
            n = FN(sext16)(V_SRA32(V_ADD32(n, addv[b]), shv[b]));
            m = FN(sext16)(V_SRA32(V_ADD32(m, addv[b]), shv[b]));
            FN(flt_ctr0)(n, &fn, &cn);
            FN(flt_ctr0)(m, &fm, &cm);
        }
        V_STOREU(f_n + j, fn);
        V_STOREU(f_m + j, fm);
        V_STOREU(ctr_n + j, cn);
        V_STOREU(ctr_m + j, cm);
    }
    vq_adm_csf0_c(xa, xr, rf, j, c1, f_n, f_m, ctr_n, ctr_m);
}

/* vq_adm_csf123: (int32_t)(((int64_t)rf * x + 2^27) >> 28), rf unsigned */
VFN V_T FN(csf123)(V_T x, V_T rfv)
{
    const V_T r = V_SET1_64(1 << 27);
    V_T sx = V_AND(V_SRAI32(x, 31), rfv); /* rf where x < 0 */
    V_T pe = V_SUB64(V_MUL_EPU32(x, rfv), V_SLLI64(sx, 32));
    V_T po = V_SUB64(V_MUL_EPU32(V_SRLI64(x, 32), rfv),
                     V_SLLI64(V_SRLI64(sx, 32), 32));
    return FN(join_lo)(V_SRLI64(V_ADD64(pe, r), 28),
                       V_SRLI64(V_ADD64(po, r), 28));
}

/* the high dword of (int64)(mul * a) - 2^31, a = |csf| as int32
 * (INT32_MIN stays negative, as vq_adm_abs32): vq_adm_flt123, _ctr123 */
VFN V_T FN(scaled_hi)(V_T a, V_T mul)
{
    const V_T h = V_SET1_64(2147483648LL);
    V_T e = V_SUB64(V_MUL_EPI32(a, mul), h);
    V_T o = V_SUB64(V_MUL_EPI32(V_SRLI64(a, 32), mul), h);
    return V_BLEND_ODD32(V_SRLI64(e, 32), o);
}

V_TARGET decl_adm_csf_fn(FN(vq_adm_csf123_))
{
    const V_T k30 = V_SET1_32(143165577), k15 = V_SET1_32(286331153);
    V_T rfv[3];
    for (int b = 0; b < 3; b++)
        rfv[b] = V_SET1_32((int)rf[b]);
    int j = c0;
    for (; j + V_N32 <= c1; j += V_N32) {
        V_T fn = V_ZERO, fm = V_ZERO, cn = V_ZERO, cm = V_ZERO;
        for (int b = 0; b < 3; b++) {
            V_T n = V_ABS32(FN(csf123)(V_LOADU(xa[b] + j), rfv[b]));
            V_T m = V_ABS32(FN(csf123)(V_LOADU(xr[b] + j), rfv[b]));
            fn = V_ADD32(fn, FN(scaled_hi)(n, k30));
            fm = V_ADD32(fm, FN(scaled_hi)(m, k30));
            cn = V_ADD32(cn, FN(scaled_hi)(n, k15));
            cm = V_ADD32(cm, FN(scaled_hi)(m, k15));
        }
        V_STOREU(f_n + j, fn);
        V_STOREU(f_m + j, fm);
        V_STOREU(ctr_n + j, cn);
        V_STOREU(ctr_m + j, cm);
    }
    vq_adm_csf123_c(xa, xr, rf, j, c1, f_n, f_m, ctr_n, ctr_m);
}

/* ---- contrast masking --------------------------------------------------- */

/* vq_adm_cube_round of 64-bit lanes holding x_sq and x in their low
 * dwords, then ((int64)p + add) >> shift */
VFN V_T FN(cube)(V_T xsq, V_T x, V_T add, __m128i sh, V_T hm)
{
    V_T p = V_MUL_EPU32(xsq, x);
    V_M neg = V_CMPGT64(V_ZERO, V_SLLI64(xsq, 32));
    p = V_SEL64(neg, p, V_SUB64(p, V_SLLI64(x, 32)));
    return FN(sra64)(V_ADD64(p, add), sh, hm);
}

/* Sum over the vector of the masked cubes of x (already |csf| - threshold,
 * clamped at 0): x_sq = (x * x + 2^(sqs - 1)) >> sqs truncated to int32. */
VFN V_T FN(cm_terms)(V_T xv, V_T sq_add, __m128i sqs, V_T add, __m128i sh,
                     V_T hm)
{
    V_T xo = V_SRLI64(xv, 32);
    V_T se = V_SRL64(V_ADD64(V_MUL_EPU32(xv, xv), sq_add), sqs);
    V_T so = V_SRL64(V_ADD64(V_MUL_EPU32(xo, xo), sq_add), sqs);
    return V_ADD64(FN(cube)(se, xv, add, sh, hm), FN(cube)(so, xo, add, sh, hm));
}

V_TARGET decl_adm_cm0_fn(FN(vq_adm_cm0_))
{
    const int sqs = band == VQ_ADM_D ? 30 : 29;
    const __m128i sub = _mm_cvtsi32_si128(band == VQ_ADM_D ? 12 : 10);
    const __m128i sqc = _mm_cvtsi32_si128(sqs), sh = _mm_cvtsi32_si128(cub_shift);
    const V_T sq_add = V_SET1_64(1LL << (sqs - 1)), add = V_SET1_64(cub_add);
    const V_T hm = V_SLL64(V_SET1_64(-1), _mm_cvtsi32_si128(64 - cub_shift));
    const V_T rfv = V_SET1_32((int)rf);
    V_T acc = V_ZERO;
    int j = j0;
    for (; j + V_N32 <= j1; j += V_N32) {
        V_T xr = V_MULLO32(V_LOADU(x + j), rfv);
        V_T xv = V_SUB32(V_ABS32(xr), V_SLL32(V_LOADU(thr + j), sub));
        xv = V_MAX32(xv, V_ZERO);
        acc = V_ADD64(acc, FN(cm_terms)(xv, sq_add, sqc, add, sh, hm));
    }
    return V_REDUCE_ADD64(acc) +
           vq_adm_cm0_c(x, thr, rf, band, cub_shift, cub_add, j, j1);
}

V_TARGET decl_adm_cm123_fn(FN(vq_adm_cm123_))
{
    const __m128i sqc = _mm_cvtsi32_si128(30), sh = _mm_cvtsi32_si128(cub_shift);
    const V_T sq_add = V_SET1_64(1LL << 29), add = V_SET1_64(cub_add);
    const V_T hm = V_SLL64(V_SET1_64(-1), _mm_cvtsi32_si128(64 - cub_shift));
    const V_T rfv = V_SET1_32((int)rf);
    V_T acc = V_ZERO;
    int j = j0;
    for (; j + V_N32 <= j1; j += V_N32) {
        V_T xr = FN(csf123)(V_LOADU(x + j), rfv);
        V_T xv = V_MAX32(V_SUB32(V_ABS32(xr), V_LOADU(thr + j)), V_ZERO);
        acc = V_ADD64(acc, FN(cm_terms)(xv, sq_add, sqc, add, sh, hm));
    }
    return V_REDUCE_ADD64(acc) +
           vq_adm_cm123_c(x, thr, rf, cub_shift, cub_add, j, j1);
}

#undef FN
#undef VFN
