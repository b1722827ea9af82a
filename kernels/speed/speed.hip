/*
 * SpEED kernels. Each element of every stage is computed by the helper the
 * CPU path calls for it (speed.h, speed_linalg.h); the kernels only spread
 * independent elements over threads:
 *   sample   one thread per kept sample of the decimated image
 *   prep     one block per image: scale-4 filter and subtraction (one thread
 *            per sample), then the 25 means (one thread each, in order)
 *   cov      one thread per covariance entry (its sum in order), the
 *            centred samples shared through a tile in shared memory
 *   decomp   per image, block 0: reduction to tridiagonal form (element
 *            updates in parallel, norms and dot products by one thread)
 *            and the QR iteration (one thread); block 1: the QR
 *            factorisation (products one thread per element)
 *   terms    one thread per 5x5 block of a pair: solve, variance, entropy
 *            of both sides, the block's term
 * Nothing depends on the wave size; block sizes are multiples of 32 only
 * for occupancy.
 */
#include "../hip_device.h"
#include "speed.h"

#define PREP_BLOCK 256
#define COV_SPLIT 2   /* blocks per image, each with every COV_SPLIT-th entry */
#define COV_BLOCK 192 /* >= ceil(VQ_SPEED_PAIRS / COV_SPLIT) */
#define COV_TILE 64   /* window positions centred at a time */
static_assert(COV_SPLIT * COV_BLOCK >= VQ_SPEED_PAIRS, "a thread per entry");
#define DECOMP_BLOCK 256
#define TERMS_BLOCK 64

struct SrcSet {
    VqSpeedSrc s[4];
};

struct PairSet {
    unsigned ref[2], dis[2];
};

__global__ void speed_sample_kernel(VqSpeedGeom g, SrcSet src,
                                    const VqSpeedAxis *rows,
                                    const VqSpeedAxis *cols, float *x0,
                                    size_t img_stride)
{
    const int j = (int)(blockIdx.x * blockDim.x + threadIdx.x);
    const int i = (int)(blockIdx.y * blockDim.y + threadIdx.y);
    const unsigned k = blockIdx.z;
    if (i < g.dh && j < g.dw)
        x0[k * img_stride + (size_t)i * g.dw + j] =
            vq_speed_aa_sample(&g, &src.s[k], rows, cols, i, j);
}

__global__ void speed_prep_kernel(VqSpeedGeom g, float *x0, float *t,
                                  float *means, size_t img_stride)
{
    float *x = x0 + blockIdx.x * img_stride;
    float *tv = t + blockIdx.x * img_stride;
    const int n = g.dw * g.dh;
    for (int e = (int)threadIdx.x; e < n; e += (int)blockDim.x)
        tv[e] = vq_speed_f4_v(&g, x, e / g.dw, e % g.dw);
    __syncthreads();
    /* each thread reads x only at the sample it writes */
    for (int e = (int)threadIdx.x; e < n; e += (int)blockDim.x)
        x[e] = vq_speed_f4_h_sub(&g, x, tv, e / g.dw, e % g.dw);
    __syncthreads();
    const int k = (int)threadIdx.x;
    if (k < VQ_SPEED_N) {
        const float *at = x + (k / VQ_SPEED_B) * g.dw + k % VQ_SPEED_B;
        float acc = 0;
        for (int i = 0; i < g.subh; i++)
            for (int jj = 0; jj < g.subw; jj++)
                acc += at[(size_t)i * g.dw + jj];
        means[blockIdx.x * VQ_SPEED_VEC_STRIDE + k] =
            acc / (float)((size_t)g.subw * (size_t)g.subh);
    }
}

/* Covariance: block (s, k) sums the entries s, s + COV_SPLIT, ... of image
 * k, one thread per entry, over the window positions in libvmaf's
 * row-major order. The centred samples of COV_TILE positions are made
 * together (the same double subtraction the CPU makes) and kept in shared
 * memory while every entry takes its products. */
__global__ void speed_cov_kernel(VqSpeedGeom g, const float *x0,
                                 const float *means, float *cov,
                                 size_t img_stride)
{
    __shared__ double cd[COV_TILE * VQ_SPEED_N];
    __shared__ double mean[VQ_SPEED_N];
    const unsigned k = blockIdx.y;
    const int tid = (int)threadIdx.x;
    const float *x = x0 + k * img_stride;
    if (tid < VQ_SPEED_N)
        mean[tid] = means[k * VQ_SPEED_VEC_STRIDE + tid];
    const int p = (int)blockIdx.x + COV_SPLIT * tid;
    int a = 0, b = 0;
    if (p < VQ_SPEED_PAIRS)
        vq_speed_pair_xy(p, &a, &b);
    double acc = 0;
    const int n = g.subw * g.subh;
    for (int q0 = 0; q0 < n; q0 += COV_TILE) {
        const int m = min(COV_TILE, n - q0);
        __syncthreads();
        for (int e = tid; e < m * VQ_SPEED_N; e += (int)blockDim.x) {
            const int q = q0 + e / VQ_SPEED_N, c = e % VQ_SPEED_N;
            const int i = q / g.subw, j = q % g.subw;
            cd[e] = (double)x[(size_t)(i + c / VQ_SPEED_B) * g.dw + j +
                              c % VQ_SPEED_B] - mean[c];
        }
        __syncthreads();
        if (p < VQ_SPEED_PAIRS)
            for (int q = 0; q < m; q++)
                acc += cd[q * VQ_SPEED_N + a] * cd[q * VQ_SPEED_N + b];
    }
    if (p < VQ_SPEED_PAIRS) {
        const float c = (float)(acc / (double)((size_t)g.subw * (size_t)g.subh));
        float *mat = cov + k * VQ_SPEED_MAT_STRIDE;
        mat[a * VQ_SPEED_N + b] = c;
        mat[b * VQ_SPEED_N + a] = c;
    }
}

/* Eigenvalues of one covariance matrix (vq_speed_tridiagonal and
 * vq_speed_tridiag_eig, spread over the block). */
__device__ static void eig_block(const float *cov, float *eig)
{
    const int n = VQ_SPEED_N, tid = (int)threadIdx.x;
    __shared__ float a[VQ_SPEED_N * VQ_SPEED_N];
    __shared__ float v[VQ_SPEED_N], x[VQ_SPEED_N], d[VQ_SPEED_N],
        sd[VQ_SPEED_N];
    __shared__ float tau_s, alpha_s;
    for (int e = tid; e < n * n; e += (int)blockDim.x)
        a[e] = cov[e];
    __syncthreads();
    for (int i = 0; i < n - 2; i++) {
        if (tid == 0)
            tau_s = vq_speed_householder(a, i, i + 1);
        __syncthreads();
        const float tau = tau_s;
        if (tid > i && tid < n)
            v[tid] = a[tid * n + i];
        __syncthreads();
        if (tau == 0.0f)
            continue;
        if (tid == 0) {
            a[(i + 1) * n + i] = v[i + 1];
            v[i + 1] = 1.0f;
        }
        __syncthreads();
        if (tid > i && tid < n)
            x[tid] = vq_speed_tri_row(a, v, tau, tid, i + 1);
        __syncthreads();
        if (tid == 0)
            alpha_s = vq_speed_tri_alpha(x, v, tau, i + 1);
        __syncthreads();
        if (tid > i && tid < n)
            x[tid] += alpha_s * v[tid];
        __syncthreads();
        for (int e = tid; e < n * n; e += (int)blockDim.x) {
            const int r = e / n, c = e % n;
            if (r > i && c > i)
                a[e] = vq_speed_tri_update(a[e], x, v, r, c);
        }
        __syncthreads();
    }
    if (tid == 0) {
        for (int i = 0; i < n; i++)
            d[i] = a[i * n + i];
        for (int i = 0; i < n - 1; i++)
            sd[i] = a[(i + 1) * n + i];
        vq_speed_tridiag_eig(d, sd);
        for (int i = 0; i < n; i++)
            eig[i] = d[i];
    }
}

/* dst = x y, one thread per element (vq_speed_mul_elem). */
__device__ static void mat_mul(float *dst, const float *x, const float *y)
{
    const int n = VQ_SPEED_N;
    for (int e = (int)threadIdx.x; e < n * n; e += (int)blockDim.x)
        dst[e] = vq_speed_mul_elem(x, y, n, e / n, e % n);
    __syncthreads();
}

__device__ static void mat_copy(float *dst, const float *src)
{
    for (int e = (int)threadIdx.x; e < VQ_SPEED_N * VQ_SPEED_N;
         e += (int)blockDim.x)
        dst[e] = src[e];
    __syncthreads();
}

/* vq_speed_qr, spread over the block. */
__device__ static void qr_block(const float *cov, float *p_out, float *r_out)
{
    const int n = VQ_SPEED_N, tid = (int)threadIdx.x;
    __shared__ float a[VQ_SPEED_N * VQ_SPEED_N], tz[VQ_SPEED_N * VQ_SPEED_N],
        tq[VQ_SPEED_N * VQ_SPEED_N], tmp[VQ_SPEED_N * VQ_SPEED_N],
        p[VQ_SPEED_N * VQ_SPEED_N];
    __shared__ float vec[VQ_SPEED_N];
    for (int e = tid; e < n * n; e += (int)blockDim.x) {
        a[e] = cov[e];
        tz[e] = cov[e];
        p[e] = (e / n == e % n) ? 1.0f : 0.0f;
    }
    __syncthreads();
    for (int k = 0; k < n - 1; k++) {
        for (int e = tid; e < n * n; e += (int)blockDim.x)
            tz[e] = vq_speed_minor(tz[e], e / n, e % n, k);
        __syncthreads();
        if (tid == 0)
            vq_speed_reflector(tz, a, k, vec);
        __syncthreads();
        for (int e = tid; e < n * n; e += (int)blockDim.x)
            tq[e] = vq_speed_reflect_elem(vec, e / n, e % n);
        __syncthreads();
        mat_mul(tmp, tq, tz);
        mat_copy(tz, tmp);
        mat_mul(tmp, tq, p);
        mat_copy(p, tmp);
    }
    for (int e = tid; e < n * n; e += (int)blockDim.x) {
        r_out[e] = vq_speed_mul_elem(p, a, n, e / n, e % n);
        p_out[e] = p[e];
    }
}

__global__ void speed_decomp_kernel(const float *cov, float *eig, float *p,
                                    float *r)
{
    const unsigned k = blockIdx.y;
    const float *c = cov + k * VQ_SPEED_MAT_STRIDE;
    if (blockIdx.x == 0)
        eig_block(c, eig + k * VQ_SPEED_VEC_STRIDE);
    else
        qr_block(c, p + k * VQ_SPEED_MAT_STRIDE, r + k * VQ_SPEED_MAT_STRIDE);
}

__global__ void speed_terms_kernel(VqSpeedGeom g, const float *x0,
                                   const float *eig, const float *p,
                                   const float *r, size_t img_stride,
                                   PairSet pairs, float base, int mode,
                                   char *rec, size_t pair_size)
{
    const int b = (int)(blockIdx.x * blockDim.x + threadIdx.x);
    const unsigned pair = blockIdx.y;
    if (b >= g.nb)
        return;
    const unsigned img[2] = { pairs.ref[pair], pairs.dis[pair] };
    float var[2], ent[2];
    int singular[2];
    for (int side = 0; side < 2; side++) {
        const unsigned k = img[side];
        const float *e = eig + k * VQ_SPEED_VEC_STRIDE;
        const float *pm = p + k * VQ_SPEED_MAT_STRIDE;
        const float *rm = r + k * VQ_SPEED_MAT_STRIDE;
        float y[VQ_SPEED_N];
        singular[side] = vq_speed_singular(e, rm);
        vq_speed_block_samples(&g, x0 + k * img_stride, b, y);
        vq_speed_block(pm, rm, e, singular[side], y, g.sigma_nn, &var[side],
                       &ent[side]);
    }
    char *head = rec + pair * pair_size;
    vq_speed_pair_terms(head)[b] =
        vq_speed_term(ent[0], var[0], ent[1], var[1], base, mode);
    if (b == 0) {
        VqSpeedPairHead *h = (VqSpeedPairHead *)head;
        h->singular_ref = singular[0];
        h->singular_dis = singular[1];
    }
}

template <typename T>
__global__ void speed_copy_kernel(VqDevPlane src, char *dst, size_t dst_pitch)
{
    const unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned y = blockIdx.y;
    if (x < src.w)
        ((T *)(dst + (size_t)y * dst_pitch))[x] =
            ((const T *)((const char *)src.data + (size_t)y * src.pitch))[x];
}

extern "C" int vq_speed_estimate_launch(VqStream stream, const VqSpeedGeom *g,
                                        const VqSpeedDevImages *img,
                                        const VqSpeedAxis *rows,
                                        const VqSpeedAxis *cols,
                                        const VqSpeedScratch *scr)
{
    hipStream_t s = vq_hip_stream(stream);
    SrcSet src;
    const int bytes = img->bpc > 8 ? 2 : 1;
    for (unsigned k = 0; k < 4; k++) {
        const bool used = k < img->n;
        src.s[k].cur = used ? (const uint8_t *)img->cur[k].data : NULL;
        src.s[k].cur_pitch = used ? img->cur[k].pitch : 0;
        src.s[k].prev = used ? (const uint8_t *)img->prev[k].data : NULL;
        src.s[k].prev_pitch = used ? img->prev[k].pitch : 0;
        src.s[k].bytes = bytes;
        src.s[k].scaler = (float)(1u << (img->bpc - 8));
    }
    const dim3 sblock(32, 4);
    const dim3 sgrid(vq_div_ceil((unsigned)g->dw, sblock.x),
                     vq_div_ceil((unsigned)g->dh, sblock.y), img->n);
    speed_sample_kernel<<<sgrid, sblock, 0, s>>>(*g, src, rows, cols, scr->x0,
                                                 scr->img_stride);
    int rc = vq_launch_status();
    if (rc)
        return rc;
    speed_prep_kernel<<<img->n, PREP_BLOCK, 0, s>>>(*g, scr->x0, scr->t,
                                                    scr->means, scr->img_stride);
    if ((rc = vq_launch_status()))
        return rc;
    const dim3 cgrid(COV_SPLIT, img->n);
    speed_cov_kernel<<<cgrid, COV_BLOCK, 0, s>>>(*g, scr->x0, scr->means,
                                                 scr->cov, scr->img_stride);
    if ((rc = vq_launch_status()))
        return rc;
    speed_decomp_kernel<<<dim3(2, img->n), DECOMP_BLOCK, 0, s>>>(
        scr->cov, scr->eig, scr->p, scr->r);
    return vq_launch_status();
}

extern "C" int vq_speed_terms_launch(VqStream stream, const VqSpeedGeom *g,
                                     const VqSpeedScratch *scr,
                                     unsigned n_pairs, const unsigned *ref_img,
                                     const unsigned *dis_img,
                                     float base_entropy, int weight_var_mode,
                                     void *rec)
{
    PairSet pairs = {};
    for (unsigned k = 0; k < n_pairs && k < 2; k++) {
        pairs.ref[k] = ref_img[k];
        pairs.dis[k] = dis_img[k];
    }
    const dim3 grid(vq_div_ceil((unsigned)g->nb, TERMS_BLOCK), n_pairs);
    speed_terms_kernel<<<grid, TERMS_BLOCK, 0, vq_hip_stream(stream)>>>(
        *g, scr->x0, scr->eig, scr->p, scr->r, scr->img_stride, pairs,
        base_entropy, weight_var_mode, (char *)rec,
        vq_speed_pair_size(g->nb));
    return vq_launch_status();
}

extern "C" int vq_speed_copy_launch(VqStream stream, const VqDevPlane *src,
                                    void *dst, size_t dst_pitch, int bytes)
{
    const unsigned threads = 256;
    const dim3 grid(vq_div_ceil(src->w, threads), src->h);
    hipStream_t s = vq_hip_stream(stream);
    if (bytes == 1)
        speed_copy_kernel<uint8_t><<<grid, threads, 0, s>>>(*src, (char *)dst,
                                                            dst_pitch);
    else
        speed_copy_kernel<uint16_t><<<grid, threads, 0, s>>>(*src, (char *)dst,
                                                             dst_pitch);
    return vq_launch_status();
}
