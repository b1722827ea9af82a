/*
 * Integer motion SAD, fused. A block of MOTION_BLOCK threads covers a tile
 * of MOTION_TILE_W x MOTION_TILE_H outputs; each thread owns one column of
 * the tile plus its 2-column halo, walks down it reading prev and cur once
 * (mirrored at the plane's edges; loads issued MOTION_CHUNK rows at a time,
 * in a loop kept small for the instruction cache), keeps the 5-row window
 * of differences in registers and writes the vertical results to shared
 * memory. After one
 * barrier the horizontal pass reads them back, and the absolute values are
 * reduced to one 64-bit atomic add per block. The walk also copies the
 * current luma into the extractor's own buffer for the next frames.
 */
#include "../hip_device.h"
#include "motion.h"

/* One thread per column, the tile's outputs plus the halo on both sides.
 * Nothing depends on how the hardware groups threads into waves. */
#define MOTION_BLOCK 64 /* a power of two (block reduction) */
#define MOTION_TILE_W (MOTION_BLOCK - 2 * VQ_MOTION_RADIUS)
#define MOTION_TILE_H 32
#define MOTION_CHUNK 4 /* rows loaded together in the walk down a column */

/* The two 16-bit pieces of a vertical result, in one shared-memory word. */
__device__ static inline uint32_t pack_pieces(int32_t v)
{
    return ((uint32_t)(uint16_t)vq_motion_hi(v) << 16) |
           (uint32_t)(uint16_t)vq_motion_lo(v);
}

__device__ static inline int16_t piece_hi(uint32_t p)
{
    return (int16_t)(uint16_t)(p >> 16);
}

__device__ static inline int16_t piece_lo(uint32_t p)
{
    return (int16_t)(uint16_t)(p & 0xffff);
}

/* Vertical pass of one output row from its 5-row window of differences.
 * Wide: 16-bit input, whose vertical sums need 33 bits. */
template <bool Wide>
__device__ static inline int32_t vertical(int32_t d0, int32_t d1, int32_t d2,
                                          int32_t d3, int32_t d4, int shift)
{
    if (Wide)
        return vq_motion_vblur16(d0, d1, d2, d3, d4);
    return vq_motion_vblur32((int16_t)d0, (int16_t)d1, (int16_t)d2,
                             (int16_t)d3, (int16_t)d4, shift);
}

/* One column of the walk: the difference at walk row r (plane row
 * y0 - 2 + r, mirrored, clamped to stay a valid address past the plane) and
 * the current sample there. */
template <typename T>
struct ColumnReader {
    const char *__restrict__ cur;
    const char *__restrict__ prev;
    size_t cur_pitch, prev_pitch;
    int y0, h, mx;
    bool col_in;

    __device__ inline int32_t diff(int r, T &c) const
    {
        const int my = vq_motion_mirror(min(y0 - VQ_MOTION_RADIUS + r, h + 1), h);
        c = ((const T *)(cur + (size_t)my * cur_pitch))[mx];
        const T p = ((const T *)(prev + (size_t)my * prev_pitch))[mx];
        return col_in ? (int32_t)p - (int32_t)c : 0;
    }
};

template <typename T, bool Wide>
__global__ void motion_sad_kernel(VqDevPlane cur, VqDevPlane prev, char *store,
                                  size_t store_pitch, int shift,
                                  unsigned long long *sad)
{
    __shared__ uint32_t vert[MOTION_TILE_H][MOTION_BLOCK];
    __shared__ uint32_t part[MOTION_BLOCK];

    const int w = (int)cur.w, h = (int)cur.h;
    const int tx = (int)threadIdx.x;
    const int x0 = (int)blockIdx.x * MOTION_TILE_W;
    const int y0 = (int)blockIdx.y * MOTION_TILE_H;
    const int rows = min(MOTION_TILE_H, h - y0); /* output rows in the plane */

    /* Columns up to 2 past the plane are mirrored inside it; those further
     * out only feed outputs outside the plane and stay 0. */
    const int gx = x0 - VQ_MOTION_RADIUS + tx;
    const bool col_in = gx <= w + 1;
    const ColumnReader<T> col = {
        (const char *)cur.data, (const char *)prev.data, cur.pitch, prev.pitch,
        y0, h, vq_motion_mirror(col_in ? gx : 0, w), col_in,
    };
    const bool col_own = tx >= VQ_MOTION_RADIUS &&
                         tx < VQ_MOTION_RADIUS + MOTION_TILE_W && gx < w;
    /* store never overlaps cur or prev (the launcher's contract). */
    T *__restrict__ store_col =
        (T *)(store + (size_t)y0 * store_pitch) + (col_own ? gx : 0);

    /* The walk down the column, MOTION_CHUNK rows at a time: a chunk's loads
     * are all issued before anything waits for one of them. The window
     * w0..w3 carries the 4 rows above the chunk. */
    T c0, c1, c2, c3;
    int32_t w0 = col.diff(0, c0), w1 = col.diff(1, c1);
    int32_t w2 = col.diff(2, c2), w3 = col.diff(3, c3);
    if (col_own) {
        store_col[0] = c2;
        if (rows > 1)
            *(T *)((char *)store_col + store_pitch) = c3;
    }
    for (int k0 = 0; k0 < rows; k0 += MOTION_CHUNK) {
        T c[MOTION_CHUNK];
        int32_t d[MOTION_CHUNK];
#pragma unroll
        for (int j = 0; j < MOTION_CHUNK; j++)
            d[j] = col.diff(2 * VQ_MOTION_RADIUS + k0 + j, c[j]);
#pragma unroll
        for (int j = 0; j < MOTION_CHUNK; j++) {
            const int k = k0 + j;
            if (k < rows) {
                vert[k][tx] = pack_pieces(vertical<Wide>(w0, w1, w2, w3, d[j],
                                                         shift));
                if (col_own && k + VQ_MOTION_RADIUS < rows)
                    *(T *)((char *)store_col +
                           (size_t)(k + VQ_MOTION_RADIUS) * store_pitch) = c[j];
            }
            w0 = w1;
            w1 = w2;
            w2 = w3;
            w3 = d[j];
        }
    }
    __syncthreads();

    /* At most 32 terms below 2^16 per thread, 64 threads: fits 32 bits. */
    uint32_t acc = 0;
    if (tx < MOTION_TILE_W && x0 + tx < w) {
#pragma unroll 4
        for (int k = 0; k < rows; k++) {
            const uint32_t *v = &vert[k][tx];
            acc += vq_motion_hblur_abs(
                piece_hi(v[0]), piece_hi(v[1]), piece_hi(v[2]), piece_hi(v[3]),
                piece_hi(v[4]), piece_lo(v[0]), piece_lo(v[1]), piece_lo(v[2]),
                piece_lo(v[3]), piece_lo(v[4]));
        }
    }
    part[tx] = acc;
    __syncthreads();
    for (int s = MOTION_BLOCK / 2; s > 0; s >>= 1) {
        if (tx < s)
            part[tx] += part[tx + s];
        __syncthreads();
    }
    if (tx == 0 && part[0])
        atomicAdd(sad, (unsigned long long)part[0]);
}

template <typename T>
__global__ void motion_store_kernel(VqDevPlane cur, char *store,
                                    size_t store_pitch)
{
    const unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned y = blockIdx.y;
    if (x < cur.w)
        ((T *)(store + (size_t)y * store_pitch))[x] =
            ((const T *)((const char *)cur.data + (size_t)y * cur.pitch))[x];
}

extern "C" int vq_motion_sad_launch(VqStream stream, const VqDevPlane *cur,
                                    const VqDevPlane *prev, void *store,
                                    size_t store_pitch, unsigned bpc,
                                    uint64_t *sad)
{
    dim3 grid(vq_div_ceil(cur->w, MOTION_TILE_W),
              vq_div_ceil(cur->h, MOTION_TILE_H));
    const unsigned block = MOTION_BLOCK;
    hipStream_t s = vq_hip_stream(stream);
    unsigned long long *out = (unsigned long long *)sad;
    char *dst = (char *)store;
    if (bpc == 8)
        motion_sad_kernel<uint8_t, false><<<grid, block, 0, s>>>(
            *cur, *prev, dst, store_pitch, (int)bpc, out);
    else if (bpc <= 12)
        motion_sad_kernel<uint16_t, false><<<grid, block, 0, s>>>(
            *cur, *prev, dst, store_pitch, (int)bpc, out);
    else
        motion_sad_kernel<uint16_t, true><<<grid, block, 0, s>>>(
            *cur, *prev, dst, store_pitch, (int)bpc, out);
    return vq_launch_status();
}

extern "C" int vq_motion_store_launch(VqStream stream, const VqDevPlane *cur,
                                      void *store, size_t store_pitch,
                                      unsigned bpc)
{
    const unsigned threads = 256;
    dim3 grid(vq_div_ceil(cur->w, threads), cur->h);
    hipStream_t s = vq_hip_stream(stream);
    if (bpc == 8)
        motion_store_kernel<uint8_t><<<grid, threads, 0, s>>>(
            *cur, (char *)store, store_pitch);
    else
        motion_store_kernel<uint16_t><<<grid, threads, 0, s>>>(
            *cur, (char *)store, store_pitch);
    return vq_launch_status();
}
