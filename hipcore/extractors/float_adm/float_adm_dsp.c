/*
 * float_adm: the row functions of the CPU path (float_adm_dsp.h), written
 * once on GCC/clang vector extensions (hipcore/extractors/float_simd.h):
 * eight lanes of floats, the double steps on two halves of four. Every lane
 * computes what the scalar helpers of kernels/float_adm/float_adm.h compute
 * for its pixel, and columns the vectors do not cover go through those
 * helpers; the variants are this code compiled for each instruction set.
 */
#include "../common/float_simd.h"
#include "float_adm_dsp.h"

/* |v| * k in double, rounded to float, for eight lanes (vq_float_adm_csf_f and
 * the centre of vq_float_adm_thr_band). */
VQ_DSP_TEMPLATE void dmul(const vq_vf8 *v, double k, vq_vf8 *out)
{
    vq_vf4 h[2];
    vq_vi8 bits;
    memcpy(&bits, v, sizeof(bits));
    bits &= 0x7fffffff;
    memcpy(h, &bits, sizeof(h));
    for (int i = 0; i < 2; i++) {
        vq_vd4 d = __builtin_convertvector(h[i], vq_vd4) * k;
        h[i] = __builtin_convertvector(d, vq_vf4);
    }
    memcpy(out, h, sizeof(*out));
}

/* (float)(s + k * |c|) in double, for eight lanes. */
VQ_DSP_TEMPLATE void dadd(vq_vf8 *s, const vq_vf8 *c, double k)
{
    vq_vf4 sh[2], ch[2];
    vq_vi8 bits;
    memcpy(&bits, c, sizeof(bits));
    bits &= 0x7fffffff;
    memcpy(ch, &bits, sizeof(ch));
    memcpy(sh, s, sizeof(sh));
    for (int i = 0; i < 2; i++) {
        vq_vd4 d = __builtin_convertvector(sh[i], vq_vd4) +
                   k * __builtin_convertvector(ch[i], vq_vd4);
        sh[i] = __builtin_convertvector(d, vq_vf4);
    }
    memcpy(s, sh, sizeof(*s));
}

/* vq_float_adm_rcp for eight lanes. */
VQ_DSP_TEMPLATE void rcp8(const uint16_t *tab, const vq_vf8 *x,
                                     vq_vf8 *out)
{
    vq_vu8 u;
    memcpy(&u, x, sizeof(u));
    const vq_vu8 e = (u >> 23) & 0xff, sign = u & 0x80000000u;
    const vq_vu8 idx = (u >> 12) & 0x7ff;
    vq_vu8 t;
    for (int l = 0; l < 8; l++)
        t[l] = tab[idx[l]];
    vq_vu8 r = sign | (253 - e) << 23 | t << 11;
    r = VQ_VSEL(vq_vu8, e >= 253, sign, r);
    vq_vu8 nan = VQ_VSEL(vq_vu8, (u & 0x007fffffu) != 0, u | 0x00400000u, sign);
    r = VQ_VSEL(vq_vu8, e == 255, nan, r);
    r = VQ_VSEL(vq_vu8, e == 0, sign | 0x7f800000u, r);
    vq_vf8 xi;
    memcpy(&xi, &r, sizeof(xi));
    *out = xi + xi * (1.0f - *x * xi);
}

/* Decouple and csf of columns [j0, j1) of a band row (csf_row's work):
 * out[0..2] csf a, [3..5] its filter values, [6..8] csf r, [9..11] its
 * filter values. */
VQ_DSP_TEMPLATE void csf_row(const VqFloatAdmDims *d, const float *rf,
                                  const uint16_t *tab, float *const ref[3],
                                  float *const dis[3], float *const out[12],
                                  int j0, int j1)
{
    int j = j0;
    const vq_vf8 zero = { 0 };
    for (; d->gain_exact && j + 8 <= j1; j += 8) {
        vq_vf8 o[3], t[3], rst[3];
        for (int b = 0; b < 3; b++) {
            VQ_VLOAD(o[b], ref[b] + j);
            VQ_VLOAD(t[b], dis[b] + j);
            vq_vf8 x = o[b] + 1e-30f, ri;
            rcp8(tab, &x, &ri);
            vq_vf8 k = t[b] * ri;
            k = VQ_VSEL(vq_vf8, k > 1.0f, zero + 1.0f, k);
            k = VQ_VSEL(vq_vf8, k < 0.0f, zero, k);
            rst[b] = k * o[b];
        }
        vq_vf8 ot_dp = o[0] * t[0] + o[1] * t[1];
        vq_vf8 o_mag = o[0] * o[0] + o[1] * o[1];
        vq_vf8 t_mag = t[0] * t[0] + t[1] * t[1];
        vq_vi8 angle = (ot_dp >= 0.0f) &
                       (ot_dp * ot_dp >= d->cos_1deg_sq * o_mag * t_mag);
        for (int b = 0; b < 3; b++) {
            vq_vf8 r = rst[b], g = r * d->gain_f;
            r = VQ_VSEL(vq_vf8, angle & (r > 0.0f),
                        VQ_VSEL(vq_vf8, g < t[b], g, t[b]), r);
            g = r * d->gain_f;
            r = VQ_VSEL(vq_vf8, angle & (r < 0.0f),
                        VQ_VSEL(vq_vf8, g > t[b], g, t[b]), r);
            vq_vf8 ca = rf[b] * (t[b] - r), cr = rf[b] * r, fa, fr;
            dmul(&ca, 0.0333333351, &fa);
            dmul(&cr, 0.0333333351, &fr);
            VQ_VSTORE(out[b] + j, ca);
            VQ_VSTORE(out[3 + b] + j, fa);
            VQ_VSTORE(out[6 + b] + j, cr);
            VQ_VSTORE(out[9 + b] + j, fr);
        }
    }
    for (; j < j1; j++) {
        float ov[3] = { ref[0][j], ref[1][j], ref[2][j] };
        float tv[3] = { dis[0][j], dis[1][j], dis[2][j] };
        float r[3], a[3];
        vq_float_adm_decouple(d, tab, ov, tv, r, a);
        for (int b = 0; b < 3; b++) {
            float ca = rf[b] * a[b], cr = rf[b] * r[b];
            out[b][j] = ca;
            out[3 + b][j] = vq_float_adm_csf_f(ca);
            out[6 + b][j] = cr;
            out[9 + b][j] = vq_float_adm_csf_f(cr);
        }
    }
}

/* The masked terms of columns [j0, j1) of band row c, all of them inside
 * the band (1 <= j, j + 1 < w): num terms into term[0..2], aim terms into
 * term[3..5] (indexed by column). u, m, l: the csf rows above, at and
 * below. */
VQ_DSP_TEMPLATE void cm_row(const VqFloatAdmDims *d, float *const *u,
                                 float *const *m, float *const *l, int j0,
                                 int j1, float *const term[6])
{
    int j = j0;
    const vq_vf8 zero = { 0 };
    for (; d->cube && j + 8 <= j1; j += 8) {
        vq_vf8 thr[2] = { zero, zero };
        for (int s = 0; s < 2 && !d->bypass_cm; s++) {
            const int f = s ? 9 : 3, c0 = s ? 6 : 0; /* filter, centre */
            for (int b = 0; b < 3; b++) {
                vq_vf8 v, sum = zero, centre;
                const float *fu = u[f + b] + j, *fm = m[f + b] + j;
                const float *fd = l[f + b] + j;
                VQ_VLOAD(v, fu - 1); sum += v;
                VQ_VLOAD(v, fu); sum += v;
                VQ_VLOAD(v, fu + 1); sum += v;
                VQ_VLOAD(v, fm - 1); sum += v;
                VQ_VLOAD(centre, m[c0 + b] + j);
                dadd(&sum, &centre, 0.0666666701);
                VQ_VLOAD(v, fm + 1); sum += v;
                VQ_VLOAD(v, fd - 1); sum += v;
                VQ_VLOAD(v, fd); sum += v;
                VQ_VLOAD(v, fd + 1); sum += v;
                thr[s] += sum;
            }
        }
        for (int b = 0; b < 3; b++)
            for (int s = 0; s < 2; s++) {
                /* num: csf r against thr[0]; aim: csf a against thr[1] */
                vq_vf8 x;
                VQ_VLOAD(x, m[(s ? 0 : 6) + b] + j);
                vq_vi8 bits;
                memcpy(&bits, &x, sizeof(bits));
                bits &= 0x7fffffff;
                memcpy(&x, &bits, sizeof(x));
                x = x - thr[s];
                x = VQ_VSEL(vq_vf8, x < 0.0f, zero, x);
                x = x * x * x;
                VQ_VSTORE(term[3 * s + b] + j, x);
            }
    }
    for (; j < j1; j++) {
        float tn = 0.0, ta = 0.0;
        for (int b = 0; b < 3 && !d->bypass_cm; b++) {
            tn += vq_float_adm_thr_band(u[3 + b], m[3 + b], l[3 + b], m[b][j],
                                   j - 1, j, j + 1);
            ta += vq_float_adm_thr_band(u[9 + b], m[9 + b], l[9 + b], m[6 + b][j],
                                   j - 1, j, j + 1);
        }
        for (int b = 0; b < 3; b++) {
            term[b][j] = vq_float_adm_cm_term(d, m[6 + b][j], tn);
            term[3 + b][j] = vq_float_adm_cm_term(d, m[b][j], ta);
        }
    }
}

/* den terms of columns [j0, j1): |rf * ref band|^p into term[0..2]. */
VQ_DSP_TEMPLATE void den_row(const VqFloatAdmDims *d, const float *rf,
                                  float *const ref[3], int j0, int j1,
                                  float *const term[3])
{
    int j = j0;
    for (; d->cube && j + 8 <= j1; j += 8)
        for (int b = 0; b < 3; b++) {
            vq_vf8 x;
            VQ_VLOAD(x, ref[b] + j);
            x = rf[b] * x;
            vq_vi8 bits;
            memcpy(&bits, &x, sizeof(bits));
            bits &= 0x7fffffff;
            memcpy(&x, &bits, sizeof(x));
            x = x * x * x;
            VQ_VSTORE(term[b] + j, x);
        }
    for (; j < j1; j++)
        for (int b = 0; b < 3; b++)
            term[b][j] = vq_float_adm_den_term(d, rf[b], ref[b][j]);
}

#define FADM_VARIANT(isa, TARGET)                                             \
    TARGET decl_fadm_csf_row_fn(vq_float_adm_csf_row_##isa)                        \
    {                                                                         \
        csf_row(d, rf, tab, ref, dis, out, j0, j1);                           \
    }                                                                         \
    TARGET decl_fadm_cm_row_fn(vq_float_adm_cm_row_##isa)                          \
    {                                                                         \
        cm_row(d, u, m, l, j0, j1, term);                                     \
    }                                                                         \
    TARGET decl_fadm_den_row_fn(vq_float_adm_den_row_##isa)                        \
    {                                                                         \
        den_row(d, rf, ref, j0, j1, term);                                    \
    }

FADM_VARIANT(c, )
#if VQ_ARCH_X86_64
FADM_VARIANT(avx2, VQ_TARGET_AVX2)
FADM_VARIANT(avx512, VQ_TARGET_AVX512)
#endif

void vq_float_adm_dsp_init(VqFloatAdmDsp *c, unsigned flags)
{
    c->csf_row = vq_float_adm_csf_row_c;
    c->cm_row = vq_float_adm_cm_row_c;
    c->den_row = vq_float_adm_den_row_c;
#if VQ_ARCH_X86_64
    if (flags & VQ_CPU_AVX2) {
        c->csf_row = vq_float_adm_csf_row_avx2;
        c->cm_row = vq_float_adm_cm_row_avx2;
        c->den_row = vq_float_adm_den_row_avx2;
    }
    if (flags & VQ_CPU_AVX512) {
        c->csf_row = vq_float_adm_csf_row_avx512;
        c->cm_row = vq_float_adm_cm_row_avx512;
        c->den_row = vq_float_adm_den_row_avx512;
    }
#else
    (void)flags;
#endif
}
