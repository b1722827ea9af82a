/*
 * float SSIM on the device (definitions in float_ssim.h).
 *
 * map: one block per tile of FM_TW x FM_TH map pixels. The block loads the
 * tile's (FM_TW + 10) x (FM_TH + 10) input samples of both images into
 * shared memory, filters every input row horizontally (5 statistics, double
 * sums in tap order, rounded to float), then every output vertically, the
 * pixel terms of vq_float_ssim_pixel, and per map row the segment's sums in x
 * order (FM_TW == VQ_FSSIM_SEG: one segment per tile row). rows: each map
 * row's segments summed in order. The host combines the rows in order: the
 * CPU path's sums, operation for operation.
 *
 * box: float_ssim's decimation, one thread per output sample.
 */
#include "float_ssim_device.h"

#define FM_TW VQ_FSSIM_SEG
#define FM_TH 16
#define FM_IW (FM_TW + VQ_FSSIM_WIN - 1)
#define FM_IH (FM_TH + VQ_FSSIM_WIN - 1)
#define FM_THREADS 256 /* the block size the kernel is launched with */
#define FM_PER_THREAD ((FM_TW * FM_TH + FM_THREADS - 1) / FM_THREADS)
#define FM_HBUF (5 * FM_IH * FM_TW) /* floats of the horizontal pass */

static_assert(FM_TW == VQ_FSSIM_SEG, "one segment per tile row");
static_assert(FM_HBUF / 2 >= VQ_FSSIM_COMPS * FM_TH * FM_TW,
              "the pixel sums reuse the horizontal pass's buffer");

template <typename T>
__global__ __launch_bounds__(FM_THREADS) void float_ssim_map_kernel(
    VqDevPlane ref, VqDevPlane dis, float inv_scale, VqFloatSsimConsts k,
    double *part, unsigned nseg)
{
    __shared__ float in_r[FM_IH * FM_IW], in_d[FM_IH * FM_IW];
    __shared__ double buf[FM_HBUF / 2];
    float *hs = (float *)buf;
    const float g[VQ_FSSIM_WIN] = { VQ_FSSIM_GAUSS_TAPS };

    const int w = (int)ref.w, h = (int)ref.h;
    const int mw = w - (VQ_FSSIM_WIN - 1), mh = h - (VQ_FSSIM_WIN - 1);
    const int x0 = blockIdx.x * FM_TW, y0 = blockIdx.y * FM_TH;
    const int tid = threadIdx.x;

    /* positions past the picture feed only outputs that are dropped */
    for (int i = tid; i < FM_IH * FM_IW; i += FM_THREADS) {
        int ly = i / FM_IW, lx = i - ly * FM_IW;
        int gx = min(x0 + lx, w - 1), gy = min(y0 + ly, h - 1);
        in_r[i] = float_ssim_load<T>(ref, gx, gy, inv_scale);
        in_d[i] = float_ssim_load<T>(dis, gx, gy, inv_scale);
    }
    __syncthreads();

    for (int i = tid; i < FM_IH * FM_TW; i += FM_THREADS) {
        int row = i / FM_TW, col = i - row * FM_TW;
        const float *pr = in_r + row * FM_IW + col;
        const float *pd = in_d + row * FM_IW + col;
        double a0 = 0.0, a1 = 0.0, a2 = 0.0, a3 = 0.0, a4 = 0.0;
#pragma unroll
        for (int u = 0; u < VQ_FSSIM_WIN; u++) {
            float r = pr[u], d = pd[u];
            float rr = r * r, dd = d * d, rd = r * d;
            a0 += (double)(r * g[u]);
            a1 += (double)(d * g[u]);
            a2 += (double)(rr * g[u]);
            a3 += (double)(dd * g[u]);
            a4 += (double)(rd * g[u]);
        }
        hs[0 * FM_IH * FM_TW + i] = (float)a0;
        hs[1 * FM_IH * FM_TW + i] = (float)a1;
        hs[2 * FM_IH * FM_TW + i] = (float)a2;
        hs[3 * FM_IH * FM_TW + i] = (float)a3;
        hs[4 * FM_IH * FM_TW + i] = (float)a4;
    }
    __syncthreads();

    double res[FM_PER_THREAD][VQ_FSSIM_COMPS];
#pragma unroll
    for (int j = 0; j < FM_PER_THREAD; j++) {
        int o = tid + j * FM_THREADS;
        int ty = o / FM_TW, tx = o - ty * FM_TW;
        float f[5];
#pragma unroll
        for (int m = 0; m < 5; m++) {
            const float *col = hs + m * FM_IH * FM_TW + ty * FM_TW + tx;
            double a = 0.0;
#pragma unroll
            for (int v = 0; v < VQ_FSSIM_WIN; v++)
                a += (double)(col[v * FM_TW] * g[v]);
            f[m] = (float)a;
        }
        double l, c, s;
        vq_float_ssim_pixel(f[0], f[1], f[2], f[3], f[4], k, &l, &c, &s);
        res[j][0] = l * c * s;
        res[j][1] = l;
        res[j][2] = c;
        res[j][3] = s;
    }
    __syncthreads(); /* buf changes from horizontal sums to pixel terms */
#pragma unroll
    for (int j = 0; j < FM_PER_THREAD; j++) {
        int o = tid + j * FM_THREADS;
#pragma unroll
        for (int q = 0; q < VQ_FSSIM_COMPS; q++)
            buf[q * FM_TH * FM_TW + o] = res[j][q];
    }
    __syncthreads();

    if (tid < VQ_FSSIM_COMPS * FM_TH) {
        int q = tid / FM_TH, ty = tid - q * FM_TH;
        int y = y0 + ty, n = min(FM_TW, mw - x0);
        if (y < mh) {
            const double *p = buf + (q * FM_TH + ty) * FM_TW;
            double sum = 0.0;
            for (int x = 0; x < n; x++)
                sum += p[x];
            part[((size_t)y * nseg + blockIdx.x) * VQ_FSSIM_COMPS + q] = sum;
        }
    }
}

__global__ void float_ssim_rows_kernel(const double *part, unsigned nseg,
                                  unsigned n_rows, VqFloatSsimRow *rows)
{
    unsigned y = blockIdx.x * blockDim.x + threadIdx.x;
    if (y >= n_rows)
        return;
    const double *p = part + (size_t)y * nseg * VQ_FSSIM_COMPS;
    double t[VQ_FSSIM_COMPS] = { 0.0, 0.0, 0.0, 0.0 };
    for (unsigned j = 0; j < nseg; j++)
        for (int q = 0; q < VQ_FSSIM_COMPS; q++)
            t[q] += p[j * VQ_FSSIM_COMPS + q];
    rows[y].ssim = t[0];
    rows[y].l = t[1];
    rows[y].c = t[2];
    rows[y].s = t[3];
}

template <typename T>
__global__ void float_ssim_box_kernel(VqDevPlane ref, VqDevPlane dis,
                                 float inv_scale, int f, float kv,
                                 float *out_r, float *out_d, size_t pitch,
                                 unsigned ow, unsigned oh)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= (int)ow || y >= (int)oh)
        return;
    const int w = (int)ref.w, h = (int)ref.h;
    const int lo = -(f / 2), hi = f / 2 - (f % 2 == 0);
    double ar = 0.0, ad = 0.0;
    for (int v = lo; v <= hi; v++) {
        int sy = vq_float_ssim_mirror(y * f + v, h);
        for (int u = lo; u <= hi; u++) {
            int sx = vq_float_ssim_mirror(x * f + u, w);
            ar += (double)(float_ssim_load<T>(ref, sx, sy, inv_scale) * kv);
            ad += (double)(float_ssim_load<T>(dis, sx, sy, inv_scale) * kv);
        }
    }
    *(float *)((char *)out_r + (size_t)y * pitch + x * sizeof(float)) = (float)ar;
    *(float *)((char *)out_d + (size_t)y * pitch + x * sizeof(float)) = (float)ad;
}

extern "C" int vq_float_ssim_box_launch(VqStream stream, const VqDevPlane *ref,
                                   const VqDevPlane *dis, unsigned src_bpc,
                                   unsigned factor, float *out_ref,
                                   float *out_dis, size_t out_pitch,
                                   unsigned ow, unsigned oh)
{
    if (!ow || !oh)
        return 0;
    dim3 block(32, 8);
    dim3 grid(vq_div_ceil(ow, block.x), vq_div_ceil(oh, block.y));
    float inv = float_ssim_inv_scale(src_bpc);
    float kv = 1.0f / (float)(int)(factor * factor); /* libvmaf's 1.0f/(s*s) */
    hipStream_t s = vq_hip_stream(stream);
#define BOX_LAUNCH(T)                                                         \
    float_ssim_box_kernel<T><<<grid, block, 0, s>>>(*ref, *dis, inv, (int)factor,  \
                                              kv, out_ref, out_dis, out_pitch,\
                                              ow, oh)
    FSSIM_DISPATCH(src_bpc, BOX_LAUNCH);
#undef BOX_LAUNCH
    return vq_launch_status();
}

extern "C" int vq_float_ssim_map_launch(VqStream stream, const VqDevPlane *ref,
                                   const VqDevPlane *dis, unsigned src_bpc,
                                   VqFloatSsimConsts k, double *part)
{
    if (ref->w < VQ_FSSIM_WIN || ref->h < VQ_FSSIM_WIN)
        return 0;
    unsigned mw = ref->w - (VQ_FSSIM_WIN - 1), mh = ref->h - (VQ_FSSIM_WIN - 1);
    unsigned nseg = vq_div_ceil(mw, VQ_FSSIM_SEG);
    dim3 grid(nseg, vq_div_ceil(mh, FM_TH));
    float inv = float_ssim_inv_scale(src_bpc);
    hipStream_t s = vq_hip_stream(stream);
#define MAP_LAUNCH(T)                                                         \
    float_ssim_map_kernel<T><<<grid, FM_THREADS, 0, s>>>(*ref, *dis, inv, k, part, \
                                                    nseg)
    FSSIM_DISPATCH(src_bpc, MAP_LAUNCH);
#undef MAP_LAUNCH
    return vq_launch_status();
}

extern "C" int vq_float_ssim_rows_launch(VqStream stream, const double *part,
                                    unsigned nseg, unsigned n_rows,
                                    VqFloatSsimRow *rows)
{
    if (!n_rows)
        return 0;
    unsigned threads = 128;
    float_ssim_rows_kernel<<<vq_div_ceil(n_rows, threads), threads, 0,
                        vq_hip_stream(stream)>>>(part, nseg, n_rows, rows);
    return vq_launch_status();
}
