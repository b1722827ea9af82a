/*
 * libvmaf's psnr_hvs adds all terms of a plane (all >= 0, finite) one by
 * one to a float: s(k+1) = fl(s(k) + t(k)). That sequential float sum is
 * what the CPU path computes; this file lets the GPU get the same float
 * with few sequential steps, exactly, by the following argument.
 *
 * While s stays in one binade [2^e, 2^(e+1)), s = m * u with u = 2^(e-23)
 * and m an integer in [2^23, 2^24), and fl(s + t) = (m + R) * u, where R is
 * t / u rounded to an integer half to even *on the sum*: on a tie the
 * parity of m decides. So within a binade a run of terms acts on m as
 * "add R(parity)", and a chunk of terms is summarised, per binade e and
 * start parity p, by the total increment (VqHvsStep); summaries compose
 * (the parity after a step is that of m + increment). A step is valid only
 * while m + increment < 2^24 (else the sum left the binade, where rounding
 * is to 2u); a term of 2^23 units or more, or a total reaching 2^23, marks
 * it VQ_HVS_BAD. The walk (vq_hvs_walk_*) takes a group's step when s's
 * binade is among the group's candidates and the step stays in the binade,
 * else the chunks' steps, else the real float additions of the chunk's
 * terms. Every path yields exactly fl(...fl(s + t0)... + tn); the
 * candidates (binades near an estimate of s) only decide how often the
 * slow path runs. tests/psnr_hvs/hvs_sum_test.c checks the walk against the
 * plain sum on random and adversarial (tie, binade-crossing) sequences.
 *
 * Terms are grouped as the kernels produce them: a chunk is one 8x8
 * block's 64 terms, a group VQ_HVS_GROUP chunks.
 */
#ifndef VQHIP_KERNELS_PSNR_HVS_SUM_H
#define VQHIP_KERNELS_PSNR_HVS_SUM_H

#include "../vq_kernel_api.h"

#ifdef __cplusplus
extern "C" {
#endif

#define VQ_HVS_CHUNK 64 /* terms per chunk (one block) */
#define VQ_HVS_GROUP 64 /* chunks per group */
#define VQ_HVS_CAND 4   /* binades summarised per chunk and group */
#define VQ_HVS_BAD 0xffffffffu
#define VQ_HVS_LIMIT (1u << 23) /* increments must stay below this */

/* Increment of m for start parity 0 and 1 (or VQ_HVS_BAD). */
typedef struct VqHvsStep {
    uint32_t inc[2];
} VqHvsStep;

static inline VQ_HOST_DEVICE uint32_t vq_hvs_bits(float f)
{
    union { float f; uint32_t u; } v;
    v.f = f;
    return v.u;
}

static inline VQ_HOST_DEVICE float vq_hvs_float(uint32_t u)
{
    union { float f; uint32_t u; } v;
    v.u = u;
    return v.f;
}

/* s = m * 2^(e-23) with m in [2^23, 2^24) when s is positive and normal
 * (returns 1), else 0. */
static inline VQ_HOST_DEVICE int vq_hvs_parts(float s, int *e, uint32_t *m)
{
    uint32_t b = vq_hvs_bits(s), be = b >> 23;
    if (be == 0 || be >= 255)
        return 0;
    *e = (int)be - 127;
    *m = (b & 0x7fffffu) | 0x800000u;
    return 1;
}

/* Binade of a positive estimate (the candidates start 2 below it). */
static inline VQ_HOST_DEVICE int vq_hvs_base(double est)
{
    int e;
    uint32_t m;
    if (!vq_hvs_parts((float)est, &e, &m))
        return -126;
    return e - 2;
}

/* Term t in binade e: t / u = q + f with f in [0, 1). Returns q and sets
 * *up (f > 1/2: R = q + 1) or *tie (f = 1/2: R = q + 1 when m + q is odd,
 * so that m + R is even); VQ_HVS_BAD when R may reach 2^23. */
static inline VQ_HOST_DEVICE uint32_t vq_hvs_split(float t, int e,
                                                   uint32_t *up, uint32_t *tie)
{
    uint32_t b = vq_hvs_bits(t), be = b >> 23, mt = b & 0x7fffffu;
    int et = -149; /* t = mt * 2^et */
    if (be) {
        mt |= 0x800000u;
        et = (int)be - 150;
    }
    int sh = e - 23 - et; /* t / u = mt / 2^sh */
    *up = *tie = 0;
    if (mt == 0 || sh >= 25)
        return 0; /* below half a unit: mt < 2^24 <= 2^(sh-1) */
    if (sh <= 0)
        return -sh > 30 || ((uint64_t)mt << -sh) >= VQ_HVS_LIMIT - 1
             ? VQ_HVS_BAD : mt << -sh;
    uint32_t q = mt >> sh, rem = mt & ((1u << sh) - 1), half = 1u << (sh - 1);
    *up = rem > half;
    *tie = rem == half;
    return q >= VQ_HVS_LIMIT - 1 ? VQ_HVS_BAD : q;
}

/* Summary of n terms in binade e, both start parities in one pass. */
static inline VQ_HOST_DEVICE VqHvsStep vq_hvs_chunk_step(const float *t,
                                                         unsigned n, int e)
{
    uint32_t inc[2] = { 0, 0 }, par[2] = { 0, 1 };
    for (unsigned k = 0; k < n; k++) {
        uint32_t up, tie, q = vq_hvs_split(t[k], e, &up, &tie);
        for (unsigned p = 0; p < 2; p++) {
            uint32_t r = q + (up | (tie & ((par[p] + q) & 1)));
            inc[p] = q == VQ_HVS_BAD || inc[p] == VQ_HVS_BAD ||
                     inc[p] + r >= VQ_HVS_LIMIT ? VQ_HVS_BAD : inc[p] + r;
            par[p] = (par[p] + r) & 1;
        }
    }
    VqHvsStep st = { { inc[0], inc[1] } };
    return st;
}

/* a, then b (same binade). */
static inline VQ_HOST_DEVICE VqHvsStep vq_hvs_compose(VqHvsStep a, VqHvsStep b)
{
    VqHvsStep r;
    for (unsigned p = 0; p < 2; p++) {
        uint32_t ia = a.inc[p], ib = ia == VQ_HVS_BAD ? VQ_HVS_BAD
                                                      : b.inc[(p + ia) & 1];
        r.inc[p] = ib == VQ_HVS_BAD || ia + ib >= VQ_HVS_LIMIT ? VQ_HVS_BAD
                                                               : ia + ib;
    }
    return r;
}

/* Applies a summary (cand[k] for binade base + k) to *s when it is valid
 * for s; returns 1 if it did. */
static inline VQ_HOST_DEVICE int vq_hvs_jump(float *s, const VqHvsStep *cand,
                                             int base)
{
    int e;
    uint32_t m;
    if (!vq_hvs_parts(*s, &e, &m) || e < base || e >= base + VQ_HVS_CAND)
        return 0;
    uint32_t inc = cand[e - base].inc[m & 1];
    if (inc == VQ_HVS_BAD || m + inc >= (1u << 24))
        return 0;
    *s = vq_hvs_float(((uint32_t)(e + 127) << 23) | ((m + inc) & 0x7fffffu));
    return 1;
}

/* One group's chunks (n of them) from s: chunk steps where valid, else
 * the chunk's terms added one by one. */
static inline VQ_HOST_DEVICE float vq_hvs_walk_chunks(float s,
                                                      const VqHvsStep *cst,
                                                      const int *cbase,
                                                      const float *terms,
                                                      unsigned n)
{
    for (unsigned c = 0; c < n; c++) {
        if (vq_hvs_jump(&s, cst + c * VQ_HVS_CAND, cbase[c]))
            continue;
        for (unsigned k = 0; k < VQ_HVS_CHUNK; k++)
            s += terms[c * VQ_HVS_CHUNK + k];
    }
    return s;
}

/* The whole plane: n chunks of terms in groups of VQ_HVS_GROUP; cst and
 * cbase per chunk, gst and gbase per group. What the GPU's walk kernel
 * does, one group at a time. */
static inline VQ_HOST_DEVICE float vq_hvs_walk(const float *terms, unsigned n,
                                               const VqHvsStep *cst,
                                               const int *cbase,
                                               const VqHvsStep *gst,
                                               const int *gbase)
{
    float s = 0;
    for (unsigned g = 0; g * VQ_HVS_GROUP < n; g++) {
        if (vq_hvs_jump(&s, gst + g * VQ_HVS_CAND, gbase[g]))
            continue;
        unsigned c0 = g * VQ_HVS_GROUP;
        unsigned nc = n - c0 < VQ_HVS_GROUP ? n - c0 : VQ_HVS_GROUP;
        s = vq_hvs_walk_chunks(s, cst + c0 * VQ_HVS_CAND, cbase + c0,
                               terms + (size_t)c0 * VQ_HVS_CHUNK, nc);
    }
    return s;
}

#ifdef __cplusplus
}
#endif

#endif
