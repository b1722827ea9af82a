/*
 * Integer VIF on the device: one fused kernel per scale. A block loads a
 * tile of both images with the filter's mirrored halo into shared memory,
 * runs the vertical pass of the five statistics (and of the next scale's
 * filter on even rows), then the horizontal passes: per pixel the terms of
 * kernels/vif.h, and the next scale's samples at even columns. The block's
 * integer sums are reduced in shared memory and added to the frame's record
 * with 64-bit atomics, so the result does not depend on the order.
 */
#include <type_traits>

#include "hip_device.h"
#include "vif.h"

#define VIF_THREADS 256 /* a power of two (tree reduction), not a wave size */
#define VIF_TW 32       /* output tile: even, so decimation stays aligned */
#define VIF_TH 16

struct VifArgs {
    const uint16_t *log2_tab;
    double gain_limit;
    VqVifVRound rnd;
    uint16_t *next_ref, *next_dis;
    size_t next_pitch;
    VqVifScaleAcc *acc;
};

template <int S>
__device__ __forceinline__ uint32_t vif_tap(int k)
{
    const uint16_t t0[] = { VQ_VIF_TAPS_0 };
    const uint16_t t1[] = { VQ_VIF_TAPS_1 };
    const uint16_t t2[] = { VQ_VIF_TAPS_2 };
    const uint16_t t3[] = { VQ_VIF_TAPS_3 };
    return S == 0 ? t0[k] : S == 1 ? t1[k] : S == 2 ? t2[k] : t3[k];
}

/* Mirrored index, clamped for tile positions past the picture (those feed
 * only outputs that are discarded). */
__device__ __forceinline__ int vif_src_index(int k, int n)
{
    k = vq_vif_mirror(k, n);
    return k < 0 ? 0 : k >= n ? n - 1 : k;
}

template <typename T>
__device__ __forceinline__ uint16_t vif_load(const VqDevPlane &p, int y, int x)
{
    return ((const T *)((const char *)p.data + (size_t)y * p.pitch))[x];
}

template <typename T, int S, bool STAT, bool DOWN>
__global__ __launch_bounds__(VIF_THREADS) void vif_scale_kernel(
    VqDevPlane ref, VqDevPlane dis, VifArgs a)
{
    constexpr int R = VQ_VIF_HALF(S);
    constexpr int D = DOWN ? VQ_VIF_HALF(S + 1) : 0;
    constexpr int IW = VIF_TW + 2 * R, IH = VIF_TH + 2 * R;
    constexpr int DW = VIF_TW + 2 * D, DH = DOWN ? VIF_TH / 2 : 1;
    constexpr int VH = STAT ? VIF_TH : 1;
    /* 8-bit second moments fit 32 bits (65536 * 255^2 < 2^32) */
    typedef typename std::conditional<sizeof(T) == 1, uint32_t,
                                      uint64_t>::type SqSum;

    __shared__ uint16_t in_r[IH * IW], in_d[IH * IW];
    __shared__ uint16_t v_m1[VH * IW], v_m2[VH * IW];
    __shared__ uint32_t v_xx[VH * IW], v_yy[VH * IW], v_xy[VH * IW];
    __shared__ uint16_t dv_r[DH * DW], dv_d[DH * DW];
    __shared__ long long red[STAT ? 4 * VIF_THREADS : 1];

    const int w = (int)ref.w, h = (int)ref.h;
    const int x0 = blockIdx.x * VIF_TW, y0 = blockIdx.y * VIF_TH;
    const int tid = threadIdx.x, nt = blockDim.x;

    for (int i = tid; i < IH * IW; i += nt) {
        int ly = i / IW, lx = i - ly * IW;
        int gy = vif_src_index(y0 - R + ly, h);
        int gx = vif_src_index(x0 - R + lx, w);
        in_r[i] = vif_load<T>(ref, gy, gx);
        in_d[i] = vif_load<T>(dis, gy, gx);
    }
    __syncthreads();

    if (STAT) {
        for (int i = tid; i < VIF_TH * IW; i += nt) {
            int ty = i / IW, lx = i - ty * IW;
            uint32_t m1 = 0, m2 = 0;
            SqSum xx = 0, yy = 0, xy = 0;
#pragma unroll
            for (int k = 0; k < 2 * R + 1; k++) {
                uint32_t c = vif_tap<S>(k);
                uint32_t r = in_r[(ty + k) * IW + lx];
                uint32_t d = in_d[(ty + k) * IW + lx];
                uint32_t cr = c * r, cd = c * d;
                m1 += cr;
                m2 += cd;
                xx += (SqSum)cr * r;
                yy += (SqSum)cd * d;
                xy += (SqSum)cr * d;
            }
            v_m1[i] = (uint16_t)((m1 + a.rnd.mu_add) >> a.rnd.mu_shift);
            v_m2[i] = (uint16_t)((m2 + a.rnd.mu_add) >> a.rnd.mu_shift);
            v_xx[i] = (uint32_t)((xx + a.rnd.sq_add) >> a.rnd.sq_shift);
            v_yy[i] = (uint32_t)((yy + a.rnd.sq_add) >> a.rnd.sq_shift);
            v_xy[i] = (uint32_t)((xy + a.rnd.sq_add) >> a.rnd.sq_shift);
        }
    }
    if (DOWN) {
        for (int i = tid; i < DH * DW; i += nt) {
            int q = i / DW, c = i - q * DW;
            int base = (R + 2 * q - D) * IW + R - D + c;
            uint32_t sr = 0, sd = 0;
#pragma unroll
            for (int k = 0; k < 2 * D + 1; k++) {
                uint32_t t = vif_tap<DOWN ? S + 1 : S>(k);
                sr += t * in_r[base + k * IW];
                sd += t * in_d[base + k * IW];
            }
            dv_r[i] = (uint16_t)((sr + a.rnd.mu_add) >> a.rnd.mu_shift);
            dv_d[i] = (uint16_t)((sd + a.rnd.mu_add) >> a.rnd.mu_shift);
        }
    }
    __syncthreads();

    VqVifScaleAcc acc = { 0, 0, 0, 0 };
    if (STAT) {
        for (int i = tid; i < VIF_TH * VIF_TW; i += nt) {
            int ty = i / VIF_TW, tx = i - ty * VIF_TW;
            if (y0 + ty >= h || x0 + tx >= w)
                continue;
            uint32_t m1 = 0, m2 = 0;
            uint64_t xx = 0, yy = 0, xy = 0;
#pragma unroll
            for (int k = 0; k < 2 * R + 1; k++) {
                uint32_t c = vif_tap<S>(k);
                int o = ty * IW + tx + k;
                m1 += c * v_m1[o];
                m2 += c * v_m2[o];
                xx += (uint64_t)c * v_xx[o];
                yy += (uint64_t)c * v_yy[o];
                xy += (uint64_t)c * v_xy[o];
            }
            vq_vif_pixel(a.log2_tab, vq_vif_sigma(xx, m1, m1),
                         vq_vif_sigma(yy, m2, m2), vq_vif_sigma(xy, m1, m2),
                         a.gain_limit, &acc);
        }
    }
    if (DOWN) {
        const int ow = w / 2, oh = h / 2;
        for (int i = tid; i < DH * (VIF_TW / 2); i += nt) {
            int q = i / (VIF_TW / 2), c = i - q * (VIF_TW / 2);
            int oy = y0 / 2 + q, ox = x0 / 2 + c;
            if (oy >= oh || ox >= ow)
                continue;
            uint32_t sr = 0, sd = 0;
#pragma unroll
            for (int k = 0; k < 2 * D + 1; k++) {
                uint32_t t = vif_tap<DOWN ? S + 1 : S>(k);
                sr += t * dv_r[q * DW + 2 * c + k];
                sd += t * dv_d[q * DW + 2 * c + k];
            }
            size_t row = (size_t)oy * a.next_pitch;
            ((uint16_t *)((char *)a.next_ref + row))[ox] =
                (uint16_t)((sr + 32768) >> 16);
            ((uint16_t *)((char *)a.next_dis + row))[ox] =
                (uint16_t)((sd + 32768) >> 16);
        }
    }

    if (STAT) {
        red[tid] = acc.num_log;
        red[nt + tid] = acc.den_log;
        red[2 * nt + tid] = acc.num_non_log;
        red[3 * nt + tid] = acc.den_non_log;
        __syncthreads();
        for (int s = nt / 2; s > 0; s >>= 1) {
            if (tid < s)
                for (int k = 0; k < 4; k++)
                    red[k * nt + tid] += red[k * nt + tid + s];
            __syncthreads();
        }
        if (tid < 4 && red[tid * nt]) {
            unsigned long long *dst = (unsigned long long *)a.acc;
            atomicAdd(dst + tid, (unsigned long long)red[tid * nt]);
        }
    }
}

template <typename T, int S, bool STAT, bool DOWN>
static void vif_launch(hipStream_t stream, const VqDevPlane *ref,
                       const VqDevPlane *dis, const VifArgs &a)
{
    dim3 grid(vq_div_ceil(ref->w, VIF_TW), vq_div_ceil(ref->h, VIF_TH));
    vif_scale_kernel<T, S, STAT, DOWN><<<grid, VIF_THREADS, 0, stream>>>(
        *ref, *dis, a);
}

extern "C" int vq_vif_scale_launch(VqStream stream, unsigned scale,
                                   const VqDevPlane *ref, const VqDevPlane *dis,
                                   unsigned bpc, bool do_stat,
                                   const uint16_t *log2_tab, double gain_limit,
                                   uint16_t *next_ref, uint16_t *next_dis,
                                   size_t next_pitch, VqVifScaleAcc *acc)
{
    if (!ref->w || !ref->h)
        return 0;
    VifArgs a;
    a.log2_tab = log2_tab;
    a.gain_limit = gain_limit;
    a.rnd = vq_vif_vround(scale, bpc);
    a.next_ref = next_ref;
    a.next_dis = next_dis;
    a.next_pitch = next_pitch;
    a.acc = acc;
    hipStream_t s = vq_hip_stream(stream);
    switch (scale) {
    case 0:
        if (bpc == 8) {
            if (do_stat)
                vif_launch<uint8_t, 0, true, true>(s, ref, dis, a);
            else
                vif_launch<uint8_t, 0, false, true>(s, ref, dis, a);
        } else {
            if (do_stat)
                vif_launch<uint16_t, 0, true, true>(s, ref, dis, a);
            else
                vif_launch<uint16_t, 0, false, true>(s, ref, dis, a);
        }
        break;
    case 1:
        vif_launch<uint16_t, 1, true, true>(s, ref, dis, a);
        break;
    case 2:
        vif_launch<uint16_t, 2, true, true>(s, ref, dis, a);
        break;
    default:
        vif_launch<uint16_t, 3, true, false>(s, ref, dis, a);
        break;
    }
    return vq_launch_status();
}
