/*
 * float_ms_ssim's decimation on the device (definition in
 * float_ms_ssim.h): one block per tile of FL_TW x FL_TH outputs loads the
 * (2 FL_TW + 7) x (2 FL_TH + 7) mirrored source samples of both images into
 * shared memory; each thread sums one output's 81 products in the kernel's
 * row order, as the CPU path. The scales' maps use float_ssim's kernels.
 */
#include "../float_ssim/float_ssim_device.h"
#include "float_ms_ssim.h"

#define FL_TW 32
#define FL_TH 8
#define FL_THREADS (FL_TW * FL_TH) /* one output per thread */
#define FL_HALF (VQ_FMS_LPF / 2)
#define FL_IW (2 * FL_TW + 2 * FL_HALF - 1)
#define FL_IH (2 * FL_TH + 2 * FL_HALF - 1)

template <typename T>
__global__ __launch_bounds__(FL_THREADS) void float_ms_ssim_lpf_kernel(
    VqDevPlane ref, VqDevPlane dis, float inv_scale, float *out_r,
    float *out_d, size_t pitch, unsigned ow, unsigned oh)
{
    __shared__ float in_r[FL_IH * FL_IW], in_d[FL_IH * FL_IW];
    const float k[VQ_FMS_LPF * VQ_FMS_LPF] = { VQ_FMS_LPF_TAPS };
    const int w = (int)ref.w, h = (int)ref.h;
    const int x0 = blockIdx.x * FL_TW, y0 = blockIdx.y * FL_TH;
    const int tid = threadIdx.y * FL_TW + threadIdx.x;

    /* mirrored as libvmaf; clamped only where a tile reaches past the
     * picture (those outputs are dropped) */
    for (int i = tid; i < FL_IH * FL_IW; i += FL_THREADS) {
        int ly = i / FL_IW, lx = i - ly * FL_IW;
        int sy = vq_float_ssim_mirror(2 * y0 - FL_HALF + ly, h);
        int sx = vq_float_ssim_mirror(2 * x0 - FL_HALF + lx, w);
        sy = min(max(sy, 0), h - 1);
        sx = min(max(sx, 0), w - 1);
        in_r[i] = float_ssim_load<T>(ref, sx, sy, inv_scale);
        in_d[i] = float_ssim_load<T>(dis, sx, sy, inv_scale);
    }
    __syncthreads();

    const int tx = threadIdx.x, ty = threadIdx.y;
    const int x = x0 + tx, y = y0 + ty;
    if (x >= (int)ow || y >= (int)oh)
        return;
    double ar = 0.0, ad = 0.0;
#pragma unroll
    for (int v = 0; v < VQ_FMS_LPF; v++) {
        const float *pr = in_r + (2 * ty + v) * FL_IW + 2 * tx;
        const float *pd = in_d + (2 * ty + v) * FL_IW + 2 * tx;
#pragma unroll
        for (int u = 0; u < VQ_FMS_LPF; u++) {
            ar += (double)(pr[u] * k[v * VQ_FMS_LPF + u]);
            ad += (double)(pd[u] * k[v * VQ_FMS_LPF + u]);
        }
    }
    *(float *)((char *)out_r + (size_t)y * pitch + x * sizeof(float)) = (float)ar;
    *(float *)((char *)out_d + (size_t)y * pitch + x * sizeof(float)) = (float)ad;
}

extern "C" int vq_float_ms_ssim_lpf_launch(VqStream stream, const VqDevPlane *ref,
                                 const VqDevPlane *dis, unsigned src_bpc,
                                 float *out_ref, float *out_dis,
                                 size_t out_pitch, unsigned ow, unsigned oh)
{
    if (!ow || !oh)
        return 0;
    dim3 block(FL_TW, FL_TH);
    dim3 grid(vq_div_ceil(ow, FL_TW), vq_div_ceil(oh, FL_TH));
    float inv = float_ssim_inv_scale(src_bpc);
    hipStream_t s = vq_hip_stream(stream);
#define LPF_LAUNCH(T)                                                         \
    float_ms_ssim_lpf_kernel<T><<<grid, block, 0, s>>>(*ref, *dis, inv, out_ref,        \
                                            out_dis, out_pitch, ow, oh)
    FSSIM_DISPATCH(src_bpc, LPF_LAUNCH);
#undef LPF_LAUNCH
    return vq_launch_status();
}
