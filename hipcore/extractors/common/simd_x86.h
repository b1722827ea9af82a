/*
 * Width-generic names for the x86 intrinsics of the hand-written DSP
 * variants: a template written with V_* is included once with
 * VQ_SIMD_W 256 (AVX2) and once with 512 (AVX-512). Include this header
 * with VQ_SIMD_W defined to define the names, and again with VQ_SIMD_UNDEF
 * defined to remove them. Masks (V_M) are vectors of all-ones lanes with
 * AVX2 and mask registers with AVX-512; V_SEL(m, a, b) takes b where m is
 * set. Lanes of 32 bits unless a name says 16 or 64.
 */
#ifndef VQ_SIMD_UNDEF

#include <immintrin.h>

#if VQ_SIMD_W == 256
#define V_TARGET VQ_TARGET_AVX2
#define V_SUFFIX avx2
#define V_T __m256i
#define V_D __m256d
#define V_M __m256i
#define V_N16 16
#define V_N32 8
#define V_ZERO _mm256_setzero_si256()
#define V_LOADU(p) _mm256_loadu_si256((const __m256i *)(const void *)(p))
#define V_STOREU(p, x) _mm256_storeu_si256((__m256i *)(void *)(p), x)
#define V_LOAD_U8(p)                                                          \
    _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(const void *)(p)))
#define V_SET1_16 _mm256_set1_epi16
#define V_SET1_32 _mm256_set1_epi32
#define V_SET1_64 _mm256_set1_epi64x
#define V_XOR _mm256_xor_si256
#define V_AND _mm256_and_si256
#define V_OR _mm256_or_si256
#define V_ANDNOT _mm256_andnot_si256
#define V_ADD16 _mm256_add_epi16
#define V_SUB16 _mm256_sub_epi16
#define V_ADD32 _mm256_add_epi32
#define V_SUB32 _mm256_sub_epi32
#define V_ADD64 _mm256_add_epi64
#define V_SUB64 _mm256_sub_epi64
#define V_MADD16 _mm256_madd_epi16
#define V_MULLO16 _mm256_mullo_epi16
#define V_MULHI_U16 _mm256_mulhi_epu16
#define V_MULLO32 _mm256_mullo_epi32
#define V_MUL_EPU32 _mm256_mul_epu32
#define V_MUL_EPI32 _mm256_mul_epi32
#define V_ABS32 _mm256_abs_epi32
#define V_MAX32 _mm256_max_epi32
#define V_MIN32 _mm256_min_epi32
#define V_UNPACKLO16 _mm256_unpacklo_epi16
#define V_UNPACKHI16 _mm256_unpackhi_epi16
#define V_PACKUS32 _mm256_packus_epi32
#define V_PACKS32 _mm256_packs_epi32
#define V_SRL32 _mm256_srl_epi32
#define V_SLL32 _mm256_sll_epi32
#define V_SRA32 _mm256_sra_epi32
#define V_SRL64 _mm256_srl_epi64
#define V_SLL64 _mm256_sll_epi64
#define V_SRLI32 _mm256_srli_epi32
#define V_SLLI32 _mm256_slli_epi32
#define V_SRAI32 _mm256_srai_epi32
#define V_SRLI64 _mm256_srli_epi64
#define V_SLLI64 _mm256_slli_epi64
#define V_BLEND_ODD32(even, odd) _mm256_blend_epi32(even, odd, 0xaa)
#define V_GATHER32(base, idx) _mm256_i32gather_epi32((const int *)(base), idx, 4)
#define V_CMPGT32(a, b) _mm256_cmpgt_epi32(a, b)
#define V_CMPEQ32(a, b) _mm256_cmpeq_epi32(a, b)
#define V_CMPGT64(a, b) _mm256_cmpgt_epi64(a, b)
#define V_MAND _mm256_and_si256
#define V_MANDNOT _mm256_andnot_si256 /* ~a & b */
#define V_SEL(m, a, b) _mm256_blendv_epi8(a, b, m)
#define V_SEL64 V_SEL
#define V_REDUCE_ADD64(x)                                                     \
    ((uint64_t)_mm256_extract_epi64(x, 0) +                                   \
     (uint64_t)_mm256_extract_epi64(x, 1) +                                   \
     (uint64_t)_mm256_extract_epi64(x, 2) +                                   \
     (uint64_t)_mm256_extract_epi64(x, 3))
/* doubles: lanes 0..V_N32/2-1 (_LO) and the others (_HI) of 32-bit lanes */
#define V_CVT_PD_LO(x) _mm256_cvtepi32_pd(_mm256_castsi256_si128(x))
#define V_CVT_PD_HI(x) _mm256_cvtepi32_pd(_mm256_extracti128_si256(x, 1))
#define V_PD_ROUND_F(d) _mm256_cvtps_pd(_mm256_cvtpd_ps(d))
#define V_MUL_PD _mm256_mul_pd
#define V_ADD_PD _mm256_add_pd
#define V_MIN_PD _mm256_min_pd
#define V_MAX_PD _mm256_max_pd
#define V_SET1_PD _mm256_set1_pd
/* both halves' comparisons as one 32-bit lane mask */
#define V_PD_GE_MASK(lo_a, lo_b, hi_a, hi_b)                                  \
    vq_simd_pd_mask2(_mm256_cmp_pd(lo_a, lo_b, _CMP_GE_OQ),                    \
                     _mm256_cmp_pd(hi_a, hi_b, _CMP_GE_OQ))
#define V_CVTT_PD_2(lo, hi)                                                   \
    _mm256_set_m128i(_mm256_cvttpd_epi32(hi), _mm256_cvttpd_epi32(lo))
/* the low dwords of the qwords of a, then of b */
#define V_PACK_LO64(a, b)                                                     \
    _mm256_set_m128i(                                                         \
        _mm256_castsi256_si128(_mm256_permutevar8x32_epi32(                   \
            b, _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6))),                   \
        _mm256_castsi256_si128(_mm256_permutevar8x32_epi32(                   \
            a, _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6))))

#ifndef VQ_SIMD_AVX2_HELPERS
#define VQ_SIMD_AVX2_HELPERS
/* two masks of 4 double lanes -> one mask of 8 int32 lanes */
static inline __attribute__((always_inline)) VQ_TARGET_AVX2 __m256i
vq_simd_pd_mask2(__m256d lo, __m256d hi)
{
    __m256i l = _mm256_castpd_si256(lo), h = _mm256_castpd_si256(hi);
    /* the low dwords of each qword, in order */
    const __m256i pick = _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6);
    __m128i a = _mm256_castsi256_si128(_mm256_permutevar8x32_epi32(l, pick));
    __m128i b = _mm256_castsi256_si128(_mm256_permutevar8x32_epi32(h, pick));
    return _mm256_set_m128i(b, a);
}
#endif

#elif VQ_SIMD_W == 512
#define V_TARGET VQ_TARGET_AVX512
#define V_SUFFIX avx512
#define V_T __m512i
#define V_D __m512d
#define V_M __mmask16
#define V_N16 32
#define V_N32 16
#define V_ZERO _mm512_setzero_si512()
#define V_LOADU(p) _mm512_loadu_si512((const void *)(p))
#define V_STOREU(p, x) _mm512_storeu_si512((void *)(p), x)
#define V_LOAD_U8(p)                                                          \
    _mm512_cvtepu8_epi16(_mm256_loadu_si256((const __m256i *)(const void *)(p)))
#define V_SET1_16 _mm512_set1_epi16
#define V_SET1_32 _mm512_set1_epi32
#define V_SET1_64 _mm512_set1_epi64
#define V_XOR _mm512_xor_si512
#define V_AND _mm512_and_si512
#define V_OR _mm512_or_si512
#define V_ANDNOT _mm512_andnot_si512
#define V_ADD16 _mm512_add_epi16
#define V_SUB16 _mm512_sub_epi16
#define V_ADD32 _mm512_add_epi32
#define V_SUB32 _mm512_sub_epi32
#define V_ADD64 _mm512_add_epi64
#define V_SUB64 _mm512_sub_epi64
#define V_MADD16 _mm512_madd_epi16
#define V_MULLO16 _mm512_mullo_epi16
#define V_MULHI_U16 _mm512_mulhi_epu16
#define V_MULLO32 _mm512_mullo_epi32
#define V_MUL_EPU32 _mm512_mul_epu32
#define V_MUL_EPI32 _mm512_mul_epi32
#define V_ABS32 _mm512_abs_epi32
#define V_MAX32 _mm512_max_epi32
#define V_MIN32 _mm512_min_epi32
#define V_UNPACKLO16 _mm512_unpacklo_epi16
#define V_UNPACKHI16 _mm512_unpackhi_epi16
#define V_PACKUS32 _mm512_packus_epi32
#define V_PACKS32 _mm512_packs_epi32
#define V_SRL32 _mm512_srl_epi32
#define V_SLL32 _mm512_sll_epi32
#define V_SRA32 _mm512_sra_epi32
#define V_SRL64 _mm512_srl_epi64
#define V_SLL64 _mm512_sll_epi64
#define V_SRLI32 _mm512_srli_epi32
#define V_SLLI32 _mm512_slli_epi32
#define V_SRAI32 _mm512_srai_epi32
#define V_SRLI64 _mm512_srli_epi64
#define V_SLLI64 _mm512_slli_epi64
#define V_BLEND_ODD32(even, odd) _mm512_mask_blend_epi32(0xaaaa, even, odd)
#define V_GATHER32(base, idx) _mm512_i32gather_epi32(idx, (const void *)(base), 4)
#define V_CMPGT32(a, b) _mm512_cmpgt_epi32_mask(a, b)
#define V_CMPEQ32(a, b) _mm512_cmpeq_epi32_mask(a, b)
#define V_CMPGT64(a, b) ((__mmask16)_mm512_cmpgt_epi64_mask(a, b))
#define V_MAND(a, b) ((__mmask16)((a) & (b)))
#define V_MANDNOT(a, b) ((__mmask16)(~(a) & (b)))
#define V_SEL(m, a, b) _mm512_mask_blend_epi32(m, a, b)
#define V_SEL64(m, a, b) _mm512_mask_blend_epi64((__mmask8)(m), a, b)
/* modulo 2^64 in vector adds: GCC's _mm512_reduce_add_epi64 adds signed
 * long longs in C, undefined on overflow (UBSan stops on it) */
#define V_REDUCE_ADD64_4(y)                                                   \
    ((uint64_t)_mm256_extract_epi64(y, 0) +                                   \
     (uint64_t)_mm256_extract_epi64(y, 1) +                                   \
     (uint64_t)_mm256_extract_epi64(y, 2) +                                   \
     (uint64_t)_mm256_extract_epi64(y, 3))
#define V_REDUCE_ADD64(x)                                                     \
    V_REDUCE_ADD64_4(_mm256_add_epi64(_mm512_castsi512_si256(x),             \
                                      _mm512_extracti64x4_epi64(x, 1)))
#define V_CVT_PD_LO(x) _mm512_cvtepi32_pd(_mm512_castsi512_si256(x))
#define V_CVT_PD_HI(x) _mm512_cvtepi32_pd(_mm512_extracti64x4_epi64(x, 1))
#define V_PD_ROUND_F(d) _mm512_cvtps_pd(_mm512_cvtpd_ps(d))
#define V_MUL_PD _mm512_mul_pd
#define V_ADD_PD _mm512_add_pd
#define V_MIN_PD _mm512_min_pd
#define V_MAX_PD _mm512_max_pd
#define V_SET1_PD _mm512_set1_pd
#define V_PD_GE_MASK(lo_a, lo_b, hi_a, hi_b)                                  \
    ((__mmask16)(_mm512_cmp_pd_mask(lo_a, lo_b, _CMP_GE_OQ) |                 \
                 (unsigned)_mm512_cmp_pd_mask(hi_a, hi_b, _CMP_GE_OQ) << 8))
#define V_CVTT_PD_2(lo, hi)                                                   \
    _mm512_inserti64x4(_mm512_castsi256_si512(_mm512_cvttpd_epi32(lo)),       \
                       _mm512_cvttpd_epi32(hi), 1)
#define V_PACK_LO64(a, b)                                                     \
    _mm512_inserti64x4(_mm512_castsi256_si512(_mm512_cvtepi64_epi32(a)),      \
                       _mm512_cvtepi64_epi32(b), 1)
#else
#error "VQ_SIMD_W must be 256 or 512"
#endif

#else /* VQ_SIMD_UNDEF */

#undef V_TARGET
#undef V_SUFFIX
#undef V_T
#undef V_D
#undef V_M
#undef V_N16
#undef V_N32
#undef V_ZERO
#undef V_LOADU
#undef V_STOREU
#undef V_LOAD_U8
#undef V_SET1_16
#undef V_SET1_32
#undef V_SET1_64
#undef V_XOR
#undef V_AND
#undef V_OR
#undef V_ANDNOT
#undef V_ADD16
#undef V_SUB16
#undef V_ADD32
#undef V_SUB32
#undef V_ADD64
#undef V_SUB64
#undef V_MADD16
#undef V_MULLO16
#undef V_MULHI_U16
#undef V_MULLO32
#undef V_MUL_EPU32
#undef V_MUL_EPI32
#undef V_ABS32
#undef V_MAX32
#undef V_MIN32
#undef V_UNPACKLO16
#undef V_UNPACKHI16
#undef V_PACKUS32
#undef V_PACKS32
#undef V_SRL32
#undef V_SLL32
#undef V_SRA32
#undef V_SRL64
#undef V_SLL64
#undef V_SRLI32
#undef V_SLLI32
#undef V_SRAI32
#undef V_SRLI64
#undef V_SLLI64
#undef V_BLEND_ODD32
#undef V_GATHER32
#undef V_CMPGT32
#undef V_CMPEQ32
#undef V_CMPGT64
#undef V_MAND
#undef V_MANDNOT
#undef V_SEL
#undef V_SEL64
#undef V_REDUCE_ADD64
#undef V_REDUCE_ADD64_4
#undef V_CVT_PD_LO
#undef V_CVT_PD_HI
#undef V_PD_ROUND_F
#undef V_MUL_PD
#undef V_ADD_PD
#undef V_MIN_PD
#undef V_MAX_PD
#undef V_SET1_PD
#undef V_PD_GE_MASK
#undef V_CVTT_PD_2
#undef V_PACK_LO64
#undef VQ_SIMD_W
#undef VQ_SIMD_UNDEF

#endif
