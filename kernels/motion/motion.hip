/*
 * Integer motion SAD, fused. A block of MOTION_BLOCK threads covers a tile
 * of MOTION_TILE_W x MOTION_TILE_H outputs: MOTION_GROUPS column groups by
 * MOTION_ROW_GROUPS row groups. A thread owns MOTION_COLS adjacent columns
 * of the tile's input (the outputs plus a halo of MOTION_HALO columns on
 * both sides, so that every thread's columns start on a multiple of
 * MOTION_COLS) and MOTION_ROWS output rows. It issues the loads of all the
 * rows its vertical pass needs (its rows and 2 on either side) before it
 * waits for any: whole words where the columns are inside the plane and
 * the rows aligned, sample by sample and mirrored elsewhere. The vertical
 * results go to shared memory; after one barrier each thread takes the
 * same MOTION_COLS x MOTION_ROWS outputs for the horizontal pass, and the
 * absolute values are reduced to one 64-bit atomic add per block. The
 * thread also copies its rows of the current luma into the extractor's own
 * buffer for the next frames.
 */
#include "../hip_device.h"
#include "motion.h"

/* Nothing depends on how the hardware groups threads into waves. */
#define MOTION_COLS 4   /* adjacent columns per thread */
#define MOTION_GROUPS 64
#define MOTION_ROWS 4   /* output rows per thread */
#define MOTION_ROW_GROUPS 4
#define MOTION_BLOCK (MOTION_GROUPS * MOTION_ROW_GROUPS) /* a power of two */
#define MOTION_HALO 4   /* >= VQ_MOTION_RADIUS, a multiple of MOTION_COLS */
#define MOTION_TILE_W (MOTION_GROUPS * MOTION_COLS - 2 * MOTION_HALO)
#define MOTION_TILE_H (MOTION_ROWS * MOTION_ROW_GROUPS)
#define MOTION_WALK (MOTION_ROWS + 2 * VQ_MOTION_RADIUS) /* rows read */

/* MOTION_COLS samples of type T, as one word. */
template <typename T> struct Quad;
template <> struct Quad<uint8_t> { typedef uint32_t Word; };
template <> struct Quad<uint16_t> { typedef uint2 Word; };

__device__ static inline void unpack(uint32_t w, int32_t *s)
{
    for (int i = 0; i < 4; i++)
        s[i] = (int32_t)((w >> (8 * i)) & 0xff);
}

__device__ static inline void unpack(uint2 w, int32_t *s)
{
    s[0] = (int32_t)(w.x & 0xffff);
    s[1] = (int32_t)(w.x >> 16);
    s[2] = (int32_t)(w.y & 0xffff);
    s[3] = (int32_t)(w.y >> 16);
}

__device__ static inline void pack(const int32_t *s, uint32_t *w)
{
    *w = (uint32_t)s[0] | (uint32_t)s[1] << 8 | (uint32_t)s[2] << 16 |
         (uint32_t)s[3] << 24;
}

__device__ static inline void pack(const int32_t *s, uint2 *w)
{
    *w = make_uint2((uint32_t)s[0] | (uint32_t)s[1] << 16,
                    (uint32_t)s[2] | (uint32_t)s[3] << 16);
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

/* Horizontal pass and absolute value: |v| < 2^16, so the sum needs 33 bits
 * and is taken in 64 (libvmaf's own arithmetic). */
__device__ static inline uint32_t horizontal_abs(int32_t v0, int32_t v1,
                                                 int32_t v2, int32_t v3,
                                                 int32_t v4)
{
    const int64_t s = (int64_t)(v0 + v4) * VQ_MOTION_TAP_OUTER +
                      (int64_t)(v1 + v3) * VQ_MOTION_TAP_INNER +
                      (int64_t)v2 * VQ_MOTION_TAP_CENTER;
    const int32_t r = (int32_t)((s + 32768) >> 16);
    return (uint32_t)(r < 0 ? -r : r);
}

/* A thread's columns gx .. gx + MOTION_COLS - 1 of one plane row (crow of
 * cur, prow of prev) as words. Sample by sample (not words): mirrored, and
 * in columns that feed no output of the plane prev takes cur's samples (a
 * difference of 0). */
template <typename T>
__device__ static inline void read_cols(const char *crow, const char *prow,
                                        int gx, int w, bool words,
                                        typename Quad<T>::Word *cw,
                                        typename Quad<T>::Word *pw)
{
    typedef typename Quad<T>::Word Word;
    if (words) {
        *cw = vq_load_once((const Word *)crow + gx / MOTION_COLS);
        *pw = vq_load_once((const Word *)prow + gx / MOTION_COLS);
        return;
    }
    int32_t c[MOTION_COLS], p[MOTION_COLS];
#pragma unroll
    for (int i = 0; i < MOTION_COLS; i++) {
        const int x = gx + i;
        /* columns up to 2 past the plane are mirrored inside it */
        const bool in = x >= -VQ_MOTION_RADIUS && x <= w + 1;
        const int mx = vq_motion_mirror(in ? x : 0, w);
        c[i] = ((const T *)crow)[mx];
        p[i] = in ? ((const T *)prow)[mx] : c[i];
    }
    pack(c, cw);
    pack(p, pw);
}

/* A word of current samples into row r of the kept copy (from store_row):
 * its first n samples (those inside the plane), as the word itself when
 * all are and the copy's rows are aligned. */
template <typename T>
__device__ static inline void store_cols(T *store_row, size_t pitch, int r,
                                         typename Quad<T>::Word cw, int n,
                                         bool words)
{
    T *row = (T *)((char *)store_row + (size_t)r * pitch);
    if (words && n == MOTION_COLS) {
        *(typename Quad<T>::Word *)row = cw;
        return;
    }
    int32_t c[MOTION_COLS];
    unpack(cw, c);
#pragma unroll
    for (int i = 0; i < MOTION_COLS; i++)
        if (i < n)
            row[i] = (T)c[i];
}

template <typename T, bool Wide>
__global__ void motion_sad_kernel(VqDevPlane cur, VqDevPlane prev, char *store,
                                  size_t store_pitch, int shift, bool aligned,
                                  unsigned long long *sad)
{
    typedef typename Quad<T>::Word Word;
    __shared__ int4 vert[MOTION_TILE_H][MOTION_GROUPS];
    __shared__ uint32_t part[MOTION_BLOCK];

    const int w = (int)cur.w, h = (int)cur.h;
    const int tx = (int)threadIdx.x % MOTION_GROUPS;
    const int ty = (int)threadIdx.x / MOTION_GROUPS;
    const int x0 = (int)blockIdx.x * MOTION_TILE_W;
    const int y0 = (int)blockIdx.y * MOTION_TILE_H;
    const int rows = min(MOTION_TILE_H, h - y0); /* output rows in the plane */
    const int k0 = ty * MOTION_ROWS;             /* the thread's first row */

    const int gx = x0 - MOTION_HALO + tx * MOTION_COLS;
    const bool words = aligned && gx >= 0 && gx + MOTION_COLS <= w;
    /* the thread's columns that are outputs of this tile in the plane */
    const bool own = tx >= MOTION_HALO / MOTION_COLS &&
                     tx < (MOTION_HALO + MOTION_TILE_W) / MOTION_COLS;
    const int n_own = own ? max(0, min(MOTION_COLS, w - gx)) : 0;

    if (k0 < rows) {
        /* read row j: plane row y0 + k0 - 2 + j, mirrored and clamped to
         * stay a valid address past the plane; inside, the rows follow
         * each other */
        const int top = y0 + k0 - VQ_MOTION_RADIUS;
        const bool inside = top >= 0 && top + MOTION_WALK <= h;
        Word cw[MOTION_WALK], pw[MOTION_WALK];
        const char *crow = (const char *)cur.data +
                           (size_t)(inside ? top : 0) * cur.pitch;
        const char *prow = (const char *)prev.data +
                           (size_t)(inside ? top : 0) * prev.pitch;
#pragma unroll
        for (int j = 0; j < MOTION_WALK; j++) {
            if (!inside) {
                const int my = vq_motion_mirror(min(top + j, h + 1), h);
                crow = (const char *)cur.data + (size_t)my * cur.pitch;
                prow = (const char *)prev.data + (size_t)my * prev.pitch;
            }
            read_cols<T>(crow, prow, gx, w, words, &cw[j], &pw[j]);
            crow += cur.pitch;
            prow += prev.pitch;
        }
        int32_t d[MOTION_WALK][MOTION_COLS];
#pragma unroll
        for (int j = 0; j < MOTION_WALK; j++) {
            int32_t c[MOTION_COLS], p[MOTION_COLS];
            unpack(cw[j], c);
            unpack(pw[j], p);
#pragma unroll
            for (int i = 0; i < MOTION_COLS; i++)
                d[j][i] = p[i] - c[i];
        }
        /* store never overlaps cur or prev (the launcher's contract) */
        T *store_row = (T *)(store + (size_t)(y0 + k0) * store_pitch) +
                       (n_own ? gx : 0);
#pragma unroll
        for (int r = 0; r < MOTION_ROWS; r++) {
            if (k0 + r < rows) {
                int32_t v[MOTION_COLS];
#pragma unroll
                for (int i = 0; i < MOTION_COLS; i++)
                    v[i] = vertical<Wide>(d[r][i], d[r + 1][i], d[r + 2][i],
                                          d[r + 3][i], d[r + 4][i], shift);
                vert[k0 + r][tx] = make_int4(v[0], v[1], v[2], v[3]);
                store_cols<T>(store_row, store_pitch, r,
                              cw[r + VQ_MOTION_RADIUS], n_own, words);
            }
        }
    }
    __syncthreads();

    /* Outputs o .. o + 3 of a row (tile columns, input index o + HALO) need
     * the vertical results o + 2 .. o + 7 + 2: three words from word tx. At
     * most MOTION_ROWS * MOTION_COLS terms of at most 2^16 per thread, and
     * MOTION_BLOCK threads: the block's sum fits 32 bits. */
    uint32_t acc = 0;
    const int o = tx * MOTION_COLS;
    if (o < MOTION_TILE_W && x0 + o < w) {
        const int n_out = min(MOTION_COLS, w - x0 - o);
#pragma unroll
        for (int r = 0; r < MOTION_ROWS; r++) {
            const int k = k0 + r;
            if (k < rows) {
                const int4 a = vert[k][tx], b = vert[k][tx + 1];
                const int4 e = vert[k][tx + 2];
                const int32_t v[12] = { a.x, a.y, a.z, a.w, b.x, b.y,
                                        b.z, b.w, e.x, e.y, e.z, e.w };
#pragma unroll
                for (int i = 0; i < MOTION_COLS; i++) {
                    const uint32_t t = horizontal_abs(v[i + 2], v[i + 3],
                                                      v[i + 4], v[i + 5],
                                                      v[i + 6]);
                    acc += i < n_out ? t : 0u;
                }
            }
        }
    }
    part[threadIdx.x] = acc;
    __syncthreads();
    for (int s = MOTION_BLOCK / 2; s > 0; s >>= 1) {
        if ((int)threadIdx.x < s)
            part[threadIdx.x] += part[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0 && part[0])
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
    /* whole words: every plane and row starts on a word of MOTION_COLS
     * samples */
    const size_t word = MOTION_COLS * (bpc == 8 ? 1 : 2);
    const bool aligned = (((uintptr_t)cur->data | (uintptr_t)prev->data |
                           (uintptr_t)store | cur->pitch | prev->pitch |
                           store_pitch) % word) == 0;
    if (bpc == 8)
        motion_sad_kernel<uint8_t, false><<<grid, block, 0, s>>>(
            *cur, *prev, dst, store_pitch, (int)bpc, aligned, out);
    else if (bpc <= 12)
        motion_sad_kernel<uint16_t, false><<<grid, block, 0, s>>>(
            *cur, *prev, dst, store_pitch, (int)bpc, aligned, out);
    else
        motion_sad_kernel<uint16_t, true><<<grid, block, 0, s>>>(
            *cur, *prev, dst, store_pitch, (int)bpc, aligned, out);
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
