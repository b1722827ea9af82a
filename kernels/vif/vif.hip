/*
 * Integer VIF on the device: one fused kernel per scale. A block loads a
 * tile of both images with the filter's mirrored halo into shared memory.
 * Phase 1, per column segment: a register window of the column feeds the
 * vertical pass of the five statistics and, on even rows, of the next
 * scale's filter. Phase 2, per run of NX pixels of a row: the horizontal
 * passes (each statistic's run of values loaded once into registers and
 * serving every output of the run), the per-pixel terms of kernels/vif.h,
 * and the next scale's samples at even columns. The block's integer sums
 * are reduced in shared memory and added to the frame's record with 64-bit
 * atomics, so the result does not depend on the order.
 *
 * In a ladder (docs/LADDER.md) a scale runs in two kernels instead: once
 * per frame VIF_REF on the reference alone, writing its horizontal mu1 and
 * sigma1_sq of every output (the product, in the order phase 2's threads
 * take them, so both kernels move whole words side by side) and its next
 * scale's image; then per rendition VIF_DIS, which reads them in place of
 * computing them and does the rest as VIF_PAIR does, so the sums are the
 * same integers.
 *
 * Layout (a performance choice only; every thread computes the same
 * integers whatever the mapping): consecutive threads of phase 1 take
 * consecutive columns, consecutive threads of phase 2 consecutive rows, and
 * the vertical results' row pitches are odd in 32-bit words, so both
 * phases read and write shared memory without bank conflicts.
 */

#include "../hip_device.h"
#include "vif.h"
#include "vif_hpass.h"
#include "vif_tile.h"

template <typename T, int S, bool STAT, bool DOWN, int MODE>
__global__ VIF_BOUNDS void vif_scale_kernel(
    VqDevPlane ref, VqDevPlane dis, VifArgs a)
{
    /* which pictures' statistics and images this mode computes */
    constexpr bool R1 = MODE != VIF_DIS, R2 = MODE != VIF_REF;
    typedef VifTile<T, S> G;
    constexpr int R = G::R, TW = G::TW, TH = G::TH, NX = G::NX;
    constexpr int IW = G::IW, IH = G::IH, GROUPS = G::GROUPS;
    constexpr int P16 = G::P16, P32 = G::P32;
    constexpr int D = DOWN ? VQ_VIF_HALF(S + 1) : 0;
    constexpr int DW = TW + 2 * D, DH = DOWN ? TH / 2 : 1;
    constexpr int VH = STAT ? TH : 1;
    constexpr int WIN = VIF_SEG + 2 * R;
    constexpr int NT = VIF_THREADS;

    /* the input tile keeps the sample type; the block's sums reuse the
     * 32-bit vertical results once phase 2 is over */
    constexpr int N_SQ = (R1 ? 1 : 0) + (R2 ? 2 : 0);
    constexpr int SQ_STAT = N_SQ * TH * P32 * 4, RED = 4 * NT * 8;
    constexpr int SQ_BYTES = !STAT ? 8 : !R2 || SQ_STAT >= RED ? SQ_STAT
                                                              : RED;
    static_assert(MODE == VIF_PAIR || TH * GROUPS == NT,
                  "a split kernel's phase 2 takes one run a thread");
    __shared__ __align__(16) T in_r[IH * IW];
    __shared__ __align__(16) T in_d[R2 ? IH * IW : 1];
    __shared__ uint16_t v_m1[R1 ? VH * P16 : 1], v_m2[R2 ? VH * P16 : 1];
    __shared__ __align__(16) unsigned char v_sq[SQ_BYTES];
    __shared__ uint16_t dv_r[R1 ? DH * DW : 1], dv_d[R2 ? DH * DW : 1];
    uint32_t *const v_xx = (uint32_t *)v_sq;
    uint32_t *const v_yy = v_xx + (R1 ? VH * P32 : 0);
    uint32_t *const v_xy = v_yy + VH * P32;
    long long *const red = (long long *)v_sq;

    const int w = (int)ref.w, h = (int)ref.h;
    const int x0 = blockIdx.x * TW, y0 = blockIdx.y * TH;
    const int tid = threadIdx.x;

    constexpr int VW = 8 / sizeof(T); /* samples per 8-byte word */
    /* the whole input tile lies in the picture: no mirrored index */
    const bool inside = x0 >= R && x0 - R + IW <= w && y0 >= R &&
                        y0 - R + IH <= h;
    if (G::WIDE && inside &&
        (((uintptr_t)ref.data | (uintptr_t)dis.data | ref.pitch | dis.pitch) &
         7) == 0) {
        /* the tile is inside the picture (no mirror): whole 8-byte words,
         * x0 - R being a multiple of VW */
        static_assert(!G::WIDE || (R % VW == 0 && IW % VW == 0), "words");
        const char *r0 = (const char *)ref.data + (x0 - R) * sizeof(T);
        const char *d0 = (const char *)dis.data + (x0 - R) * sizeof(T);
        constexpr int WORDS = IH * (IW / VW);
        static_assert(!G::WIDE || WORDS % NT == 0, "whole rounds of words");
#pragma unroll
        for (int j = 0; j < WORDS / NT; j++) {
            const int i = tid + j * NT;
            const int ly = i / (IW / VW), lw = i % (IW / VW);
            const size_t gy = (size_t)(y0 - R + ly);
            ((uint2 *)in_r)[i] =
                vq_load_once((const uint2 *)(r0 + gy * ref.pitch) + lw);
            if (R2)
                ((uint2 *)in_d)[i] =
                    vq_load_once((const uint2 *)(d0 + gy * dis.pitch) + lw);
        }
    } else if (NT % IW == 0 && inside) {
        /* one column a thread, inside the picture: a pointer walks it */
        const int lx = tid % IW, ly0 = tid / IW;
        const size_t col = (size_t)(x0 - R + lx) * sizeof(T);
        const char *pr = (const char *)ref.data +
                         (size_t)(y0 - R + ly0) * ref.pitch + col;
        const char *pd = (const char *)dis.data +
                         (size_t)(y0 - R + ly0) * dis.pitch + col;
        const size_t step_r = (NT / IW) * ref.pitch;
        const size_t step_d = (NT / IW) * dis.pitch;
        for (int ly = ly0; ly < IH; ly += NT / IW) {
            in_r[ly * IW + lx] = vq_load_once((const T *)pr);
            if (R2)
                in_d[ly * IW + lx] = vq_load_once((const T *)pd);
            if (ly + NT / IW < IH) { /* never past the picture */
                pr += step_r;
                pd += step_d;
            }
        }
    } else if (NT % IW == 0) {
        /* each thread keeps one column */
        const int lx = tid % IW;
        const int gx = vif_src_col(x0 - R + lx, w);
        for (int ly = tid / IW; ly < IH; ly += NT / IW) {
            int gy = vif_src_row(y0 - R + ly, h);
            in_r[ly * IW + lx] = vif_load<T>(ref, gy, gx);
            if (R2)
                in_d[ly * IW + lx] = vif_load<T>(dis, gy, gx);
        }
    } else {
        for (int i = tid; i < IH * IW; i += NT) {
            int ly = i / IW, lx = i - ly * IW;
            int gy = vif_src_row(y0 - R + ly, h);
            int gx = vif_src_col(x0 - R + lx, w);
            in_r[i] = vif_load<T>(ref, gy, gx);
            if (R2)
                in_d[i] = vif_load<T>(dis, gy, gx);
        }
    }
    __syncthreads();

    for (int item = tid; item < IW * (TH / VIF_SEG); item += NT) {
        const int lx = item % IW, row0 = item / IW * VIF_SEG;
        uint32_t wr[WIN], wd[WIN], xs[WIN], ys[WIN], cs[WIN];
#pragma unroll
        for (int k = 0; k < WIN; k++) {
            wr[k] = in_r[(row0 + k) * IW + lx];
            wd[k] = R2 ? in_d[(row0 + k) * IW + lx] : 0;
            xs[k] = wr[k] * wr[k];
            ys[k] = wd[k] * wd[k];
            cs[k] = wr[k] * wd[k];
            if (sizeof(T) == 1) {
                vif_keep(xs[k]);
                vif_keep(ys[k]);
                vif_keep(cs[k]);
            }
        }
        if (STAT) {
#pragma unroll
            for (int r = 0; r < VIF_SEG; r++) {
                /* symmetric taps: pairs of values share a multiplication
                 * (sums of two 16-bit values times a tap stay below 2^32,
                 * and so do pairs of 8-bit squares) */
                const uint32_t cm = vif_tap<S>(R);
                const int o16 = (row0 + r) * P16 + lx;
                const int o32 = (row0 + r) * P32 + lx;
                uint32_t m1 = cm * wr[r + R], m2 = cm * wd[r + R];
#pragma unroll
                for (int k = 0; k < R; k++) {
                    const uint32_t c = vif_tap<S>(k);
                    m1 += c * (wr[r + k] + wr[r + 2 * R - k]);
                    m2 += c * (wd[r + k] + wd[r + 2 * R - k]);
                }
                if (R1)
                    v_m1[o16] =
                        (uint16_t)((m1 + a.rnd.mu_add) >> a.rnd.mu_shift);
                if (R2)
                    v_m2[o16] =
                        (uint16_t)((m2 + a.rnd.mu_add) >> a.rnd.mu_shift);
                if (sizeof(T) == 1) {
                    /* 8-bit second moments: exact in 32 bits, no shift */
                    uint32_t xx = cm * xs[r + R], yy = cm * ys[r + R];
                    uint32_t xy = cm * cs[r + R];
#pragma unroll
                    for (int k = 0; k < R; k++) {
                        const uint32_t c = vif_tap<S>(k);
                        const int e = r + 2 * R - k;
                        xx += c * (xs[r + k] + xs[e]);
                        yy += c * (ys[r + k] + ys[e]);
                        xy += c * (cs[r + k] + cs[e]);
                    }
                    if (R1)
                        v_xx[o32] = xx;
                    if (R2) {
                        v_yy[o32] = yy;
                        v_xy[o32] = xy;
                    }
                } else {
                    /* 16-bit samples: 64-bit sums, one product per tap
                     * (a pair of 32-bit squares can exceed 32 bits) */
                    uint64_t xx = (uint64_t)cm * xs[r + R];
                    uint64_t yy = (uint64_t)cm * ys[r + R];
                    uint64_t xy = (uint64_t)cm * cs[r + R];
#pragma unroll
                    for (int k = 0; k < R; k++) {
                        const uint64_t c = vif_tap<S>(k);
                        const int e = r + 2 * R - k;
                        xx += c * xs[r + k] + c * xs[e];
                        yy += c * ys[r + k] + c * ys[e];
                        xy += c * cs[r + k] + c * cs[e];
                    }
                    const unsigned sh = a.rnd.sq_shift;
                    const uint64_t add = a.rnd.sq_add;
                    if (R1)
                        v_xx[o32] = (uint32_t)((xx + add) >> sh);
                    if (R2) {
                        v_yy[o32] = (uint32_t)((yy + add) >> sh);
                        v_xy[o32] = (uint32_t)((xy + add) >> sh);
                    }
                }
            }
        }
        if (DOWN && lx >= R - D && lx < R + TW + D) {
#pragma unroll
            for (int q = 0; q < VIF_SEG / 2; q++) {
                uint32_t sr = 0, sd = 0;
#pragma unroll
                for (int k = 0; k < 2 * D + 1; k++) {
                    uint32_t t = vif_tap<DOWN ? S + 1 : S>(k);
                    sr += t * wr[2 * q + R - D + k];
                    sd += t * wd[2 * q + R - D + k];
                }
                int o = (row0 / 2 + q) * DW + lx - (R - D);
                if (R1)
                    dv_r[o] =
                        (uint16_t)((sr + a.rnd.mu_add) >> a.rnd.mu_shift);
                if (R2)
                    dv_d[o] =
                        (uint16_t)((sd + a.rnd.mu_add) >> a.rnd.mu_shift);
            }
        }
    }
    __syncthreads();

    /* (a ladder splits only frames whose scale 3 is 2 x 2 at least) */
    if (MODE == VIF_PAIR && S == 2 && w / 2 == 1 && blockIdx.x == 0 && y0 <= h - 1 &&
        h - 1 < y0 + TH && tid == 0) {
        /* the last row's vertical pass at column 1, for scale 3 */
        int o16 = (h - 1 - y0) * P16 + R + 1, o32 = (h - 1 - y0) * P32 + R + 1;
        a.edge[VQ_VIF_EDGE_MU1] = v_m1[o16];
        a.edge[VQ_VIF_EDGE_MU2] = v_m2[o16];
        a.edge[VQ_VIF_EDGE_XX] = v_xx[o32];
        a.edge[VQ_VIF_EDGE_YY] = v_yy[o32];
        a.edge[VQ_VIF_EDGE_XY] = v_xy[o32];
    }
    if (MODE == VIF_PAIR && S == 2 && h / 2 == 1 && y0 == 0) {
        /* scale 2's row 1, kept as row 1 of scale 3 */
        for (int c = tid; c < TW; c += NT) {
            int x = x0 + c;
            if (x < w / 2) {
                size_t row = a.next_pitch;
                ((uint16_t *)((char *)a.next_ref + row))[x] =
                    in_r[(R + 1) * IW + R + c];
                ((uint16_t *)((char *)a.next_dis + row))[x] =
                    in_d[(R + 1) * IW + R + c];
            }
        }
    }
    if (MODE == VIF_PAIR && S == 3 && STAT && w == 1) {
        /* columns -1 and 1 of a one-column picture: the edge values */
        for (int ty = tid; ty < TH; ty += NT)
            for (int k = -1; k <= 1; k += 2) {
                int o16 = ty * P16 + R + k, o32 = ty * P32 + R + k;
                v_m1[o16] = (uint16_t)a.edge[VQ_VIF_EDGE_MU1];
                v_m2[o16] = (uint16_t)a.edge[VQ_VIF_EDGE_MU2];
                v_xx[o32] = a.edge[VQ_VIF_EDGE_XX];
                v_yy[o32] = a.edge[VQ_VIF_EDGE_YY];
                v_xy[o32] = a.edge[VQ_VIF_EDGE_XY];
            }
        __syncthreads();
    }

    VqVifScaleAcc acc = { 0, 0, 0, 0 };
    if (STAT) {
        for (int item = tid; item < TH * GROUPS; item += NT) {
            const int ty = item % TH, tx = item / TH * NX;
            uint32_t m1[NX], m2[NX];
            int32_t s1[NX], s2[NX], s12[NX];
            uint32_t *const prod =
                a.prod + (size_t)(blockIdx.y * gridDim.x + blockIdx.x) *
                             (2 * NX * NT) + tid;
            if (R1) {
                vif_hpass16<S, NX>(v_m1 + ty * P16 + tx, m1);
                vif_hpass_sigma<S, NX>(v_xx + ty * P32 + tx, m1, m1, s1);
            } else {
#pragma unroll
                for (int i = 0; i < NX; i++) {
                    m1[i] = prod[i * NT];
                    s1[i] = (int32_t)prod[(NX + i) * NT];
                }
            }
            if (MODE == VIF_REF) {
#pragma unroll
                for (int i = 0; i < NX; i++) {
                    prod[i * NT] = m1[i];
                    prod[(NX + i) * NT] = (uint32_t)s1[i];
                }
                continue;
            }
            vif_hpass16<S, NX>(v_m2 + ty * P16 + tx, m2);
            vif_hpass_sigma<S, NX>(v_yy + ty * P32 + tx, m2, m2, s2);
            vif_hpass_sigma<S, NX>(v_xy + ty * P32 + tx, m1, m2, s12);
            /* every output of the run is computed (no branch, so the
             * table loads of all NX are issued together); those outside
             * the picture are dropped */
            const int in_w = y0 + ty < h ? w - x0 - tx : 0;
#pragma unroll
            for (int i = 0; i < NX; i++) {
                VqVifScaleAcc p = { 0, 0, 0, 0 };
                vq_vif_pixel(a.log2_tab, s1[i], s2[i], s12[i], a.gain_limit,
                             &p);
                const bool in = i < in_w;
                acc.num_log += in ? p.num_log : 0;
                acc.den_log += in ? p.den_log : 0;
                acc.num_non_log += in ? p.num_non_log : 0;
                acc.den_non_log += in ? p.den_non_log : 0;
            }
        }
    }
    if (DOWN) {
        const int ow = w / 2, oh = h / 2;
        for (int i = tid; i < DH * (TW / 2); i += NT) {
            int q = i / (TW / 2), c = i - q * (TW / 2);
            int oy = y0 / 2 + q, ox = x0 / 2 + c;
            if (oy >= oh || ox >= ow)
                continue;
            uint32_t sr = 0, sd = 0;
#pragma unroll
            for (int k = 0; k < 2 * D + 1; k++) {
                uint32_t t = vif_tap<DOWN ? S + 1 : S>(k);
                if (R1)
                    sr += t * dv_r[q * DW + 2 * c + k];
                if (R2)
                    sd += t * dv_d[q * DW + 2 * c + k];
            }
            size_t row = (size_t)oy * a.next_pitch;
            if (R1)
                ((uint16_t *)((char *)a.next_ref + row))[ox] =
                    (uint16_t)((sr + 32768) >> 16);
            if (R2)
                ((uint16_t *)((char *)a.next_dis + row))[ox] =
                    (uint16_t)((sd + 32768) >> 16);
        }
    }

    if (STAT && MODE != VIF_REF) {
        __syncthreads(); /* red overlays the vertical results */
        red[tid] = acc.num_log;
        red[NT + tid] = acc.den_log;
        red[2 * NT + tid] = acc.num_non_log;
        red[3 * NT + tid] = acc.den_non_log;
        __syncthreads();
        for (int s = NT / 2; s > 0; s >>= 1) {
            if (tid < s)
                for (int k = 0; k < 4; k++)
                    red[k * NT + tid] += red[k * NT + tid + s];
            __syncthreads();
        }
        if (tid < 4 && red[tid * NT]) {
            unsigned long long *dst = (unsigned long long *)a.acc;
            atomicAdd(dst + tid, (unsigned long long)red[tid * NT]);
        }
    }
}

template <typename T, int S, bool STAT, bool DOWN, int MODE>
static void vif_launch(hipStream_t stream, const VqDevPlane *ref,
                       const VqDevPlane *dis, const VifArgs &a)
{
    typedef VifTile<T, S> G;
    dim3 grid(vq_div_ceil(ref->w, G::TW), vq_div_ceil(ref->h, G::TH));
    vif_scale_kernel<T, S, STAT, DOWN, MODE>
        <<<grid, VIF_THREADS, 0, stream>>>(*ref, *dis, a);
}

template <int MODE>
static int vif_launch_scale(VqStream stream, unsigned scale,
                            const VqDevPlane *ref, const VqDevPlane *dis,
                            unsigned bpc, bool do_stat, const VifArgs &a)
{
    if (!ref->w || !ref->h)
        return 0;
    hipStream_t s = vq_hip_stream(stream);
    switch (scale) {
    case 0:
        if (bpc == 8) {
            if (do_stat)
                vif_launch<uint8_t, 0, true, true, MODE>(s, ref, dis, a);
            else
                vif_launch<uint8_t, 0, false, true, MODE>(s, ref, dis, a);
        } else {
            if (do_stat)
                vif_launch<uint16_t, 0, true, true, MODE>(s, ref, dis, a);
            else
                vif_launch<uint16_t, 0, false, true, MODE>(s, ref, dis, a);
        }
        break;
    case 1:
        vif_launch<uint16_t, 1, true, true, MODE>(s, ref, dis, a);
        break;
    case 2:
        vif_launch<uint16_t, 2, true, true, MODE>(s, ref, dis, a);
        break;
    default:
        vif_launch<uint16_t, 3, true, false, MODE>(s, ref, dis, a);
        break;
    }
    return vq_launch_status();
}

static VifArgs vif_args(unsigned scale, unsigned bpc)
{
    VifArgs a = {};
    a.rnd = vq_vif_vround(scale, bpc);
    return a;
}

extern "C" int vq_vif_scale_launch(VqStream stream, unsigned scale,
                                   const VqDevPlane *ref, const VqDevPlane *dis,
                                   unsigned bpc, bool do_stat,
                                   const uint16_t *log2_tab, double gain_limit,
                                   uint16_t *next_ref, uint16_t *next_dis,
                                   size_t next_pitch, uint32_t *edge,
                                   VqVifScaleAcc *acc)
{
    VifArgs a = vif_args(scale, bpc);
    a.log2_tab = log2_tab;
    a.gain_limit = gain_limit;
    a.next_ref = next_ref;
    a.next_dis = next_dis;
    a.next_pitch = next_pitch;
    a.edge = edge;
    a.acc = acc;
    return vif_launch_scale<VIF_PAIR>(stream, scale, ref, dis, bpc, do_stat,
                                      a);
}

template <typename T, int S>
static size_t vif_prod_words_of(unsigned w, unsigned h)
{
    typedef VifTile<T, S> G;
    return (size_t)vq_div_ceil(w, G::TW) * vq_div_ceil(h, G::TH) * 2 *
           G::NX * VIF_THREADS;
}

extern "C" size_t vq_vif_prod_words(unsigned scale, unsigned bpc, unsigned w,
                                    unsigned h)
{
    switch (scale) {
    case 0:
        return bpc == 8 ? vif_prod_words_of<uint8_t, 0>(w, h)
                        : vif_prod_words_of<uint16_t, 0>(w, h);
    case 1:
        return vif_prod_words_of<uint16_t, 1>(w, h);
    case 2:
        return vif_prod_words_of<uint16_t, 2>(w, h);
    default:
        return vif_prod_words_of<uint16_t, 3>(w, h);
    }
}

extern "C" int vq_vif_ref_scale_launch(VqStream stream, unsigned scale,
                                       const VqDevPlane *ref, unsigned bpc,
                                       bool do_stat, uint32_t *prod,
                                       uint16_t *next_ref, size_t next_pitch)
{
    VifArgs a = vif_args(scale, bpc);
    a.prod = prod;
    a.next_ref = next_ref;
    a.next_pitch = next_pitch;
    return vif_launch_scale<VIF_REF>(stream, scale, ref, ref, bpc, do_stat,
                                     a);
}

extern "C" int vq_vif_dis_scale_launch(VqStream stream, unsigned scale,
                                       const VqDevPlane *ref,
                                       const VqDevPlane *dis, unsigned bpc,
                                       bool do_stat, const uint32_t *prod,
                                       const uint16_t *log2_tab,
                                       double gain_limit, uint16_t *next_dis,
                                       size_t next_pitch, VqVifScaleAcc *acc)
{
    VifArgs a = vif_args(scale, bpc);
    a.prod = (uint32_t *)prod; /* read only (VIF_DIS) */
    a.log2_tab = log2_tab;
    a.gain_limit = gain_limit;
    a.next_dis = next_dis;
    a.next_pitch = next_pitch;
    a.acc = acc;
    return vif_launch_scale<VIF_DIS>(stream, scale, ref, dis, bpc, do_stat,
                                     a);
}
