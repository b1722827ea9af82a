/*
 * motion_v2 SAD: one block per tile of MV2_TW x MV2_TH outputs. The block
 * loads the tile's differences with a 2-sample mirrored halo into shared
 * memory (and copies the current samples of the tile into the extractor's
 * buffer for later frames), runs the vertical pass into shared memory, then
 * the horizontal pass, and adds the block's sum of |s| with one 64-bit
 * atomic. Threads stride over the tile by blockDim, so nothing depends on
 * the wave size.
 */
#include "../hip_device.h"
#include "motion_v2.h"

#define MV2_TW 64
#define MV2_TH 16
#define MV2_BLOCK 256 /* a power of two (block reduction) */
#define MV2_DW (MV2_TW + 4)
#define MV2_DH (MV2_TH + 4)

template <typename T>
__global__ void motion_v2_sad_kernel(VqDevPlane cur, VqDevPlane prev,
                                     char *store, size_t store_pitch,
                                     unsigned bpc, unsigned long long *sad)
{
    __shared__ int32_t d[MV2_DH][MV2_DW];
    __shared__ int32_t v[MV2_TH][MV2_DW];
    __shared__ unsigned long long part[MV2_BLOCK];
    const int w = (int)cur.w, h = (int)cur.h, tid = (int)threadIdx.x;
    const int x0 = (int)blockIdx.x * MV2_TW, y0 = (int)blockIdx.y * MV2_TH;

    for (int e = tid; e < MV2_DH * MV2_DW; e += (int)blockDim.x) {
        const int r = e / MV2_DW, c = e % MV2_DW;
        const int ty = y0 - 2 + r, tx = x0 - 2 + c;
        /* rows and columns further than 2 past the plane feed no output;
         * clamp them to stay valid addresses */
        const int gy = vq_motion_v2_mirror(min(ty, h + 1), h);
        const int gx = vq_motion_v2_mirror(min(tx, w + 1), w);
        const T cv = ((const T *)((const char *)cur.data +
                                  (size_t)gy * cur.pitch))[gx];
        const T pv = ((const T *)((const char *)prev.data +
                                  (size_t)gy * prev.pitch))[gx];
        d[r][c] = (int32_t)pv - (int32_t)cv;
        if (r >= 2 && r < MV2_TH + 2 && c >= 2 && c < MV2_TW + 2 && ty < h &&
            tx < w)
            ((T *)(store + (size_t)ty * store_pitch))[tx] = cv;
    }
    __syncthreads();
    for (int e = tid; e < MV2_TH * MV2_DW; e += (int)blockDim.x) {
        const int r = e / MV2_DW, c = e % MV2_DW;
        v[r][c] = vq_motion_v2_vert(d[r][c], d[r + 1][c], d[r + 2][c],
                                    d[r + 3][c], d[r + 4][c], (int)bpc);
    }
    __syncthreads();
    unsigned long long acc = 0;
    for (int e = tid; e < MV2_TH * MV2_TW; e += (int)blockDim.x) {
        const int r = e / MV2_TW, c = e % MV2_TW;
        if (y0 + r < h && x0 + c < w)
            acc += vq_motion_v2_hor_abs(v[r][c], v[r][c + 1], v[r][c + 2],
                                        v[r][c + 3], v[r][c + 4]);
    }
    part[tid] = acc;
    __syncthreads();
    for (int s = MV2_BLOCK / 2; s > 0; s >>= 1) {
        if (tid < s)
            part[tid] += part[tid + s];
        __syncthreads();
    }
    if (tid == 0 && part[0])
        atomicAdd(sad, part[0]);
}

template <typename T>
__global__ void motion_v2_store_kernel(VqDevPlane cur, char *store,
                                       size_t store_pitch)
{
    const unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned y = blockIdx.y;
    if (x < cur.w)
        ((T *)(store + (size_t)y * store_pitch))[x] =
            ((const T *)((const char *)cur.data + (size_t)y * cur.pitch))[x];
}

extern "C" int vq_motion_v2_sad_launch(VqStream stream, const VqDevPlane *cur,
                                       const VqDevPlane *prev, void *store,
                                       size_t store_pitch, unsigned bpc,
                                       uint64_t *sad)
{
    const dim3 grid(vq_div_ceil(cur->w, MV2_TW), vq_div_ceil(cur->h, MV2_TH));
    hipStream_t s = vq_hip_stream(stream);
    unsigned long long *out = (unsigned long long *)sad;
    if (bpc == 8)
        motion_v2_sad_kernel<uint8_t><<<grid, MV2_BLOCK, 0, s>>>(
            *cur, *prev, (char *)store, store_pitch, bpc, out);
    else
        motion_v2_sad_kernel<uint16_t><<<grid, MV2_BLOCK, 0, s>>>(
            *cur, *prev, (char *)store, store_pitch, bpc, out);
    return vq_launch_status();
}

extern "C" int vq_motion_v2_store_launch(VqStream stream, const VqDevPlane *cur,
                                         void *store, size_t store_pitch,
                                         unsigned bpc)
{
    const unsigned threads = 256;
    const dim3 grid(vq_div_ceil(cur->w, threads), cur->h);
    hipStream_t s = vq_hip_stream(stream);
    if (bpc == 8)
        motion_v2_store_kernel<uint8_t><<<grid, threads, 0, s>>>(
            *cur, (char *)store, store_pitch);
    else
        motion_v2_store_kernel<uint16_t><<<grid, threads, 0, s>>>(
            *cur, (char *)store, store_pitch);
    return vq_launch_status();
}
