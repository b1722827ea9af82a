/*
 * ciede (libvmaf's ciede.c): ciede2000 = 45 - 20 log10 of the mean
 * CIEDE2000 difference between the two frames, every luma sample with its
 * chroma repeated (kernels/ciede/ciede.h). Any chroma format and bit
 * depth; gray is refused (no colour), as libvmaf does.
 *
 * Chroma is read only inside the planes: luma (x, y) takes chroma
 * (min(x >> ss_x, cw - 1), min(y >> ss_y, ch - 1)). For 4:2:0 with even
 * sizes and for 4:4:4 that is libvmaf's choice; libvmaf's 4:2:2 and its
 * odd-size 4:2:0 read other samples (README, "Differences from libvmaf").
 */
#include <math.h>
#include <stddef.h>

#include "../../../kernels/ciede/ciede.h"
#include "../gpu_fn.h"

static const char *const ciede_outputs[] = { "ciede2000", NULL };

static int ciede_init(VqFex *fex, const VqFormat *fmt)
{
    if (fmt->n_planes != 3)
        return vq_fail(fex->err, VQ_EUNSUPPORTED,
                       "ciede: gray input has no colour to compare "
                       "(libvmaf refuses it too)");
    if (!fmt->w[1] || !fmt->h[1])
        return vq_fail(fex->err, VQ_EUNSUPPORTED,
                       "ciede: a %ux%u %s frame has empty chroma planes: "
                       "at least 2 samples are needed in each subsampled "
                       "direction", fmt->w[0], fmt->h[0],
                       vq_pix_fmt_name(fmt->fmt));
    fex->planes = VQ_PLANE_ALL;
    fex->acc_size = sizeof(VqCiedeAcc);
    fex->scratch_size = 6 * 2 * (size_t)fmt->w[0] * sizeof(double) +
                        (size_t)fmt->w[0] * sizeof(VqCiedeWork);
    return 0;
}

static inline unsigned px(const uint8_t *row, unsigned bps, unsigned x)
{
    return bps == 1 ? row[x] : ((const uint16_t *)(const void *)row)[x];
}

/* Per row, the stages of the Lab conversion run over all 2w samples (the
 * reference's, then the distorted's) one stage at a time: the samples are
 * independent, so the processor overlaps them; so do the stages of
 * CIEDE2000 over the row's w samples. Same helpers, same values as
 * vq_ciede_pixel(). Scratch: six arrays of 2w doubles, w work records. */
static int ciede_cpu_run(VqFex *fex, const VqFrame *ref, const VqFrame *dis,
                         unsigned index, void *acc, void *scratch)
{
    (void)index;
    VqCiedeAcc *a = acc;
    const VqFormat *f = &fex->fmt;
    const unsigned bps = f->bytes_per_sample, cw = f->w[1], ch = f->h[1];
    const unsigned w = f->w[0], n = 2 * w;
    double *c = scratch;   /* c[k * n + i]: channel k of sample i */
    double *m = c + 3 * (size_t)n;
    VqCiedeWork *wk = (VqCiedeWork *)(void *)(m + 3 * (size_t)n);
    for (unsigned y = 0; y < f->h[0]; y++) {
        unsigned cy = y >> f->ss_y < ch ? y >> f->ss_y : ch - 1;
        for (unsigned s = 0; s < 2; s++) {
            const VqFrame *fr = s ? dis : ref;
            const uint8_t *r0 = fr->plane[0].data + (ptrdiff_t)y * fr->plane[0].stride;
            const uint8_t *r1 = fr->plane[1].data + (ptrdiff_t)cy * fr->plane[1].stride;
            const uint8_t *r2 = fr->plane[2].data + (ptrdiff_t)cy * fr->plane[2].stride;
            for (unsigned x = 0; x < w; x++) {
                unsigned cx = x >> f->ss_x < cw ? x >> f->ss_x : cw - 1;
                double rgb[3];
                vq_ciede_rgb(px(r0, bps, x), px(r1, bps, cx), px(r2, bps, cx),
                             f->bpc, rgb);
                c[s * w + x] = rgb[0];
                c[n + s * w + x] = rgb[1];
                c[2 * n + s * w + x] = rgb[2];
            }
        }
        for (unsigned i = 0; i < 3 * n; i++)
            c[i] = vq_ciede_linear(c[i]);
        for (unsigned i = 0; i < n; i++) {
            double xyz[3];
            vq_ciede_xyz(c[i], c[n + i], c[2 * n + i], xyz);
            m[i] = xyz[0];
            m[n + i] = xyz[1];
            m[2 * n + i] = xyz[2];
        }
        for (unsigned i = 0; i < 3 * n; i++)
            m[i] = vq_ciede_lab_map(m[i]);
        for (unsigned x = 0; x < w; x++)
            vq_ciede_chroma(vq_ciede_lab_of(m[x], m[n + x], m[2 * n + x]),
                            vq_ciede_lab_of(m[w + x], m[n + w + x],
                                            m[2 * n + w + x]), &wk[x]);
        for (unsigned x = 0; x < w; x++)
            vq_ciede_hues(&wk[x]);
        for (unsigned x = 0; x < w; x++)
            vq_ciede_angles(&wk[x]);
        for (unsigned x = 0; x < w; x++)
            vq_ciede_rotation(&wk[x]);
        for (unsigned x = 0; x < w; x++) {
            float de = vq_ciede_final(&wk[x]);
            uint32_t sig;
            unsigned e = vq_ciede_bin(de, &sig);
            if (e < 255)
                a->bin[e] += sig;
            else if (sig)
                a->n_nan++;
            else
                a->n_inf++;
        }
    }
    return 0;
}

#if defined(VQ_HAVE_HIP)
static int ciede_gpu_run(VqFex *fex, VqGpu *gpu, const VqDevFrame *ref,
                         const VqDevFrame *dis, unsigned index, void *acc_dev)
{
    (void)index;
    return vq_fex_launch_check(
        fex, gpu, vq_ciede_launch(vq_gpu_compute_stream(gpu), ref, dis,
                                  fex->fmt.ss_x, fex->fmt.ss_y, acc_dev));
}
#endif

static int ciede_finalize(VqFex *fex, const void *acc, unsigned index)
{
    const VqCiedeAcc *a = acc;
    double sum = a->n_nan ? NAN : a->n_inf ? INFINITY : vq_ciede_exact_sum(a);
    double n = (double)(fex->fmt.w[0] * fex->fmt.h[0]);
    return vq_fex_emit(fex, 0, index, 45. - 20. * log10(sum / n));
}

const VqFexDesc vq_fex_ciede = {
    .name = "ciede",
    .priv_size = 0,
    .outputs = ciede_outputs,
    .exactness = VQ_EXACT_BITWISE,
    .init = ciede_init,
    .cpu_run = ciede_cpu_run,
    .gpu_run = VQ_GPU_FN(ciede_gpu_run),
    .finalize = ciede_finalize,
};
