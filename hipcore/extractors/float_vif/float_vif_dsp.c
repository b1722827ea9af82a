/*
 * float_vif: the row functions of the CPU path (float_vif_dsp.h), written
 * once on GCC/clang vector extensions (hipcore/extractors/float_simd.h):
 * eight lanes of floats for the filters, four for the statistic (whose
 * double steps take four doubles). Every lane computes what vq_fconv_dot
 * and vq_float_vif_terms compute for its column, and the tails call those; the
 * variants are this code compiled for each instruction set.
 */
#include <math.h>

#include "../common/float_simd.h"
#include "float_vif_dsp.h"

/* Vertical pass of one output row: ra[k], rb[k] are the (mirrored) source
 * rows of tap k. nq == 2: o[0], o[1] get the filtered ref and dis; nq == 5:
 * also o[2..4], the filtered ref^2, dis^2 and ref*dis. */
VQ_DSP_TEMPLATE void vert(const float *const *ra, const float *const *rb,
                               const float *f, int n, unsigned w, int nq,
                               float *const *o)
{
    unsigned j = 0;
    for (; j + 8 <= w; j += 8) {
        vq_vf8 m1 = { 0 }, m2 = { 0 }, xx = { 0 }, yy = { 0 }, xy = { 0 };
        if (nq == 5) {
            for (int k = 0; k < n; k++) {
                vq_vf8 a, b;
                VQ_VLOAD(a, ra[k] + j);
                VQ_VLOAD(b, rb[k] + j);
                const float fk = f[k];
                m1 += fk * a;
                m2 += fk * b;
                xx += fk * (a * a);
                yy += fk * (b * b);
                xy += fk * (a * b);
            }
            VQ_VSTORE(o[2] + j, xx);
            VQ_VSTORE(o[3] + j, yy);
            VQ_VSTORE(o[4] + j, xy);
        } else {
            for (int k = 0; k < n; k++) {
                vq_vf8 a, b;
                VQ_VLOAD(a, ra[k] + j);
                VQ_VLOAD(b, rb[k] + j);
                const float fk = f[k];
                m1 += fk * a;
                m2 += fk * b;
            }
        }
        VQ_VSTORE(o[0] + j, m1);
        VQ_VSTORE(o[1] + j, m2);
    }
    for (; j < w; j++) {
        float m1 = 0.0f, m2 = 0.0f, xx = 0.0f, yy = 0.0f, xy = 0.0f;
        for (int k = 0; k < n; k++) {
            const float a = ra[k][j], b = rb[k][j], fk = f[k];
            m1 += fk * a;
            m2 += fk * b;
            xx += fk * (a * a);
            yy += fk * (b * b);
            xy += fk * (a * b);
        }
        o[0][j] = m1;
        o[1][j] = m2;
        if (nq == 5) {
            o[2][j] = xx;
            o[3][j] = yy;
            o[4][j] = xy;
        }
    }
}

/* Horizontal pass: out[j] = sum_k f[k] * v[j - n / 2 + k], j < w (v has its
 * mirrored columns on both sides). */
VQ_DSP_TEMPLATE void horiz(const float *v, unsigned w, const float *f,
                                int n, float *out)
{
    const float *src = v - n / 2;
    unsigned j = 0;
    for (; j + 8 <= w; j += 8) {
        vq_vf8 acc = { 0 };
        for (int k = 0; k < n; k++) {
            vq_vf8 x;
            VQ_VLOAD(x, src + j + k);
            acc += f[k] * x;
        }
        VQ_VSTORE(out + j, acc);
    }
    for (; j < w; j++)
        out[j] = vq_fconv_dot(f, n, src + j, 1);
}

/* vq_float_vif_log2 on four lanes. */
VQ_DSP_TEMPLATE void log2v(const vq_vf4 *x, vq_vf4 *out)
{
    static const float poly[9] = {
        (float)-0.012671635276421, (float)0.064841182402670,
        (float)-0.157048836463065, (float)0.257167726303123,
        (float)-0.353800560300520, (float)0.480131410397451,
        (float)-0.721314327952201, (float)1.442694803896991, 0.0f
    };
    const vq_vu4 dnan = { 0xffc00000u, 0xffc00000u, 0xffc00000u, 0xffc00000u };
    const vq_vf4 ninf = { -INFINITY, -INFINITY, -INFINITY, -INFINITY };
    const vq_vf4 qnan = { NAN, NAN, NAN, NAN };
    vq_vu4 u;
    memcpy(&u, x, sizeof(u));
    u = VQ_VSEL(vq_vu4, *x != *x, dnan, u);
    vq_vu4 expo = (u & 0x7f800000u) >> 23;
    vq_vu4 rb = (u & 0x007fffffu) | 0x3f800000u;
    vq_vf4 remain;
    memcpy(&remain, &rb, sizeof(remain));
    vq_vf4 base = __builtin_convertvector((vq_vi4)expo - 127, vq_vf4);
    vq_vf4 t = remain - 1.0f, var = { 0 };
    for (int i = 0; i < 9; i++)
        var = var * t + poly[i];
    vq_vf4 r = base + var;
    r = VQ_VSEL(vq_vf4, *x < 0.0f, qnan, r);
    *out = VQ_VSEL(vq_vf4, *x == 0.0f, ninf, r);
}

/* The statistic's terms of w pixels. nsq_up is the smallest float >=
 * c->sigma_nsq, so that s1 < nsq_up in float is libvmaf's s1 < sigma_nsq
 * in double. */
VQ_DSP_TEMPLATE void stats(const VqFloatVifConst *c, float nsq_up,
                                const float *mu1p, const float *mu2p,
                                const float *xxp, const float *yyp,
                                const float *xyp, unsigned w, float *nump,
                                float *denp)
{
    const vq_vf4 zero = { 0 }, one = { 1.0f, 1.0f, 1.0f, 1.0f };
    const float eps = VQ_FVIF_EPS;
    const double nsq = c->sigma_nsq;
    unsigned j = 0;
    for (; j + 4 <= w; j += 4) {
        vq_vf4 mu1, mu2, xx, yy, xy;
        VQ_VLOAD(mu1, mu1p + j);
        VQ_VLOAD(mu2, mu2p + j);
        VQ_VLOAD(xx, xxp + j);
        VQ_VLOAD(yy, yyp + j);
        VQ_VLOAD(xy, xyp + j);
        vq_vf4 s1 = xx - mu1 * mu1;
        vq_vf4 s2 = yy - mu2 * mu2;
        vq_vf4 s12 = xy - mu1 * mu2;
        s1 = VQ_VSEL(vq_vf4, s1 > 0.0f, s1, zero);
        s2 = VQ_VSEL(vq_vf4, s2 > 0.0f, s2, zero);
        vq_vf4 g = s12 / (s1 + eps);
        vq_vf4 sv = s2 - g * s12;
        vq_vi4 m = s1 < eps;
        g = VQ_VSEL(vq_vf4, m, zero, g);
        sv = VQ_VSEL(vq_vf4, m, s2, sv);
        s1 = VQ_VSEL(vq_vf4, m, zero, s1);
        m = s2 < eps;
        g = VQ_VSEL(vq_vf4, m, zero, g);
        sv = VQ_VSEL(vq_vf4, m, zero, sv);
        m = g < 0.0f;
        sv = VQ_VSEL(vq_vf4, m, s2, sv);
        g = VQ_VSEL(vq_vf4, m, zero, g);
        sv = VQ_VSEL(vq_vf4, sv > eps, sv, zero + eps);
        g = VQ_VSEL(vq_vf4, g < c->gain_limit, g, zero + c->gain_limit);
        vq_vd4 q = 1.0 + __builtin_convertvector(g * g * s1, vq_vd4) /
                             (__builtin_convertvector(sv, vq_vd4) + nsq);
        vq_vf4 arg = __builtin_convertvector(q, vq_vf4), num, den;
        log2v(&arg, &num);
        num = VQ_VSEL(vq_vf4, s12 < 0.0f, zero, num);
        if (c->den_float) {
            arg = 1.0f + s1 / (float)nsq;
        } else {
            q = 1.0 + __builtin_convertvector(s1, vq_vd4) / nsq;
            arg = __builtin_convertvector(q, vq_vf4);
        }
        log2v(&arg, &den);
        m = s1 < nsq_up;
        num = VQ_VSEL(vq_vf4, m, one - s2 * c->sigma_max_inv, num);
        den = VQ_VSEL(vq_vf4, m, one, den);
        VQ_VSTORE(nump + j, num);
        VQ_VSTORE(denp + j, den);
    }
    for (; j < w; j++)
        vq_float_vif_terms(c, mu1p[j], mu2p[j], xxp[j], yyp[j], xyp[j], &nump[j],
                      &denp[j]);
}

#define FVIF_VARIANT(isa, TARGET)                                             \
    TARGET decl_fvif_vert_fn(vq_float_vif_vert_##isa)                              \
    {                                                                         \
        vert(ra, rb, f, n, w, nq, o);                                         \
    }                                                                         \
    TARGET decl_fvif_horiz_fn(vq_float_vif_horiz_##isa)                            \
    {                                                                         \
        horiz(v, w, f, n, out);                                               \
    }                                                                         \
    TARGET decl_fvif_stats_fn(vq_float_vif_stats_##isa)                            \
    {                                                                         \
        stats(c, nsq_up, mu1, mu2, xx, yy, xy, w, num, den);                  \
    }

FVIF_VARIANT(c, )
#if VQ_ARCH_X86_64
FVIF_VARIANT(avx2, VQ_TARGET_AVX2)
FVIF_VARIANT(avx512, VQ_TARGET_AVX512)
#endif

void vq_float_vif_dsp_init(VqFloatVifDsp *c, unsigned flags)
{
    c->vert = vq_float_vif_vert_c;
    c->horiz = vq_float_vif_horiz_c;
    c->stats = vq_float_vif_stats_c;
#if VQ_ARCH_X86_64
    if (flags & VQ_CPU_AVX2) {
        c->vert = vq_float_vif_vert_avx2;
        c->horiz = vq_float_vif_horiz_avx2;
        c->stats = vq_float_vif_stats_avx2;
    }
    if (flags & VQ_CPU_AVX512) {
        c->vert = vq_float_vif_vert_avx512;
        c->horiz = vq_float_vif_horiz_avx512;
        c->stats = vq_float_vif_stats_avx512;
    }
#else
    (void)flags;
#endif
}
