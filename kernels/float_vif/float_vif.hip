/*
 * float_vif on the device, per scale:
 *   down:  scale s from scale s - 1 (a block makes FV_DR x FV_DC samples:
 *          a column walk feeds the vertical pass of its FV_DR rows, kept
 *          in shared memory, then the horizontal pass at even columns);
 *   terms: a block owns a tile of FV_SR rows x FV_CW columns: vertical pass
 *          of the five quantities (a column walk: each source sample is
 *          loaded once and added to every output row whose taps reach it,
 *          in tap order), horizontal pass and per-pixel terms, written to
 *          the scale's num and den images;
 * then one launch sums every row of every scale's term images, left to
 * right (float_row_sum.h).
 * Every sum is vq_fconv_dot's (tap 0 first, from 0.0f) and every term is
 * vq_float_vif_terms, so the row sums equal the CPU path's bit for bit.
 * With vif_prescale, scale 0 is first made as floats (to_float, resize).
 */
#include "../hip_device.h"
#include "../float_resize.h"
#include "../float_row_sum.h"
#include "float_vif.h"

#define FV_THREADS 256
#define FV_SR 8   /* rows per terms tile */
#define FV_CW 128 /* columns per terms tile */
#define FV_NX 4   /* horizontal outputs per thread item */
#define FV_DR 8   /* rows per down block */
#define FV_DC 64  /* columns per down block */

/* One scale's filter. */
struct FvTaps {
    float f[VQ_FVIF_MAX_TAPS];
    int n;
};

/* A source image: a bpc-bit plane (T = uint8_t/uint16_t) or floats. */
template <typename T>
__device__ __forceinline__ float fv_load(const VqDevPlane &p, float scale,
                                         int y, int x)
{
    const T *row = (const T *)((const char *)p.data + (size_t)y * p.pitch);
    return vq_fpix(row[x], scale);
}

template <>
__device__ __forceinline__ float fv_load<float>(const VqDevPlane &p,
                                                float scale, int y, int x)
{
    (void)scale;
    return ((const float *)((const char *)p.data + (size_t)y * p.pitch))[x];
}

/* Mirrored index, clamped for positions that feed only discarded
 * outputs. */
__device__ __forceinline__ int fv_src(int k, int n)
{
    k = vq_fconv_mirror(k, n);
    return k < 0 ? 0 : k >= n ? n - 1 : k;
}

/* One tile of FV_SR rows x FV_CW columns of scale s: num and den terms of
 * every pixel into num[y * pitch + x], den[...]. NT: the filter's taps
 * when known at compile time (0: taps.n), which unrolls the tap loops. */
template <typename T, int NT>
__global__ void __launch_bounds__(FV_THREADS, 2)
fv_terms_kernel(VqDevPlane ref, VqDevPlane dis, float scale, FvTaps taps,
                VqFloatVifConst c, float *num_out, float *den_out, int pitch)
{
    extern __shared__ float smem[];
    const int w = (int)ref.w, h = (int)ref.h, n = NT ? NT : taps.n;
    const int r = n / 2;
    const int vw = FV_CW + 2 * r; /* vertical-pass columns of the tile */
    float *v = smem;              /* [5][FV_SR][vw] */
    const int x0 = blockIdx.x * FV_CW, y0 = blockIdx.y * FV_SR;
    const int tid = threadIdx.x, nt = blockDim.x;

    for (int col = tid; col < vw; col += nt) {
        const int sx = fv_src(x0 - r + col, w);
        float s[5][FV_SR];
        for (int q = 0; q < 5; q++)
            for (int t = 0; t < FV_SR; t++)
                s[q][t] = 0.0f;
        auto vstep = [&](int k) {
            const int sy = fv_src(y0 - r + k, h);
            const float a = fv_load<T>(ref, scale, sy, sx);
            const float b = fv_load<T>(dis, scale, sy, sx);
            const float aa = a * a, bb = b * b, ab = a * b;
#pragma unroll
            for (int t = 0; t < FV_SR; t++) {
                const int m = k - t;
                if (m < 0 || m >= n)
                    continue;
                const float fm = taps.f[m];
                s[0][t] += fm * a;
                s[1][t] += fm * b;
                s[2][t] += fm * aa;
                s[3][t] += fm * bb;
                s[4][t] += fm * ab;
            }
        };
        /* the same steps in the same order; unrolled when NT is known
         * (a runtime count cannot be fully unrolled) */
        if (NT) {
#pragma unroll
            for (int k = 0; k < NT + FV_SR - 1; k++)
                vstep(k);
        } else {
            for (int k = 0; k < n + FV_SR - 1; k++)
                vstep(k);
        }
        for (int q = 0; q < 5; q++)
            for (int t = 0; t < FV_SR; t++)
                v[(q * FV_SR + t) * vw + col] = s[q][t];
    }
    __syncthreads();
    for (int item = tid; item < FV_SR * FV_CW / FV_NX; item += nt) {
        const int t = item / (FV_CW / FV_NX);
        const int j0 = (item - t * (FV_CW / FV_NX)) * FV_NX;
        float hs[5][FV_NX];
#pragma unroll
        for (int q = 0; q < 5; q++) {
            const float *row = v + (q * FV_SR + t) * vw + j0;
            for (int o = 0; o < FV_NX; o++)
                hs[q][o] = 0.0f;
            auto hstep = [&](int k) {
                const float x = row[k];
#pragma unroll
                for (int o = 0; o < FV_NX; o++) {
                    const int m = k - o;
                    if (m >= 0 && m < n)
                        hs[q][o] += taps.f[m] * x;
                }
            };
            if (NT) {
#pragma unroll
                for (int k = 0; k < NT + FV_NX - 1; k++)
                    hstep(k);
            } else {
                for (int k = 0; k < n + FV_NX - 1; k++)
                    hstep(k);
            }
        }
        const int y = y0 + t;
        if (y >= h)
            continue;
        for (int o = 0; o < FV_NX; o++) {
            const int x = x0 + j0 + o;
            if (x >= w)
                break;
            float nm, dn;
            vq_float_vif_terms(&c, hs[0][o], hs[1][o], hs[2][o], hs[3][o],
                          hs[4][o], &nm, &dn);
            num_out[(size_t)y * pitch + x] = nm;
            den_out[(size_t)y * pitch + x] = dn;
        }
    }
}

template <typename T>
__global__ void __launch_bounds__(FV_THREADS)
fv_down_kernel(VqDevPlane ref, VqDevPlane dis, float scale, FvTaps taps,
               float *dst_ref, float *dst_dis, size_t dst_pitch, int dw,
               int dh)
{
    extern __shared__ float smem[];
    const int w = (int)ref.w, h = (int)ref.h, n = taps.n, r = n / 2;
    const int vw = 2 * FV_DC + 2 * r;
    float *v = smem; /* [2][FV_DR][vw] */
    const int oy0 = blockIdx.y * FV_DR, ox0 = blockIdx.x * FV_DC;
    const int tid = threadIdx.x, nt = blockDim.x;
    for (int col = tid; col < vw; col += nt) {
        const int sx = fv_src(2 * ox0 - r + col, w);
        float s[2][FV_DR];
        for (int t = 0; t < FV_DR; t++)
            s[0][t] = s[1][t] = 0.0f;
        for (int k = 0; k < n + 2 * (FV_DR - 1); k++) {
            const int sy = fv_src(2 * oy0 - r + k, h);
            const float a = fv_load<T>(ref, scale, sy, sx);
            const float b = fv_load<T>(dis, scale, sy, sx);
#pragma unroll
            for (int t = 0; t < FV_DR; t++) {
                const int m = k - 2 * t;
                if (m < 0 || m >= n)
                    continue;
                s[0][t] += taps.f[m] * a;
                s[1][t] += taps.f[m] * b;
            }
        }
        for (int t = 0; t < FV_DR; t++) {
            v[t * vw + col] = s[0][t];
            v[(FV_DR + t) * vw + col] = s[1][t];
        }
    }
    __syncthreads();
    for (int i = tid; i < FV_DR * FV_DC; i += nt) {
        const int t = i / FV_DC, jo = i - t * FV_DC;
        const int oy = oy0 + t, ox = ox0 + jo;
        if (oy >= dh || ox >= dw)
            continue;
        const size_t o = (size_t)oy * (dst_pitch / sizeof(float)) + ox;
        dst_ref[o] = vq_fconv_dot(taps.f, n, v + t * vw + 2 * jo, 1);
        dst_dis[o] = vq_fconv_dot(taps.f, n, v + (FV_DR + t) * vw + 2 * jo, 1);
    }
}

static FvTaps fv_taps(const VqFloatVifDims *d, unsigned scale)
{
    FvTaps t;
    t.n = d->fw[scale];
    for (int k = 0; k < VQ_FVIF_MAX_TAPS; k++)
        t.f[k] = k < t.n ? d->taps[scale][k] : 0.0f;
    return t;
}

template <typename T>
static void fv_terms_go(dim3 grid, size_t shm, hipStream_t s,
                        const VqDevPlane &ref, const VqDevPlane &dis,
                        float pix_scale, const FvTaps &taps,
                        const VqFloatVifConst &c, float *num, float *den,
                        int pitch)
{
    /* libvmaf's taps at vif_kernelscale 1: 17, 9, 5, 3 */
    switch (taps.n) {
    case 17:
        fv_terms_kernel<T, 17><<<grid, FV_THREADS, shm, s>>>(
            ref, dis, pix_scale, taps, c, num, den, pitch);
        break;
    case 9:
        fv_terms_kernel<T, 9><<<grid, FV_THREADS, shm, s>>>(
            ref, dis, pix_scale, taps, c, num, den, pitch);
        break;
    case 5:
        fv_terms_kernel<T, 5><<<grid, FV_THREADS, shm, s>>>(
            ref, dis, pix_scale, taps, c, num, den, pitch);
        break;
    case 3:
        fv_terms_kernel<T, 3><<<grid, FV_THREADS, shm, s>>>(
            ref, dis, pix_scale, taps, c, num, den, pitch);
        break;
    default:
        fv_terms_kernel<T, 0><<<grid, FV_THREADS, shm, s>>>(
            ref, dis, pix_scale, taps, c, num, den, pitch);
        break;
    }
}

extern "C" int vq_float_vif_terms_launch(VqStream stream, const VqDevPlane *ref,
                                    const VqDevPlane *dis, unsigned bpc,
                                    const VqFloatVifDims *dims, unsigned scale,
                                    const VqFloatVifConst *c, float *num,
                                    float *den, size_t pitch)
{
    FvTaps taps = fv_taps(dims, scale);
    const int vw = FV_CW + 2 * (taps.n / 2);
    size_t shm = 5 * FV_SR * vw * sizeof(float);
    dim3 grid(vq_div_ceil(ref->w, FV_CW), vq_div_ceil(ref->h, FV_SR));
    hipStream_t s = vq_hip_stream(stream);
    float pix_scale = vq_fpix_scale(bpc);
    const int p = (int)pitch;
    if (bpc == 0)
        fv_terms_go<float>(grid, shm, s, *ref, *dis, pix_scale, taps, *c, num,
                           den, p);
    else if (bpc > 8)
        fv_terms_go<uint16_t>(grid, shm, s, *ref, *dis, pix_scale, taps, *c,
                              num, den, p);
    else
        fv_terms_go<uint8_t>(grid, shm, s, *ref, *dis, pix_scale, taps, *c,
                             num, den, p);
    return vq_launch_status();
}

struct FvRowSegs {
    VqRowSeg seg[2 * VQ_FVIF_SCALES];
};

__global__ void __launch_bounds__(VQ_RSUM_CW, 4)
fv_row_sum_kernel(FvRowSegs segs)
{
    const VqRowSeg &s = segs.seg[blockIdx.y];
    const int y0 = (int)blockIdx.x * VQ_RSUM_ROWS;
    if (y0 < s.h)
        vq_row_sum_block(s, y0);
}

extern "C" int vq_float_vif_row_sums_launch(VqStream stream,
                                       const VqFloatVifDims *dims,
                                       unsigned first_scale,
                                       const VqFloatVifTermImages *t, float *rows)
{
    FvRowSegs segs;
    unsigned n = 0, hmax = 0;
    for (unsigned sc = first_scale; sc < VQ_FVIF_SCALES; sc++) {
        const int w = (int)dims->w[sc], h = (int)dims->h[sc];
        const int pitch = (int)t->pitch[sc];
        segs.seg[n++] = { t->num[sc], rows + dims->off_num[sc], w, h, pitch };
        segs.seg[n++] = { t->den[sc], rows + dims->off_den[sc], w, h, pitch };
        hmax = dims->h[sc] > hmax ? dims->h[sc] : hmax;
    }
    if (!n)
        return 0;
    dim3 grid(vq_div_ceil(hmax, VQ_RSUM_ROWS), n);
    fv_row_sum_kernel<<<grid, VQ_RSUM_CW, 0, vq_hip_stream(stream)>>>(
        segs);
    return vq_launch_status();
}

extern "C" int vq_float_vif_down_launch(VqStream stream, const VqDevPlane *src_ref,
                                   const VqDevPlane *src_dis, unsigned bpc,
                                   const VqFloatVifDims *dims, unsigned scale,
                                   float *dst_ref, float *dst_dis,
                                   size_t dst_pitch)
{
    FvTaps taps = fv_taps(dims, scale);
    const int dw = (int)dims->w[scale], dh = (int)dims->h[scale];
    const int vw = 2 * FV_DC + 2 * (taps.n / 2);
    size_t shm = 2 * FV_DR * vw * sizeof(float);
    dim3 grid(vq_div_ceil(dw, FV_DC), vq_div_ceil(dh, FV_DR));
    hipStream_t s = vq_hip_stream(stream);
    float pix_scale = vq_fpix_scale(bpc);
    if (bpc == 0)
        fv_down_kernel<float><<<grid, FV_THREADS, shm, s>>>(
            *src_ref, *src_dis, pix_scale, taps, dst_ref, dst_dis, dst_pitch, dw,
            dh);
    else if (bpc > 8)
        fv_down_kernel<uint16_t><<<grid, FV_THREADS, shm, s>>>(
            *src_ref, *src_dis, pix_scale, taps, dst_ref, dst_dis, dst_pitch, dw,
            dh);
    else
        fv_down_kernel<uint8_t><<<grid, FV_THREADS, shm, s>>>(
            *src_ref, *src_dis, pix_scale, taps, dst_ref, dst_dis, dst_pitch, dw,
            dh);
    return vq_launch_status();
}

/* vif_prescale: the luma as floats, then resized with the tables of
 * vq_fresize_axis (tx: dw entries, ty: dh entries). */
template <typename T>
__global__ void fv_to_float_kernel(VqDevPlane src, float scale, float *dst,
                                   size_t dst_pitch)
{
    unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= src.w || y >= src.h)
        return;
    ((float *)((char *)dst + (size_t)y * dst_pitch))[x] =
        fv_load<T>(src, scale, (int)y, (int)x);
}

__global__ void fv_resize_kernel(int method, const float *src, size_t pitch,
                                 const VqFResizeTap *tx,
                                 const VqFResizeTap *ty, float *dst,
                                 size_t dst_pitch, unsigned dw, unsigned dh)
{
    unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= dw || y >= dh)
        return;
    VqFResizeTap cx = tx[x], cy = ty[y];
    ((float *)((char *)dst + (size_t)y * dst_pitch))[x] = vq_fresize_pixel(
        (VqFResizeMethod)method, src, (ptrdiff_t)(pitch / sizeof(float)), &cx,
        &cy);
}

extern "C" int vq_float_vif_prescale_launch(VqStream stream, const VqDevPlane *src,
                                       unsigned bpc, float *tmp,
                                       size_t tmp_pitch, int method,
                                       const VqFResizeTap *tx,
                                       const VqFResizeTap *ty, float *dst,
                                       size_t dst_pitch, unsigned dw,
                                       unsigned dh)
{
    dim3 block(32, 8);
    hipStream_t s = vq_hip_stream(stream);
    dim3 g1(vq_div_ceil(src->w, 32), vq_div_ceil(src->h, 8));
    float pix_scale = vq_fpix_scale(bpc);
    if (bpc > 8)
        fv_to_float_kernel<uint16_t><<<g1, block, 0, s>>>(*src, pix_scale, tmp,
                                                          tmp_pitch);
    else
        fv_to_float_kernel<uint8_t><<<g1, block, 0, s>>>(*src, pix_scale, tmp,
                                                         tmp_pitch);
    int err = vq_launch_status();
    if (err)
        return err;
    dim3 g2(vq_div_ceil(dw, 32), vq_div_ceil(dh, 8));
    fv_resize_kernel<<<g2, block, 0, s>>>(method, tmp, tmp_pitch, tx, ty, dst,
                                          dst_pitch, dw, dh);
    return vq_launch_status();
}
