#include <math.h>

#include "adm_csf.h"

static const double pi = 3.14159265358979323846;

/* Watson et al. 1997, luma (libvmaf dwt_7_9_YCbCr_threshold[0]) and the
 * 7-9 basis amplitudes (dwt_7_9_basis_function_amplitudes, the first four
 * levels): double literals rounded to float, as there. */
static const float w_a = 0.495, w_k = 0.466, w_f0 = 0.401;
static const float w_g[4] = { 1.501, 1.0, 0.534, 1.0 };
static const float w_amp[4][4] = {
    { 0.62171, 0.67234, 0.72709, 0.67234 },
    { 0.34537, 0.41317, 0.49428, 0.41317 },
    { 0.18004, 0.22727, 0.28688, 0.22727 },
    { 0.091401, 0.11792, 0.15214, 0.11792 },
};

float vq_adm_watson_q(int lambda, int theta, double nvd, int rdh)
{
    float r = nvd * rdh * pi / 180.0;
    float temp = log10(pow(2.0, lambda + 1) * w_f0 * w_g[theta] / r);
    float q = 2.0 * w_a * pow(10.0, w_k * temp * temp) / w_amp[lambda][theta];
    return q;
}

/* Barten's CSF as in HDR-VDP 2.2.1 (libvmaf barten_csf_tools.h: anchors,
 * parameters, rod/cone and MTF constants). */
static const float b_anchor[6] = { 0.002, 0.02, 0.2, 2, 20, 150 };
static const float b_par[6][5] = {
    { 0.0160737, 0.991265, 3.74038, 0.50722, 4.46044 },
    { 0.383873, 0.800889, 3.54104, 0.682505, 4.94958 },
    { 0.929301, 0.476505, 4.37453, 0.750315, 5.28678 },
    { 1.29776, 0.405782, 4.40602, 0.935314, 5.61425 },
    { 1.49222, 0.334278, 3.79542, 1.07327, 6.4635 },
    { 1.46213, 0.394533, 2.7755, 1.16577, 7.45665 },
};
static const float b_sa[4] = { 30.162, 4.0627, 1.6596, 0.2712 };
static const float b_mtf_a[4] = { 0.424838596301290, 0.572435103936480,
                                  0.000167576239164937, 0.00255872352306433 };
static const float b_mtf_b[4] = { 0.028, 0.37, 37, 360 };

static float lerp(float lp, float lv, float rp, float rv, float sp)
{
    return lv + ((rv - lv) / (rp - lp)) * (sp - lp);
}

static float barten_rod_cone(float lum)
{
    return b_sa[0] * pow(pow(b_sa[1] / lum, b_sa[2]) + 1, -b_sa[3]);
}

static float barten_mtf(float f)
{
    float mtf = 0.0;
    for (int i = 0; i <= 3; i++)
        mtf = mtf + b_mtf_a[i] * exp(-b_mtf_b[i] * f);
    return mtf;
}

float vq_adm_barten_csf(int lambda, double nvd, int rdh, double lum,
                        double scale)
{
    float r = nvd * rdh * pi / 180.0;
    float f = r / pow(2, lambda + 1);
    double cl = lum > b_anchor[5] ? b_anchor[5]
              : (lum < b_anchor[0] ? b_anchor[0] : lum);
    int li = 0, ri = 0;
    for (int i = 0; i < 5; i++) {
        if (cl >= b_anchor[i] && cl <= b_anchor[i + 1]) {
            li = i;
            ri = i + 1;
            break;
        }
    }
    float lp = log10(b_anchor[li]), rp = log10(b_anchor[ri]);
    float sp = log10(cl);
    float p[4];
    for (int k = 0; k < 4; k++)
        p[k] = lerp(lp, b_par[li][k + 1], rp, b_par[ri][k + 1], sp);
    float a = 1.0f + pow(p[0] * f, p[1]);
    float b = 1.0f / pow(1 - exp(-pow(f / 7, 2)), p[2]);
    float csf = p[3] / pow(a * b, 0.5);
    return csf * barten_mtf(f) * barten_rod_cone(lum) * scale;
}

/* The DLM paper's CSF (libvmaf adm_csf_tools.h). */
float vq_adm_dlm_csf(int lambda, double nvd, int rdh, int theta)
{
    float r = nvd * rdh * pi / 180.0;
    float f = r / pow(2, lambda + 1);
    if (theta == 45)
        f /= 0.7;
    return (0.31 + 0.69 * f) * exp(-0.29 * f);
}
