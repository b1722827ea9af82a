/*
 * Row sums of term images, for kernels whose per-pixel terms are made by a
 * fully parallel kernel into device memory (included by .hip files only).
 *
 * libvmaf's float extractors add a row's terms in float from left to right,
 * starting from 0.0f; that order is kept here: each row is one thread's
 * chain of adds. A block owns VQ_RSUM_ROWS rows of one segment (a term
 * image); its VQ_RSUM_CW threads stage VQ_RSUM_CW columns of those rows
 * in shared memory (coalesced loads of whole row pieces), and while the
 * first VQ_RSUM_ROWS threads add the staged piece to their row sums, every
 * thread loads the next piece into registers, so the loads overlap the
 * adds.
 */
#ifndef VQHIP_FLOAT_ROW_SUM_H
#define VQHIP_FLOAT_ROW_SUM_H

#include "hip_device.h"

#define VQ_RSUM_ROWS 32 /* rows (chains) per block */
#define VQ_RSUM_CW 128  /* columns staged at a time: one per thread */

/* One term image: h rows of w terms, pitch floats apart; dst[y] receives
 * row y's sum. */
struct VqRowSeg {
    const float *src;
    float *dst;
    int w, h, pitch;
};

/* Thread t loads column x0 + t of rows [y0, y0 + VQ_RSUM_ROWS) of s into
 * v (0 outside the image). */
__device__ __forceinline__ void vq_rsum_load(const VqRowSeg &s, int y0, int x0,
                                             float v[VQ_RSUM_ROWS])
{
    const int x = x0 + (int)threadIdx.x;
    const float *p = s.src + (size_t)y0 * s.pitch + x;
    const int rows = s.h - y0;
#pragma unroll
    for (int k = 0; k < VQ_RSUM_ROWS; k++)
        v[k] = k < rows && x < s.w ? p[(size_t)k * s.pitch] : 0.0f;
}

__device__ __forceinline__ void vq_rsum_store(float *tile,
                                              const float v[VQ_RSUM_ROWS])
{
#pragma unroll
    for (int k = 0; k < VQ_RSUM_ROWS; k++)
        tile[k * (VQ_RSUM_CW + 1) + threadIdx.x] = v[k];
}

/* Sums rows [y0, y0 + VQ_RSUM_ROWS) of s; blockDim.x must be
 * VQ_RSUM_CW. */
__device__ __forceinline__ void vq_row_sum_block(const VqRowSeg &s, int y0)
{
    __shared__ float tile[VQ_RSUM_ROWS * (VQ_RSUM_CW + 1)];
    const int tid = (int)threadIdx.x;
    float next[VQ_RSUM_ROWS];
    float acc = 0.0f;
    vq_rsum_load(s, y0, 0, next);
    for (int x0 = 0; x0 < s.w; x0 += VQ_RSUM_CW) {
        vq_rsum_store(tile, next);
        __syncthreads();
        if (x0 + VQ_RSUM_CW < s.w)
            vq_rsum_load(s, y0, x0 + VQ_RSUM_CW, next);
        if (tid < VQ_RSUM_ROWS) {
            const float *row = tile + tid * (VQ_RSUM_CW + 1);
            const int n = s.w - x0;
            if (n >= VQ_RSUM_CW) {
#pragma unroll 16
                for (int x = 0; x < VQ_RSUM_CW; x++)
                    acc += row[x];
            } else {
                for (int x = 0; x < n; x++)
                    acc += row[x];
            }
        }
        __syncthreads();
    }
    if (tid < VQ_RSUM_ROWS && y0 + tid < s.h)
        s.dst[y0 + tid] = acc;
}

#endif
