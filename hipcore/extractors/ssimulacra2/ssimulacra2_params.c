/*
 * ssimulacra2's per-run parameters: the recursive Gaussian's coefficients,
 * the scales, and the YUV -> R'G'B' conversion of each input.
 */
#include <math.h>

#include "ssimulacra2_priv.h"

/* Charalampidis, "Recursive Implementation of the Gaussian Filter Using
 * Truncated Cosine Functions" (2016), as libjxl's CreateRecursiveGaussian
 * uses it: three cosine terms, radius N = round(3.2795 sigma + 0.2546);
 * equation numbers are the paper's. Computed in double in libjxl's order
 * (its floats then match bit for bit), stored as float. */
void vq_ssimulacra2_blur_coeffs(VqSsimulacra2Blur *bl, double sigma)
{
    const double pi = 3.141592653589793238;
    double radius = round(3.2795 * sigma + 0.2546);
    double omega[3], p[3], r[3], rho[3];
    for (int i = 0; i < 3; i++) {
        omega[i] = (2 * i + 1) * (pi / (2.0 * radius));
        double sign = i == 1 ? -1.0 : 1.0;             /* (37), (44) */
        p[i] = sign / tan(0.5 * omega[i]);
        r[i] = sign * p[i] * p[i] / sin(omega[i]);
    }
    double neg_half_sigma2 = -0.5 * sigma * sigma, recip_radius = 1.0 / radius;
    for (int i = 0; i < 3; i++)                         /* (50) */
        rho[i] = exp(neg_half_sigma2 * omega[i] * omega[i]) * recip_radius;
    double d13 = p[0] * r[1] - r[0] * p[1];            /* (52) */
    double d35 = p[1] * r[2] - r[1] * p[2];
    double d51 = p[2] * r[0] - r[2] * p[0];
    double recip_d13 = 1.0 / d13;
    double zeta15 = d35 * recip_d13, zeta35 = d51 * recip_d13;
    /* (53)-(56): beta = A^-1 gamma, A inverted through its adjugate. */
    double a[3][3] = { { p[0], p[1], p[2] },
                       { r[0], r[1], r[2] },
                       { zeta15, zeta35, 1.0 } };
    double adj[3][3];
    for (int j = 0; j < 3; j++) {
        for (int i = 0; i < 3; i++) {
            int r0 = (i + 1) % 3, r1 = (i + 2) % 3, c0 = (j + 1) % 3,
                c1 = (j + 2) % 3;
            adj[j][i] = a[r0][c0] * a[r1][c1] - a[r0][c1] * a[r1][c0];
        }
    }
    double det = a[0][0] * adj[0][0] + a[0][1] * adj[1][0] + a[0][2] * adj[2][0];
    double idet = 1.0 / det;
    double g[3] = { 1.0, radius * radius - sigma * sigma,
                    zeta15 * rho[0] + zeta35 * rho[1] + rho[2] };
    for (int i = 0; i < 3; i++) {
        double beta = 0.0;
        for (int j = 0; j < 3; j++)
            beta += adj[i][j] * idet * g[j];
        double n2 = -beta * cos(omega[i] * (radius + 1.0)); /* (33) */
        double d1 = -2.0 * cos(omega[i]);
        double d2 = d1 * d1;
        bl->n2[i] = (float)n2;
        bl->d1[i] = (float)d1;
        /* The recursion expanded over four outputs o0..o3 from inputs
         * i0..i3 and the outputs p, pp before them:
         * o0 = n i0 - d p - pp, o1 = n i1 - d o0 - p, ... */
        bl->mul_prev[i][0] = (float)-d1;
        bl->mul_prev[i][1] = (float)(d2 - 1.0);
        bl->mul_prev[i][2] = (float)(-d2 * d1 + 2.0 * d1);
        bl->mul_prev[i][3] = (float)(d2 * d2 - 3.0 * d2 + 1.0);
        bl->mul_prev2[i][0] = -1.0f;
        bl->mul_prev2[i][1] = (float)d1;
        bl->mul_prev2[i][2] = (float)(-d2 + 1.0);
        bl->mul_prev2[i][3] = (float)(d2 * d1 - 2.0 * d1);
        bl->mul_in[i][0] = (float)n2;
        bl->mul_in[i][1] = (float)(-d1 * n2);
        bl->mul_in[i][2] = (float)(d2 * n2 - n2);
        bl->mul_in[i][3] = (float)(-d2 * d1 * n2 + 2.0 * d1 * n2);
    }
}

void vq_ssimulacra2_dims(VqSsimulacra2Dims *d, unsigned w, unsigned h)
{
    size_t off = 0;
    d->n_scales = 0;
    for (unsigned s = 0; s < VQ_S2_SCALES; s++) {
        if (s && (d->w[s - 1] < VQ_S2_MIN_SIZE || d->h[s - 1] < VQ_S2_MIN_SIZE))
            break;
        d->w[s] = s ? (d->w[s - 1] + 1) / 2 : w;
        d->h[s] = s ? (d->h[s - 1] + 1) / 2 : h;
        d->nseg[s] = (d->h[s] + VQ_S2_SEG - 1) / VQ_S2_SEG;
        d->off[s] = off;
        off += (size_t)3 * VQ_S2_SUMS * d->nseg[s];
        d->n_scales++;
    }
    d->n_doubles = off;
}

float vq_ssimulacra2_neg_bias_cbrt(void)
{
    return (float)-cbrt((double)VQ_S2_BIAS);
}

static const char *const matrix_names[] = {
    "unspecified", "bt709", "bt601", "smpte240m", "fcc", "bt2020nc", "ycgco",
    "other",
};

int vq_ssimulacra2_color(VqSsimulacra2Color *c, const VqFormat *fmt, unsigned k, int matrix,
                int range, VqErrBuf *e)
{
    const char *which = k ? "distorted" : "reference";
    if ((unsigned)fmt->matrix[k] > VQ_MATRIX_OTHER ||
        (unsigned)fmt->range[k] > VQ_RANGE_FULL ||
        (unsigned)fmt->chroma_loc[k] > VQ_CHROMA_LOC_BOTTOM)
        return vq_fail(e, VQ_EINVAL,
                       "ssimulacra2: the %s picture's colour description is "
                       "out of range (matrix %d, range %d, chroma location "
                       "%d)", which, (int)fmt->matrix[k], (int)fmt->range[k],
                       (int)fmt->chroma_loc[k]);
    int m = matrix != S2_MATRIX_AUTO ? matrix : (int)fmt->matrix[k];
    if (m == VQ_MATRIX_UNSPECIFIED) /* the usual guess of players (HD: 709) */
        m = fmt->w[0] >= 1280 || fmt->h[0] > 576 ? VQ_MATRIX_BT709
                                                 : VQ_MATRIX_BT601;
    int r = range != S2_RANGE_AUTO ? range : (int)fmt->range[k];
    if (r == VQ_RANGE_UNSPECIFIED)
        r = VQ_RANGE_LIMITED;

    /* Luma weights of ITU-T H.273's matrices (Kr, Kb). */
    double kr, kb;
    switch (m) {
    case VQ_MATRIX_BT709: kr = 0.2126; kb = 0.0722; break;
    case VQ_MATRIX_BT601: kr = 0.299; kb = 0.114; break;
    case VQ_MATRIX_SMPTE240M: kr = 0.212; kb = 0.087; break;
    case VQ_MATRIX_FCC: kr = 0.30; kb = 0.11; break;
    case VQ_MATRIX_BT2020_NCL: kr = 0.2627; kb = 0.0593; break;
    case VQ_MATRIX_YCGCO: kr = kb = 0.0; break;
    default:
        if (fmt->fmt == VQ_PIX_FMT_GRAY) {
            kr = kb = 0.0;
            break;
        }
        return vq_fail(e, VQ_EUNSUPPORTED,
                       "ssimulacra2: the %s picture's matrix (%s) cannot be "
                       "converted to RGB; set matrix= (bt709, bt601, "
                       "smpte240m, fcc, bt2020nc, ycgco)", which,
                       matrix_names[m >= 0 && m <= VQ_MATRIX_OTHER ? m : 7]);
    }
    double cm[3][2];
    if (m == VQ_MATRIX_YCGCO) {
        /* Cb carries Cg, Cr carries Co */
        cm[0][0] = -1.0; cm[0][1] = 1.0;
        cm[1][0] = 1.0;  cm[1][1] = 0.0;
        cm[2][0] = -1.0; cm[2][1] = -1.0;
    } else {
        double kg = 1.0 - kr - kb;
        cm[0][0] = 0.0;
        cm[0][1] = 2.0 * (1.0 - kr);
        cm[1][0] = kg > 0 ? -2.0 * kb * (1.0 - kb) / kg : 0.0;
        cm[1][1] = kg > 0 ? -2.0 * kr * (1.0 - kr) / kg : 0.0;
        cm[2][0] = 2.0 * (1.0 - kb);
        cm[2][1] = 0.0;
    }
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 2; j++)
            c->m[i][j] = (float)cm[i][j];

    /* zimg's integer ranges: limited 219 (luma) / 224 (chroma) steps of
     * 2^(bpc-8) from 16 / 128; full 2^bpc - 1 steps, chroma centred at
     * 2^(bpc-1). */
    unsigned sh = fmt->bpc - 8;
    double full = (double)((1u << fmt->bpc) - 1);
    if (r == VQ_RANGE_FULL) {
        c->y_off = 0.0f;
        c->y_scale = (float)(1.0 / full);
        c->c_scale = (float)(1.0 / full);
    } else {
        c->y_off = (float)(16u << sh);
        c->y_scale = (float)(1.0 / (double)(219u << sh));
        c->c_scale = (float)(1.0 / (double)(224u << sh));
    }
    c->c_off = (float)(1u << (fmt->bpc - 1));
    c->gray = fmt->fmt == VQ_PIX_FMT_GRAY;
    c->ss_x = (int)fmt->ss_x;
    c->ss_y = (int)fmt->ss_y;

    /* Chroma siting (unspecified: left, as zimg and FFmpeg's zscale):
     * phase 0 co-sited, 1 centred, 2 on the next row. */
    switch (fmt->chroma_loc[k]) {
    case VQ_CHROMA_LOC_CENTER: c->phase_x = 1; c->phase_y = 1; break;
    case VQ_CHROMA_LOC_TOPLEFT: c->phase_x = 0; c->phase_y = 0; break;
    case VQ_CHROMA_LOC_TOP: c->phase_x = 1; c->phase_y = 0; break;
    case VQ_CHROMA_LOC_BOTTOMLEFT: c->phase_x = 0; c->phase_y = 2; break;
    case VQ_CHROMA_LOC_BOTTOM: c->phase_x = 1; c->phase_y = 2; break;
    default: c->phase_x = 0; c->phase_y = 1; break;
    }
    return 0;
}
