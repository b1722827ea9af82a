/*
 * SSIMULACRA 2 (Jon Sneyers, Cloudinary; libjxl's tools/ssimulacra2.cc):
 * output "ssimulacra2", 100 for identical pictures, lower for worse. Both
 * inputs are converted from YUV to R'G'B' (the picture's matrix, range and
 * chroma siting, bilinear chroma as FFmpeg's zscale filter), read as sRGB,
 * and scored as libjxl scores two images. Both backends fill the record of
 * kernels/ssimulacra2/ssimulacra2.h; vq_ssimulacra2_finalize turns it into the score
 * with libjxl's weights and mapping.
 */
#include <math.h>
#include <stddef.h>

#include "../common/gpu_fn.h"
#include "ssimulacra2_priv.h"

/* matrix= and range= take names (several per value); the option stores
 * the name's index, the tables below give its value (0: the picture's). */
static const char *const matrix_choices[] = {
    "auto", "bt709", "709", "bt601", "601", "bt470bg", "470bg", "smpte170m",
    "170m", "smpte240m", "240m", "fcc", "bt2020nc", "bt2020", "2020_ncl",
    "ycgco", NULL
};
static const int matrix_values[] = {
    S2_MATRIX_AUTO, VQ_MATRIX_BT709, VQ_MATRIX_BT709, VQ_MATRIX_BT601,
    VQ_MATRIX_BT601, VQ_MATRIX_BT601, VQ_MATRIX_BT601, VQ_MATRIX_BT601,
    VQ_MATRIX_BT601, VQ_MATRIX_SMPTE240M, VQ_MATRIX_SMPTE240M, VQ_MATRIX_FCC,
    VQ_MATRIX_BT2020_NCL, VQ_MATRIX_BT2020_NCL, VQ_MATRIX_BT2020_NCL,
    VQ_MATRIX_YCGCO,
};

static const char *const range_choices[] = {
    "auto", "limited", "tv", "mpeg", "full", "pc", "jpeg", NULL
};
static const int range_values[] = {
    S2_RANGE_AUTO, VQ_RANGE_LIMITED, VQ_RANGE_LIMITED, VQ_RANGE_LIMITED,
    VQ_RANGE_FULL, VQ_RANGE_FULL, VQ_RANGE_FULL,
};

static const VqOption ssimulacra2_options[] = {
    { .name = "matrix",
      .help = "YUV matrix of both inputs (auto: each picture's own; "
              "unspecified: bt709 from 1280 wide or 577 high, else bt601)",
      .offset = offsetof(S2Priv, matrix), .type = VQ_OPT_ENUM,
      .def.i = 0, .choices = matrix_choices },
    { .name = "range",
      .help = "sample range of both inputs (auto: each picture's own; "
              "unspecified: limited)",
      .offset = offsetof(S2Priv, range), .type = VQ_OPT_ENUM,
      .def.i = 0, .choices = range_choices },
    { 0 }
};

static const char *const ssimulacra2_outputs[] = { "ssimulacra2", NULL };

static int ssimulacra2_init(VqFex *fex, const VqFormat *fmt)
{
    S2Priv *s = fex->priv;
    if (fmt->w[0] < VQ_S2_MIN_SIZE || fmt->h[0] < VQ_S2_MIN_SIZE)
        return vq_fail(fex->err, VQ_EUNSUPPORTED,
                       "ssimulacra2: a %ux%u frame is too small; ssimulacra2 "
                       "needs at least %ux%u (as libjxl's tool)",
                       fmt->w[0], fmt->h[0], VQ_S2_MIN_SIZE, VQ_S2_MIN_SIZE);
    for (unsigned k = 0; k < 2; k++) {
        int err = vq_ssimulacra2_color(&s->par.color[k], fmt, k,
                              matrix_values[s->matrix], range_values[s->range],
                              fex->err);
        if (err)
            return err;
    }
    vq_ssimulacra2_blur_coeffs(&s->par.blur, 1.5);
    s->par.neg_bias_cbrt = vq_ssimulacra2_neg_bias_cbrt();
    vq_ssimulacra2_dims(&s->dims, fmt->w[0], fmt->h[0]);
    fex->planes = fmt->fmt == VQ_PIX_FMT_GRAY ? VQ_PLANE_Y : VQ_PLANE_ALL;
    fex->acc_size = s->dims.n_doubles * sizeof(double);
    fex->scratch_size = vq_ssimulacra2_cpu_scratch_size(&s->dims);
    s->cpu_frame = vq_ssimulacra2_cpu_choose(NULL);
    s->cpu_part = vq_ssimulacra2_cpu_choose_part();
    return 0;
}

/* libjxl's Msssim::Score() weights (tools/ssimulacra2.cc): for X, Y, B;
 * for each computed scale; for the 1- and 4-norm: SSIM', ringing, blur. */
static const double ssimulacra2_weights[108] = {
    0.0, 0.0007376606707406586, 0.0, 0.0, 0.0007793481682867309, 0.0, 0.0,
    0.0004371155730107379, 0.0, 1.1041726426657346, 0.00066284834129271,
    0.00015231632783718752, 0.0, 0.0016406437456599754, 0.0,
    1.8422455520539298, 11.441172603757666, 0.0, 0.0007989109436015163,
    0.000176816438078653, 0.0, 1.8787594979546387, 10.94906990605142, 0.0,
    0.0007289346991508072, 0.9677937080626833, 0.0, 0.00014003424285435884,
    0.9981766977854967, 0.00031949755934435053, 0.0004550992113792063, 0.0,
    0.0, 0.0013648766163243398, 0.0, 0.0, 0.0, 0.0, 0.0, 7.466890328078848,
    0.0, 17.445833984131262, 0.0006235601634041466, 0.0, 0.0,
    6.683678146179332, 0.00037724407979611296, 1.027889937768264,
    225.20515300849274, 0.0, 0.0, 19.213238186143016, 0.0011401524586618361,
    0.001237755635509985, 176.39317598450694, 0.0, 0.0, 24.43300999870476,
    0.28520802612117757, 0.0004485436923833408, 0.0, 0.0, 0.0,
    34.77906344483772, 44.835625328877896, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
    0.0, 0.0008680556573291698, 0.0, 0.0, 0.0, 0.0, 0.0,
    0.0005313191874358747, 0.0, 0.00016533814161379112, 0.0, 0.0, 0.0, 0.0,
    0.0, 0.0004179171803251336, 0.0017290828234722833, 0.0,
    0.0020827005846636437, 0.0, 0.0, 8.826982764996862, 23.19243343998926,
    0.0, 95.1080498811086, 0.9863978034400682, 0.9834382792465353,
    0.0012286405048278493, 171.2667255897307, 0.9807858872435379, 0.0, 0.0,
    0.0, 0.0005130064588990679, 0.0, 0.00010854057858411537,
};

static int ssimulacra2_finalize(VqFex *fex, const void *acc, unsigned index)
{
    const S2Priv *s = fex->priv;
    const VqSsimulacra2Dims *d = &s->dims;
    const double *rec = acc;
    /* libjxl's per-scale averages: [c * 2 + norm] and [c * 4 + kind]. */
    double avg_ssim[VQ_S2_SCALES][6], avg_edge[VQ_S2_SCALES][12];
    for (unsigned sc = 0; sc < d->n_scales; sc++) {
        double one_per_pixels = 1.0 / (double)((size_t)d->h[sc] * d->w[sc]);
        for (unsigned c = 0; c < 3; c++) {
            double tot[VQ_S2_SUMS];
            for (unsigned q = 0; q < VQ_S2_SUMS; q++) {
                tot[q] = 0.0;
                for (unsigned j = 0; j < d->nseg[sc]; j++)
                    tot[q] += rec[vq_ssimulacra2_rec_index(d, sc, c, q, j)];
            }
            avg_ssim[sc][c * 2] = one_per_pixels * tot[0];
            avg_ssim[sc][c * 2 + 1] = sqrt(sqrt(one_per_pixels * tot[1]));
            avg_edge[sc][c * 4] = one_per_pixels * tot[2];
            avg_edge[sc][c * 4 + 1] = sqrt(sqrt(one_per_pixels * tot[3]));
            avg_edge[sc][c * 4 + 2] = one_per_pixels * tot[4];
            avg_edge[sc][c * 4 + 3] = sqrt(sqrt(one_per_pixels * tot[5]));
        }
    }
    /* libjxl walks the weights in this order whatever the number of
     * scales (a small picture's scores use the first weights). */
    double ssim = 0.0;
    size_t i = 0;
    for (unsigned c = 0; c < 3; c++) {
        for (unsigned sc = 0; sc < d->n_scales; sc++) {
            for (unsigned n = 0; n < 2; n++) {
                ssim += ssimulacra2_weights[i++] * fabs(avg_ssim[sc][c * 2 + n]);
                ssim += ssimulacra2_weights[i++] * fabs(avg_edge[sc][c * 4 + n]);
                ssim += ssimulacra2_weights[i++] * fabs(avg_edge[sc][c * 4 + n + 2]);
            }
        }
    }
    /* libjxl's final mapping (constants from Msssim::Score()). */
    ssim = ssim * 0.9562382616834844;
    ssim = 2.326765642916932 * ssim - 0.020884521182843837 * ssim * ssim +
           6.248496625763138e-05 * ssim * ssim * ssim;
    if (ssim > 0)
        ssim = 100.0 - 10.0 * pow(ssim, 0.6276336467831387);
    else
        ssim = 100.0;
    return vq_fex_emit(fex, 0, index, ssim);
}

const VqFexDesc vq_fex_ssimulacra2 = {
    .name = "ssimulacra2",
    .options = ssimulacra2_options,
    .priv_size = sizeof(S2Priv),
    .outputs = ssimulacra2_outputs,
    .flags = VQ_FEX_USES_COLOR | VQ_FEX_REF_PRODUCT,
    .ref_product_size = ssimulacra2_ref_product_size,
    .exactness = VQ_EXACT_BITWISE,
    .init = ssimulacra2_init,
    .cpu_run = ssimulacra2_cpu_run,
    .gpu_sets = VQ_S2_GPU_SETS,
    .gpu_init = VQ_GPU_FN(vq_ssimulacra2_gpu_init),
    .gpu_run = VQ_GPU_FN(vq_ssimulacra2_gpu_run),
    .gpu_close = VQ_GPU_FN(vq_ssimulacra2_gpu_close),
    .gpu_ref_size = VQ_GPU_FN(vq_ssimulacra2_gpu_ref_size),
    .gpu_ref_run = VQ_GPU_FN(vq_ssimulacra2_gpu_ref_run),
    .gpu_run_split = VQ_GPU_FN(vq_ssimulacra2_gpu_run_split),
    .finalize = ssimulacra2_finalize,
};
