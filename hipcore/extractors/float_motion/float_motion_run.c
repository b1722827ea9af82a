/*
 * float_motion: the CPU path and the GPU path. Both keep the blurred planes
 * of the last two frames (full size, and half size with motion_add_scale1)
 * and fill the record with the row sums of |previous - current|.
 */
#include <stdlib.h>
#include <string.h>

#include "float_motion_priv.h"
#include "../common/float_plane.h"

/* ---- CPU path ---------------------------------------------------------- */

int vq_fmotion_tables(FMotionPriv *s)
{
    const VqFMotionDims *d = &s->dims;
    for (unsigned p = 0; d->nl > 1 && p < d->np; p++) {
        /* bilinear tables: columns, then rows, of the half-size plane */
        VqFResizeTap *t = malloc((d->w[p][1] + d->h[p][1]) * sizeof(*t));
        if (!t)
            return VQ_ENOMEM;
        s->half_tab[p][0] = t;
        s->half_tab[p][1] = t + d->w[p][1];
        for (unsigned x = 0; x < d->w[p][1]; x++)
            t[x] = vq_fresize_axis(VQ_FRESIZE_BILINEAR, (int)d->w[p][0],
                                   (int)d->w[p][1], (int)x);
        for (unsigned y = 0; y < d->h[p][1]; y++)
            s->half_tab[p][1][y] = vq_fresize_axis(
                VQ_FRESIZE_BILINEAR, (int)d->h[p][0], (int)d->h[p][1], (int)y);
    }
    return 0;
}

/* The CPU buffers, made on the first CPU frame (a GPU run needs none). */
static int cpu_buffers(FMotionPriv *s)
{
    const VqFMotionDims *d = &s->dims;
    size_t most = 0;
    for (unsigned p = 0; p < d->np; p++) {
        size_t n = (size_t)d->w[p][0] * d->h[p][0];
        most = n > most ? n : most;
        for (unsigned l = 0; l < d->nl; l++)
            for (unsigned k = 0; k < 2; k++) {
                s->blur[k][p][l] = malloc((size_t)d->w[p][l] * d->h[p][l] *
                                          sizeof(float));
                if (!s->blur[k][p][l])
                    return VQ_ENOMEM;
            }
    }
    /* the plane as floats, then a vertical-pass row with its borders */
    s->work = malloc((most + d->w[0][0] + VQ_FMOTION_MAX_TAPS) * sizeof(float));
    return s->work ? 0 : VQ_ENOMEM;
}

void vq_fmotion_cpu_close(FMotionPriv *s)
{
    for (unsigned p = 0; p < VQ_FMOTION_MAX_PLANES; p++) {
        for (unsigned l = 0; l < 2; l++)
            for (unsigned k = 0; k < 2; k++) {
                free(s->blur[k][p][l]);
                s->blur[k][p][l] = NULL;
            }
        free(s->half_tab[p][0]);
        s->half_tab[p][0] = s->half_tab[p][1] = NULL;
    }
    free(s->work);
    s->work = NULL;
}

static void half(const float *src, unsigned w, const VqFResizeTap *tx,
                 const VqFResizeTap *ty, unsigned dw, unsigned dh, float *dst)
{
    for (unsigned y = 0; y < dh; y++)
        for (unsigned x = 0; x < dw; x++)
            dst[(size_t)y * dw + x] = vq_fresize_pixel(
                VQ_FRESIZE_BILINEAR, src, (ptrdiff_t)w, &tx[x], &ty[y]);
}

int vq_fmotion_cpu_run(VqFex *fex, const VqFrame *ref, const VqFrame *dis,
                       unsigned index, void *acc, void *scratch)
{
    (void)dis;
    (void)scratch;
    FMotionPriv *s = fex->priv;
    if (s->force_zero)
        return 0;
    if (!s->work && cpu_buffers(s))
        return vq_fail(fex->err, VQ_ENOMEM, "float_motion: out of memory");
    const VqFMotionDims *d = &s->dims;
    const float scale = vq_fpix_scale(fex->fmt.bpc);
    const unsigned cur = index & 1, prev = cur ^ 1;
    for (unsigned p = 0; p < d->np; p++) {
        const unsigned w = d->w[p][0], h = d->h[p][0];
        float *plane = s->work, *vrow = s->work + (size_t)w * h;
        vq_plane_to_float(&ref->plane[p], fex->fmt.bytes_per_sample, scale,
                          plane);
        s->dsp.blur(plane, w, h, &s->taps, vrow, s->blur[cur][p][0]);
        if (d->nl > 1)
            half(s->blur[cur][p][0], w, s->half_tab[p][0], s->half_tab[p][1],
                 d->w[p][1], d->h[p][1], s->blur[cur][p][1]);
        if (index == 0)
            continue;
        for (unsigned l = 0; l < d->nl; l++)
            s->dsp.sad_rows(s->blur[prev][p][l], s->blur[cur][p][l],
                            d->w[p][l], d->h[p][l],
                            (float *)acc + d->off[p][l]);
    }
    return 0;
}

/* ---- GPU path ---------------------------------------------------------- */

#if defined(VQ_HAVE_HIP)
typedef struct FMotionGpu {
    float *blur[2][VQ_FMOTION_MAX_PLANES][2];
    size_t pitch[VQ_FMOTION_MAX_PLANES][2];
    VqFResizeTap *tab[VQ_FMOTION_MAX_PLANES]; /* x then y entries */
} FMotionGpu;

void vq_fmotion_gpu_close(VqFex *fex, VqGpu *gpu)
{
    FMotionGpu *g = fex->gpu_priv;
    if (!g)
        return;
    for (unsigned p = 0; p < VQ_FMOTION_MAX_PLANES; p++) {
        for (unsigned l = 0; l < 2; l++)
            for (unsigned k = 0; k < 2; k++)
                vq_gpu_free(gpu, g->blur[k][p][l]);
        vq_gpu_free(gpu, g->tab[p]);
    }
    free(g);
    fex->gpu_priv = NULL;
}

int vq_fmotion_gpu_init(VqFex *fex, VqGpu *gpu)
{
    const FMotionPriv *s = fex->priv;
    if (s->force_zero)
        return 0;
    const VqFMotionDims *d = &s->dims;
    FMotionGpu *g = calloc(1, sizeof(*g));
    if (!g)
        return vq_fail(fex->err, VQ_ENOMEM, "float_motion: out of memory");
    fex->gpu_priv = g;
    int err = 0;
    VqStream st = vq_gpu_compute_stream(gpu);
    for (unsigned p = 0; !err && p < d->np; p++) {
        for (unsigned l = 0; !err && l < d->nl; l++)
            for (unsigned k = 0; !err && k < 2; k++)
                err = vq_gpu_malloc_pitch(gpu, (void **)&g->blur[k][p][l],
                                          &g->pitch[p][l],
                                          d->w[p][l] * sizeof(float),
                                          d->h[p][l], "float_motion: blur");
        if (err || d->nl < 2)
            continue;
        size_t n = (d->w[p][1] + d->h[p][1]) * sizeof(VqFResizeTap);
        err = vq_gpu_malloc(gpu, (void **)&g->tab[p], n, "float_motion: table");
        if (!err)
            err = vq_gpu_upload2d(gpu, st, g->tab[p], n, s->half_tab[p][0], n,
                                  n, 1);
    }
    if (!err)
        err = vq_gpu_sync(gpu, st);
    if (err)
        vq_fmotion_gpu_close(fex, gpu);
    return err;
}

int vq_fmotion_gpu_run(VqFex *fex, VqGpu *gpu, const VqDevFrame *ref,
                       const VqDevFrame *dis, unsigned index, void *acc_dev)
{
    (void)dis;
    const FMotionPriv *s = fex->priv;
    const FMotionGpu *g = fex->gpu_priv;
    if (s->force_zero)
        return 0;
    const VqFMotionDims *d = &s->dims;
    VqStream st = vq_gpu_compute_stream(gpu);
    const unsigned cur = index & 1, prev = cur ^ 1;
    int rc = 0;
    for (unsigned p = 0; !rc && p < d->np; p++) {
        rc = vq_fmotion_blur_launch(st, &ref->plane[p], ref->bpc, s->taps,
                                    g->blur[cur][p][0], g->pitch[p][0]);
        if (!rc && d->nl > 1)
            rc = vq_fmotion_half_launch(
                st, g->blur[cur][p][0], g->pitch[p][0], d->w[p][0],
                d->h[p][0], g->tab[p], g->tab[p] + d->w[p][1],
                g->blur[cur][p][1], g->pitch[p][1], d->w[p][1], d->h[p][1]);
        for (unsigned l = 0; !rc && index > 0 && l < d->nl; l++)
            rc = vq_fmotion_sad_launch(st, g->blur[prev][p][l],
                                       g->blur[cur][p][l], g->pitch[p][l],
                                       d->w[p][l], d->h[p][l],
                                       (float *)acc_dev + d->off[p][l]);
    }
    return vq_fex_launch_check(fex, gpu, rc);
}
#endif
