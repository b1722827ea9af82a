/*
 * float_motion on the device: the blur (a shared-memory tile per block:
 * the plane as floats with the mirrored halo, the vertical pass, the
 * horizontal pass), the bilinear half-size planes, and the row sums of
 * |previous - current| (kernels/float_rows.h: one thread per row, left to
 * right). The arithmetic is kernels/float_conv.h's and float_motion.h's.
 */
#include "../hip_device.h"
#include "../float_rows.h"
#include "float_motion.h"

#define FM_TW 64
#define FM_TH 16
#define FM_R 2 /* the widest filter's half width */
#define FM_THREADS 256

/* Mirrored index, clamped for tile positions that feed only discarded
 * outputs (past the plane's last row or column plus the half width). */
__device__ __forceinline__ int fm_src(int k, int n)
{
    k = vq_fconv_mirror(k, n);
    return k < 0 ? 0 : k >= n ? n - 1 : k;
}

template <typename T>
__global__ void __launch_bounds__(FM_THREADS)
fm_blur_kernel(VqDevPlane src, float scale, VqFloatMotionTaps taps, float *dst,
               size_t dst_pitch)
{
    constexpr int IW = FM_TW + 2 * FM_R, IH = FM_TH + 2 * FM_R;
    __shared__ float in[IH * IW];
    __shared__ float v[FM_TH * IW];
    const int w = (int)src.w, h = (int)src.h;
    const int r = taps.n / 2;
    const int x0 = blockIdx.x * FM_TW, y0 = blockIdx.y * FM_TH;
    const int tid = threadIdx.x, nt = blockDim.x;

    /* rows y0 - r .. y0 + FM_TH + r - 1, columns x0 - r .. as tile rows
     * and columns 0 .. */
    const int ih = FM_TH + 2 * r, iw = FM_TW + 2 * r;
    for (int i = tid; i < ih * iw; i += nt) {
        int ly = i / iw, lx = i - ly * iw;
        int gy = fm_src(y0 - r + ly, h), gx = fm_src(x0 - r + lx, w);
        const T *row = (const T *)((const char *)src.data +
                                   (size_t)gy * src.pitch);
        in[ly * IW + lx] = vq_fpix(row[gx], scale);
    }
    __syncthreads();
    for (int i = tid; i < FM_TH * iw; i += nt) {
        int ly = i / iw, lx = i - ly * iw;
        v[ly * IW + lx] = vq_fconv_dot(taps.f, taps.n, &in[ly * IW + lx], IW);
    }
    __syncthreads();
    for (int i = tid; i < FM_TH * FM_TW; i += nt) {
        int ly = i / FM_TW, lx = i - ly * FM_TW;
        int gy = y0 + ly, gx = x0 + lx;
        if (gy >= h || gx >= w)
            continue;
        /* the tile's columns are the mirrored plane columns, so the
         * horizontal taps of an output in the plane read them in place */
        float *o = (float *)((char *)dst + (size_t)gy * dst_pitch);
        o[gx] = vq_fconv_dot(taps.f, taps.n, &v[ly * IW + lx], 1);
    }
}

extern "C" int vq_float_motion_blur_launch(VqStream stream, const VqDevPlane *src,
                                      unsigned bpc, VqFloatMotionTaps taps,
                                      float *dst, size_t dst_pitch)
{
    dim3 grid(vq_div_ceil(src->w, FM_TW), vq_div_ceil(src->h, FM_TH));
    float scale = vq_fpix_scale(bpc);
    if (bpc > 8)
        fm_blur_kernel<uint16_t><<<grid, FM_THREADS, 0, vq_hip_stream(stream)>>>(
            *src, scale, taps, dst, dst_pitch);
    else
        fm_blur_kernel<uint8_t><<<grid, FM_THREADS, 0, vq_hip_stream(stream)>>>(
            *src, scale, taps, dst, dst_pitch);
    return vq_launch_status();
}

__global__ void fm_half_kernel(const float *src, size_t pitch,
                               const VqFResizeTap *tx, const VqFResizeTap *ty,
                               float *dst, size_t dst_pitch, unsigned dw,
                               unsigned dh)
{
    unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= dw || y >= dh)
        return;
    VqFResizeTap cx = tx[x], cy = ty[y];
    float *o = (float *)((char *)dst + (size_t)y * dst_pitch);
    o[x] = vq_fresize_pixel(VQ_FRESIZE_BILINEAR, src,
                            (ptrdiff_t)(pitch / sizeof(float)), &cx, &cy);
}

extern "C" int vq_float_motion_half_launch(VqStream stream, const float *src,
                                      size_t pitch, unsigned w, unsigned h,
                                      const VqFResizeTap *tx,
                                      const VqFResizeTap *ty, float *dst,
                                      size_t dst_pitch, unsigned dw,
                                      unsigned dh)
{
    (void)w;
    (void)h;
    dim3 block(32, 8);
    dim3 grid(vq_div_ceil(dw, 32), vq_div_ceil(dh, 8));
    fm_half_kernel<<<grid, block, 0, vq_hip_stream(stream)>>>(
        src, pitch, tx, ty, dst, dst_pitch, dw, dh);
    return vq_launch_status();
}

#define FM_SAD_ROWS 16
#define FM_SAD_CW 128

struct FmSadTerm {
    const float *a, *b;
    size_t pitch; /* floats */
    int h;
    __device__ float operator()(int q, int y, int x) const
    {
        (void)q;
        if (y >= h)
            return 0.0f;
        size_t i = (size_t)y * pitch + x;
        return vq_float_motion_term(a[i], b[i]);
    }
};

__global__ void __launch_bounds__(FM_THREADS)
fm_sad_kernel(FmSadTerm term, int w, float *rows)
{
    __shared__ float buf[FM_SAD_ROWS * (FM_SAD_CW + 1)];
    const int y0 = blockIdx.x * FM_SAD_ROWS;
    float s = vq_row_sums_block(term, 1, y0, FM_SAD_ROWS, w, FM_SAD_CW, buf);
    if (threadIdx.x < FM_SAD_ROWS && y0 + (int)threadIdx.x < term.h)
        rows[y0 + threadIdx.x] = s;
}

extern "C" int vq_float_motion_sad_launch(VqStream stream, const float *a,
                                     const float *b, size_t pitch, unsigned w,
                                     unsigned h, float *rows)
{
    FmSadTerm term = { a, b, pitch / sizeof(float), (int)h };
    fm_sad_kernel<<<vq_div_ceil(h, FM_SAD_ROWS), FM_THREADS, 0,
                    vq_hip_stream(stream)>>>(term, (int)w, rows);
    return vq_launch_status();
}
