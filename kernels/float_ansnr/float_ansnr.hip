/*
 * float_ansnr: one block per band of ANSNR_RB luma rows. The band walks
 * the width in tiles of ANSNR_TW columns: the block stages the tile's
 * mirrored input rows (as floats) in shared memory, every thread computes
 * filtered values and the two per-pixel terms of some pixels, then one
 * thread per row adds its row's terms left to right, as the CPU does.
 * Each row's sums therefore take the CPU's operations in the CPU's order.
 */
#include "../hip_device.h"
#include "float_ansnr.h"

#define ANSNR_THREADS 256 /* not tied to the wave size */
#define ANSNR_RB 8        /* output rows per block (<= ANSNR_THREADS) */
#define ANSNR_TW 128      /* output columns per tile */
#define ANSNR_PW (ANSNR_TW + 4)

template <typename T>
__device__ static inline float load_px(const VqDevPlane &p, int x, int y,
                                       float inv_scale)
{
    const T *row = (const T *)((const char *)p.data + (size_t)y * p.pitch);
    return vq_ansnr_sample(row[x], inv_scale);
}

/* Column or row index as libvmaf mirrors it, kept inside the plane for the
 * staged samples no output uses. */
__device__ static inline int clamp_mirror(int i, int n)
{
    int m = vq_ansnr_mirror(i, n);
    return m < 0 ? 0 : m >= n ? n - 1 : m;
}

template <typename T>
__global__ void ansnr_kernel(VqDevPlane ref, VqDevPlane dis, float inv_scale,
                             VqAnsnrRow *rows)
{
    __shared__ float sr[ANSNR_RB + 2][ANSNR_PW]; /* rows i0-1 .. i0+RB */
    __shared__ float sd[ANSNR_RB + 4][ANSNR_PW]; /* rows i0-2 .. i0+RB+1 */
    __shared__ float ts[ANSNR_RB][ANSNR_TW], tn[ANSNR_RB][ANSNR_TW];
    const int w = (int)ref.w, h = (int)ref.h;
    const int i0 = (int)blockIdx.x * ANSNR_RB;
    const unsigned t = threadIdx.x;
    float sig = 0.0f, noise = 0.0f;
    for (int x0 = 0; x0 < w; x0 += ANSNR_TW) {
        __syncthreads(); /* the previous tile's terms have been added */
        for (unsigned k = t; k < (ANSNR_RB + 4) * ANSNR_PW; k += blockDim.x) {
            int r = (int)(k / ANSNR_PW), c = (int)(k % ANSNR_PW);
            int x = clamp_mirror(x0 + c - 2, w);
            sd[r][c] = load_px<T>(dis, x, clamp_mirror(i0 + r - 2, h), inv_scale);
            if (r < ANSNR_RB + 2)
                sr[r][c] = load_px<T>(ref, x, clamp_mirror(i0 + r - 1, h),
                                      inv_scale);
        }
        __syncthreads();
        for (unsigned k = t; k < ANSNR_RB * ANSNR_TW; k += blockDim.x) {
            int r = (int)(k / ANSNR_TW), c = (int)(k % ANSNR_TW);
            if (i0 + r >= h || x0 + c >= w)
                continue;
            float rf = vq_ansnr_ref3(sr[r], sr[r + 1], sr[r + 2], (unsigned)c);
            float df = vq_ansnr_dis5(sd[r], sd[r + 1], sd[r + 2], sd[r + 3],
                                     sd[r + 4], (unsigned)c);
            ts[r][c] = rf * rf;
            tn[r][c] = (rf - df) * (rf - df);
        }
        __syncthreads();
        if (t < ANSNR_RB && i0 + (int)t < h) {
            int n = w - x0 < ANSNR_TW ? w - x0 : ANSNR_TW;
            for (int c = 0; c < n; c++) {
                sig += ts[t][c];
                noise += tn[t][c];
            }
        }
    }
    if (t < ANSNR_RB && i0 + (int)t < h) {
        rows[i0 + t].sig = sig;
        rows[i0 + t].noise = noise;
    }
}

extern "C" int vq_float_ansnr_launch(VqStream stream, const VqDevPlane *ref,
                                     const VqDevPlane *dis, unsigned bpc,
                                     VqAnsnrRow *rows)
{
    if (!ref->w || !ref->h)
        return 0;
    float inv_scale = 1.0f / (float)(1u << (bpc - 8));
    unsigned blocks = vq_div_ceil(ref->h, ANSNR_RB);
    if (bpc > 8)
        ansnr_kernel<uint16_t><<<blocks, ANSNR_THREADS, 0,
                                 vq_hip_stream(stream)>>>(*ref, *dis,
                                                          inv_scale, rows);
    else
        ansnr_kernel<uint8_t><<<blocks, ANSNR_THREADS, 0,
                                vq_hip_stream(stream)>>>(*ref, *dis, inv_scale,
                                                         rows);
    return vq_launch_status();
}
