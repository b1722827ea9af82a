/*
 * HIP's device language for kernels compiled for the host, on the emulated
 * device (-Dhip_platform=emu). hip_device.h includes it in place of
 * <hip/hip_runtime.h>; emu_hipcc.py preprocesses a .hip file with it,
 * rewrites the launch syntax (k<<<grid, block, shm, stream>>>(args) becomes
 * vq_emu::launch("k", vq_emu::Config(grid, block, shm, stream),
 * [](auto &&...a) { k(a...); }, args)
 * and the shared-memory declarations, then compiles the result.
 *
 * The kernels compile as HIP's device pass would see them
 * (__HIP_DEVICE_COMPILE__), so the AMD source paths are the ones run.
 * Device math functions are the host's libm.
 */
#ifndef VQHIP_HIP_EMU_H
#define VQHIP_HIP_EMU_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#include <tuple>
#include <type_traits>
#include <utility>

#include "emu_abi.h"
#include "hip_runtime_emu.h"

#define __global__
#define __device__
#define __host__
#define __constant__
#define __forceinline__ inline __attribute__((always_inline))
#define __noinline__ __attribute__((noinline))
#define __launch_bounds__(...)
#define __align__(n) __attribute__((aligned(n)))
/* __shared__ is left to emu_hipcc.py: a static variable, which the
 * runtime fills with junk when a block first reaches it. */

#define VQ_EMU_STR2(x) #x
#define VQ_EMU_STR(x) VQ_EMU_STR2(x)
#define VQ_EMU_SITE __FILE__ ":" VQ_EMU_STR(__LINE__)

struct dim3 {
    unsigned x, y, z;
    dim3(unsigned x_ = 1, unsigned y_ = 1, unsigned z_ = 1)
        : x(x_), y(y_), z(z_)
    {
    }
    operator VqEmuDim() const { return VqEmuDim{ x, y, z }; }
};

/* HIP's vector types that the kernels use, with HIP's sizes and
 * alignments. */
#define VQ_EMU_VEC2(T, N, A)                                                 \
    struct __attribute__((aligned(A))) N##2 { T x, y; };                     \
    static inline N##2 make_##N##2(T x, T y) { return N##2{ x, y }; }
#define VQ_EMU_VEC4(T, N, A)                                                 \
    struct __attribute__((aligned(A))) N##4 { T x, y, z, w; };               \
    static inline N##4 make_##N##4(T x, T y, T z, T w)                       \
    {                                                                        \
        return N##4{ x, y, z, w };                                           \
    }
VQ_EMU_VEC2(int, int, 8)
VQ_EMU_VEC2(unsigned, uint, 8)
VQ_EMU_VEC2(float, float, 8)
VQ_EMU_VEC4(int, int, 16)
VQ_EMU_VEC4(unsigned, uint, 16)
VQ_EMU_VEC4(float, float, 16)
#undef VQ_EMU_VEC2
#undef VQ_EMU_VEC4

#define threadIdx vq_emu_thread_idx
#define blockIdx vq_emu_block_idx
#define blockDim vq_emu_block_dim
#define gridDim vq_emu_grid_dim
#define warpSize vq_emu_warp_size

#define __syncthreads() vq_emu_barrier(VQ_EMU_SITE)

/* Atomics: a block's threads are fibers of one host thread and blocks run
 * one after another, so a plain read-modify-write is atomic. */
template <typename T> static inline T atomicAdd(T *p, T v)
{
    T old = *p;
    *p = old + v;
    return old;
}
template <typename T> static inline T atomicSub(T *p, T v)
{
    T old = *p;
    *p = old - v;
    return old;
}
template <typename T> static inline T atomicMin(T *p, T v)
{
    T old = *p;
    *p = v < old ? v : old;
    return old;
}
template <typename T> static inline T atomicMax(T *p, T v)
{
    T old = *p;
    *p = v > old ? v : old;
    return old;
}
template <typename T> static inline T atomicExch(T *p, T v)
{
    T old = *p;
    *p = v;
    return old;
}
template <typename T> static inline T atomicCAS(T *p, T cmp, T v)
{
    T old = *p;
    if (old == cmp)
        *p = v;
    return old;
}

/* Integer and bit intrinsics. */
static inline int __clz(int v) { return v ? __builtin_clz((unsigned)v) : 32; }
static inline int __clzll(long long v)
{
    return v ? __builtin_clzll((unsigned long long)v) : 64;
}
static inline int __popc(unsigned v) { return __builtin_popcount(v); }
static inline int __popcll(unsigned long long v)
{
    return __builtin_popcountll(v);
}
static inline int __ffs(int v) { return __builtin_ffs(v); }
static inline int __ffsll(long long v) { return __builtin_ffsll(v); }
static inline float __int_as_float(int v)
{
    float f;
    memcpy(&f, &v, sizeof(f));
    return f;
}
static inline float __uint_as_float(unsigned v)
{
    float f;
    memcpy(&f, &v, sizeof(f));
    return f;
}
static inline int __float_as_int(float f)
{
    int v;
    memcpy(&v, &f, sizeof(v));
    return v;
}
static inline unsigned __float_as_uint(float f)
{
    unsigned v;
    memcpy(&v, &f, sizeof(v));
    return v;
}
static inline double __dsqrt_rn(double x) { return sqrt(x); }
template <typename T> static inline T __ldcg(const T *p) { return *p; }
template <typename T> static inline T __ldg(const T *p) { return *p; }

/* HIP's and CUDA's global min / max overloads. */
#define VQ_EMU_MINMAX(T)                                                     \
    static inline T min(T a, T b) { return a < b ? a : b; }                  \
    static inline T max(T a, T b) { return a > b ? a : b; }
VQ_EMU_MINMAX(int)
VQ_EMU_MINMAX(unsigned)
VQ_EMU_MINMAX(long)
VQ_EMU_MINMAX(unsigned long)
VQ_EMU_MINMAX(long long)
VQ_EMU_MINMAX(unsigned long long)
VQ_EMU_MINMAX(float)
VQ_EMU_MINMAX(double)
#undef VQ_EMU_MINMAX
static inline unsigned min(int a, unsigned b) { return min((unsigned)a, b); }
static inline unsigned min(unsigned a, int b) { return min(a, (unsigned)b); }
static inline unsigned max(int a, unsigned b) { return max((unsigned)a, b); }
static inline unsigned max(unsigned a, int b) { return max(a, (unsigned)b); }

/* Warp collectives: every live lane of the warp contributes, then each
 * reads what it needs. Lane numbers and widths follow HIP's definitions. */
namespace vq_emu {
template <typename T> static inline uint64_t bits(T v)
{
    static_assert(sizeof(T) <= 8, "warp values are at most 64 bits");
    uint64_t u = 0;
    memcpy(&u, &v, sizeof(T));
    return u;
}
template <typename T> static inline T unbits(uint64_t u)
{
    T v;
    memcpy(&v, &u, sizeof(T));
    return v;
}
static inline int lane_id(void)
{
    unsigned t = vq_emu_thread_idx.x +
                 vq_emu_block_dim.x * (vq_emu_thread_idx.y +
                                       vq_emu_block_dim.y * vq_emu_thread_idx.z);
    return (int)(t % (unsigned)vq_emu_warp_size);
}
/* The value of lane `src` of the caller's group of `width` lanes. */
template <typename T>
static inline T shfl_from(T v, int src, int width, const char *site)
{
    const uint64_t *all = vq_emu_warp_exchange(bits(v), site);
    int lane = lane_id();
    int base = lane - lane % width;
    return unbits<T>(all[base + ((src % width) + width) % width]);
}
} // namespace vq_emu

template <typename T>
static inline T __shfl(T v, int src, int width = vq_emu_warp_size)
{
    return vq_emu::shfl_from(v, src, width, "__shfl");
}
template <typename T>
static inline T __shfl_up(T v, unsigned delta, int width = vq_emu_warp_size)
{
    int lane = vq_emu::lane_id() % width;
    T got = vq_emu::shfl_from(v, lane - (int)delta, width, "__shfl_up");
    return lane >= (int)delta ? got : v;
}
template <typename T>
static inline T __shfl_down(T v, unsigned delta, int width = vq_emu_warp_size)
{
    int lane = vq_emu::lane_id() % width;
    T got = vq_emu::shfl_from(v, lane + (int)delta, width, "__shfl_down");
    return lane + (int)delta < width ? got : v;
}
template <typename T>
static inline T __shfl_xor(T v, int mask, int width = vq_emu_warp_size)
{
    int lane = vq_emu::lane_id() % width;
    T got = vq_emu::shfl_from(v, lane ^ mask, width, "__shfl_xor");
    return (lane ^ mask) < width ? got : v;
}
template <typename T>
static inline T __shfl_sync(unsigned long long, T v, int src,
                            int width = vq_emu_warp_size)
{
    return __shfl(v, src, width);
}
template <typename T>
static inline T __shfl_up_sync(unsigned long long, T v, unsigned d,
                               int width = vq_emu_warp_size)
{
    return __shfl_up(v, d, width);
}
template <typename T>
static inline T __shfl_down_sync(unsigned long long, T v, unsigned d,
                                 int width = vq_emu_warp_size)
{
    return __shfl_down(v, d, width);
}
template <typename T>
static inline T __shfl_xor_sync(unsigned long long, T v, int mask,
                                int width = vq_emu_warp_size)
{
    return __shfl_xor(v, mask, width);
}
/* A mask of the lanes whose predicate holds (HIP: 64 bits). */
static inline unsigned long long __ballot(int pred)
{
    const uint64_t *all = vq_emu_warp_exchange(pred != 0, "__ballot");
    unsigned long long m = 0;
    for (int i = 0; i < vq_emu_warp_size; i++)
        if (all[i] != VQ_EMU_DEAD_LANE && all[i])
            m |= 1ull << i;
    return m;
}
static inline int __any(int pred) { return __ballot(pred) != 0; }
static inline int __all(int pred)
{
    const uint64_t *all = vq_emu_warp_exchange(pred != 0, "__all");
    for (int i = 0; i < vq_emu_warp_size; i++)
        if (all[i] != VQ_EMU_DEAD_LANE && !all[i])
            return 0;
    return 1;
}
static inline void __syncwarp(unsigned long long = ~0ull)
{
    vq_emu_warp_exchange(0, "__syncwarp");
}

namespace vq_emu {

struct Config {
    dim3 grid, block;
    size_t shm;
    hipStream_t stream;
    Config(dim3 g, dim3 b, size_t s = 0, hipStream_t st = 0)
        : grid(g), block(b), shm(s), stream(st)
    {
    }
};

/* A launch's kernel and its arguments. The arguments are evaluated once,
 * at the launch; every thread calls the kernel (through `call`, a lambda
 * that names it, so that template arguments are deduced as in the launch)
 * with its own copy of them. */
template <typename F, typename... A> struct Closure {
    F call;
    std::tuple<A...> args;
};

template <typename F, typename... A> static void run_closure(void *c)
{
    Closure<F, A...> *k = (Closure<F, A...> *)c;
    std::tuple<A...> mine = k->args;
    std::apply(k->call, mine);
}

template <typename F, typename... A> static void release_closure(void *c)
{
    delete (Closure<F, A...> *)c;
}

template <typename F, typename... A>
static inline hipError_t launch(const char *name, const Config &cfg, F call,
                                A &&...a)
{
    typedef Closure<F, typename std::decay<A>::type...> C;
    C *c = new C{ call, std::tuple<typename std::decay<A>::type...>(
                            std::forward<A>(a)...) };
    VqEmuKernel k = { name, run_closure<F, typename std::decay<A>::type...>,
                      release_closure<F, typename std::decay<A>::type...>, c };
    return (hipError_t)vq_emu_launch((void *)cfg.stream, cfg.grid, cfg.block,
                                     cfg.shm, k);
}

} // namespace vq_emu

#endif
