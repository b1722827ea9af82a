/*
 * SpEED setup, on the host, once per run: libvmaf's checks of the options,
 * the sizes (speed_init_dimensions), the Gaussian filters (vif_tools.c's
 * kernels, made with the host's exp and sqrt as libvmaf makes them) and the
 * prescale tables (vif_scale_frame_s: per scaled row and column, the source
 * positions and weights; lanczos4's weights need sin, so both backends read
 * them from these tables).
 *
 * Every expression keeps libvmaf's types: float variables, double where a
 * double constant or libm call enters.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "speed_engine.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

const char *const vq_speed_methods[] = { "nearest", "bilinear", "bicubic",
                                         "lanczos4", NULL };

/* libvmaf's valid_kernelscales (vif_tools.h). */
static const float valid_kernelscales[] = {
    1.0f, 1.0f / 2.0f, 3.0f / 2.0f, 2.0f, 2.0f / 3.0f, 24.0f / 10.0f,
    360.0f / 97.0f, 4.0f / 3.0f, 3.5f / 3.0f, 3.75f / 3.0f, 4.25f / 3.0f,
    5.0f / 3.0f, 3.0f, 1.0f / 2.25f, 1.4746f, 1.54f, 1.6f, 1.06667f,
    0.711111f, 0.740740f, 1.111111f,
};
#define N_KERNELSCALES (sizeof(valid_kernelscales) / sizeof(valid_kernelscales[0]))

static bool kernelscale_valid(float ks)
{
    for (size_t i = 0; i < N_KERNELSCALES; i++)
        if (fabsf(ks - valid_kernelscales[i]) < 1e-3)
            return true;
    return false;
}

static int round_up_to_odd(float f)
{
    int c = (int)ceil(f);
    return c % 2 == 0 ? c + 1 : c;
}

static int filter_size(int scale, float ks)
{
    int n = (1 << (4 - scale)) + 1;
    int r = round_up_to_odd(n * ks);
    return r > 3 ? r : 3;
}

static float gaussian_pdf(float x, float mean, float stdev)
{
    float num = (float)exp(-0.5 * (x - mean) / stdev * (x - mean) / stdev);
    float den = (float)(1 / (stdev * sqrt(2 * M_PI)));
    return num / den;
}

static void gaussian_kernel(float *out, int size, float stdev)
{
    float sum = 0;
    int k = (size - 1) / 2;
    for (int i = 0; i < size; i++) {
        out[i] = gaussian_pdf((float)(i - k), 0, stdev);
        sum += out[i];
    }
    for (int i = 0; i < size; i++)
        out[i] /= sum;
}

static float mirror_f(float i, float left, float right)
{
    return i < left ? -i : i > right ? 2 * right - i : i;
}

static float bicubic_kernel(float t)
{
    float a = -0.75f;
    if (t < 0)
        t = -t;
    if (t < 1)
        return ((a + 2) * t - (a + 3)) * t * t + 1;
    if (t < 2)
        return (((t - 5) * t + 8) * t - 4) * a;
    return 0;
}

static float lanczos4_kernel(float x, float a)
{
    if (x == 0.0)
        return 1.0f;
    if (x > -a && x < a)
        return (float)(a * sin(M_PI * x) * sin(M_PI * x / a) /
                       (M_PI * M_PI * x * x));
    return 0.0f;
}

/* The table entry of scaled position p (a row or a column) for a source of
 * n samples scaled to m. */
static void axis_entry(VqSpeedAxis *t, int method, int p, int n, int m)
{
    const float ratio = (float)n / m;
    memset(t, 0, sizeof(*t));
    if (method == VQ_SPEED_SCALE_NEAREST) {
        t->idx[0] = (int)(p * ratio);
        return;
    }
    const float pp = (float)((p + 0.5) * ratio - 0.5);
    if (method == VQ_SPEED_SCALE_BILINEAR) {
        t->idx[0] = (int)mirror_f((float)floor(pp), 0, (float)(n - 1));
        t->idx[1] = (int)mirror_f((float)ceil(pp), 0, (float)(n - 1));
        t->w[0] = pp - t->idx[0];
        return;
    }
    const int p0 = (int)floor(pp);
    const float d = pp - p0;
    if (method == VQ_SPEED_SCALE_BICUBIC) {
        for (int i = -1; i <= 2; i++) {
            t->w[i + 1] = bicubic_kernel(i - d);
            t->idx[i + 1] = (int)mirror_f((float)(p0 + i), 0, (float)(n - 1));
        }
        return;
    }
    const int a = 4;
    for (int i = -a; i <= a; i++) {
        t->w[i + a] = lanczos4_kernel(i - d, (float)a);
        t->idx[i + a] = (int)mirror_f((float)(p0 + i), 0, (float)(n - 1));
    }
}

static int method_of(const char *name)
{
    static const int ids[] = { VQ_SPEED_SCALE_NEAREST, VQ_SPEED_SCALE_BILINEAR,
                               VQ_SPEED_SCALE_BICUBIC, VQ_SPEED_SCALE_LANCZOS4 };
    for (int i = 0; vq_speed_methods[i]; i++)
        if (!strcmp(name, vq_speed_methods[i]))
            return ids[i];
    return -1;
}

static int scaled_size(unsigned n, double prescale)
{
    return (int)(n * prescale + 0.5);
}

unsigned vq_speed_min_side(double prescale)
{
    unsigned n = 1;
    while (scaled_size(n, prescale) < VQ_SPEED_B << VQ_SPEED_SCALES)
        n++;
    return n;
}

int vq_speed_setup(VqSpeed *sp, const VqSpeedOpts *o, unsigned w, unsigned h,
                   const char *name, const char *plane, const char *min_hint,
                   VqErrBuf *e)
{
    memset(sp, 0, sizeof(*sp));
    vq_speed_dsp_init(&sp->dsp, vq_cpu_flags());
    VqSpeedGeom *g = &sp->g;
    const float ks = (float)o->kernelscale;
    if (!kernelscale_valid(ks)) {
        char list[512];
        size_t len = 0;
        for (size_t i = 0; i < N_KERNELSCALES && len < sizeof(list); i++)
            len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%g",
                                    i ? ", " : "", valid_kernelscales[i]);
        return vq_fail(e, VQ_EINVAL, "%s: speed_kernelscale %g is not one "
                       "of libvmaf's kernel scales (within 0.001): %s", name,
                       o->kernelscale, list);
    }
    const int method = method_of(o->method);
    if (method < 0)
        return vq_fail(e, VQ_EINVAL, "%s: unknown speed_prescale_method '%s'",
                       name, o->method);
    g->src_w = (int32_t)w;
    g->src_h = (int32_t)h;
    g->sw = scaled_size(w, o->prescale);
    g->sh = scaled_size(h, o->prescale);
    const bool almost_one = fabs(o->prescale - 1.0) < 1.0e-3;
    if (almost_one && (g->sw != g->src_w || g->sh != g->src_h))
        return vq_fail(e, VQ_EUNSUPPORTED, "%s: speed_prescale %g is within "
                       "0.001 of 1, which libvmaf does not apply, yet it "
                       "makes a %dx%d plane out of the %ux%u %s (libvmaf then "
                       "reads unset samples); use 1", name, o->prescale, g->sw,
                       g->sh, w, h, plane);
    g->method = almost_one || (g->sw == g->src_w && g->sh == g->src_h)
              ? VQ_SPEED_SCALE_NONE : method;
    g->dw = g->sw >> VQ_SPEED_SCALES;
    g->dh = g->sh >> VQ_SPEED_SCALES;
    g->tw = g->dw / VQ_SPEED_B * VQ_SPEED_B;
    g->th = g->dh / VQ_SPEED_B * VQ_SPEED_B;
    if (!g->tw || !g->th)
        return vq_fail(e, VQ_EUNSUPPORTED, "%s: the %ux%u %s is too small: "
                       "SpEED needs %dx%d samples or more after speed_prescale "
                       "%g (one 5x5 block after four halvings), that is a "
                       "plane of at least %ux%u%s", name, w, h, plane,
                       VQ_SPEED_B << VQ_SPEED_SCALES,
                       VQ_SPEED_B << VQ_SPEED_SCALES, o->prescale,
                       vq_speed_min_side(o->prescale),
                       vq_speed_min_side(o->prescale),
                       min_hint ? min_hint : "");
    g->nbh = g->tw / VQ_SPEED_B;
    g->nbv = g->th / VQ_SPEED_B;
    g->nb = g->nbh * g->nbv;
    g->subw = g->tw - VQ_SPEED_B + 1;
    g->subh = g->th - VQ_SPEED_B + 1;
    g->sigma_nn = (float)o->sigma_nn;

    g->aa_taps = filter_size(1, ks);
    gaussian_kernel(g->aa, g->aa_taps,
                    (float)(sqrt(VQ_SPEED_SCALES) * g->aa_taps / 5.0f));
    g->f4_taps = filter_size(VQ_SPEED_SCALES, ks);
    gaussian_kernel(g->f4, g->f4_taps, g->f4_taps / 5.0f);

    if (g->method != VQ_SPEED_SCALE_NONE) {
        sp->rows = calloc((size_t)g->sh, sizeof(*sp->rows));
        sp->cols = calloc((size_t)g->sw, sizeof(*sp->cols));
        if (!sp->rows || !sp->cols) {
            vq_speed_release(sp);
            return vq_fail(e, VQ_ENOMEM, "%s: out of memory", name);
        }
        for (int y = 0; y < g->sh; y++)
            axis_entry(&sp->rows[y], g->method, y, g->src_h, g->sh);
        for (int x = 0; x < g->sw; x++)
            axis_entry(&sp->cols[x], g->method, x, g->src_w, g->sw);
    }

    const float nn_floor = (float)o->nn_floor;
    sp->base_entropy = (float)(VQ_SPEED_N *
        (vq_speed_log2((double)((1 + nn_floor) * g->sigma_nn)) +
         VQ_SPEED_LOG2_2PIE));
    sp->weight_var_mode = o->weight_var_mode;
    sp->img_floats = (size_t)g->dw * (size_t)g->dh;
    return 0;
}

void vq_speed_release(VqSpeed *sp)
{
    free(sp->rows);
    free(sp->cols);
    sp->rows = sp->cols = NULL;
}
