/*
 * Integer ADM on the device: the tile geometry of adm.hip's kernels and
 * what they share per position (the arguments of a launch, the detail
 * bands of a position, their decoupling and CSF weighting, the masking's
 * neighbourhood sums).
 */
#ifndef VQHIP_KERNELS_ADM_POS_H
#define VQHIP_KERNELS_ADM_POS_H

#include "../hip_device.h"
#include "adm.h"

#define ADM_TX 32
#define ADM_TY 8
#define ADM_THREADS (ADM_TX * ADM_TY)
#define ADM_IN_R (2 * ADM_TY + 6)
#define ADM_IN_C (2 * ADM_TX + 6)
#define ADM_OR (ADM_TY + 2)
#define ADM_OC (ADM_TX + 2)
#define ADM_HALO (2 * ADM_OC + 2 * ADM_TY)
/* the input tile is loaded by whole columns: ADM_LOAD_ROWS rows at a time */
#define ADM_LOAD_ROWS (ADM_THREADS / ADM_IN_C)
#define ADM_LOADERS (ADM_LOAD_ROWS * ADM_IN_C)
#define ADM_LOAD_ITERS ((ADM_IN_R + ADM_LOAD_ROWS - 1) / ADM_LOAD_ROWS)

template <bool S0> struct AdmT;
template <> struct AdmT<true> {
    typedef uint16_t In; /* samples */
    typedef int16_t V;   /* DWT values */
};
template <> struct AdmT<false> {
    typedef int32_t In;
    typedef int32_t V;
};

template <bool S0> struct AdmSmem {
    typedef typename AdmT<S0>::In In;
    typedef typename AdmT<S0>::V V;
    static const size_t in_bytes = 2 * ADM_IN_R * ADM_IN_C * sizeof(In);
    static const size_t v_bytes = 4 * ADM_OR * ADM_IN_C * sizeof(V);
    static const size_t red_bytes = VQ_ADM_NQ * ADM_THREADS * 8;
    static const size_t work = in_bytes + v_bytes;
    static const size_t bytes = work > red_bytes ? work : red_bytes;
};

/* What a kernel computes: both pictures, the reference's part alone, or
 * the rest from that part. */
enum { ADM_PAIR, ADM_REF, ADM_DIS };

struct AdmKArgs {
    int32_t *bands; /* ADM_REF writes, ADM_DIS reads: the reference's
                       detail bands, band b at b * w * h, rows of w */
    VqAdmScale sc;
    int bpc;
    int hvd;  /* details, decoupling, masking (not for skipped scale 0) */
    int aim;
    double egl;
    int32_t egl_int;
    float cos1_sq;
    const void *ref, *dis;
    size_t ref_pitch, dis_pitch; /* bytes */
    void *out_ref, *out_dis;     /* next scale's input (NULL at scale 3) */
    size_t out_pitch;            /* elements */
    unsigned long long *rows;
    const int32_t *recip; /* VqAdmDevBufs.recip */
};

template <typename T>
static __device__ int32_t adm_load(const void *base, size_t pitch, int y, int x)
{
    return ((const T *)((const char *)base + (size_t)y * pitch))[x];
}

/* Decoupled, CSF-weighted values of one position, for the masking. */
struct AdmPos {
    int32_t rst[3], add[3];
    int32_t ctr_n, ctr_m; /* band-summed |csf| / 15 of add, rst */
    uint64_t den[3];
};

/* The horizontal pass's detail bands of one position (V, H, D). */
template <bool S0>
static __device__ void adm_bands(const AdmKArgs &a, const int32_t lo[4],
                                 const int32_t hi[4], int32_t o[3])
{
    if (S0) {
        o[VQ_ADM_V] = vq_adm_dwt0_hhi(lo[0], lo[1], lo[2], lo[3]);
        o[VQ_ADM_H] = vq_adm_dwt0_hlo(hi[0], hi[1], hi[2], hi[3]);
        o[VQ_ADM_D] = vq_adm_dwt0_hhi(hi[0], hi[1], hi[2], hi[3]);
    } else {
        int sh = vq_adm_dwt_hshift(a.sc.scale);
        o[VQ_ADM_V] = vq_adm_dwt_hi(lo[0], lo[1], lo[2], lo[3], sh);
        o[VQ_ADM_H] = vq_adm_dwt_lo(hi[0], hi[1], hi[2], hi[3], sh);
        o[VQ_ADM_D] = vq_adm_dwt_hi(hi[0], hi[1], hi[2], hi[3], sh);
    }
}

/* The reference's bands of position (i, j): computed from its vertical
 * pass, or read from the reference's kernel's (ADM_DIS). */
template <bool S0, int MODE>
static __device__ void adm_ref_bands(const AdmKArgs &a, const int32_t lo[4],
                                     const int32_t hi[4], int i, int j,
                                     int32_t o[3])
{
    if (MODE == ADM_DIS) {
        const size_t plane = (size_t)a.sc.w * (size_t)a.sc.h;
        const int32_t *at = a.bands + (size_t)i * a.sc.w + j;
        for (int b = 0; b < 3; b++)
            o[b] = at[b * plane];
    } else {
        adm_bands<S0>(a, lo, hi, o);
    }
}

template <bool S0>
static __device__ void adm_details(const AdmKArgs &a, const int32_t o[3],
                                   const int32_t lo_d[4],
                                   const int32_t hi_d[4], bool with_den,
                                   int32_t *f_n, int32_t *f_m, AdmPos &p)
{
    int32_t t[3];
    adm_bands<S0>(a, lo_d, hi_d, t);
    int angle = S0 ? vq_adm_angle_flag16(o[0], o[1], t[0], t[1], a.cos1_sq)
                   : vq_adm_angle_flag(o[0], o[1], t[0], t[1], a.cos1_sq);
    uint32_t fn = 0, fm = 0, cn = 0, cm = 0;
    for (int b = 0; b < 3; b++) {
        int32_t rst, add, csf_n, csf_m;
        if (S0) {
            int32_t k = vq_adm_k0(o[b], t[b], a.recip[o[b]]);
            rst = vq_adm_restore0(o[b], t[b], k, angle, a.egl, a.egl_int);
            add = (int16_t)(t[b] - rst);
            csf_n = vq_adm_csf0(add, a.sc.rfactor[b], b);
            csf_m = vq_adm_csf0(rst, a.sc.rfactor[b], b);
            fn += (uint32_t)vq_adm_flt0(csf_n);
            fm += (uint32_t)vq_adm_flt0(csf_m);
            cn += (uint32_t)vq_adm_ctr0(csf_n);
            cm += (uint32_t)vq_adm_ctr0(csf_m);
            if (with_den)
                p.den[b] = vq_adm_den0(o[b]);
        } else {
            int shift;
            uint32_t msb = vq_adm_best15((uint32_t)vq_adm_abs32(o[b]), &shift);
            int64_t k = vq_adm_k123(o[b], t[b], a.recip[msb], shift);
            rst = vq_adm_restore123(o[b], t[b], k, angle, a.egl, a.egl_int);
            add = (int32_t)((uint32_t)t[b] - (uint32_t)rst);
            csf_n = vq_adm_csf123(add, a.sc.rfactor[b]);
            csf_m = vq_adm_csf123(rst, a.sc.rfactor[b]);
            fn += (uint32_t)vq_adm_flt123(csf_n);
            fm += (uint32_t)vq_adm_flt123(csf_m);
            cn += (uint32_t)vq_adm_ctr123(csf_n);
            cm += (uint32_t)vq_adm_ctr123(csf_m);
            if (with_den)
                p.den[b] = vq_adm_den123(o[b], a.sc.den_sq_shift, a.sc.den_sq_add,
                                         a.sc.den_cub_shift, a.sc.den_cub_add);
        }
        p.rst[b] = rst;
        p.add[b] = add;
    }
    *f_n = (int32_t)fn;
    *f_m = (int32_t)fm;
    p.ctr_n = (int32_t)cn;
    p.ctr_m = (int32_t)cm;
}

/* Sum over the 3x3 neighbourhood without its centre; mirrored indices. */
static __device__ int32_t adm_ring8(const int32_t *f, int up, int mid, int dn,
                                    int lf, int cc, int rt)
{
    uint32_t s = (uint32_t)f[up * ADM_OC + lf] + (uint32_t)f[up * ADM_OC + cc] +
                 (uint32_t)f[up * ADM_OC + rt] + (uint32_t)f[mid * ADM_OC + lf] +
                 (uint32_t)f[mid * ADM_OC + rt] + (uint32_t)f[dn * ADM_OC + lf] +
                 (uint32_t)f[dn * ADM_OC + cc] + (uint32_t)f[dn * ADM_OC + rt];
    return (int32_t)s;
}

#endif
