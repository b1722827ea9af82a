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

#include "../common/gpu_fn.h"
#include "ciede_dsp.h"

typedef struct CiedePriv {
    VqCiedeDsp dsp; /* the CPU variants, chosen at init */
} CiedePriv;

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
    fex->scratch_size = vq_ciede_row_scratch(fmt->w[0]);
    vq_ciede_dsp_init(&((CiedePriv *)fex->priv)->dsp, vq_cpu_flags());
    return 0;
}

static int ciede_cpu_run(VqFex *fex, const VqFrame *ref, const VqFrame *dis,
                         unsigned index, void *acc, void *scratch)
{
    (void)index;
    const CiedePriv *s = fex->priv;
    const VqFormat *f = &fex->fmt;
    for (unsigned y = 0; y < f->h[0]; y++) {
        unsigned cy = y >> f->ss_y < f->h[1] ? y >> f->ss_y : f->h[1] - 1;
        const uint8_t *row[6];
        for (unsigned k = 0; k < 6; k++) {
            const VqPlane *p = &(k < 3 ? ref : dis)->plane[k % 3];
            row[k] = p->data + (ptrdiff_t)(k % 3 ? cy : y) * p->stride;
        }
        s->dsp.row(row, f->bytes_per_sample, f->w[0], f->ss_x, f->w[1], f->bpc,
               scratch, acc);
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
    .priv_size = sizeof(CiedePriv),
    .outputs = ciede_outputs,
    .exactness = VQ_EXACT_BITWISE,
    .init = ciede_init,
    .cpu_run = ciede_cpu_run,
    .gpu_run = VQ_GPU_FN(ciede_gpu_run),
    .finalize = ciede_finalize,
};
