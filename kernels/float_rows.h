/*
 * Device helpers for libvmaf's float sums, included by .hip files only.
 *
 * libvmaf's float extractors sum per-pixel terms row by row: a float
 * accumulator per row adds the row's terms from left to right, and a float
 * total adds the row sums from top to bottom. A float sum depends on its
 * order, so the kernels keep exactly that order: every row is summed by
 * one thread, left to right (vq_row_sums_block). The row sums go into the
 * accumulator record; the shared finalize adds them from top to bottom on
 * the host, as the CPU path's finalize does.
 */
#ifndef VQHIP_FLOAT_ROWS_H
#define VQHIP_FLOAT_ROWS_H

#include "hip_device.h"

/*
 * Sums the rows [y0, y0 + nrows) of a w-wide term image, left to right, for
 * `nq` quantities at once: term(q, y, x) gives the term of quantity q at
 * (x, y). Chunks of `cw` columns are staged in shared memory `buf` (at least
 * nq * nrows * (cw + 1) floats) by the whole block; thread t < nq * nrows
 * then adds its row's chunk to its accumulator. Returns thread t's sum
 * (quantity t / nrows, row t % nrows); other threads return 0.
 */
template <typename Term>
__device__ float vq_row_sums_block(const Term &term, int nq, int y0,
                                   int nrows, int w, int cw, float *buf)
{
    const int tid = threadIdx.x, nt = blockDim.x, pitch = cw + 1;
    float acc = 0.0f;
    for (int x0 = 0; x0 < w; x0 += cw) {
        const int n = w - x0 < cw ? w - x0 : cw;
        for (int i = tid; i < nq * nrows * n; i += nt) {
            int qr = i / n, x = i - qr * n;
            int q = qr / nrows, r = qr - q * nrows;
            buf[qr * pitch + x] = term(q, y0 + r, x0 + x);
        }
        __syncthreads();
        if (tid < nq * nrows) {
            const float *row = buf + tid * pitch;
            for (int x = 0; x < n; x++)
                acc += row[x];
        }
        __syncthreads();
    }
    return acc;
}

#endif
