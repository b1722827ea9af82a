/*
 * Integer SSIM on the device (definition in ssim.h). One block per tile of
 * SS_TW x SS_TH pixels: the tile's samples with their mirrored 4-sample
 * halo go to shared memory, every halo row is filtered horizontally (exact
 * integer moments), every pixel vertically, then the pixel formula (the
 * shared vq_ssim_pixel). The block's integer sum is added to the frame's
 * with a 64-bit atomic: integers, so the order does not matter.
 */
#include "../hip_device.h"
#include "ssim.h"

#define SS_TW 32
#define SS_TH 16
#define SS_IW (SS_TW + 2 * VQ_SSIM_HALF)
#define SS_IH (SS_TH + 2 * VQ_SSIM_HALF)
#define SS_THREADS 256 /* a power of two (tree reduction), not a wave size */
#define SS_PER_THREAD ((SS_TW * SS_TH + SS_THREADS - 1) / SS_THREADS)

template <typename T>
__global__ __launch_bounds__(SS_THREADS) void ssim_kernel(
    VqDevPlane ref, VqDevPlane dis, VqSsimConsts k, unsigned long long *out)
{
    __shared__ uint32_t in_x[SS_IH * SS_IW], in_y[SS_IH * SS_IW];
    __shared__ uint32_t hx[SS_IH * SS_TW], hy[SS_IH * SS_TW];
    __shared__ uint64_t hxx[SS_IH * SS_TW], hyy[SS_IH * SS_TW],
        hxy[SS_IH * SS_TW];
    __shared__ long long red[SS_THREADS];
    const uint32_t g[VQ_SSIM_TAPS] = { VQ_SSIM_TAP_LIST };

    const int w = (int)ref.w, h = (int)ref.h;
    const int x0 = blockIdx.x * SS_TW, y0 = blockIdx.y * SS_TH;
    const int tid = threadIdx.x;

    /* the reflection maps every position into the plane */
    for (int i = tid; i < SS_IH * SS_IW; i += SS_THREADS) {
        int ly = i / SS_IW, lx = i - ly * SS_IW;
        int sy = vq_ssim_mirror(y0 - VQ_SSIM_HALF + ly, h);
        int sx = vq_ssim_mirror(x0 - VQ_SSIM_HALF + lx, w);
        in_x[i] = ((const T *)((const char *)ref.data + (size_t)sy * ref.pitch))[sx];
        in_y[i] = ((const T *)((const char *)dis.data + (size_t)sy * dis.pitch))[sx];
    }
    __syncthreads();

    for (int i = tid; i < SS_IH * SS_TW; i += SS_THREADS) {
        int row = i / SS_TW, col = i - row * SS_TW;
        const uint32_t *px = in_x + row * SS_IW + col;
        const uint32_t *py = in_y + row * SS_IW + col;
        uint32_t sx = 0, sy = 0;
        uint64_t sxx = 0, syy = 0, sxy = 0;
#pragma unroll
        for (int u = 0; u < VQ_SSIM_TAPS; u++) {
            uint32_t a = px[u], b = py[u];
            sx += g[u] * a;
            sy += g[u] * b;
            sxx += (uint64_t)g[u] * (a * a);
            syy += (uint64_t)g[u] * (b * b);
            sxy += (uint64_t)g[u] * (a * b);
        }
        hx[i] = sx;
        hy[i] = sy;
        hxx[i] = sxx;
        hyy[i] = syy;
        hxy[i] = sxy;
    }
    __syncthreads();

    long long acc = 0;
#pragma unroll
    for (int j = 0; j < SS_PER_THREAD; j++) {
        int o = tid + j * SS_THREADS;
        int ty = o / SS_TW, tx = o - ty * SS_TW;
        if (ty >= SS_TH || x0 + tx >= w || y0 + ty >= h)
            continue;
        uint32_t sx = 0, sy = 0;
        uint64_t sxx = 0, syy = 0, sxy = 0;
#pragma unroll
        for (int v = 0; v < VQ_SSIM_TAPS; v++) {
            int i = (ty + v) * SS_TW + tx;
            sx += g[v] * hx[i];
            sy += g[v] * hy[i];
            sxx += g[v] * hxx[i];
            syy += g[v] * hyy[i];
            sxy += g[v] * hxy[i];
        }
        acc += vq_ssim_pixel(sx, sy, sxx, syy, sxy, k);
    }
    red[tid] = acc;
    __syncthreads();
    for (int s = SS_THREADS / 2; s > 0; s >>= 1) {
        if (tid < s)
            red[tid] += red[tid + s];
        __syncthreads();
    }
    /* two's complement: the unsigned atomic adds the signed value */
    if (tid == 0 && red[0])
        atomicAdd(out, (unsigned long long)red[0]);
}

extern "C" int vq_ssim_launch(VqStream stream, const VqDevPlane *ref,
                              const VqDevPlane *dis, unsigned bpc,
                              VqSsimConsts k, int64_t *sum)
{
    if (!ref->w || !ref->h)
        return 0;
    dim3 grid(vq_div_ceil(ref->w, SS_TW), vq_div_ceil(ref->h, SS_TH));
    unsigned long long *o = (unsigned long long *)sum;
    hipStream_t s = vq_hip_stream(stream);
    if (bpc > 8)
        ssim_kernel<uint16_t><<<grid, SS_THREADS, 0, s>>>(*ref, *dis, k, o);
    else
        ssim_kernel<uint8_t><<<grid, SS_THREADS, 0, s>>>(*ref, *dis, k, o);
    return vq_launch_status();
}
