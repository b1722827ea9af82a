/*
 * psnr_hvs (libvmaf's third_party/xiph/psnr_hvs.c): PSNR-HVS of each plane
 * (psnr_hvs_y, _cb, _cr) and their 0.8/0.1/0.1 mix (psnr_hvs). 8 to 12 bits,
 * planes of at least 8x8 samples; gray input is refused, as libvmaf does.
 * The record holds each plane's float sum of block terms
 * (kernels/psnr_hvs/psnr_hvs.h); the CPU adds the terms in libvmaf's order,
 * the GPU reproduces that sum exactly (kernels/psnr_hvs/psnr_hvs_sum.h).
 */
#include <math.h>
#include <stddef.h>

#include "psnr_hvs_priv.h"

/* libvmaf's CSF tables (psnr_hvs.c: csf_y, csf_cb420, csf_cr420; Xiph's
 * normalized inverse quantization matrices), row-major. libvmaf uses the
 * 4:2:0 chroma tables for every chroma format. */
static const double csf_tables[3][64] = {
    { 1.6193873005, 2.2901594831, 2.08509755623, 1.48366094411, 1.00227514334,
      0.678296995242, 0.466224900598, 0.3265091542,
      2.2901594831, 1.94321815382, 2.04793073064, 1.68731108984, 1.2305666963,
      0.868920337363, 0.61280991668, 0.436405793551,
      2.08509755623, 2.04793073064, 1.34329019223, 1.09205635862,
      0.875748795257, 0.670882927016, 0.501731932449, 0.372504254596,
      1.48366094411, 1.68731108984, 1.09205635862, 0.772819797575,
      0.605636379554, 0.48309405692, 0.380429446972, 0.295774038565,
      1.00227514334, 1.2305666963, 0.875748795257, 0.605636379554,
      0.448996256676, 0.352889268808, 0.283006984131, 0.226951348204,
      0.678296995242, 0.868920337363, 0.670882927016, 0.48309405692,
      0.352889268808, 0.27032073436, 0.215017739696, 0.17408067321,
      0.466224900598, 0.61280991668, 0.501731932449, 0.380429446972,
      0.283006984131, 0.215017739696, 0.168869545842, 0.136153931001,
      0.3265091542, 0.436405793551, 0.372504254596, 0.295774038565,
      0.226951348204, 0.17408067321, 0.136153931001, 0.109083846276 },
    { 1.91113096927, 2.46074210438, 1.18284184739, 1.14982565193, 1.05017074788,
      0.898018824055, 0.74725392039, 0.615105596242,
      2.46074210438, 1.58529308355, 1.21363250036, 1.38190029285, 1.33100189972,
      1.17428548929, 0.996404342439, 0.830890433625,
      1.18284184739, 1.21363250036, 0.978712413627, 1.02624506078,
      1.03145147362, 0.960060382087, 0.849823426169, 0.731221236837,
      1.14982565193, 1.38190029285, 1.02624506078, 0.861317501629,
      0.801821139099, 0.751437590932, 0.685398513368, 0.608694761374,
      1.05017074788, 1.33100189972, 1.03145147362, 0.801821139099,
      0.676555426187, 0.605503172737, 0.55002013668, 0.495804539034,
      0.898018824055, 1.17428548929, 0.960060382087, 0.751437590932,
      0.605503172737, 0.514674450957, 0.454353482512, 0.407050308965,
      0.74725392039, 0.996404342439, 0.849823426169, 0.685398513368,
      0.55002013668, 0.454353482512, 0.389234902883, 0.342353999733,
      0.615105596242, 0.830890433625, 0.731221236837, 0.608694761374,
      0.495804539034, 0.407050308965, 0.342353999733, 0.295530605237 },
    { 2.03871978502, 2.62502345193, 1.26180942886, 1.11019789803, 1.01397751469,
      0.867069376285, 0.721500455585, 0.593906509971,
      2.62502345193, 1.69112867013, 1.17180569821, 1.3342742857, 1.28513006198,
      1.13381474809, 0.962064122248, 0.802254508198,
      1.26180942886, 1.17180569821, 0.944981930573, 0.990876405848,
      0.995903384143, 0.926972725286, 0.820534991409, 0.706020324706,
      1.11019789803, 1.3342742857, 0.990876405848, 0.831632933426,
      0.77418706195, 0.725539939514, 0.661776842059, 0.587716619023,
      1.01397751469, 1.28513006198, 0.995903384143, 0.77418706195,
      0.653238524286, 0.584635025748, 0.531064164893, 0.478717061273,
      0.867069376285, 1.13381474809, 0.926972725286, 0.725539939514,
      0.584635025748, 0.496936637883, 0.438694579826, 0.393021669543,
      0.721500455585, 0.962064122248, 0.820534991409, 0.661776842059,
      0.531064164893, 0.438694579826, 0.375820256136, 0.330555063063,
      0.593906509971, 0.802254508198, 0.706020324706, 0.587716619023,
      0.478717061273, 0.393021669543, 0.330555063063, 0.285345396658 },
};

static const char *const psnr_hvs_outputs[] = {
    "psnr_hvs_y", "psnr_hvs_cb", "psnr_hvs_cr", "psnr_hvs", NULL
};

static int psnr_hvs_init(VqFex *fex, const VqFormat *fmt)
{
    PsnrHvsPriv *s = fex->priv;
    if (fmt->n_planes != 3)
        return vq_fail(fex->err, VQ_EUNSUPPORTED,
                       "psnr_hvs: gray input has no chroma planes to score "
                       "(libvmaf refuses it too)");
    if (fmt->bpc > 12)
        return vq_fail(fex->err, VQ_EUNSUPPORTED,
                       "psnr_hvs: %u-bit input is not supported: at most 12 "
                       "bits (as libvmaf)", fmt->bpc);
    for (unsigned p = 0; p < 3; p++)
        if (fmt->w[p] < 8 || fmt->h[p] < 8)
            return vq_fail(fex->err, VQ_EUNSUPPORTED,
                           "psnr_hvs: a %ux%u %s frame is too small: every "
                           "plane needs at least 8x8 samples (plane %u is "
                           "%ux%u)", fmt->w[0], fmt->h[0],
                           vq_pix_fmt_name(fmt->fmt), p, fmt->w[p], fmt->h[p]);
    for (unsigned p = 0; p < 3; p++) {
        for (unsigned k = 0; k < 64; k++) {
            float c = (float)csf_tables[p][k];
            s->tab[p].csf[k] = c;
            s->tab[p].mask[k] = (float)((c * 0.3885746225901003) *
                                        (c * 0.3885746225901003));
        }
        s->bx[p] = vq_hvs_blocks(fmt->w[p]);
        s->by[p] = vq_hvs_blocks(fmt->h[p]);
    }
    vq_psnr_hvs_dsp_init(&s->dsp, vq_cpu_flags());
    fex->planes = VQ_PLANE_ALL;
    fex->acc_size = sizeof(VqPsnrHvsAcc);
    return 0;
}

static int psnr_hvs_finalize(VqFex *fex, const void *acc, unsigned index)
{
    const PsnrHvsPriv *s = fex->priv;
    const VqPsnrHvsAcc *a = acc;
    int32_t samplemax = (1 << fex->fmt.bpc) - 1;
    double score[3];
    for (unsigned p = 0; p < 3; p++) {
        /* calc_psnrhvs()'s float divisions, then convert_score_db(). */
        float ret = a->sum[p];
        ret /= (int)(s->bx[p] * s->by[p] * 64);
        ret /= samplemax * samplemax;
        score[p] = ret;
        int err = vq_fex_emit(fex, p, index, 10 * (-1 * log10(1.0 * score[p])));
        if (err)
            return err;
    }
    double mix = score[0] * .8 + .1 * (score[1] + score[2]);
    return vq_fex_emit(fex, 3, index, 10 * (-1 * log10(1.0 * mix)));
}

const VqFexDesc vq_fex_psnr_hvs = {
    .name = "psnr_hvs",
    .priv_size = sizeof(PsnrHvsPriv),
    .outputs = psnr_hvs_outputs,
    .exactness = VQ_EXACT_BITWISE,
    .init = psnr_hvs_init,
    .cpu_run = psnr_hvs_cpu_run,
    .gpu_init = VQ_GPU_FN(vq_psnr_hvs_gpu_init),
    .gpu_run = VQ_GPU_FN(vq_psnr_hvs_gpu_run),
    .gpu_close = VQ_GPU_FN(vq_psnr_hvs_gpu_close),
    .finalize = psnr_hvs_finalize,
};
