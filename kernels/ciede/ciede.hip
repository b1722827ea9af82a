/*
 * ciede: one thread per luma sample (rows over blocks, columns over
 * threads). Each thread adds the significands of consecutive differences
 * that share an exponent in a register and flushes the run to the block's
 * bins in shared memory; the block adds its non-zero bins to the record.
 * Integer sums: the order does not matter, the CPU's record results.
 */
#include "../hip_device.h"
#include "ciede.h"

#define CIEDE_THREADS 256
#define CIEDE_MAX_BLOCKS 2048
#define CIEDE_BINS 257 /* 255 exponents, NaN count, inf count */

template <typename T>
__device__ static inline unsigned sample(const VqDevPlane &p, unsigned x,
                                         unsigned y)
{
    return ((const T *)((const char *)p.data + y * p.pitch))[x];
}

__device__ static inline unsigned long long *bin_of(VqCiedeAcc *a, unsigned k)
{
    return (unsigned long long *)(k < 255 ? &a->bin[k]
                                  : k == 255 ? &a->n_nan : &a->n_inf);
}

template <typename T>
__global__ void ciede_kernel(VqDevFrame ref, VqDevFrame dis, unsigned ss_x,
                             unsigned ss_y, VqCiedeAcc *acc)
{
    __shared__ unsigned long long bins[CIEDE_BINS];
    for (unsigned k = threadIdx.x; k < CIEDE_BINS; k += blockDim.x)
        bins[k] = 0;
    __syncthreads();
    const unsigned w = ref.plane[0].w, h = ref.plane[0].h;
    const unsigned cw = ref.plane[1].w, ch = ref.plane[1].h;
    unsigned cur = CIEDE_BINS;
    unsigned long long run = 0;
    for (unsigned y = blockIdx.x; y < h; y += gridDim.x) {
        unsigned cy = y >> ss_y < ch ? y >> ss_y : ch - 1;
        for (unsigned x = threadIdx.x; x < w; x += blockDim.x) {
            unsigned cx = x >> ss_x < cw ? x >> ss_x : cw - 1;
            float de = vq_ciede_pixel(
                sample<T>(ref.plane[0], x, y), sample<T>(ref.plane[1], cx, cy),
                sample<T>(ref.plane[2], cx, cy), sample<T>(dis.plane[0], x, y),
                sample<T>(dis.plane[1], cx, cy), sample<T>(dis.plane[2], cx, cy),
                ref.bpc);
            uint32_t sig;
            unsigned k = vq_ciede_bin(de, &sig);
            unsigned long long v = sig;
            if (k == 255) { /* NaN and inf are counted */
                k = sig ? 255 : 256;
                v = 1;
            }
            if (k != cur) {
                if (cur < CIEDE_BINS)
                    atomicAdd(&bins[cur], run);
                cur = k;
                run = 0;
            }
            run += v;
        }
    }
    if (cur < CIEDE_BINS)
        atomicAdd(&bins[cur], run);
    __syncthreads();
    for (unsigned k = threadIdx.x; k < CIEDE_BINS; k += blockDim.x)
        if (bins[k])
            atomicAdd(bin_of(acc, k), bins[k]);
}

extern "C" int vq_ciede_launch(VqStream stream, const VqDevFrame *ref,
                               const VqDevFrame *dis, unsigned ss_x,
                               unsigned ss_y, VqCiedeAcc *acc)
{
    unsigned h = ref->plane[0].h;
    if (!h || !ref->plane[0].w)
        return 0;
    unsigned blocks = h < CIEDE_MAX_BLOCKS ? h : CIEDE_MAX_BLOCKS;
    if (ref->bpc > 8)
        ciede_kernel<uint16_t><<<blocks, CIEDE_THREADS, 0,
                                 vq_hip_stream(stream)>>>(*ref, *dis, ss_x,
                                                          ss_y, acc);
    else
        ciede_kernel<uint8_t><<<blocks, CIEDE_THREADS, 0,
                                vq_hip_stream(stream)>>>(*ref, *dis, ss_x, ss_y,
                                                         acc);
    return vq_launch_status();
}
