/*
 * CAMBI (libvmaf's "cambi", cambi.c): the banding score of the distorted
 * luma, and with full_ref also of the reference (cambi_source) and their
 * difference (cambi_full_reference). Options, output names, init checks and
 * the finalize shared by both backends; the work is in cambi_cpu.c and
 * cambi_gpu.c / kernels/cambi.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "../common/gpu_fn.h"
#include "cambi_priv.h"

/* Names, aliases, defaults and ranges as libvmaf's cambi.c (3.2.0). */
#define OPT(field) .offset = offsetof(CambiPriv, field)
static const char *const eotf_choices[] = { "bt1886", "pq", NULL };
static const VqOption cambi_options[] = {
    { .name = "cambi_max_val", .alias = "cmxv",
      .help = "larger scores are clipped to this value", OPT(max_val),
      .type = VQ_OPT_DOUBLE, .def.d = 1000.0, .min = 0.0, .max = 1000.0,
      .flags = VQ_OPT_FEATURE_PARAM },
    { .name = "enc_width", .alias = "encw",
      .help = "encoding width (scored at this size; 0: the frame's)",
      OPT(enc_width), .type = VQ_OPT_INT, .def.i = 0, .min = 180,
      .max = 7680, .flags = VQ_OPT_FEATURE_PARAM },
    { .name = "enc_height", .alias = "ench", .help = "encoding height",
      OPT(enc_height), .type = VQ_OPT_INT, .def.i = 0, .min = 150,
      .max = 7680, .flags = VQ_OPT_FEATURE_PARAM },
    { .name = "enc_bitdepth", .alias = "encbd",
      .help = "encoding bit depth (below 10: anti-dithering; 0: the "
              "frame's)", OPT(enc_bitdepth), .type = VQ_OPT_INT, .def.i = 0,
      .min = 6, .max = 16, .flags = VQ_OPT_FEATURE_PARAM },
    { .name = "src_width", .alias = "srcw",
      .help = "source width (full_ref)", OPT(src_width), .type = VQ_OPT_INT,
      .def.i = 0, .min = 320, .max = 7680, .flags = VQ_OPT_FEATURE_PARAM },
    { .name = "src_height", .alias = "srch",
      .help = "source height (full_ref)", OPT(src_height),
      .type = VQ_OPT_INT, .def.i = 0, .min = 200, .max = 4320,
      .flags = VQ_OPT_FEATURE_PARAM },
    { .name = "window_size", .alias = "ws",
      .help = "window at 4K (65: about one degree), scaled to the size",
      OPT(window_size), .type = VQ_OPT_INT, .def.i = 65, .min = 15,
      .max = 127, .flags = VQ_OPT_FEATURE_PARAM },
    { .name = "topk", .help = "share of the c-values pooled (0 < topk <= 1)",
      OPT(topk), .type = VQ_OPT_DOUBLE, .def.d = 0.6, .min = 0.0001,
      .max = 1.0, .flags = VQ_OPT_FEATURE_PARAM },
    { .name = "cambi_topk", .alias = "ctpk",
      .help = "as topk (topk wins when both are set)", OPT(cambi_topk),
      .type = VQ_OPT_DOUBLE, .def.d = 0.6, .min = 0.0001, .max = 1.0,
      .flags = VQ_OPT_FEATURE_PARAM },
    { .name = "tvi_threshold", .alias = "tvit",
      .help = "visibility threshold: dL < tvi_threshold * L", OPT(tvi_threshold),
      .type = VQ_OPT_DOUBLE, .def.d = 0.019, .min = 0.0001, .max = 1.0,
      .flags = VQ_OPT_FEATURE_PARAM },
    { .name = "cambi_vis_lum_threshold", .alias = "vlt",
      .help = "luminance (cd/m2) below which banding is not visible",
      OPT(vis_lum_threshold), .type = VQ_OPT_DOUBLE, .def.d = 0.0,
      .min = 0.0, .max = 300.0, .flags = VQ_OPT_FEATURE_PARAM },
    { .name = "max_log_contrast", .alias = "mlc",
      .help = "largest contrast, 2^max_log_contrast 10-bit levels (0..5)",
      OPT(max_log_contrast), .type = VQ_OPT_INT, .def.i = 2, .min = 0,
      .max = 5, .flags = VQ_OPT_FEATURE_PARAM },
    { .name = "heatmaps_path",
      .help = "directory for the per-scale c-value maps (16-bit gray)",
      OPT(heatmaps_path), .type = VQ_OPT_STRING, .def.s = "" },
    { .name = "full_ref",
      .help = "also score the reference; cambi_full_reference is the "
              "difference", OPT(full_ref), .type = VQ_OPT_BOOL, .def.b = false },
    { .name = "eotf", .help = "EOTF of the visibility thresholds: bt1886 or pq",
      OPT(eotf), .type = VQ_OPT_STRING, .def.s = "bt1886",
      .choices = eotf_choices, .flags = VQ_OPT_FEATURE_PARAM },
    { .name = "cambi_eotf", .alias = "ceot",
      .help = "as eotf (cambi_eotf wins when not bt1886)", OPT(cambi_eotf),
      .type = VQ_OPT_STRING, .def.s = "bt1886", .choices = eotf_choices,
      .flags = VQ_OPT_FEATURE_PARAM },
    { .name = "cambi_high_res_speedup", .alias = "hrs",
      .help = "halve the picture after the spatial mask from this height "
              "on (1080, 1440, 2160; 0: never)", OPT(high_res_speedup),
      .type = VQ_OPT_INT, .def.i = 0, .min = 0, .max = 2160,
      .flags = VQ_OPT_FEATURE_PARAM },
    { 0 }
};

enum { OUT_CAMBI, OUT_SOURCE, OUT_FULL_REF };
static const char *const cambi_outputs[] = {
    "cambi", "cambi_source", "cambi_full_reference", NULL
};

static int cambi_init(VqFex *fex, const VqFormat *fmt)
{
    CambiPriv *s = fex->priv;
    /* libvmaf suffixes only its provided feature (cambi) with the options;
     * the two full_ref outputs keep their plain names. */
    for (unsigned k = OUT_SOURCE; k <= OUT_FULL_REF; k++) {
        char *plain = strdup(cambi_outputs[k]);
        if (!plain)
            return vq_fail(fex->err, VQ_ENOMEM, "cambi: out of memory");
        free(fex->out_name[k]);
        fex->out_name[k] = plain;
    }
    int err = cambi_params_init(fex, fmt);
    if (!err && s->heatmaps_path[0])
        err = cambi_heatmaps_open(fex);
    if (err)
        return err;
    fex->planes = VQ_PLANE_Y;
    fex->acc_size = sizeof(VqCambiAcc);
    for (unsigned k = 0; k < VQ_CAMBI_SCALES; k++)
        fex->acc_size += s->heat_size[k];
    fex->scratch_size = cambi_cpu_init(s);
    return 0;
}

/* libvmaf's cambi_score from the pooled sums: each scale's mean of its k
 * largest c-values, weighted 16, 8, 4, 2, 1 and normalised by the window's
 * sample count. */
static double image_score(const CambiImage *im, const uint64_t *topk_sum)
{
    static const int scale_weights[VQ_CAMBI_SCALES] = { 16, 8, 4, 2, 1 };
    double score = 0.0;
    for (unsigned k = 0; k < VQ_CAMBI_SCALES; k++) {
        double sum = (double)topk_sum[k] / 16777216.0;
        score += sum / (double)im->k[k] * scale_weights[k];
    }
    unsigned side = 2 * (im->window >> 1) + 1;
    return score / (double)(side * side);
}

static int cambi_finalize(VqFex *fex, const void *acc, unsigned index)
{
    CambiPriv *s = fex->priv;
    const VqCambiAcc *a = acc;
    for (unsigned i = 0; i < s->n_images; i++)
        if (a->n_bad[i])
            return vq_fail(fex->err, VQ_EINVAL,
                           "cambi: frame %u: the %s luma has %llu samples "
                           "above %u, the largest %u-bit value (libvmaf "
                           "refuses such frames too)", index,
                           i ? "reference" : "distorted",
                           (unsigned long long)a->n_bad[i],
                           (1u << fex->fmt.bpc) - 1, fex->fmt.bpc);
    if (s->heatmaps_path[0]) {
        int err = cambi_heatmaps_write(fex, acc, index);
        if (err)
            return err;
    }
    double dist = image_score(&s->img[0], a->topk_sum[0]);
    int err = vq_fex_emit(fex, OUT_CAMBI, index,
                          dist < s->max_val ? dist : s->max_val);
    if (err || !s->full_ref)
        return err;
    double src = image_score(&s->img[1], a->topk_sum[1]);
    double diff = dist - src;
    diff = diff < 0 ? 0 : diff;
    err = vq_fex_emit(fex, OUT_SOURCE, index, src < s->max_val ? src : s->max_val);
    if (!err)
        err = vq_fex_emit(fex, OUT_FULL_REF, index,
                          diff < s->max_val ? diff : s->max_val);
    return err;
}

static void cambi_close(VqFex *fex)
{
    CambiPriv *s = fex->priv;
    cambi_heatmaps_close(s);
    cambi_params_free(s);
}

const VqFexDesc vq_fex_cambi = {
    .name = "cambi",
    .options = cambi_options,
    .priv_size = sizeof(CambiPriv),
    .outputs = cambi_outputs,
    .exactness = VQ_EXACT_BITWISE,
    .init = cambi_init,
    .cpu_run = cambi_cpu_run,
    .flags = VQ_FEX_REF_PRODUCT,
    .ref_product_size = cambi_ref_product_size,
    .gpu_init = VQ_GPU_FN(cambi_gpu_init),
    .gpu_run = VQ_GPU_FN(cambi_gpu_run),
    .gpu_close = VQ_GPU_FN(cambi_gpu_close),
    .gpu_ref_size = VQ_GPU_FN(cambi_gpu_ref_size),
    .gpu_ref_run = VQ_GPU_FN(cambi_gpu_ref_run),
    .gpu_run_split = VQ_GPU_FN(cambi_gpu_run_split),
    .finalize = cambi_finalize,
    .close = cambi_close,
};
