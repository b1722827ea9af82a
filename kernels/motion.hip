/*
 * Integer motion SAD, fused: one block per output tile loads the mirrored
 * difference tile (with a 2-sample halo) into shared memory, runs the
 * vertical then the horizontal pass there, and reduces the absolute values
 * to one 64-bit atomic add per block. While loading, it copies the current
 * luma into the extractor's own buffer for the next frames.
 */
#include "hip_device.h"
#include "motion.h"

#define MOTION_TILE_W 64
#define MOTION_TILE_H 16
#define MOTION_HALO_W (MOTION_TILE_W + 2 * VQ_MOTION_RADIUS)
#define MOTION_HALO_H (MOTION_TILE_H + 2 * VQ_MOTION_RADIUS)
#define MOTION_THREADS 256 /* a power of two, not tied to the wave size */

template <typename T>
__device__ static inline const T *plane_row(const VqDevPlane &p, int y)
{
    return (const T *)((const char *)p.data + (size_t)y * p.pitch);
}

/* Wide: 16-bit input, whose vertical sums need 33 bits. */
template <typename T, bool Wide>
__global__ void motion_sad_kernel(VqDevPlane cur, VqDevPlane prev, char *store,
                                  size_t store_pitch, int shift,
                                  unsigned long long *sad)
{
    __shared__ int32_t diff[MOTION_HALO_H][MOTION_HALO_W];
    __shared__ int16_t vert_hi[MOTION_TILE_H][MOTION_HALO_W];
    __shared__ int16_t vert_lo[MOTION_TILE_H][MOTION_HALO_W];
    __shared__ uint32_t part[MOTION_THREADS];

    const int w = (int)cur.w, h = (int)cur.h;
    const int x0 = (int)blockIdx.x * MOTION_TILE_W;
    const int y0 = (int)blockIdx.y * MOTION_TILE_H;
    const unsigned tid = threadIdx.x, nt = blockDim.x;

    /* Tap positions up to 2 past the plane are mirrored inside it; those
     * further out only feed outputs outside the plane and stay 0. */
    for (unsigned i = tid; i < MOTION_HALO_H * MOTION_HALO_W; i += nt) {
        const int r = (int)(i / MOTION_HALO_W), c = (int)(i % MOTION_HALO_W);
        const int gy = y0 - VQ_MOTION_RADIUS + r;
        const int gx = x0 - VQ_MOTION_RADIUS + c;
        int32_t d = 0;
        if (gy <= h + 1 && gx <= w + 1) {
            const int my = vq_motion_mirror(gy, h);
            const int mx = vq_motion_mirror(gx, w);
            const T pc = plane_row<T>(cur, my)[mx];
            d = (int32_t)plane_row<T>(prev, my)[mx] - (int32_t)pc;
            const bool own = r >= VQ_MOTION_RADIUS && c >= VQ_MOTION_RADIUS &&
                             r < VQ_MOTION_RADIUS + MOTION_TILE_H &&
                             c < VQ_MOTION_RADIUS + MOTION_TILE_W &&
                             gy < h && gx < w;
            if (own)
                ((T *)(store + (size_t)gy * store_pitch))[gx] = pc;
        }
        diff[r][c] = d;
    }
    __syncthreads();

    for (unsigned i = tid; i < MOTION_TILE_H * MOTION_HALO_W; i += nt) {
        const int r = (int)(i / MOTION_HALO_W), c = (int)(i % MOTION_HALO_W);
        const int32_t v =
            Wide ? vq_motion_vblur16(diff[r][c], diff[r + 1][c], diff[r + 2][c],
                                     diff[r + 3][c], diff[r + 4][c])
                 : vq_motion_vblur32((int16_t)diff[r][c], (int16_t)diff[r + 1][c],
                                     (int16_t)diff[r + 2][c],
                                     (int16_t)diff[r + 3][c],
                                     (int16_t)diff[r + 4][c], shift);
        vert_hi[r][c] = vq_motion_hi(v);
        vert_lo[r][c] = vq_motion_lo(v);
    }
    __syncthreads();

    /* At most 64 * 16 terms below 2^16 each: the block sum fits 32 bits. */
    uint32_t acc = 0;
    for (unsigned i = tid; i < MOTION_TILE_H * MOTION_TILE_W; i += nt) {
        const int r = (int)(i / MOTION_TILE_W), c = (int)(i % MOTION_TILE_W);
        if (y0 + r < h && x0 + c < w)
            acc += vq_motion_hblur_abs(
                vert_hi[r][c], vert_hi[r][c + 1], vert_hi[r][c + 2],
                vert_hi[r][c + 3], vert_hi[r][c + 4], vert_lo[r][c],
                vert_lo[r][c + 1], vert_lo[r][c + 2], vert_lo[r][c + 3],
                vert_lo[r][c + 4]);
    }
    part[tid] = acc;
    __syncthreads();
    for (unsigned s = nt / 2; s > 0; s >>= 1) {
        if (tid < s)
            part[tid] += part[tid + s];
        __syncthreads();
    }
    if (tid == 0 && part[0])
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
            plane_row<T>(cur, (int)y)[x];
}

extern "C" int vq_motion_sad_launch(VqStream stream, const VqDevPlane *cur,
                                    const VqDevPlane *prev, void *store,
                                    size_t store_pitch, unsigned bpc,
                                    uint64_t *sad)
{
    dim3 grid(vq_div_ceil(cur->w, MOTION_TILE_W),
              vq_div_ceil(cur->h, MOTION_TILE_H));
    hipStream_t s = vq_hip_stream(stream);
    unsigned long long *out = (unsigned long long *)sad;
    char *dst = (char *)store;
    if (bpc == 8)
        motion_sad_kernel<uint8_t, false><<<grid, MOTION_THREADS, 0, s>>>(
            *cur, *prev, dst, store_pitch, (int)bpc, out);
    else if (bpc <= 12)
        motion_sad_kernel<uint16_t, false><<<grid, MOTION_THREADS, 0, s>>>(
            *cur, *prev, dst, store_pitch, (int)bpc, out);
    else
        motion_sad_kernel<uint16_t, true><<<grid, MOTION_THREADS, 0, s>>>(
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
