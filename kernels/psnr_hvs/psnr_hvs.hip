/*
 * psnr_hvs on the GPU, per frame, all three planes in each launch
 * (blockIdx.y = plane):
 *   terms      one thread per 8x8 block: its 64 terms (vq_hvs_block_terms)
 *              and their sum, an estimate only;
 *   estimates  one block per plane: running sums of the estimates give
 *              each group and block the binades to summarise;
 *   summaries  one block per group, one thread per 8x8 block: the block's
 *              summaries (psnr_hvs_sum.h) for its own and its group's
 *              candidate binades; the group's by composition;
 *   walk       one block per plane: thread 0 walks the groups (the rest of
 *              the block stages summaries and terms in shared memory) and
 *              writes the plane's float sum, the CPU's value bit for bit.
 */
#include "../hip_device.h"
#include "psnr_hvs.h"

#define TERMS_THREADS 128
#define EST_THREADS 256
#define WALK_THREADS 256
#define WALK_BATCH 256 /* groups staged at a time */

__device__ static inline unsigned n_groups(unsigned chunks)
{
    return (chunks + VQ_HVS_GROUP - 1) / VQ_HVS_GROUP;
}

template <typename T>
__device__ static void load_block(const VqDevPlane &p, unsigned x0,
                                  unsigned y0, int32_t *b)
{
    for (unsigned i = 0; i < 8; i++) {
        const T *row = (const T *)((const char *)p.data + (y0 + i) * p.pitch);
        for (unsigned j = 0; j < 8; j++)
            b[i * 8 + j] = row[x0 + j];
    }
}

template <typename T>
__global__ void hvs_terms(VqHvsArgs a)
{
    const unsigned pl = blockIdx.y;
    const VqHvsPlaneDev &p = a.p[pl];
    unsigned b = blockIdx.x * blockDim.x + threadIdx.x;
    if (b >= p.bx * p.by)
        return;
    unsigned x0 = (b % p.bx) * VQ_HVS_STEP, y0 = (b / p.bx) * VQ_HVS_STEP;
    int32_t s[64], d[64];
    load_block<T>(a.ref[pl], x0, y0, s);
    load_block<T>(a.dis[pl], x0, y0, d);
    float *t = p.terms + (size_t)b * VQ_HVS_CHUNK;
    vq_hvs_block_terms(s, d, p.tab, t, 1);
    double sum = 0;
    for (int k = 0; k < VQ_HVS_CHUNK; k++)
        sum += t[k];
    p.chunk_sum[b] = sum;
}

/* blockDim.x == EST_THREADS: thread t estimates a run of consecutive
 * groups; one short sequential prefix over the runs in shared memory. */
__global__ void hvs_estimates(VqHvsArgs a)
{
    __shared__ double seg[EST_THREADS];
    const VqHvsPlaneDev &p = a.p[blockIdx.y];
    const unsigned n = p.bx * p.by, ng = n_groups(n), t = threadIdx.x;
    const unsigned len = (ng + EST_THREADS - 1) / EST_THREADS;
    const unsigned g0 = t * len, g1 = g0 + len < ng ? g0 + len : ng;
    double total = 0;
    for (unsigned g = g0; g < g1; g++)
        for (unsigned c = g * VQ_HVS_GROUP; c < n && c < (g + 1) * VQ_HVS_GROUP; c++)
            total += p.chunk_sum[c];
    seg[t] = total;
    __syncthreads();
    if (t == 0) {
        double run = 0;
        for (unsigned k = 0; k < EST_THREADS; k++) {
            double v = seg[k];
            seg[k] = run;
            run += v;
        }
    }
    __syncthreads();
    double run = seg[t];
    for (unsigned g = g0; g < g1; g++) {
        p.group_base[g] = vq_hvs_base(run);
        for (unsigned c = g * VQ_HVS_GROUP; c < n && c < (g + 1) * VQ_HVS_GROUP; c++) {
            p.chunk_base[c] = vq_hvs_base(run);
            run += p.chunk_sum[c];
        }
    }
}

/* blockDim.x == VQ_HVS_GROUP */
__global__ void hvs_summaries(VqHvsArgs a)
{
    __shared__ float tt[VQ_HVS_GROUP][VQ_HVS_CHUNK + 1];
    __shared__ VqHvsStep gs[VQ_HVS_CAND][VQ_HVS_GROUP];
    const VqHvsPlaneDev &p = a.p[blockIdx.y];
    unsigned n = p.bx * p.by, g = blockIdx.x, c0 = g * VQ_HVS_GROUP;
    if (c0 >= n)
        return; /* uniform for the block */
    unsigned nc = n - c0 < VQ_HVS_GROUP ? n - c0 : VQ_HVS_GROUP;
    for (unsigned k = threadIdx.x; k < nc * VQ_HVS_CHUNK; k += blockDim.x)
        tt[k / VQ_HVS_CHUNK][k % VQ_HVS_CHUNK] =
            p.terms[(size_t)c0 * VQ_HVS_CHUNK + k];
    __syncthreads();
    unsigned t = threadIdx.x, c = c0 + t;
    if (t < nc) {
        int cb = p.chunk_base[c], gb = p.group_base[g];
        for (int k = 0; k < VQ_HVS_CAND; k++) {
            VqHvsStep own = vq_hvs_chunk_step(tt[t], VQ_HVS_CHUNK, cb + k);
            p.chunk_st[(size_t)c * VQ_HVS_CAND + k] = own;
            /* the group's binades are mostly the block's own */
            gs[k][t] = cb == gb ? own
                                : vq_hvs_chunk_step(tt[t], VQ_HVS_CHUNK, gb + k);
        }
    }
    __syncthreads();
    if (t < VQ_HVS_CAND) {
        VqHvsStep acc = { { 0, 0 } };
        for (unsigned i = 0; i < nc; i++)
            acc = vq_hvs_compose(acc, gs[t][i]);
        p.group_st[(size_t)g * VQ_HVS_CAND + t] = acc;
    }
}

__global__ void hvs_walk(VqHvsArgs a, float *sums)
{
    __shared__ VqHvsStep gst[WALK_BATCH][VQ_HVS_CAND];
    __shared__ int gbase[WALK_BATCH];
    __shared__ VqHvsStep cst[VQ_HVS_GROUP][VQ_HVS_CAND];
    __shared__ int cbase[VQ_HVS_GROUP];
    __shared__ float tt[VQ_HVS_GROUP * VQ_HVS_CHUNK];
    __shared__ unsigned next;
    const VqHvsPlaneDev &p = a.p[blockIdx.y];
    const unsigned t = threadIdx.x, n = p.bx * p.by;
    const unsigned ng = n_groups(n);
    float s = 0; /* thread 0's: the running sum */
    for (unsigned g0 = 0; g0 < ng; g0 += WALK_BATCH) {
        unsigned nb = ng - g0 < WALK_BATCH ? ng - g0 : WALK_BATCH;
        for (unsigned k = t; k < nb * VQ_HVS_CAND; k += blockDim.x)
            gst[k / VQ_HVS_CAND][k % VQ_HVS_CAND] =
                p.group_st[(size_t)g0 * VQ_HVS_CAND + k];
        for (unsigned k = t; k < nb; k += blockDim.x)
            gbase[k] = p.group_base[g0 + k];
        __syncthreads();
        unsigned gi = 0;
        for (;;) {
            if (t == 0) {
                while (gi < nb && vq_hvs_jump(&s, gst[gi], gbase[gi]))
                    gi++;
                next = gi;
            }
            __syncthreads();
            gi = next;
            if (gi >= nb)
                break; /* the same for every thread */
            /* group g0 + gi needs its chunks: stage them */
            unsigned c0 = (g0 + gi) * VQ_HVS_GROUP;
            unsigned nc = n - c0 < VQ_HVS_GROUP ? n - c0 : VQ_HVS_GROUP;
            for (unsigned k = t; k < nc * VQ_HVS_CAND; k += blockDim.x)
                cst[k / VQ_HVS_CAND][k % VQ_HVS_CAND] =
                    p.chunk_st[(size_t)c0 * VQ_HVS_CAND + k];
            for (unsigned k = t; k < nc; k += blockDim.x)
                cbase[k] = p.chunk_base[c0 + k];
            for (unsigned k = t; k < nc * VQ_HVS_CHUNK; k += blockDim.x)
                tt[k] = p.terms[(size_t)c0 * VQ_HVS_CHUNK + k];
            __syncthreads();
            if (t == 0)
                s = vq_hvs_walk_chunks(s, &cst[0][0], cbase, tt, nc);
            gi++;
            __syncthreads(); /* staging and 'next' are reused */
        }
        __syncthreads();
    }
    if (t == 0)
        sums[blockIdx.y] = s;
}

extern "C" int vq_psnr_hvs_launch(VqStream stream, const VqHvsArgs *args,
                                  unsigned bpc, float *sums)
{
    hipStream_t st = vq_hip_stream(stream);
    unsigned max_chunks = 0;
    for (int k = 0; k < 3; k++)
        if (args->p[k].bx * args->p[k].by > max_chunks)
            max_chunks = args->p[k].bx * args->p[k].by;
    if (!max_chunks)
        return 0;
    dim3 g1(vq_div_ceil(max_chunks, TERMS_THREADS), 3);
    if (bpc > 8)
        hvs_terms<uint16_t><<<g1, TERMS_THREADS, 0, st>>>(*args);
    else
        hvs_terms<uint8_t><<<g1, TERMS_THREADS, 0, st>>>(*args);
    int err = vq_launch_status();
    if (err)
        return err;
    hvs_estimates<<<dim3(1, 3), EST_THREADS, 0, st>>>(*args);
    if ((err = vq_launch_status()))
        return err;
    dim3 g3(vq_div_ceil(max_chunks, VQ_HVS_GROUP), 3);
    hvs_summaries<<<g3, VQ_HVS_GROUP, 0, st>>>(*args);
    if ((err = vq_launch_status()))
        return err;
    hvs_walk<<<dim3(1, 3), WALK_THREADS, 0, st>>>(*args, sums);
    return vq_launch_status();
}
