/*
 * Integer VIF on the device: the tile geometry of vif.hip's kernel, what a
 * launch passes it, and its reads of the pictures.
 */
#ifndef VQHIP_KERNELS_VIF_TILE_H
#define VQHIP_KERNELS_VIF_TILE_H

#include "../hip_device.h"
#include "vif.h"

#define VIF_THREADS 256 /* a power of two (tree reduction), not a wave size */
#define VIF_SEG 8       /* rows per phase-1 item (even) */

/* NVIDIA: three resident blocks per SM (at most 80 registers), the
 * occupancy of the 128-thread version that ran scale 0 at 1080p in 71 us.
 * HIP reads a second bound differently (waves per SIMD): AMD keeps the
 * compiler's choice. */
#if defined(__CUDACC__)
#define VIF_BOUNDS __launch_bounds__(VIF_THREADS, 3)
#else
#define VIF_BOUNDS __launch_bounds__(VIF_THREADS)
#endif

/* Tile geometry of scale S reading samples of type T: TW x TH outputs,
 * phase 2 in TH * GROUPS runs of NX outputs. Widths are even (the
 * decimation stays aligned); everything fits the 48 KiB of static shared
 * memory. 8-bit scale 0, the costliest kernel, takes a wide, low tile: its
 * input tile is 128 columns (a column per thread in the tile load, whole
 * 8-byte words in the picture's interior) and the halo's share of the
 * vertical pass drops from 1/4 to 1/8. */
template <typename T, int S> struct VifTile {
    static constexpr bool WIDE = S == 0 && sizeof(T) == 1;
    static constexpr int R = VQ_VIF_HALF(S);
    static constexpr int TW = WIDE ? 112 : S > 0 ? 56 : 40;
    static constexpr int TH = WIDE ? 16 : 32;
    static constexpr int GROUPS = VIF_THREADS / TH;
    static constexpr int NX = TW / GROUPS;
    static constexpr int IW = TW + 2 * R, IH = TH + 2 * R;
    /* row pitches of the vertical results: 16-bit rows an odd number of
     * words, 32-bit rows an odd number of words */
    static constexpr int P16 = IW + (6 - IW % 4) % 4;
    static constexpr int P32 = IW | 1;
    static_assert(TW % 2 == 0 && NX * GROUPS == TW, "tile width");
    static_assert(TH % VIF_SEG == 0 && TH * GROUPS == VIF_THREADS,
                  "tile height");
    static_assert(P16 % 4 == 2 && P16 >= IW && P32 >= IW, "pitches");
};

/* What a kernel computes: both pictures, the reference's part alone, or
 * the rest from that part. */
enum { VIF_PAIR, VIF_REF, VIF_DIS };

struct VifArgs {
    uint32_t *prod; /* VIF_REF writes, VIF_DIS reads: the block's
                       2 * NX * VIF_THREADS words at block * that */
    const uint16_t *log2_tab;
    double gain_limit;
    VqVifVRound rnd;
    uint16_t *next_ref, *next_dis;
    size_t next_pitch;
    uint32_t *edge;
    VqVifScaleAcc *acc;
};

/* Mirrored index, clamped for tile positions past the picture (those feed
 * only outputs that are discarded). A one-column picture's mirrored columns
 * are replaced later (edge values); a one-row picture has its row 1. */
__device__ __forceinline__ int vif_src_col(int k, int n)
{
    k = vq_vif_mirror(k, n);
    return k < 0 ? 0 : k >= n ? n - 1 : k;
}

__device__ __forceinline__ int vif_src_row(int k, int n)
{
    return n == 1 ? vq_vif_row_one_high(k) : vif_src_col(k, n);
}

template <typename T>
__device__ __forceinline__ T vif_load(const VqDevPlane &p, int y, int x)
{
    return vq_load_once((const T *)((const char *)p.data + (size_t)y * p.pitch) +
                        x);
}

#endif
