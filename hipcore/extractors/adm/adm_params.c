/*
 * Integer ADM: what the options and the frame size fix before any frame —
 * the contrast sensitivity weights per scale and band, the fixed-point
 * shifts — and the float arithmetic that turns the integer accumulators
 * into per-scale scores. Every expression keeps libvmaf's mix of float and
 * double (integer_adm.c, barten_csf_tools.h), since the weights and scores
 * are rounded through both.
 */
#include <math.h>
#include <stdlib.h>

#include "../common/adm_csf.h"
#include "adm_priv.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846264338327
#endif

/* Barten/Watson blend per viewing condition, [theta][scale] with theta 0
 * for h/v and 1 for d (libvmaf barten_csf_tools.h: BLENDED_CSF_*). */
typedef struct BlendTable {
    int rdh;
    double nvd;
    float v[2][4];
} BlendTable;

static const BlendTable blend_legacy[] = {
    { 1080, 3.0, { { 0.01183f, 0.025026f, 0.04295f, 0.058621f },
                   { 0.004302f, 0.011778f, 0.023918f, 0.035901f } } },
    { 1080, 5.0, { { 0.004212f, 0.014809f, 0.029642f, 0.047464f },
                   { 0.000984f, 0.005852f, 0.0146f, 0.027574f } } },
    { 2160, 1.5, { { 0.01183f, 0.025026f, 0.04295f, 0.058621f },
                   { 0.004302f, 0.011778f, 0.023918f, 0.035901f } } },
    { 2160, 3.0, { { 0.00226f, 0.01183f, 0.025026f, 0.04295f },
                   { 0.000479f, 0.004302f, 0.011778f, 0.023918f } } },
    { 2160, 5.0, { { 0.000092f, 0.004212f, 0.014809f, 0.029642f },
                   { 0.000050f, 0.000984f, 0.005852f, 0.0146f } } },
    { 720, 3.0, { { 0.018715f, 0.035637f, 0.052798f, 0.061509f },
                  { 0.007999f, 0.018396f, 0.031851f, 0.037718f } } },
    { 720, 5.0, { { 0.010144f, 0.022561f, 0.040309f, 0.05672f },
                  { 0.003463f, 0.010282f, 0.021839f, 0.034641f } } },
    { 480, 3.0, { { 0.027961f, 0.045875f, 0.060275f, 0.056234f },
                  { 0.013572f, 0.026277f, 0.036959f, 0.034511f } } },
    { 480, 5.0, { { 0.016781f, 0.032822f, 0.05032f, 0.061594f },
                  { 0.00691f, 0.016545f, 0.029917f, 0.037777f } } },
};

static const BlendTable blend_mae[] = {
    { 1080, 3.0, { { 0.011249f, 0.022606f, 0.035930f, 0.045673f },
                   { 0.004097f, 0.010921f, 0.021430f, 0.031313f } } },
    { 1080, 5.0, { { 0.004052f, 0.013939f, 0.026298f, 0.038833f },
                   { 0.000927f, 0.005544f, 0.013415f, 0.024515f } } },
    { 2160, 1.5, { { 0.011249f, 0.022606f, 0.035930f, 0.045673f },
                   { 0.004097f, 0.010921f, 0.021430f, 0.031313f } } },
    { 2160, 3.0, { { 0.002166f, 0.011249f, 0.022606f, 0.035930f },
                   { 0.000447f, 0.004097f, 0.010921f, 0.021430f } } },
    { 2160, 5.0, { { 0.000077f, 0.004052f, 0.013939f, 0.026298f },
                   { 0.000045f, 0.000927f, 0.005544f, 0.013415f } } },
    { 720, 3.0, { { 0.017329f, 0.030870f, 0.042134f, 0.047410f },
                  { 0.007509f, 0.016707f, 0.028072f, 0.032722f } } },
    { 720, 5.0, { { 0.009689f, 0.020577f, 0.034162f, 0.044523f },
                  { 0.003302f, 0.009579f, 0.019661f, 0.030318f } } },
    { 480, 3.0, { { 0.024969f, 0.037825f, 0.046676f, 0.043974f },
                  { 0.012511f, 0.023424f, 0.032139f, 0.030166f } } },
    { 480, 5.0, { { 0.015665f, 0.028766f, 0.040612f, 0.047483f },
                  { 0.006514f, 0.015107f, 0.026476f, 0.032776f } } },
};

static const BlendTable *find_blend(const BlendTable *t, size_t n, int rdh,
                                    double nvd)
{
    for (size_t i = 0; i < n; i++)
        if (t[i].rdh == rdh && t[i].nvd == nvd)
            return &t[i];
    return NULL;
}

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/* CSF weights of the h/v bands (f[0]) and of the d band (f[1]). */
static int csf_factors(const AdmPriv *s, int scale, float f[2], VqErrBuf *err)
{
    double nvd = s->norm_view_dist;
    int rdh = s->ref_display_height;
    switch (s->csf_mode) {
    case ADM_CSF_BARTEN:
        f[0] = vq_adm_barten_csf(scale, nvd, rdh, 100.0, s->csf_scale);
        f[1] = vq_adm_barten_csf(scale, nvd, rdh, 100.0,
                                 s->csf_diag_scale);
        return 0;
    case ADM_CSF_BLEND:
    case ADM_CSF_BLEND_MAE: {
        const BlendTable *t =
            s->csf_mode == ADM_CSF_BLEND
                ? find_blend(blend_legacy, ARRAY_LEN(blend_legacy), rdh, nvd)
                : find_blend(blend_mae, ARRAY_LEN(blend_mae), rdh, nvd);
        if (!t)
            return vq_fail(err, VQ_EUNSUPPORTED,
                           "adm: adm_csf_mode=%d has weights only for "
                           "adm_ref_display_height 480, 720, 1080, 2160 with "
                           "adm_norm_view_dist 3 or 5 (and 2160 with 1.5), "
                           "not %d with %g",
                           s->csf_mode, rdh, nvd);
        f[0] = t->v[0][scale];
        f[1] = t->v[1][scale];
        return 0;
    }
    default:
        f[0] = 1.0f / vq_adm_watson_q(scale, 1, nvd, rdh);
        f[1] = 1.0f / vq_adm_watson_q(scale, 2, nvd, rdh);
        return 0;
    }
}

/* x86-64 conversions of out-of-range doubles, as libvmaf's build does them
 * (cvttsd2si): the integer indefinite value, then truncation. */
static int32_t cvt_i32(double v)
{
    return v > -2147483649.0 && v < 2147483648.0 ? (int32_t)v : INT32_MIN;
}

static int64_t cvt_i64(double v)
{
    return v > -9223372036854775808.0 && v < 9223372036854775808.0
               ? (int64_t)v : INT64_MIN;
}

/* (uint32_t)pow(2, shift - 1) with libvmaf's unsigned exponent: 0 for a
 * zero shift (pow gives infinity). */
static uint64_t half_of(int shift)
{
    return shift > 0 ? (uint64_t)1 << (shift - 1) : 0;
}

static int ceil_log2_i(double x, double minus)
{
    return (int)(uint32_t)cvt_i64(ceil(log2(x) - minus));
}

static void set_region(VqAdmScale *sc)
{
    sc->left = (int)(sc->w * 0.1 - 0.5);
    sc->top = (int)(sc->h * 0.1 - 0.5);
    sc->right = sc->w - sc->left;
    sc->bottom = sc->h - sc->top;
}

int vq_adm_setup(AdmPriv *s, unsigned w, unsigned h, unsigned bpc,
                 VqErrBuf *err)
{
    VqAdmParams *p = &s->p;
    if (w < VQ_ADM_MIN_SIZE || h < VQ_ADM_MIN_SIZE)
        return vq_fail(err, VQ_EUNSUPPORTED,
                       "adm: a %ux%u frame is too small; integer ADM needs at "
                       "least %dx%d (four DWT levels)",
                       w, h, VQ_ADM_MIN_SIZE, VQ_ADM_MIN_SIZE);
    /* libvmaf refuses every frame below this angular resolution. */
    if (s->norm_view_dist * s->ref_display_height < 3.0 * 1080)
        return vq_fail(err, VQ_EUNSUPPORTED,
                       "adm: adm_norm_view_dist * adm_ref_display_height is "
                       "%g; integer ADM needs at least 3240 (3 x 1080)",
                       s->norm_view_dist * s->ref_display_height);

    p->bpc = (int)bpc;
    p->skip_scale0 = s->skip_scale0;
    p->skip_aim = s->skip_aim;
    p->egl = s->enhn_gain_limit;
    p->egl_int = p->egl == (int32_t)p->egl ? (int32_t)p->egl : 0;
    p->cos1_sq = cos(1.0 * M_PI / 180.0) * cos(1.0 * M_PI / 180.0);

    int in_w = (int)w, in_h = (int)h;
    for (int k = 0; k < 4; k++) {
        VqAdmScale *sc = &p->sc[k];
        sc->scale = k;
        sc->in_w = in_w;
        sc->in_h = in_h;
        sc->w = (in_w + 1) / 2;
        sc->h = (in_h + 1) / 2;
        set_region(sc);
        float f[2] = { 0.0f, 0.0f };
        int e = csf_factors(s, k, f, err);
        if (e)
            return e;
        s->rfactor[k][0] = f[0];
        s->rfactor[k][1] = f[0];
        s->rfactor[k][2] = f[1];
        int rw = sc->right - sc->left, rh = sc->bottom - sc->top;
        if (k == 0) {
            if (fabs(s->norm_view_dist * s->ref_display_height - 3.0 * 1080) <
                    1.0e-8 && s->csf_mode == ADM_CSF_WATSON97) {
                sc->rfactor[0] = 36453;
                sc->rfactor[1] = 36453;
                sc->rfactor[2] = 49417;
            } else {
                for (int b = 0; b < 3; b++)
                    sc->rfactor[b] = (uint16_t)cvt_i32(
                        s->rfactor[0][b] * pow(2, b == 2 ? 23 : 21));
            }
            sc->cm_cub_shift[0] = sc->cm_cub_shift[1] = ceil_log2_i(sc->w, 4);
            sc->cm_cub_shift[2] = ceil_log2_i(sc->w, 3);
            int ds = (int)ceil(log2((double)rh * rw) - 20);
            sc->den_row_shift = ds > 0 ? ds : 0;
            sc->den_row_add = half_of(sc->den_row_shift);
            sc->den_sq_shift = sc->den_cub_shift = 0;
            sc->den_sq_add = sc->den_cub_add = 0;
        } else {
            for (int b = 0; b < 3; b++)
                sc->rfactor[b] = (uint32_t)cvt_i64(s->rfactor[k][b] * pow(2, 32));
            int cub = ceil_log2_i(sc->w, 0);
            sc->cm_cub_shift[0] = sc->cm_cub_shift[1] = sc->cm_cub_shift[2] = cub;
            static const int sq_shift[3] = { 31, 30, 31 };
            sc->den_sq_shift = sq_shift[k - 1];
            sc->den_sq_add = (uint64_t)1 << sq_shift[k - 1];
            sc->den_cub_shift = ceil_log2_i(rw, 0);
            sc->den_cub_add = half_of(sc->den_cub_shift);
            sc->den_row_shift = ceil_log2_i(rh, 0);
            sc->den_row_add = half_of(sc->den_row_shift);
        }
        for (int b = 0; b < 3; b++)
            sc->cm_cub_add[b] = (int64_t)half_of(sc->cm_cub_shift[b]);
        sc->cm_row_shift = ceil_log2_i(sc->h, 0);
        sc->cm_row_add = (int64_t)half_of(sc->cm_row_shift);
        in_w = sc->w;
        in_h = sc->h;
    }
    return 0;
}

/* 2^e for libvmaf's unsigned shift differences (a negative difference
 * wraps to a huge exponent: pow gives infinity). */
static double pow2_u(uint32_t e)
{
    return pow(2, e);
}

void vq_adm_scale_scores(const AdmPriv *s, const VqAdmAcc *acc, int k,
                         float *num, float *aim, float *den)
{
    const VqAdmScale *sc = &s->p.sc[k];
    const int64_t *n = acc->num[k], *a = acc->aim[k];
    const uint64_t *d = acc->den[k];
    int area = (sc->bottom - sc->top) * (sc->right - sc->left);
    float fn[3], fa[3];
    double shift_den;
    if (k == 0) {
        if (s->skip_scale0) {
            *num = 0.0f;
            *aim = 0.0f;
            *den = 1e-10;
            return;
        }
        static const uint32_t base[3] = { 52, 52, 57 };
        for (int b = 0; b < 3; b++) {
            double div = pow2_u(base[b] - (uint32_t)sc->cm_cub_shift[b] -
                                (uint32_t)sc->cm_row_shift);
            fn[b] = (float)(n[b] / div);
            fa[b] = (float)(a[b] / div);
        }
        shift_den = pow(2, (18 - sc->den_row_shift));
    } else {
        static const uint32_t base[3] = { 45, 39, 36 };
        static const uint32_t den_base[3] = { 32, 27, 23 };
        float fs = pow2_u(base[k - 1] - (uint32_t)sc->cm_cub_shift[0] -
                          (uint32_t)sc->cm_row_shift);
        for (int b = 0; b < 3; b++) {
            fn[b] = (float)(n[b] / fs);
            fa[b] = (float)(a[b] / fs);
        }
        shift_den = pow2_u(den_base[k - 1] - (uint32_t)sc->den_row_shift -
                           (uint32_t)sc->den_cub_shift);
    }
    float noise = powf(area * s->noise_weight, 1.0f / 3.0f);
    float no_noise = powf(area * 0.0, 1.0f / 3.0f);
    float nh = powf(fn[0], 1.0f / 3.0f) + noise;
    float nv = powf(fn[1], 1.0f / 3.0f) + noise;
    float nd = powf(fn[2], 1.0f / 3.0f) + noise;
    *num = nh + nv + nd;
    if (s->skip_aim) {
        *aim = 0.0f;
    } else {
        float ah = powf(fa[0], 1.0f / 3.0f) + no_noise;
        float av = powf(fa[1], 1.0f / 3.0f) + no_noise;
        float ad = powf(fa[2], 1.0f / 3.0f) + no_noise;
        *aim = ah + av + ad;
    }
    double csf[3];
    for (int b = 0; b < 3; b++)
        csf[b] = (double)(d[b] / shift_den) * pow(s->rfactor[k][b], 3);
    float dh = powf(csf[0], 1.0f / 3.0f) + noise;
    float dv = powf(csf[1], 1.0f / 3.0f) + noise;
    float dd = powf(csf[2], 1.0f / 3.0f) + noise;
    *den = dh + dv + dd;
}
