/*
 * Integer motion, the row passes in x86 intrinsics: one template, included
 * by motion_x86.c once per vector width (simd_x86.h names the
 * intrinsics). Each equals its C function (motion_dsp.c) on every input
 * (tests/checkasm):
 *  - 16-bit differences of the five rows, the mirrored pairs added first
 *    as the C helper does (no wrap: |d| < 2^12), then two taps per PMADDWD;
 *    the rounding constant rides along as a tap on a lane of ones.
 *  - The horizontal pass multiplies neighbouring columns two at a time
 *    (even and odd outputs in separate vectors; the sums are exact, so the
 *    order of the additions does not matter), then joins the pieces as
 *    vq_motion_blur_split does.
 *  - Columns after the last full vector go through the C function.
 */

#define VQ_CAT_(a, b) a##b
#define VQ_CAT(a, b) VQ_CAT_(a, b)
#define FN(name) VQ_CAT(name, V_SUFFIX)
#define VFN static inline __attribute__((always_inline)) V_TARGET

VFN V_T FN(tap2)(int a, int b)
{
    return V_SET1_32((int)((uint32_t)(uint16_t)a | (uint32_t)(uint16_t)b << 16));
}

/* One vector of the vertical pass: v = (sum + 2^(shift - 1)) >> shift of
 * the differences d0..d4, stored as its pieces (vq_motion_hi, _lo). */
VFN void FN(vblur_vec)(V_T d0, V_T d1, V_T d2, V_T d3, V_T d4, V_T oi,
                       V_T cr, __m128i sh, int16_t *hi, int16_t *lo)
{
    const V_T one = V_SET1_16(1), m8 = V_SET1_32(255);
    V_T outer = V_ADD16(d0, d4), inner = V_ADD16(d1, d3);
    V_T sl = V_ADD32(V_MADD16(V_UNPACKLO16(outer, inner), oi),
                     V_MADD16(V_UNPACKLO16(d2, one), cr));
    V_T sh_ = V_ADD32(V_MADD16(V_UNPACKHI16(outer, inner), oi),
                      V_MADD16(V_UNPACKHI16(d2, one), cr));
    sl = V_SRA32(sl, sh);
    sh_ = V_SRA32(sh_, sh);
    V_STOREU(hi, V_PACKS32(V_SRAI32(sl, 8), V_SRAI32(sh_, 8)));
    V_STOREU(lo, V_PACKS32(V_AND(sl, m8), V_AND(sh_, m8)));
}

V_TARGET decl_motion_vblur_u8_fn(FN(vq_motion_vblur_u8_))
{
    const V_T oi = FN(tap2)(VQ_MOTION_TAP_OUTER, VQ_MOTION_TAP_INNER);
    const V_T cr = FN(tap2)(VQ_MOTION_TAP_CENTER, 1 << 7);
    const __m128i sh = _mm_cvtsi32_si128(8);
    size_t j = 0;
    for (; j + V_N16 <= w; j += V_N16) {
        V_T d[5];
        for (int k = 0; k < 5; k++)
            d[k] = V_SUB16(V_LOAD_U8(p[k] + j), V_LOAD_U8(c[k] + j));
        FN(vblur_vec)(d[0], d[1], d[2], d[3], d[4], oi, cr, sh, hi + j, lo + j);
    }
    const uint8_t *pt[5], *ct[5];
    for (int k = 0; k < 5; k++) {
        pt[k] = p[k] + j;
        ct[k] = c[k] + j;
    }
    vq_motion_vblur_u8_c(hi + j, lo + j, pt, ct, w - j);
}

V_TARGET decl_motion_vblur_u16_fn(FN(vq_motion_vblur_u16_))
{
    size_t j = 0;
    if (bpc <= 12) {
        const V_T oi = FN(tap2)(VQ_MOTION_TAP_OUTER, VQ_MOTION_TAP_INNER);
        const V_T cr = FN(tap2)(VQ_MOTION_TAP_CENTER, 1 << (bpc - 1));
        const __m128i sh = _mm_cvtsi32_si128((int)bpc);
        for (; j + V_N16 <= w; j += V_N16) {
            V_T d[5];
            for (int k = 0; k < 5; k++)
                d[k] = V_SUB16(V_LOADU(p[k] + j), V_LOADU(c[k] + j));
            FN(vblur_vec)(d[0], d[1], d[2], d[3], d[4], oi, cr, sh, hi + j,
                          lo + j);
        }
    }
    const uint16_t *pt[5], *ct[5];
    for (int k = 0; k < 5; k++) {
        pt[k] = p[k] + j;
        ct[k] = c[k] + j;
    }
    vq_motion_vblur_u16_c(hi + j, lo + j, pt, ct, w - j, bpc);
}

/* The 5-tap sums of a row of pieces at the even (e) and odd (o) columns of
 * the vector at j. */
VFN void FN(hsum_eo)(const int16_t *r, V_T t01, V_T t23, V_T t4, V_T *e,
                     V_T *o)
{
    *e = V_ADD32(V_ADD32(V_MADD16(V_LOADU(r), t01), V_MADD16(V_LOADU(r + 2), t23)),
                 V_MADD16(V_LOADU(r + 4), t4));
    *o = V_ADD32(V_ADD32(V_MADD16(V_LOADU(r + 1), t01),
                         V_MADD16(V_LOADU(r + 3), t23)),
                 V_MADD16(V_LOADU(r + 5), t4));
}

/* |(a + ((b + 2^15) >> 8)) >> 8| */
VFN V_T FN(join_abs)(V_T a, V_T b)
{
    const V_T r = V_SET1_32(1 << 15);
    return V_ABS32(V_SRAI32(V_ADD32(a, V_SRAI32(V_ADD32(b, r), 8)), 8));
}

V_TARGET decl_motion_hblur_sad_fn(FN(vq_motion_hblur_sad_))
{
    const V_T t01 = FN(tap2)(VQ_MOTION_TAP_OUTER, VQ_MOTION_TAP_INNER);
    const V_T t23 = FN(tap2)(VQ_MOTION_TAP_CENTER, VQ_MOTION_TAP_INNER);
    const V_T t4 = FN(tap2)(VQ_MOTION_TAP_OUTER, 0);
    V_T acc = V_ZERO;
    size_t j = 0;
    for (; j + V_N16 <= w; j += V_N16) {
        V_T ae, ao, be, bo;
        FN(hsum_eo)(hi + j, t01, t23, t4, &ae, &ao);
        FN(hsum_eo)(lo + j, t01, t23, t4, &be, &bo);
        acc = V_ADD32(acc, V_ADD32(FN(join_abs)(ae, be), FN(join_abs)(ao, bo)));
    }
    uint32_t lanes[V_N32];
    V_STOREU(lanes, acc);
    uint32_t sum = 0;
    for (int k = 0; k < V_N32; k++)
        sum += lanes[k];
    return sum + vq_motion_hblur_sad_c(hi + j, lo + j, w - j);
}

#undef FN
#undef VFN
