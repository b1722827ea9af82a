/*
 * CAMBI's parameters, derived once at init exactly as libvmaf's cambi.c
 * derives them: encode and source sizes, window sizes, the spatial mask
 * threshold, the visibility thresholds (tvi) and the vis-lum threshold from
 * the EOTFs of luminance_tools.c, the resampling maps and the reciprocal
 * table.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cambi_priv.h"

#define CAMBI_DEFAULT_TVI 0.019
#define CAMBI_DEFAULT_TOPK 0.6
#define CAMBI_DEFAULT_EOTF "bt1886"

/* libvmaf's suprathreshold contrast response (cambi.c g_contrast_weights). */
static const int contrast_weights[VQ_CAMBI_MAX_DIFFS] = {
    1, 2, 3, 4, 4, 5, 5, 6, 6, 6, 6, 7, 7, 7, 7, 8,
    8, 8, 8, 8, 8, 8, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9
};

/* libvmaf's tvi_for_diff for diff = 1..32 at the default tvi_threshold
 * (0.019), 10-bit limited range, printed by libvmaf 3.2.0 (f85a8536)
 * get_tvi_for_diff(). Other thresholds are computed below; a unit test
 * checks that the computation gives these numbers. */
static const int tvi_default_bt1886[VQ_CAMBI_MAX_DIFFS] = {
    178, 305, 432, 559, 686, 813, 1023, 1023, 1023, 1023, 1023, 1023, 1023,
    1023, 1023, 1023, 1023, 1023, 1023, 1023, 1023, 1023, 1023, 1023, 1023,
    1023, 1023, 1023, 1023, 1023, 1023, 1023
};
static const int tvi_default_pq[VQ_CAMBI_MAX_DIFFS] = {
    233, 1023, 1023, 1023, 1023, 1023, 1023, 1023, 1023, 1023, 1023, 1023,
    1023, 1023, 1023, 1023, 1023, 1023, 1023, 1023, 1023, 1023, 1023, 1023,
    1023, 1023, 1023, 1023, 1023, 1023, 1023, 1023
};

/* libvmaf's cambi.h reciprocal_lut holds 1.0f / i except at these entries,
 * where its decimal literals round to the neighbouring float (the values
 * are that table's, libvmaf 3.2.0 f85a8536). */
static const struct { int i; float r; } recip_exceptions[] = {
    { 82, 0x1.8f9c1ap-7f }, { 83, 0x1.8acb92p-7f }, { 244, 0x1.0c9716p-8f },
    { 488, 0x1.0c9716p-9f }, { 504, 0x1.04104p-9f }, { 510, 0x1.0101p-9f },
    { 528, 0x1.f07c1ep-10f }, { 564, 0x1.d0cb5ap-10f },
    { 614, 0x1.aaf1d4p-10f }, { 664, 0x1.8acb92p-10f },
    { 749, 0x1.5dfdf2p-10f }, { 760, 0x1.58ed22p-10f },
    { 892, 0x1.25e226p-10f }, { 1419, 0x1.717a24p-11f },
    { 1699, 0x1.349614p-11f }, { 1906, 0x1.13128ap-11f },
    { 2040, 0x1.0101p-11f }, { 2071, 0x1.fa5058p-12f },
    { 2112, 0x1.f07c1ep-12f }, { 2223, 0x1.d7b1bp-12f },
    { 2443, 0x1.ad377p-12f }, { 2555, 0x1.9a66ccp-12f },
    { 2740, 0x1.7eb126p-12f }, { 2927, 0x1.663e18p-12f },
    { 3285, 0x1.3f3382p-12f }, { 3515, 0x1.2a508cp-12f },
    { 3525, 0x1.2977e6p-12f }, { 3705, 0x1.1b0436p-12f },
    { 3795, 0x1.144dfap-12f }, { 3797, 0x1.1428b8p-12f },
    { 3812, 0x1.13128ap-12f }, { 3837, 0x1.1147b8p-12f },
    { 3885, 0x1.0de75ap-12f }, { 4033, 0x1.03ffbep-12f },
    { 4080, 0x1.0101p-12f }, { 4091, 0x1.005018p-12f },
    { 4095, 0x1.001p-12f }, { 4130, 0x1.fbc8f6p-13f },
    { 4142, 0x1.fa5058p-13f }, { 4203, 0x1.f2f72ap-13f },
    { 4218, 0x1.f130eap-13f }, { 4224, 0x1.f07c1ep-13f },
};

/* ---- luminance (libvmaf luminance_tools.c) ------------------------------ */

enum { LUMA_FOOT = 64, LUMA_HEAD = 940 }; /* 10-bit limited range */

typedef double (*Eotf)(double);

static double eotf_bt1886(double v)
{
    const double gamma = 2.4, lw = 300.0, lb = 0.01;
    double a = pow(pow(lw, 1.0 / gamma) - pow(lb, 1.0 / gamma), gamma);
    double b = pow(lb, 1.0 / gamma) /
               (pow(lw, 1.0 / gamma) - pow(lb, 1.0 / gamma));
    double x = v + b;
    return a * pow(x > 0 ? x : 0, gamma);
}

static double eotf_pq(double v)
{
    const double m1 = 0.1593017578125, m2 = 78.84375;
    const double c1 = 0.8359375, c2 = 18.8515625, c3 = 18.6875;
    double num = pow(v, 1.0 / m2) - c1;
    double den = c2 - c3 * pow(v, 1.0 / m2);
    return 10000 * pow((num > 0 ? num : 0) / den, 1.0 / m1);
}

static double luminance(int sample, Eotf eotf)
{
    int c = sample < LUMA_FOOT ? LUMA_FOOT : sample > LUMA_HEAD ? LUMA_HEAD
                                                                : sample;
    return eotf((double)(c - LUMA_FOOT) / (LUMA_HEAD - LUMA_FOOT));
}

/* Is a step of diff from sample visible (above the TVI threshold)? */
static bool visible(int sample, int diff, double tvi, Eotf eotf)
{
    double mean = luminance(sample, eotf);
    return luminance(sample + diff, eotf) - mean > tvi * mean;
}

enum { TOO_SMALL, EXACT, TOO_BIG };
static int tvi_probe(int sample, int diff, double tvi, Eotf eotf)
{
    if (!visible(sample, diff, tvi, eotf))
        return TOO_BIG;
    return visible(sample + 1, diff, tvi, eotf) ? TOO_SMALL : EXACT;
}

/* The largest sample at which a step of diff is still visible, found by
 * libvmaf's bisection (cambi.c get_tvi_for_diff); -1 if it does not end. */
static int tvi_bisect(int diff, double tvi, Eotf eotf)
{
    int lo = LUMA_FOOT, hi = LUMA_HEAD - diff - 1;
    int r = tvi_probe(lo, diff, tvi, eotf);
    if (r != TOO_SMALL)
        return r == TOO_BIG ? 0 : lo;
    r = tvi_probe(hi, diff, tvi, eotf);
    if (r != TOO_BIG)
        return r == TOO_SMALL ? 1023 : hi;
    for (int it = 0; it < 64; it++) {
        int mid = lo + (hi - lo) / 2;
        r = tvi_probe(mid, diff, tvi, eotf);
        if (r == EXACT)
            return mid;
        if (r == TOO_BIG)
            hi = mid;
        else
            lo = mid;
    }
    return -1;
}

/* ---- sizes --------------------------------------------------------------- */

/* libvmaf's adjust_window_size: the window scaled to the picture size. */
static unsigned adjust_window(int window, unsigned w, unsigned h, bool speedup)
{
    unsigned win = ((unsigned)window * (w + h) / 375) >> 4;
    if (speedup)
        win = (win + 1) >> 1;
    return win | 1;
}

/* libvmaf's get_mask_index for the 7x7 window. */
static unsigned mask_index(unsigned w, unsigned h)
{
    uint32_t n = (w >> 6) * (h >> 6);
    int log2 = 0;
    for (uint32_t t = n ? n - 1 : 0; t; t >>= 1)
        log2++;
    return (unsigned)((49 + 3 * (log2 - 11) - 1) >> 1);
}

/* Nearest-neighbour map of libvmaf's decimate_generic_*: the float steps
 * of its loop, accumulated the same way. Clamped to the input, which
 * libvmaf's maps never leave. */
static int *resample_map(unsigned in, unsigned out)
{
    int *map = malloc(out * sizeof(*map));
    if (!map)
        return NULL;
    float ratio = (float)in / (float)out;
    float start = (float)((double)(ratio / 2.0f) - 0.5);
    float x = start;
    for (unsigned j = 0; j < out; j++) {
        int o = (int)((double)x + 0.5);
        map[j] = o < 0 ? 0 : o >= (int)in ? (int)in - 1 : o;
        x += ratio;
    }
    return map;
}

static int setup_image(VqFex *fex, CambiImage *im, const VqFormat *fmt,
                       unsigned w, unsigned h, unsigned window,
                       double topk, const char *which)
{
    CambiPriv *s = fex->priv;
    im->w = w;
    im->h = h;
    im->window = window;
    im->pad = window >> 1;
    im->mask_index = mask_index(w, h);
    unsigned sw = w, sh = h;
    for (unsigned k = 0; k < VQ_CAMBI_SCALES; k++) {
        if (k || s->speedup) {
            sw = (sw + 1) >> 1;
            sh = (sh + 1) >> 1;
        }
        im->sw[k] = sw;
        im->sh[k] = sh;
        im->mask_shift[k] = k + s->speedup;
        int n = (int)(sw * sh);
        int kk = (int)(topk * n);
        im->k[k] = (uint64_t)(kk < 1 ? 1 : kk > n ? n : kk);
    }
    /* libvmaf's sliding histograms read rows and columns past the picture
     * when the smallest scale is narrower than half the window (its result
     * there depends on stale memory): refused. */
    if (sw < im->pad || sh < im->pad + 1)
        return vq_fail(fex->err, VQ_EUNSUPPORTED,
                       "cambi: a %ux%u picture (%s size) is too thin for "
                       "CAMBI's window: its 5th scale is %ux%u, and the "
                       "%u-sample window needs at least %ux%u there", w, h,
                       which, sw, sh, window, im->pad, im->pad + 1);
    if (w != fmt->w[0] || h != fmt->h[0]) {
        im->xmap = resample_map(fmt->w[0], w);
        im->ymap = resample_map(fmt->h[0], h);
        if (!im->xmap || !im->ymap)
            return vq_fail(fex->err, VQ_ENOMEM, "cambi: out of memory");
    }
    return 0;
}

static int eotf_of(const char *name, Eotf *eotf, const int **table)
{
    if (!strcmp(name, "bt1886")) {
        *eotf = eotf_bt1886;
        *table = tvi_default_bt1886;
    } else if (!strcmp(name, "pq")) {
        *eotf = eotf_pq;
        *table = tvi_default_pq;
    } else {
        return -1;
    }
    return 0;
}

int cambi_tvi_for_diff(int diff, double tvi, const char *eotf_name,
                       int *carried)
{
    Eotf eotf;
    const int *table;
    if (eotf_of(eotf_name, &eotf, &table) || diff < 1 ||
        diff > VQ_CAMBI_MAX_DIFFS)
        return -1;
    *carried = table[diff - 1];
    return tvi_bisect(diff, tvi, eotf);
}

static int setup_luts(VqFex *fex)
{
    CambiPriv *s = fex->priv;
    const char *name = strcmp(s->cambi_eotf, CAMBI_DEFAULT_EOTF) ? s->cambi_eotf
                                                                 : s->eotf;
    Eotf eotf;
    const int *table;
    if (eotf_of(name, &eotf, &table))
        return vq_fail(fex->err, VQ_EINVAL, "cambi: unknown eotf '%s' "
                       "(bt1886 or pq)", name);
    VqCambiLuts *L = &s->luts;
    L->nd = 1 << s->max_log_contrast;
    for (int d = 0; d < L->nd; d++) {
        int t = s->tvi_threshold == CAMBI_DEFAULT_TVI
              ? table[d] : tvi_bisect(d + 1, s->tvi_threshold, eotf);
        if (t < 0)
            return vq_fail(fex->err, VQ_EINVAL, "cambi: no visibility "
                           "threshold for tvi_threshold=%g", s->tvi_threshold);
        L->tvi[d] = t + L->nd;
        L->weight[d] = contrast_weights[d];
    }
    /* the smallest sample whose luminance reaches cambi_vis_lum_threshold
     * (0 when that is the foot) */
    int v = LUMA_FOOT;
    while (v <= 1023 && luminance(v, eotf) < s->vis_lum_threshold)
        v++;
    if (v > 1023)
        return vq_fail(fex->err, VQ_EINVAL, "cambi: cambi_vis_lum_threshold="
                       "%g is above the brightest luminance of eotf %s",
                       s->vis_lum_threshold, name);
    L->vlt = v == LUMA_FOOT ? 0 : v;
    int lo = L->vlt - 3 * L->nd + 1;
    L->base = lo > 0 ? lo : 0;
    /* an empty band (possible only with a high vis-lum threshold) makes
     * every c-value 0, as libvmaf's gating does */
    int band = L->tvi[L->nd - 1] + 1 - L->base;
    L->band = band > 0 ? band : 0;
    return 0;
}

void cambi_recip_fill(float *recip)
{
    recip[0] = 0.0f;
    for (int i = 1; i < CAMBI_RECIP_SIZE; i++)
        recip[i] = 1.0f / (float)i;
    for (size_t k = 0; k < sizeof(recip_exceptions) / sizeof(recip_exceptions[0]);
         k++)
        recip[recip_exceptions[k].i] = recip_exceptions[k].r;
}

int cambi_params_init(VqFex *fex, const VqFormat *fmt)
{
    CambiPriv *s = fex->priv;
    const unsigned w = fmt->w[0], h = fmt->h[0];
    unsigned ew = w, eh = h, srcw = w, srch = h;
    if (s->enc_width && s->enc_height) {
        ew = (unsigned)s->enc_width;
        eh = (unsigned)s->enc_height;
    }
    if (s->src_width && s->src_height) {
        srcw = (unsigned)s->src_width;
        srch = (unsigned)s->src_height;
    }
    /* a downscaled encode is scored at the frame's size */
    if (eh > h || ew > w) {
        ew = w;
        eh = h;
    }
    if (ew < CAMBI_MIN_SIDE && eh < CAMBI_MIN_SIDE)
        return vq_fail(fex->err, VQ_EUNSUPPORTED,
                       "cambi: a %ux%u picture is too small; CAMBI (as "
                       "libvmaf's) needs a width or a height of at least %d",
                       ew, eh, CAMBI_MIN_SIDE);
    if (srcw < CAMBI_MIN_SIDE && srch < CAMBI_MIN_SIDE)
        return vq_fail(fex->err, VQ_EUNSUPPORTED,
                       "cambi: a %ux%u source is too small; CAMBI needs a "
                       "width or a height of at least %d", srcw, srch,
                       CAMBI_MIN_SIDE);
    /* a size this run cannot score (as the minimum sizes above), not a
     * bad option: the frame size decides */
    if ((srcw > ew && srch < eh) || (srcw < ew && srch > eh))
        return vq_fail(fex->err, VQ_EUNSUPPORTED,
                       "cambi: source size %ux%u and encode size %ux%u are "
                       "not one a scaling of the other", srcw, srch, ew, eh);

    unsigned pix = ew * eh;
    s->speedup = (s->high_res_speedup == 1080 && pix >= 1920 * 1080) ||
                 (s->high_res_speedup == 1440 && pix >= 2560 * 1440) ||
                 (s->high_res_speedup == 2160 && pix >= 3840 * 2160);
    s->anti_dither = (s->enc_bitdepth ? (unsigned)s->enc_bitdepth : fmt->bpc) < 10;
    s->n_images = s->full_ref ? 2 : 1;

    int err = setup_luts(fex);
    if (err)
        return err;
    cambi_recip_fill(s->recip);

    unsigned win = adjust_window(s->window_size, ew, eh, s->speedup);
    unsigned src_win = adjust_window(s->window_size, srcw, srch, s->speedup);
    unsigned max_win = win > src_win ? win : src_win;
    if (max_win * max_win >= CAMBI_RECIP_SIZE)
        return vq_fail(fex->err, VQ_EUNSUPPORTED,
                       "cambi: window_size %d becomes a %u-sample window at "
                       "%ux%u, larger than the 65 libvmaf's CAMBI allows; use "
                       "a smaller window_size or cambi_high_res_speedup",
                       s->window_size, max_win, win >= src_win ? ew : srcw,
                       win >= src_win ? eh : srch);

    double topk = s->topk != CAMBI_DEFAULT_TOPK ? s->topk : s->cambi_topk;
    err = setup_image(fex, &s->img[0], fmt, ew, eh, win, topk, "encode");
    if (!err && s->full_ref)
        err = setup_image(fex, &s->img[1], fmt, srcw, srch, src_win, topk,
                          "source");
    if (err)
        return err;

    int max_w = 0;
    for (int d = 0; d < s->luts.nd; d++)
        if (s->luts.weight[d] > max_w)
            max_w = s->luts.weight[d];
    int max_c = max_w * (int)win * (int)win / 4;
    s->heat_scale = 65535.0 / max_c;
    for (unsigned k = 0; k < VQ_CAMBI_SCALES; k++)
        s->heat_size[k] = s->heatmaps_path[0]
                        ? (size_t)s->img[0].sw[k] * s->img[0].sh[k] * 2 : 0;
    return 0;
}

void cambi_params_free(CambiPriv *s)
{
    for (unsigned i = 0; i < 2; i++) {
        free(s->img[i].xmap);
        free(s->img[i].ymap);
        s->img[i].xmap = s->img[i].ymap = NULL;
    }
}
