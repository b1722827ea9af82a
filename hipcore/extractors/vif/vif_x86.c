/*
 * Integer VIF: the AVX2 and AVX-512 row functions (vif_dsp.h), one
 * template (vif_simd_tmpl.h) instantiated for each vector width.
 */
#include "vif_dsp.h"

#if VQ_ARCH_X86_64
#include <immintrin.h>

#define P2(a, b) ((uint32_t)(a) | (uint32_t)(b) << 16)

/* Taps from VQ_VIF_TAPS_s (kernels/vif/vif.h), two by two. */
static const VqVifPairs vif_pairs[VQ_VIF_SCALES] = {
    { 9,
      { 0, 2, 4, 6, 8, 10, 12, 14, 16 },
      { 1, 3, 5, 7, 9, 11, 13, 15, 16 },
      { -8, -6, -4, -2, 0, 2, 4, 6, 8 },
      { P2(489, 935), P2(1640, 2640), P2(3896, 5274), P2(6547, 7455),
        P2(7784, 7455), P2(6547, 5274), P2(3896, 2640), P2(1640, 935),
        P2(489, 0) } },
    { 5,
      { 0, 2, 4, 6, 8 },
      { 1, 3, 5, 7, 8 },
      { -4, -2, 0, 2, 4 },
      { P2(1244, 3663), P2(7925, 12590), P2(14692, 12590), P2(7925, 3663),
        P2(1244, 0) } },
    { 3,
      { 0, 2, 4 },
      { 1, 3, 4 },
      { -2, 0, 2 },
      { P2(3571, 16004), P2(26386, 16004), P2(3571, 0) } },
    /* 43728 = 2 x 21864 */
    { 2,
      { 0, 1 },
      { 1, 2 },
      { -1, 0 },
      { P2(10904, 21864), P2(21864, 10904) } },
};

#if defined(__GNUC__) && !defined(__clang__)
#define VIF_UNROLL_PAIRS _Pragma("GCC unroll 9")
#elif defined(__clang__)
#define VIF_UNROLL_PAIRS _Pragma("unroll")
#else
#define VIF_UNROLL_PAIRS
#endif


/* ---- AVX2 ---------------------------------------------------------------- */
#define VQ_SIMD_W 256
#include "../common/simd_x86.h"
/* e lane m = column 2m, o lane m = column 2m + 1: 16 values in order */
#define V_INTERLEAVE_STORE(p, e, o)                                           \
    do {                                                                      \
        __m256i lo_ = _mm256_unpacklo_epi32(e, o);                            \
        __m256i hi_ = _mm256_unpackhi_epi32(e, o);                            \
        V_STOREU(p, _mm256_permute2x128_si256(lo_, hi_, 0x20));               \
        V_STOREU((p) + 8, _mm256_permute2x128_si256(lo_, hi_, 0x31));         \
    } while (0)
/* the inverse: 16 values in order to e (columns 2m) and o (2m + 1) */
#define V_DEINTERLEAVE_LOAD(p, e, o)                                          \
    do {                                                                      \
        __m256 lo_ = _mm256_castsi256_ps(V_LOADU(p));                         \
        __m256 hi_ = _mm256_castsi256_ps(V_LOADU((p) + 8));                   \
        (e) = _mm256_permute4x64_epi64(                                       \
            _mm256_castps_si256(_mm256_shuffle_ps(lo_, hi_, 0x88)), 0xd8);    \
        (o) = _mm256_permute4x64_epi64(                                       \
            _mm256_castps_si256(_mm256_shuffle_ps(lo_, hi_, 0xdd)), 0xd8);    \
    } while (0)
/* 8 values below 2^16 to 16 bits, in order */
#define V_STORE_NARROW16(p, x)                                                \
    _mm_storeu_si128((__m128i *)(void *)(p),                                  \
                     _mm256_castsi256_si128(_mm256_permute4x64_epi64(         \
                         _mm256_packus_epi32(x, x), 0x08)))

#include "vif_simd_tmpl.h"

#undef V_INTERLEAVE_STORE
#undef V_DEINTERLEAVE_LOAD
#undef V_STORE_NARROW16
#define VQ_SIMD_UNDEF
#include "../common/simd_x86.h"

/* ---- AVX-512 ------------------------------------------------------------- */
#define VQ_SIMD_W 512
#include "../common/simd_x86.h"
#define V_INTERLEAVE_STORE(p, e, o)                                           \
    do {                                                                      \
        const __m512i i0_ = _mm512_set_epi32(23, 7, 22, 6, 21, 5, 20, 4, 19,  \
                                             3, 18, 2, 17, 1, 16, 0);         \
        const __m512i i1_ = _mm512_set_epi32(31, 15, 30, 14, 29, 13, 28, 12,  \
                                             27, 11, 26, 10, 25, 9, 24, 8);   \
        V_STOREU(p, _mm512_permutex2var_epi32(e, i0_, o));                    \
        V_STOREU((p) + 16, _mm512_permutex2var_epi32(e, i1_, o));             \
    } while (0)
#define V_DEINTERLEAVE_LOAD(p, e, o)                                          \
    do {                                                                      \
        const __m512i ie_ = _mm512_set_epi32(30, 28, 26, 24, 22, 20, 18, 16,  \
                                             14, 12, 10, 8, 6, 4, 2, 0);      \
        const __m512i io_ = _mm512_set_epi32(31, 29, 27, 25, 23, 21, 19, 17,  \
                                             15, 13, 11, 9, 7, 5, 3, 1);      \
        __m512i lo_ = V_LOADU(p), hi_ = V_LOADU((p) + 16);                    \
        (e) = _mm512_permutex2var_epi32(lo_, ie_, hi_);                       \
        (o) = _mm512_permutex2var_epi32(lo_, io_, hi_);                       \
    } while (0)
#define V_STORE_NARROW16(p, x)                                                \
    _mm256_storeu_si256((__m256i *)(void *)(p), _mm512_cvtepi32_epi16(x))

#include "vif_simd_tmpl.h"

#undef V_INTERLEAVE_STORE
#undef V_DEINTERLEAVE_LOAD
#undef V_STORE_NARROW16
#define VQ_SIMD_UNDEF
#include "../common/simd_x86.h"

#endif
