/*
 * ciede as libvmaf computes it (feature/ciede.c): per luma sample, the
 * reference's and the distorted's Y'CbCr (chroma upsampled by repetition)
 * go through BT.709 to R'G'B', sRGB linearisation, XYZ (D65) and CIELAB,
 * and CIEDE2000 (kL = 0.65, kC = 1, kH = 4) gives a float difference;
 * ciede2000 = 45 - 20 log10(mean difference).
 *
 * vq_ciede_pixel() repeats libvmaf's arithmetic expression by expression:
 * the same float and double types at each step (C's promotions included),
 * the same constants, the same order; the elementary functions are
 * ciede_math.h's. The mean's sum is exact (VqCiedeAcc), so the GPU result
 * equals the CPU's bit for bit and differs from libvmaf's sequential
 * double sum by its rounding only (about 1e-16 relative).
 */
#ifndef VQHIP_KERNELS_CIEDE_H
#define VQHIP_KERNELS_CIEDE_H

#include <math.h>

#include "ciede_math.h"

#ifdef __cplusplus
extern "C" {
#endif

#define VQ_CD_PI 3.14159265358979323846 /* M_PI */

/* The record: the exact sum of the per-sample float differences as
 * per-exponent sums of their significands (bin e holds the significands of
 * values with biased exponent e), plus non-finite counts. */
typedef struct VqCiedeAcc {
    uint64_t bin[255];
    uint64_t n_nan, n_inf;
} VqCiedeAcc;

typedef struct VqLab {
    float l, a, b;
} VqLab;

/* Bin and significand of a non-negative float; bin 255 for inf/NaN. */
static inline VQ_HOST_DEVICE unsigned vq_ciede_bin(float v, uint32_t *sig)
{
    union { float f; uint32_t u; } x;
    x.f = v;
    unsigned e = (x.u >> 23) & 0xff;
    uint32_t m = x.u & 0x7fffffu;
    *sig = e == 255 ? m : e ? m | 0x800000u : m;
    return e;
}

/* Both sides of libvmaf's branches are computed and one is selected, so
 * that the CPU's loops over these functions vectorize; the pow of an
 * argument outside its domain is computed and dropped. */
static inline VQ_HOST_DEVICE double vq_ciede_linear(double c)
{
    double p = vq_ciede_pow((c + 0.055) * (1.0 / 1.055), 2.4);
    double l = c * (1.0 / 12.92);
    return vq_ciede_sel(c > 10. / 255., p, l);
}

/* libvmaf's xyz_to_lab_map: the cube root as pow(c, 1.0 / 3.0). */
static inline VQ_HOST_DEVICE float vq_ciede_lab_map(double c)
{
    float p = (float)vq_ciede_pow(c, 1.0 / 3.0);
    float l = (float)(((24389.0 / 27.0) * c + 16.0) * (1.0 / 116.0));
    return vq_ciede_self(c > 216.0 / 24389.0, p, l);
}

/* The stages of libvmaf's get_lab_color, separately callable so that the
 * CPU can run each over a row at a time (independent samples keep the
 * pipeline full); vq_ciede_lab() chains them. */

/* Y'CbCr sample -> the three R'G'B' values (before linearisation). */
static inline VQ_HOST_DEVICE void vq_ciede_rgb(double y, double u, double v,
                                               unsigned bpc, double *rgb)
{
    const double scale = 1 << (bpc - 8);
    y = (y - 16. * scale) * (1. / (219. * scale));
    u = (u - 128. * scale) * (1. / (224. * scale));
    v = (v - 128. * scale) * (1. / (224. * scale));
    rgb[0] = y + 1.28033 * v;
    rgb[1] = y - 0.21482 * u - 0.38059 * v;
    rgb[2] = y + 2.12798 * u;
}

/* Linear RGB -> the three inputs of the Lab map (X/Xn, Y, Z/Zn). */
static inline VQ_HOST_DEVICE void vq_ciede_xyz(double r, double g, double b,
                                               double *xyz)
{
    double x = r * 0.4124564390896921 + g * 0.357576077643909 +
               b * 0.18043748326639894;
    double y = r * 0.21267285140562248 + g * 0.715152155287818 +
               b * 0.07217499330655958;
    double z = r * 0.019333895582329317 + g * 0.119192025881303 +
               b * 0.9503040785363677;
    xyz[0] = x * (1.0 / 0.95047);
    xyz[1] = y;
    xyz[2] = z * (1.0 / 1.08883);
}

/* The three mapped values (floats, as libvmaf returns them) -> Lab. */
static inline VQ_HOST_DEVICE VqLab vq_ciede_lab_of(double x, double y, double z)
{
    VqLab lab = { (float)((116.0 * y) - 16.0), (float)(500.0 * (x - y)),
                  (float)(200.0 * (y - z)) };
    return lab;
}

static inline VQ_HOST_DEVICE VqLab vq_ciede_lab(double y, double u, double v,
                                                unsigned bpc)
{
    double rgb[3], xyz[3];
    vq_ciede_rgb(y, u, v, bpc, rgb);
    vq_ciede_xyz(vq_ciede_linear(rgb[0]), vq_ciede_linear(rgb[1]),
                 vq_ciede_linear(rgb[2]), xyz);
    return vq_ciede_lab_of(vq_ciede_lab_map(xyz[0]), vq_ciede_lab_map(xyz[1]),
                           vq_ciede_lab_map(xyz[2]));
}

/* Hue angle in [0, 2 pi) as float; atan2's arguments as libvmaf passes
 * them (b, a'). */
static inline VQ_HOST_DEVICE float vq_ciede_hue(float b, float a)
{
    if (b == 0.0 && a == 0.0)
        return 0.0f;
    float h = (float)vq_ciede_atan2(b, a);
    if (h < 0.0)
        h = (float)(h + 2. * VQ_CD_PI);
    return h;
}

/* a' = a (1 + (1 - sqrt(c^7 / (c^7 + 25^7))) / 2), libvmaf's way. */
static inline VQ_HOST_DEVICE float vq_ciede_a_prime(float a, double g)
{
    return (float)(a + (a / 2) * g);
}

/* T = 1 - 0.17 cos(H - pi/6) + 0.24 cos 2H + 0.32 cos(3H + pi/30)
 *       - 0.20 cos(4H - 7 pi/20), libvmaf's sum in its order; the cosines
 * from sin H and cos H by angle addition (absolute error a few 1e-16, as
 * libvmaf's own cos of a rounded argument). */
static inline VQ_HOST_DEVICE float vq_ciede_t(float h)
{
    double s1, c1;
    vq_ciede_sincos(h, &s1, &c1);
    double c2 = c1 * c1 - s1 * s1, s2 = 2.0 * s1 * c1;
    double c3 = c2 * c1 - s2 * s1, s3 = s2 * c1 + c2 * s1;
    double c4 = c2 * c2 - s2 * s2, s4 = 2.0 * s2 * c2;
    double k1 = c1 * 0x1.bb67ae8584caap-1 + s1 * 0.5;     /* cos(H - pi/6) */
    double k3 = c3 * 0x1.fd31f94f867c6p-1 - s3 * 0x1.ac2609b3c576cp-4;
    double k4 = c4 * 0x1.d0e2e2b44de01p-2 + s4 * 0x1.c83201d3d2c6dp-1;
    return (float)(1.0 - 0.17 * k1 + 0.24 * c2 + 0.32 * k3 - 0.20 * k4);
}

/* CIEDE2000 in stages (libvmaf's ciede2000(), kL = 0.65, kC = 1, kH = 4),
 * the intermediate values in a record, so that the CPU can run each stage
 * over a row of samples; vq_ciede2000() chains them for one sample. */
typedef struct VqCiedeWork {
    float dl, sl, c1, c2, a1, a2, b1, b2, cp1, cp2, cp_bar, dcp, sc;
    float h1, h2, dhh, hbar, sh, rt;
} VqCiedeWork;

/* Lightness and chroma terms, a' of both colours. */
static inline VQ_HOST_DEVICE void vq_ciede_chroma(VqLab c1l, VqLab c2l,
                                                  VqCiedeWork *w)
{
    w->dl = c2l.l - c1l.l;
    const float l_bar = (c1l.l + c2l.l) / 2;
    w->c1 = (float)sqrt((double)c1l.a * c1l.a + (double)c1l.b * c1l.b);
    w->c2 = (float)sqrt((double)c2l.a * c2l.a + (double)c2l.b * c2l.b);
    const float c_bar = (w->c1 + w->c2) / 2;
    const double c7 = vq_ciede_pow7(c_bar);
    const double g = 1 - sqrt(c7 / (c7 + 6103515625.0)); /* 25^7 */
    w->a1 = vq_ciede_a_prime(c1l.a, g);
    w->a2 = vq_ciede_a_prime(c2l.a, g);
    w->b1 = c1l.b;
    w->b2 = c2l.b;
    w->cp1 = (float)sqrt((double)w->a1 * w->a1 + (double)c1l.b * c1l.b);
    w->cp2 = (float)sqrt((double)w->a2 * w->a2 + (double)c2l.b * c2l.b);
    w->cp_bar = (w->cp1 + w->cp2) / 2;
    w->dcp = w->cp2 - w->cp1;
    const float lb50 = l_bar - 50;
    const double lb50_2 = (double)lb50 * lb50;
    w->sl = (float)(1. + ((0.015 * lb50_2) / sqrt(20 + lb50_2)));
    w->sc = (float)(1. + 0.045 * w->cp_bar);
}

/* Hue angles (two atan2). */
static inline VQ_HOST_DEVICE void vq_ciede_hues(VqCiedeWork *w)
{
    w->h1 = vq_ciede_hue(w->b1, w->a1);
    w->h2 = vq_ciede_hue(w->b2, w->a2);
}

/* Hue difference, mean hue, T and S_H. */
static inline VQ_HOST_DEVICE void vq_ciede_angles(VqCiedeWork *w)
{
    const float h1 = w->h1, h2 = w->h2;
    /* libvmaf's get_delta_h_prime */
    float dhp;
    if (w->c1 == 0.0 || w->c2 == 0.0)
        dhp = 0.0f;
    else if (fabsf(h1 - h2) <= VQ_CD_PI)
        dhp = h2 - h1;
    else if (h2 <= h1)
        dhp = (float)((float)(h2 - h1) + 2. * VQ_CD_PI);
    else
        dhp = (float)((float)(h2 - h1) - 2. * VQ_CD_PI);
    w->dhh = (float)(2.0 * sqrt((double)(w->cp1 * w->cp2)) *
                     vq_ciede_sin(dhp / 2.0));
    /* libvmaf's get_upcase_h_bar_prime */
    w->hbar = fabs((double)(h1 - h2)) > VQ_CD_PI
            ? (float)(((float)(h1 + h2) + 2.0 * VQ_CD_PI) / 2.0)
            : (float)((double)(float)(h1 + h2) / 2.0);
    const float t = vq_ciede_t(w->hbar);
    w->sh = (float)(1.0 + 0.015 * w->cp_bar * t);
}

/* R_T, libvmaf's get_r_sub_t with its float pow()s. */
static inline VQ_HOST_DEVICE void vq_ciede_rotation(VqCiedeWork *w)
{
    const float hdeg = (float)(w->hbar * (180.0 / VQ_CD_PI));
    const float deg = (float)((hdeg - 275.0) * (1.0 / 25.0));
    const float cp7 = (float)vq_ciede_pow7(w->cp_bar);
    const float ratio = cp7 / (cp7 + 6103515648.0f); /* powf(25, 7) */
    const float deg2 = (float)((double)deg * deg);
    const float rot = (float)(60.0 * vq_ciede_exp(-deg2));
    const float rot_rad = (float)(rot * (VQ_CD_PI / 180.0));
    w->rt = (float)(-2.0 * sqrt((double)ratio) * vq_ciede_sin(rot_rad));
}

static inline VQ_HOST_DEVICE float vq_ciede_final(const VqCiedeWork *w)
{
    const float kl = 0.65f, kc = 1.0f, kh = 4.0f;
    const float lightness = w->dl / (kl * w->sl);
    const float chroma = w->dcp / (kc * w->sc);
    const float hue = w->dhh / (kh * w->sh);
    return (float)sqrt((double)lightness * lightness +
                       (double)chroma * chroma + (double)hue * hue +
                       w->rt * chroma * hue);
}

static inline VQ_HOST_DEVICE float vq_ciede2000(VqLab c1l, VqLab c2l)
{
    VqCiedeWork w;
    vq_ciede_chroma(c1l, c2l, &w);
    vq_ciede_hues(&w);
    vq_ciede_angles(&w);
    vq_ciede_rotation(&w);
    return vq_ciede_final(&w);
}

/* One sample's difference from the two (Y, Cb, Cr) triples. */
static inline VQ_HOST_DEVICE float vq_ciede_pixel(unsigned ry, unsigned ru,
                                                  unsigned rv, unsigned dy,
                                                  unsigned du, unsigned dv,
                                                  unsigned bpc)
{
    VqLab a = vq_ciede_lab(ry, ru, rv, bpc), b = vq_ciede_lab(dy, du, dv, bpc);
    return vq_ciede2000(a, b);
}

/* Host side: the exact sum, sum of bin[e] * 2^(max(e, 1) - 150), rounded
 * once to the nearest double (ties to even). */
static inline double vq_ciede_exact_sum(const VqCiedeAcc *a)
{
    enum { WORDS = 6 }; /* 2^49 * 2^253 < 2^384 */
    uint64_t w[WORDS] = { 0 };
    for (unsigned e = 0; e < 255; e++) {
        unsigned sh = e ? e - 1 : 0, i = sh / 64, b = sh % 64;
        uint64_t add[2] = { a->bin[e] << b, b ? a->bin[e] >> (64 - b) : 0 };
        uint64_t carry = 0;
        for (unsigned k = i; k < WORDS; k++) {
            uint64_t v = k - i < 2 ? add[k - i] : 0;
            uint64_t s = w[k] + v, c1 = s < v;
            uint64_t t = s + carry, c2 = t < carry;
            w[k] = t;
            carry = c1 + c2;
            if (k - i >= 1 && !carry)
                break;
        }
    }
    int top = -1;
    for (int k = WORDS - 1; k >= 0 && top < 0; k--)
        if (w[k])
            for (int b = 63; b >= 0 && top < 0; b--)
                if (w[k] >> b & 1)
                    top = k * 64 + b;
    if (top < 0)
        return 0.0;
#define BIT(n) ((n) >= 0 && (w[(n) / 64] >> ((n) % 64) & 1))
    uint64_t m = 0;
    int lo = top - 52; /* lowest kept bit */
    for (int n = top; n >= lo; n--)
        m = m << 1 | (uint64_t)BIT(n);
    if (lo > 0) {
        int half = BIT(lo - 1), sticky = 0;
        for (int n = lo - 2; n >= 0 && !sticky; n--)
            sticky = BIT(n);
        if (half && (sticky || (m & 1)))
            m++; /* may reach 2^53: still exact in a double */
    }
#undef BIT
    return ldexp((double)m, lo - 149); /* bits below 0 were read as 0 */
}

/* Adds both frames' differences to *acc (device memory, cleared before).
 * Chroma sample of luma (x, y): (min(x >> ss_x, cw - 1), min(y >> ss_y,
 * ch - 1)), inside the scored chroma planes. */
int vq_ciede_launch(VqStream stream, const VqDevFrame *ref,
                    const VqDevFrame *dis, unsigned ss_x, unsigned ss_y,
                    VqCiedeAcc *acc);

#ifdef __cplusplus
}
#endif

#endif
