/*
 * SSIMULACRA 2 on the device. Per scale: prepare (XYB of 2x2 blocks and
 * the next scale's linear samples), the recursive Gaussian's horizontal
 * pass (one thread per row and blurred plane, walking the row in quads),
 * its vertical pass (one thread per column and blurred plane, walking down
 * the column), the per-pixel terms summed down 64-row column segments, and
 * one block per segment adding columns in chunks of 64 in a fixed order.
 * The recursion is sequential along a line, as on the CPU: lines run in
 * parallel, each in the CPU's order, so the values are the CPU's.
 *
 * Planes are addressed through tables (VqSsimulacra2Planes), so that in a
 * ladder (docs/LADDER.md) the reference's planes (its XYB, its blurred
 * value and square, its next scale's linear planes) can be a product the
 * ladder computed once, and each launch computes a subset: one input's
 * XYB, some blurred planes.
 */
#include "../hip_device.h"
#include "ssimulacra2.h"

#define S2_PREP_TX 16
#define S2_PREP_TY 8
#define S2_V_THREADS 128
#define S2_COL_THREADS 128
#define S2_RED_THREADS 128

struct S2Yuv {
    VqDevPlane p[2][3];
    int hbd, cw, ch;
};

struct S2Lin {
    VqSsimulacra2Planes lin;
};

/* Linear sRGB of pixel (x, y) of input m: from YUV samples at scale 0. */
__device__ __forceinline__ void ssimulacra2_load(const S2Yuv &in, const VqSsimulacra2Params &par,
                                        int m, int x, int y, float rgb[3])
{
    const VqDevPlane *p = in.p[m];
    vq_ssimulacra2_pixel_linear(&par.color[m], p[0].data, p[0].pitch, p[1].data,
                       p[1].pitch, p[2].data, p[2].pitch, in.hbd, in.cw, in.ch,
                       x, y, rgb);
}

/* ... or from the previous scale's linear planes. */
__device__ __forceinline__ void ssimulacra2_load(const S2Lin &in, const VqSsimulacra2Params &,
                                        int m, int x, int y, float rgb[3])
{
    const size_t at = (size_t)y * in.lin.pitch + x;
    for (int c = 0; c < 3; c++)
        rgb[c] = in.lin.p[m * 3 + c][at];
}

/* Inputs m in [m0, m1] (0 reference, 1 distorted). */
template <typename In>
__global__ void ssimulacra2_prepare_kernel(In in, unsigned w, unsigned h,
                                  VqSsimulacra2Params par, VqSsimulacra2Planes xyb,
                                  VqSsimulacra2Planes next, int has_next,
                                  int m0, int m1)
{
    unsigned bx = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned by = blockIdx.y * blockDim.y + threadIdx.y;
    if (2 * bx >= w || 2 * by >= h)
        return;
    unsigned xs[2] = { 2 * bx, 2 * bx + 1 < w ? 2 * bx + 1 : w - 1 };
    unsigned ys[2] = { 2 * by, 2 * by + 1 < h ? 2 * by + 1 : h - 1 };
    for (int m = m0; m <= m1; m++) {
        float l[2][2][3];
        for (int dy = 0; dy < 2; dy++)
            for (int dx = 0; dx < 2; dx++)
                ssimulacra2_load(in, par, m, (int)xs[dx], (int)ys[dy], l[dy][dx]);
        for (int dy = 0; dy < 2; dy++) {
            for (int dx = 0; dx < 2; dx++) {
                unsigned x = 2 * bx + dx, y = 2 * by + dy;
                if (x >= w || y >= h)
                    continue;
                float o[3];
                vq_ssimulacra2_xyb(l[dy][dx], par.neg_bias_cbrt, o);
                const size_t at = (size_t)y * xyb.pitch + x;
                for (int c = 0; c < 3; c++)
                    xyb.p[m * 3 + c][at] = o[c];
            }
        }
        if (!has_next)
            continue;
        const size_t at = (size_t)by * next.pitch + bx;
        for (int c = 0; c < 3; c++)
            next.p[m * 3 + c][at] =
                vq_ssimulacra2_down(l[0][0][c], l[0][1][c], l[1][0][c], l[1][1][c]);
    }
}

template <typename In>
static int ssimulacra2_prepare(VqStream stream, const In &in, unsigned w, unsigned h,
                      const VqSsimulacra2Params *par, unsigned inputs,
                      const VqSsimulacra2Planes *xyb,
                      const VqSsimulacra2Planes *next)
{
    dim3 block(S2_PREP_TX, S2_PREP_TY);
    dim3 grid(vq_div_ceil((w + 1) / 2, S2_PREP_TX),
              vq_div_ceil((h + 1) / 2, S2_PREP_TY));
    VqSsimulacra2Planes none = {};
    ssimulacra2_prepare_kernel<In><<<grid, block, 0, vq_hip_stream(stream)>>>(
        in, w, h, *par, *xyb, next ? *next : none, next != NULL,
        inputs & 1 ? 0 : 1, inputs & 2 ? 1 : 0);
    return vq_launch_status();
}

extern "C" int vq_ssimulacra2_prepare_yuv_launch(VqStream stream, const VqDevFrame *ref,
                                        const VqDevFrame *dis, unsigned w,
                                        unsigned h, const VqSsimulacra2Params *par,
                                        unsigned inputs,
                                        const VqSsimulacra2Planes *xyb,
                                        const VqSsimulacra2Planes *next)
{
    S2Yuv in;
    const VqDevFrame *f[2] = { ref, dis };
    for (int m = 0; m < 2; m++)
        for (int p = 0; p < 3; p++)
            in.p[m][p] = f[m]->plane[p];
    const VqSsimulacra2Color *c = &par->color[0];
    in.hbd = ref->bpc > 8;
    in.cw = (int)((w + (unsigned)c->ss_x) >> c->ss_x);
    in.ch = (int)((h + (unsigned)c->ss_y) >> c->ss_y);
    return ssimulacra2_prepare(stream, in, w, h, par, inputs, xyb, next);
}

extern "C" int vq_ssimulacra2_prepare_lin_launch(VqStream stream,
                                        const VqSsimulacra2Planes *lin,
                                        unsigned w, unsigned h,
                                        const VqSsimulacra2Params *par,
                                        unsigned inputs,
                                        const VqSsimulacra2Planes *xyb,
                                        const VqSsimulacra2Planes *next)
{
    S2Lin in = { *lin };
    return ssimulacra2_prepare(stream, in, w, h, par, inputs, xyb, next);
}

/* Horizontal pass, one block per S2_H_ROWS rows of one channel: thread
 * (r, k) runs the recursion of row r of blurred plane k (threadIdx.x = r,
 * threadIdx.y = k), so the five planes of a channel share one load of the
 * two XYB rows. The rows are read in tiles of S2_H_TQ quads, all threads
 * loading whole rows in order (coalesced) into shared memory; the next
 * tile's loads are in flight while the current one is consumed. */
#define S2_H_ROWS 16
#define S2_H_TQ 16                     /* quads per tile (64 columns) */
#define S2_H_PITCH (4 * S2_H_TQ + 4)   /* floats: quad reads by row fall
                                          into distinct banks */
#define S2_H_ELEMS (2 * S2_H_ROWS * S2_H_TQ) /* float4s per tile (a and b) */

/* A launch computes NK of the five blurred planes (kmap: which), with
 * S2_H_ROWS * NK threads. */
template <int NK> struct S2H {
    static constexpr int THREADS = S2_H_ROWS * NK;
    static constexpr int PER = (S2_H_ELEMS + THREADS - 1) / THREADS;
};

struct S2KMap {
    int k[VQ_S2_BLURS];
};

/* Thread tid's float4s of tile t (zero past the row's quads and rows). */
template <int NK>
__device__ __forceinline__ void ssimulacra2_h_fetch(const VqSsimulacra2Planes &xyb, int c,
                                           unsigned y0, unsigned w, unsigned h,
                                           int t, int tid,
                                           float4 v[S2H<NK>::PER])
{
    const int nq = (int)((w + 3) / 4);
#pragma unroll
    for (int u = 0; u < S2H<NK>::PER; u++) {
        const int e = tid + u * S2H<NK>::THREADS;
        const int side = e / (S2_H_ROWS * S2_H_TQ);
        const int r = (e / S2_H_TQ) % S2_H_ROWS, q = e % S2_H_TQ;
        const int gq = t * S2_H_TQ + q;
        const unsigned y = y0 + (unsigned)r;
        v[u] = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
        if (e < S2_H_ELEMS && gq < nq && y < h)
            v[u] = *(const float4 *)(xyb.p[side * 3 + c] +
                                     (size_t)y * xyb.pitch + 4 * gq);
    }
}

template <int NK>
__device__ __forceinline__ void ssimulacra2_h_store(float *tile, int tid,
                                           const float4 v[S2H<NK>::PER])
{
#pragma unroll
    for (int u = 0; u < S2H<NK>::PER; u++) {
        const int e = tid + u * S2H<NK>::THREADS;
        if (e >= S2_H_ELEMS)
            break;
        const int side = e / (S2_H_ROWS * S2_H_TQ);
        const int r = (e / S2_H_TQ) % S2_H_ROWS, q = e % S2_H_TQ;
        *(float4 *)(tile + (side * S2_H_ROWS + r) * S2_H_PITCH + 4 * q) = v[u];
    }
}

/* Blurred input k of a pixel as vq_ssimulacra2_blur_input, without branches: the
 * product of two values picked once per thread (x * 1.0f is x exactly). */
struct S2Pick {
    bool u_is_b, v_is_a, v_is_b;
};

__device__ __forceinline__ S2Pick ssimulacra2_pick(int k)
{
    S2Pick p = { k == 1 || k == 4, k == 0, k == 1 || k == 2 };
    return p;
}

__device__ __forceinline__ float ssimulacra2_input(S2Pick pk, float a, float b)
{
    const float u = pk.u_is_b ? b : a;
    const float v = pk.v_is_a ? a : pk.v_is_b ? b : 1.0f;
    return u * v;
}

/* Blurred input of global quad gq from the tile (elements past w: 0). */
__device__ __forceinline__ float4 ssimulacra2_h_quad(const float *tile, int r, int q,
                                            S2Pick pk, int gq, unsigned w)
{
    const float4 va = *(const float4 *)(tile + r * S2_H_PITCH + 4 * q);
    const float4 vb =
        *(const float4 *)(tile + (S2_H_ROWS + r) * S2_H_PITCH + 4 * q);
    const unsigned x = 4 * (unsigned)gq;
    float4 z;
    z.x = x < w ? ssimulacra2_input(pk, va.x, vb.x) : 0.0f;
    z.y = x + 1 < w ? ssimulacra2_input(pk, va.y, vb.y) : 0.0f;
    z.z = x + 2 < w ? ssimulacra2_input(pk, va.z, vb.z) : 0.0f;
    z.w = x + 3 < w ? ssimulacra2_input(pk, va.w, vb.w) : 0.0f;
    return z;
}

/* Output n needs inputs n-6 and n+4 (N = 5): outputs 4q..4q+3 take the last
 * two of quad q-2, the first two of quad q-1, and quad q+1. Reading quad
 * g = q + 1 from the tile, the step makes quad q's outputs from r0 (quad
 * g-3), r1 (g-2) and the new one; q runs from -1 (state only, as the
 * recursion starts at n = -N+1) to the last quad. A quad's outputs are
 * single steps or one group of four, as on the CPU. */
template <int NK>
__global__ void __launch_bounds__(S2H<NK>::THREADS)
ssimulacra2_blur_h_kernel(VqSsimulacra2Planes xyb, VqSsimulacra2Planes tmp, unsigned w, unsigned h,
                 VqSsimulacra2Blur bl, S2KMap km)
{
    __shared__ float tile[2][2 * S2_H_ROWS * S2_H_PITCH];
    const int r = (int)threadIdx.x, kk = (int)threadIdx.y;
    const int tid = kk * S2_H_ROWS + r;
    const int k = km.k[kk];
    const S2Pick pk = ssimulacra2_pick(k);
    const int c = (int)blockIdx.y;
    const unsigned y0 = blockIdx.x * S2_H_ROWS, y = y0 + (unsigned)r;
    float *out = tmp.p[c * VQ_S2_BLURS + k] + (size_t)y * tmp.pitch;
    const int nq = (int)((w + 3) / 4);
    const int ntiles = (nq + 1 + S2_H_TQ - 1) / S2_H_TQ; /* quads 0..nq */
    float p[3] = { 0.0f, 0.0f, 0.0f }, pp[3] = { 0.0f, 0.0f, 0.0f };
    float4 r0 = make_float4(0.0f, 0.0f, 0.0f, 0.0f), r1 = r0, r2 = r0;
    float4 v[S2H<NK>::PER];
    ssimulacra2_h_fetch<NK>(xyb, c, y0, w, h, 0, tid, v);
    for (int t = 0; t < ntiles; t++) {
        float *cur = tile[t & 1];
        ssimulacra2_h_store<NK>(cur, tid, v);
        __syncthreads();
        if (t + 1 < ntiles)
            ssimulacra2_h_fetch<NK>(xyb, c, y0, w, h, t + 1, tid, v);
        const int g1 = min(S2_H_TQ, nq + 1 - t * S2_H_TQ);
        for (int i = 0; i < g1; i++) {
            const int g = t * S2_H_TQ + i, q = g - 1;
            const float4 rn = ssimulacra2_h_quad(cur, r, i, pk, g, w);
            float s[4] = { r0.z + rn.x, r0.w + rn.y, r1.x + rn.z,
                           r1.y + rn.w };
            float o[4];
            if (vq_ssimulacra2_blur_h4_at(4 * q, (int)w)) {
                vq_ssimulacra2_blur_h4(&bl, s, p, pp, o);
            } else {
                for (int j = 0; j < 4; j++)
                    o[j] = vq_ssimulacra2_blur_h_step(&bl, s[j], p, pp);
            }
            if (q >= 0 && y < h)
                *(float4 *)(out + 4 * q) = make_float4(o[0], o[1], o[2], o[3]);
            r0 = r1;
            r1 = r2;
            r2 = rn;
        }
    }
}

template <int NK>
static void ssimulacra2_blur_h(hipStream_t st, const VqSsimulacra2Planes *xyb,
                               const VqSsimulacra2Planes *tmp, unsigned w,
                               unsigned h, const VqSsimulacra2Blur *bl,
                               const S2KMap &km)
{
    dim3 grid(vq_div_ceil(h, S2_H_ROWS), 3);
    dim3 block(S2_H_ROWS, NK);
    ssimulacra2_blur_h_kernel<NK><<<grid, block, 0, st>>>(*xyb, *tmp, w, h,
                                                          *bl, km);
}

extern "C" int vq_ssimulacra2_blur_h_launch(VqStream stream,
                                   const VqSsimulacra2Planes *xyb,
                                   const VqSsimulacra2Planes *tmp,
                                   unsigned w, unsigned h, const VqSsimulacra2Blur *bl,
                                   unsigned kmask)
{
    S2KMap km = {};
    int nk = 0;
    for (int k = 0; k < VQ_S2_BLURS; k++)
        if (kmask >> k & 1)
            km.k[nk++] = k;
    hipStream_t st = vq_hip_stream(stream);
    switch (nk) {
    case 2:
        ssimulacra2_blur_h<2>(st, xyb, tmp, w, h, bl, km);
        break;
    case 3:
        ssimulacra2_blur_h<3>(st, xyb, tmp, w, h, bl, km);
        break;
    default: /* VQ_S2_K_ALL */
        for (int k = 0; k < VQ_S2_BLURS; k++)
            km.k[k] = k;
        ssimulacra2_blur_h<5>(st, xyb, tmp, w, h, bl, km);
        break;
    }
    return vq_launch_status();
}

/* One column per thread; inputs are loaded S2_V_BATCH rows at a time so
 * that their latency overlaps (the steps themselves are sequential). */
#define S2_V_BATCH 32

/* Planes of a launch: blockIdx.y indexes them. */
struct S2PlaneIdx {
    int i[3 * VQ_S2_BLURS];
};

__global__ void ssimulacra2_blur_v_kernel(VqSsimulacra2Planes tmp, VqSsimulacra2Planes blur, unsigned w,
                                 unsigned h, VqSsimulacra2Blur bl, S2PlaneIdx pi)
{
    unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
    const int i = pi.i[blockIdx.y];
    if (x >= w)
        return;
    const float *in = tmp.p[i] + x;
    float *out = blur.p[i] + x;
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
            float o = vq_ssimulacra2_blur_v_step(&bl, top[j] + bot[j], p, pp);
            if (n >= 0 && n < ih)
                out[(size_t)n * blur.pitch] = o;
        }
    }
}

extern "C" int vq_ssimulacra2_blur_v_launch(VqStream stream,
                                   const VqSsimulacra2Planes *tmp,
                                   const VqSsimulacra2Planes *blur,
                                   unsigned w, unsigned h, const VqSsimulacra2Blur *bl,
                                   unsigned kmask)
{
    S2PlaneIdx pi = {};
    unsigned n = 0;
    for (int c = 0; c < 3; c++)
        for (int k = 0; k < VQ_S2_BLURS; k++)
            if (kmask >> k & 1)
                pi.i[n++] = c * VQ_S2_BLURS + k;
    if (!n)
        return 0;
    dim3 grid(vq_div_ceil(w, S2_V_THREADS), n);
    ssimulacra2_blur_v_kernel<<<grid, S2_V_THREADS, 0, vq_hip_stream(stream)>>>(
        *tmp, *blur, w, h, *bl, pi);
    return vq_launch_status();
}

/* Column segment sums: colsum[((c * 6 + q) * nseg + j) * w + x]. The
 * seven inputs of S2_COL_BATCH rows are loaded before their terms are
 * added (in row order), so the loads' latency overlaps. */
#define S2_COL_BATCH 8

__global__ void ssimulacra2_col_kernel(VqSsimulacra2Planes xyb, VqSsimulacra2Planes blur, unsigned w,
                              unsigned h, unsigned nseg, double *colsum)
{
    unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned j = blockIdx.y, c = blockIdx.z;
    if (x >= w)
        return;
    double acc[VQ_S2_SUMS] = { 0.0, 0.0, 0.0, 0.0, 0.0, 0.0 };
    unsigned y1 = (j + 1) * VQ_S2_SEG < h ? (j + 1) * VQ_S2_SEG : h;
    const float *bk[VQ_S2_BLURS];
    for (int i = 0; i < VQ_S2_BLURS; i++)
        bk[i] = blur.p[c * VQ_S2_BLURS + i] + x;
    const float *ia = xyb.p[c] + x;
    const float *ib = xyb.p[3 + c] + x;
    unsigned y = j * VQ_S2_SEG;
    for (; y + S2_COL_BATCH <= y1; y += S2_COL_BATCH) {
        float v[S2_COL_BATCH][7];
#pragma unroll
        for (int u = 0; u < S2_COL_BATCH; u++) {
            const size_t row = (size_t)(y + u) * blur.pitch;
#pragma unroll
            for (int i = 0; i < VQ_S2_BLURS; i++)
                v[u][i] = bk[i][row];
            v[u][5] = ia[(size_t)(y + u) * xyb.pitch];
            v[u][6] = ib[(size_t)(y + u) * xyb.pitch];
        }
        /* Keep every load of the batch ahead of the terms: the compiler
         * would otherwise place each row's loads next to their use, and
         * the double division's slow path stops the hardware scheduler
         * from moving them up, so each row would wait for its loads. */
        asm volatile("" ::: "memory");
#pragma unroll
        for (int u = 0; u < S2_COL_BATCH; u++) {
            double t[VQ_S2_SUMS];
            vq_ssimulacra2_terms(v[u][3], v[u][4], v[u][0], v[u][1], v[u][2], v[u][5],
                        v[u][6], t);
            for (int q = 0; q < VQ_S2_SUMS; q++)
                acc[q] += t[q];
        }
    }
    for (; y < y1; y++) {
        const size_t row = (size_t)y * blur.pitch;
        double t[VQ_S2_SUMS];
        vq_ssimulacra2_terms(bk[3][row], bk[4][row], bk[0][row], bk[1][row],
                    bk[2][row], ia[(size_t)y * xyb.pitch],
                    ib[(size_t)y * xyb.pitch], t);
        for (int q = 0; q < VQ_S2_SUMS; q++)
            acc[q] += t[q];
    }
    for (int q = 0; q < VQ_S2_SUMS; q++)
        colsum[((size_t)(c * VQ_S2_SUMS + q) * nseg + j) * w + x] = acc[q];
}

/* One block per segment and channel: chunks of columns, then the chunks.
 * The column sums are staged through shared memory S2_RED_CHUNKS chunks
 * at a time (loaded by all threads in order), then one thread per sum and
 * chunk adds its 64 values in column order. */
#define S2_RED_CHUNKS 8
#define S2_RED_PITCH (VQ_S2_CHUNK + 1) /* doubles: chunks in distinct banks */

__global__ void __launch_bounds__(S2_RED_THREADS)
ssimulacra2_reduce_kernel(const double *colsum, unsigned w, unsigned nseg, double *rec)
{
    __shared__ double part[VQ_S2_SUMS][VQ_S2_MAX_CHUNKS];
    __shared__ double stage[VQ_S2_SUMS][S2_RED_CHUNKS][S2_RED_PITCH];
    const unsigned j = blockIdx.x, c = blockIdx.y;
    const unsigned nchunk = (w + VQ_S2_CHUNK - 1) / VQ_S2_CHUNK;
    for (unsigned k0 = 0; k0 < nchunk; k0 += S2_RED_CHUNKS) {
        const unsigned x0 = k0 * VQ_S2_CHUNK;
        const unsigned span = min(w - x0, (unsigned)(S2_RED_CHUNKS * VQ_S2_CHUNK));
        for (unsigned e = threadIdx.x; e < VQ_S2_SUMS * span; e += blockDim.x) {
            const unsigned q = e / span, x = e % span;
            stage[q][x / VQ_S2_CHUNK][x % VQ_S2_CHUNK] =
                colsum[((size_t)(c * VQ_S2_SUMS + q) * nseg + j) * w + x0 + x];
        }
        __syncthreads();
        const unsigned q = threadIdx.x / S2_RED_CHUNKS;
        const unsigned kk = threadIdx.x % S2_RED_CHUNKS, k = k0 + kk;
        if (q < VQ_S2_SUMS && k < nchunk) {
            const unsigned n = min(w - k * VQ_S2_CHUNK, (unsigned)VQ_S2_CHUNK);
            double cs = 0.0;
            for (unsigned x = 0; x < n; x++)
                cs += stage[q][kk][x];
            part[q][k] = cs;
        }
        __syncthreads();
    }
    if (threadIdx.x < VQ_S2_SUMS) {
        const unsigned q = threadIdx.x;
        double seg = 0.0;
        for (unsigned k = 0; k < nchunk; k++)
            seg += part[q][k];
        rec[(size_t)(c * VQ_S2_SUMS + q) * nseg + j] = seg;
    }
}

extern "C" int vq_ssimulacra2_sums_launch(VqStream stream,
                                 const VqSsimulacra2Planes *xyb,
                                 const VqSsimulacra2Planes *blur,
                                 unsigned w, unsigned h, unsigned nseg,
                                 double *colsum, double *rec)
{
    /* w <= 16384 (the core's largest side) = VQ_S2_MAX_CHUNKS chunks */
    dim3 grid(vq_div_ceil(w, S2_COL_THREADS), nseg, 3);
    ssimulacra2_col_kernel<<<grid, S2_COL_THREADS, 0, vq_hip_stream(stream)>>>(
        *xyb, *blur, w, h, nseg, colsum);
    int err = vq_launch_status();
    if (err)
        return err;
    ssimulacra2_reduce_kernel<<<dim3(nseg, 3), S2_RED_THREADS, 0,
                       vq_hip_stream(stream)>>>(colsum, w, nseg, rec);
    return vq_launch_status();
}
