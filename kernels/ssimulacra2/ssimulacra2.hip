/*
 * SSIMULACRA 2 on the device. Per scale: prepare (XYB of 2x2 blocks and
 * the next scale's linear samples), the recursive Gaussian's horizontal
 * pass (one thread per row and blurred plane, walking the row in quads),
 * its vertical pass (one thread per column and blurred plane, walking down
 * the column), the per-pixel terms summed down 64-row column segments, and
 * one block per segment adding columns in chunks of 64 in a fixed order.
 * The recursion is sequential along a line, as on the CPU: lines run in
 * parallel, each in the CPU's order, so the values are the CPU's.
 */
#include "../hip_device.h"
#include "ssimulacra2.h"

#define S2_PREP_TX 16
#define S2_PREP_TY 8
#define S2_H_THREADS 64
#define S2_V_THREADS 128
#define S2_COL_THREADS 128
#define S2_RED_THREADS 64

struct S2Yuv {
    VqDevPlane p[2][3];
    int hbd, cw, ch;
};

struct S2Lin {
    VqS2Buf lin;
};

/* Linear sRGB of pixel (x, y) of input m: from YUV samples at scale 0. */
__device__ __forceinline__ void s2_load(const S2Yuv &in, const VqS2Params &par,
                                        int m, int x, int y, float rgb[3])
{
    const VqDevPlane *p = in.p[m];
    vq_s2_pixel_linear(&par.color[m], p[0].data, p[0].pitch, p[1].data,
                       p[1].pitch, p[2].data, p[2].pitch, in.hbd, in.cw, in.ch,
                       x, y, rgb);
}

/* ... or from the previous scale's linear planes. */
__device__ __forceinline__ void s2_load(const S2Lin &in, const VqS2Params &,
                                        int m, int x, int y, float rgb[3])
{
    const float *base = in.lin.data + (size_t)y * in.lin.pitch + x;
    for (int c = 0; c < 3; c++)
        rgb[c] = base[(size_t)(m * 3 + c) * in.lin.plane];
}

template <typename In>
__global__ void s2_prepare_kernel(In in, unsigned w, unsigned h,
                                  VqS2Params par, VqS2Buf xyb, VqS2Buf next)
{
    unsigned bx = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned by = blockIdx.y * blockDim.y + threadIdx.y;
    if (2 * bx >= w || 2 * by >= h)
        return;
    unsigned xs[2] = { 2 * bx, 2 * bx + 1 < w ? 2 * bx + 1 : w - 1 };
    unsigned ys[2] = { 2 * by, 2 * by + 1 < h ? 2 * by + 1 : h - 1 };
#pragma unroll
    for (int m = 0; m < 2; m++) {
        float l[2][2][3];
        for (int dy = 0; dy < 2; dy++)
            for (int dx = 0; dx < 2; dx++)
                s2_load(in, par, m, (int)xs[dx], (int)ys[dy], l[dy][dx]);
        for (int dy = 0; dy < 2; dy++) {
            for (int dx = 0; dx < 2; dx++) {
                unsigned x = 2 * bx + dx, y = 2 * by + dy;
                if (x >= w || y >= h)
                    continue;
                float o[3];
                vq_s2_xyb(l[dy][dx], par.neg_bias_cbrt, o);
                float *dst = xyb.data + (size_t)y * xyb.pitch + x;
                for (int c = 0; c < 3; c++)
                    dst[(size_t)(m * 3 + c) * xyb.plane] = o[c];
            }
        }
        if (!next.data)
            continue;
        float *dst = next.data + (size_t)by * next.pitch + bx;
        for (int c = 0; c < 3; c++)
            dst[(size_t)(m * 3 + c) * next.plane] =
                vq_s2_down(l[0][0][c], l[0][1][c], l[1][0][c], l[1][1][c]);
    }
}

template <typename In>
static int s2_prepare(VqStream stream, const In &in, unsigned w, unsigned h,
                      const VqS2Params *par, VqS2Buf xyb, VqS2Buf next)
{
    dim3 block(S2_PREP_TX, S2_PREP_TY);
    dim3 grid(vq_div_ceil((w + 1) / 2, S2_PREP_TX),
              vq_div_ceil((h + 1) / 2, S2_PREP_TY));
    s2_prepare_kernel<In><<<grid, block, 0, vq_hip_stream(stream)>>>(
        in, w, h, *par, xyb, next);
    return vq_launch_status();
}

extern "C" int vq_s2_prepare_yuv_launch(VqStream stream, const VqDevFrame *ref,
                                        const VqDevFrame *dis, unsigned w,
                                        unsigned h, const VqS2Params *par,
                                        VqS2Buf xyb, VqS2Buf next)
{
    S2Yuv in;
    const VqDevFrame *f[2] = { ref, dis };
    for (int m = 0; m < 2; m++)
        for (int p = 0; p < 3; p++)
            in.p[m][p] = f[m]->plane[p];
    const VqS2Color *c = &par->color[0];
    in.hbd = ref->bpc > 8;
    in.cw = (int)((w + (unsigned)c->ss_x) >> c->ss_x);
    in.ch = (int)((h + (unsigned)c->ss_y) >> c->ss_y);
    return s2_prepare(stream, in, w, h, par, xyb, next);
}

extern "C" int vq_s2_prepare_lin_launch(VqStream stream, VqS2Buf lin,
                                        unsigned w, unsigned h,
                                        const VqS2Params *par, VqS2Buf xyb,
                                        VqS2Buf next)
{
    S2Lin in = { lin };
    return s2_prepare(stream, in, w, h, par, xyb, next);
}

/* Quad i of blurred input k of a row (elements past w are zero). */
__device__ __forceinline__ float4 s2_quad(const float *a, const float *b,
                                          int k, int i, unsigned w)
{
    float4 z = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    if (i < 0 || 4 * (unsigned)i >= w)
        return z;
    float4 va = *(const float4 *)(a + 4 * i), vb = *(const float4 *)(b + 4 * i);
    unsigned x = 4 * (unsigned)i;
    z.x = vq_s2_blur_input(k, va.x, vb.x);
    z.y = x + 1 < w ? vq_s2_blur_input(k, va.y, vb.y) : 0.0f;
    z.z = x + 2 < w ? vq_s2_blur_input(k, va.z, vb.z) : 0.0f;
    z.w = x + 3 < w ? vq_s2_blur_input(k, va.w, vb.w) : 0.0f;
    return z;
}

/* Output n needs inputs n-6 and n+4 (N = 5): for outputs 4q..4q+3 those
 * are the last two of quad q-2, the first two of quad q-1, and quad q+1.
 * A quad's outputs are single steps or one group of four, as on the CPU.
 * Quads are loaded two iterations before their first use (one row per
 * thread: few threads, so latency is hidden by distance, not by warps). */
__global__ void s2_blur_h_kernel(VqS2Buf xyb, VqS2Buf tmp, unsigned w,
                                 unsigned h, VqS2Blur bl)
{
    unsigned y = blockIdx.x * blockDim.x + threadIdx.x;
    int k = (int)blockIdx.y, c = (int)blockIdx.z;
    if (y >= h)
        return;
    const float *a = xyb.data + (size_t)c * xyb.plane + (size_t)y * xyb.pitch;
    const float *b = xyb.data + (size_t)(3 + c) * xyb.plane +
                     (size_t)y * xyb.pitch;
    float *out = tmp.data + (size_t)(c * VQ_S2_BLURS + k) * tmp.plane +
                 (size_t)y * tmp.pitch;
    float p[3] = { 0.0f, 0.0f, 0.0f }, pp[3] = { 0.0f, 0.0f, 0.0f };
    /* q0..q4 = quads q-2 .. q+2 */
    float4 q0 = make_float4(0.0f, 0.0f, 0.0f, 0.0f), q1 = q0, q2 = q0;
    float4 q3 = s2_quad(a, b, k, 0, w), q4 = s2_quad(a, b, k, 1, w);
    int nq = (int)((w + 3) / 4);
    for (int q = -1; q < nq; q++) {
        float4 q5 = s2_quad(a, b, k, q + 3, w);
        float s[4] = { q0.z + q3.x, q0.w + q3.y, q1.x + q3.z, q1.y + q3.w };
        float o[4];
        if (vq_s2_blur_h4_at(4 * q, (int)w)) {
            vq_s2_blur_h4(&bl, s, p, pp, o);
        } else {
            for (int j = 0; j < 4; j++)
                o[j] = vq_s2_blur_h_step(&bl, s[j], p, pp);
        }
        if (q >= 0)
            *(float4 *)(out + 4 * q) = make_float4(o[0], o[1], o[2], o[3]);
        q0 = q1;
        q1 = q2;
        q2 = q3;
        q3 = q4;
        q4 = q5;
    }
}

extern "C" int vq_s2_blur_h_launch(VqStream stream, VqS2Buf xyb, VqS2Buf tmp,
                                   unsigned w, unsigned h, const VqS2Blur *bl)
{
    dim3 grid(vq_div_ceil(h, S2_H_THREADS), VQ_S2_BLURS, 3);
    s2_blur_h_kernel<<<grid, S2_H_THREADS, 0, vq_hip_stream(stream)>>>(
        xyb, tmp, w, h, *bl);
    return vq_launch_status();
}

/* One column per thread; inputs are loaded S2_V_BATCH rows at a time so
 * that their latency overlaps (the steps themselves are sequential). */
#define S2_V_BATCH 8

__global__ void s2_blur_v_kernel(VqS2Buf tmp, VqS2Buf blur, unsigned w,
                                 unsigned h, VqS2Blur bl)
{
    unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned i = blockIdx.y;
    if (x >= w)
        return;
    const float *in = tmp.data + (size_t)i * tmp.plane + x;
    float *out = blur.data + (size_t)i * blur.plane + x;
    float p[3] = { 0.0f, 0.0f, 0.0f }, pp[3] = { 0.0f, 0.0f, 0.0f };
    int ih = (int)h;
    for (int n0 = -(VQ_S2_RADIUS - 1); n0 < ih; n0 += S2_V_BATCH) {
        float top[S2_V_BATCH], bot[S2_V_BATCH];
#pragma unroll
        for (int j = 0; j < S2_V_BATCH; j++) {
            int t = n0 + j - VQ_S2_RADIUS - 1, r = n0 + j + VQ_S2_RADIUS - 1;
            top[j] = t >= 0 && t < ih ? in[(size_t)t * tmp.pitch] : 0.0f;
            bot[j] = r < ih ? in[(size_t)r * tmp.pitch] : 0.0f;
        }
        /* steps past the last row only touch the state, never an output */
#pragma unroll
        for (int j = 0; j < S2_V_BATCH; j++) {
            int n = n0 + j;
            float o = vq_s2_blur_v_step(&bl, top[j] + bot[j], p, pp);
            if (n >= 0 && n < ih)
                out[(size_t)n * blur.pitch] = o;
        }
    }
}

extern "C" int vq_s2_blur_v_launch(VqStream stream, VqS2Buf tmp, VqS2Buf blur,
                                   unsigned w, unsigned h, const VqS2Blur *bl)
{
    dim3 grid(vq_div_ceil(w, S2_V_THREADS), 3 * VQ_S2_BLURS);
    s2_blur_v_kernel<<<grid, S2_V_THREADS, 0, vq_hip_stream(stream)>>>(
        tmp, blur, w, h, *bl);
    return vq_launch_status();
}

/* Column segment sums: colsum[((c * 6 + q) * nseg + j) * w + x]. */
__global__ void s2_col_kernel(VqS2Buf xyb, VqS2Buf blur, unsigned w,
                              unsigned h, unsigned nseg, double *colsum)
{
    unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned j = blockIdx.y, c = blockIdx.z;
    if (x >= w)
        return;
    double acc[VQ_S2_SUMS] = { 0.0, 0.0, 0.0, 0.0, 0.0, 0.0 };
    unsigned y1 = (j + 1) * VQ_S2_SEG < h ? (j + 1) * VQ_S2_SEG : h;
    const float *bp = blur.data + (size_t)c * VQ_S2_BLURS * blur.plane + x;
    const float *ia = xyb.data + (size_t)c * xyb.plane + x;
    const float *ib = xyb.data + (size_t)(3 + c) * xyb.plane + x;
#pragma unroll 4
    for (unsigned y = j * VQ_S2_SEG; y < y1; y++) {
        const float *r = bp + (size_t)y * blur.pitch;
        double t[VQ_S2_SUMS];
        vq_s2_terms(r[3 * blur.plane], r[4 * blur.plane], r[0], r[blur.plane],
                    r[2 * blur.plane], ia[(size_t)y * xyb.pitch],
                    ib[(size_t)y * xyb.pitch], t);
        for (int q = 0; q < VQ_S2_SUMS; q++)
            acc[q] += t[q];
    }
    for (int q = 0; q < VQ_S2_SUMS; q++)
        colsum[((size_t)(c * VQ_S2_SUMS + q) * nseg + j) * w + x] = acc[q];
}

/* One block per segment and channel: chunks of columns, then the chunks. */
__global__ void s2_reduce_kernel(const double *colsum, unsigned w,
                                 unsigned nseg, double *rec)
{
    __shared__ double part[VQ_S2_SUMS][VQ_S2_MAX_CHUNKS];
    unsigned j = blockIdx.x, c = blockIdx.y;
    unsigned nchunk = (w + VQ_S2_CHUNK - 1) / VQ_S2_CHUNK;
    for (unsigned k = threadIdx.x; k < nchunk; k += blockDim.x) {
        unsigned x0 = k * VQ_S2_CHUNK;
        unsigned x1 = x0 + VQ_S2_CHUNK < w ? x0 + VQ_S2_CHUNK : w;
        for (int q = 0; q < VQ_S2_SUMS; q++) {
            const double *v =
                colsum + ((size_t)(c * VQ_S2_SUMS + q) * nseg + j) * w;
            double cs = 0.0;
            for (unsigned x = x0; x < x1; x++)
                cs += v[x];
            part[q][k] = cs;
        }
    }
    __syncthreads();
    if (threadIdx.x < VQ_S2_SUMS) {
        unsigned q = threadIdx.x;
        double seg = 0.0;
        for (unsigned k = 0; k < nchunk; k++)
            seg += part[q][k];
        rec[(size_t)(c * VQ_S2_SUMS + q) * nseg + j] = seg;
    }
}

extern "C" int vq_s2_sums_launch(VqStream stream, VqS2Buf xyb, VqS2Buf blur,
                                 unsigned w, unsigned h, unsigned nseg,
                                 double *colsum, double *rec)
{
    /* w <= 16384 (the core's largest side) = VQ_S2_MAX_CHUNKS chunks */
    dim3 grid(vq_div_ceil(w, S2_COL_THREADS), nseg, 3);
    s2_col_kernel<<<grid, S2_COL_THREADS, 0, vq_hip_stream(stream)>>>(
        xyb, blur, w, h, nseg, colsum);
    int err = vq_launch_status();
    if (err)
        return err;
    s2_reduce_kernel<<<dim3(nseg, 3), S2_RED_THREADS, 0,
                       vq_hip_stream(stream)>>>(colsum, w, nseg, rec);
    return vq_launch_status();
}
