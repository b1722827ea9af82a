/*
 * Integer VIF on the device: the filter passes its kernels share
 * (vif.hip): the taps, and the horizontal passes over a run of NX outputs.
 */
#ifndef VQHIP_KERNELS_VIF_HPASS_H
#define VQHIP_KERNELS_VIF_HPASS_H

#include "../hip_device.h"
#include "vif.h"

/* NVIDIA: the value as the compiler must take it, opaque. The 8-bit
 * squares of a column are formed once and serve the 8 rows of a segment;
 * left visible, nvcc forms each symmetric pair's sum of squares again from
 * the samples with a byte-pair dot product (two PRMT and an IDP a pair and
 * row): 6% more instructions in 8-bit scale 0 at 4K. */
__device__ __forceinline__ void vif_keep(uint32_t &v)
{
#if defined(__CUDACC__)
    asm("" : "+r"(v));
#else
    (void)v;
#endif
}

template <int S>
__device__ __forceinline__ uint32_t vif_tap(int k)
{
    const uint16_t t0[] = { VQ_VIF_TAPS_0 };
    const uint16_t t1[] = { VQ_VIF_TAPS_1 };
    const uint16_t t2[] = { VQ_VIF_TAPS_2 };
    const uint16_t t3[] = { VQ_VIF_TAPS_3 };
    return S == 0 ? t0[k] : S == 1 ? t1[k] : S == 2 ? t2[k] : t3[k];
}

/* Horizontal pass of a 16-bit statistic over NX outputs from the run's
 * NX + 2R values: symmetric taps, pairs of values share a multiplication
 * (pairs of 16-bit values times a tap, and the whole sum, stay below 2^32:
 * the same integers as tap by tap). */
/* A run's N values from shared memory into registers. */
template <int N, typename T>
__device__ __forceinline__ void vif_run_regs(const T *v, uint32_t *b)
{
#pragma unroll
    for (int k = 0; k < N; k++)
        b[k] = v[k];
}

template <int S, int NX>
__device__ __forceinline__ void vif_hpass16(const uint16_t *v, uint32_t *out)
{
    constexpr int R = VQ_VIF_HALF(S);
    uint32_t b[NX + 2 * R];
    vif_run_regs<NX + 2 * R>(v, b);
#pragma unroll
    for (int i = 0; i < NX; i++) {
        uint32_t m = vif_tap<S>(R) * b[i + R];
#pragma unroll
        for (int k = 0; k < R; k++)
            m += vif_tap<S>(k) * (b[i + k] + b[i + 2 * R - k]);
        out[i] = m;
    }
}

/* Horizontal pass of a second moment over NX outputs (sums of up to 48
 * bits), turned into the variance or covariance with the means ma, mb. */
template <int S, int NX>
__device__ __forceinline__ void vif_hpass_sigma(const uint32_t *v,
                                                const uint32_t *ma,
                                                const uint32_t *mb,
                                                int32_t *out)
{
    constexpr int R = VQ_VIF_HALF(S);
#if defined(__CUDACC__)
    /* NVIDIA: in double, on the FP64 pipe, which is otherwise idle here,
     * instead of a 64-bit integer multiply-add a tap on the busiest pipe.
     * Exact: values are below 2^32, pairs of them below 2^33, a tap times
     * a pair below 2^46 and every partial sum below 2^48 (the taps sum to
     * 2^16), all integers that a double holds. AMD keeps the integer form
     * (gfx1036's FP64 rate is a small fraction of its integer rate). */
    double b[NX + 2 * R];
#pragma unroll
    for (int k = 0; k < NX + 2 * R; k++)
        b[k] = (double)v[k];
#pragma unroll
    for (int i = 0; i < NX; i++) {
        double s = (double)vif_tap<S>(R) * b[i + R];
#pragma unroll
        for (int k = 0; k < R; k++)
            s = fma((double)vif_tap<S>(k), b[i + k] + b[i + 2 * R - k], s);
        out[i] = vq_vif_sigma((uint64_t)s, ma[i], mb[i]);
    }
#else
    uint32_t b[NX + 2 * R];
    vif_run_regs<NX + 2 * R>(v, b);
#pragma unroll
    for (int i = 0; i < NX; i++) {
        uint64_t s = 0;
#pragma unroll
        for (int k = 0; k <= 2 * R; k++)
            s += (uint64_t)vif_tap<S>(k) * b[i + k];
        out[i] = vq_vif_sigma(s, ma[i], mb[i]);
    }
#endif
}

#endif
