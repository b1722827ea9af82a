/*
 * float_motion's CPU path. Both paths (the GPU one: float_motion_gpu.c) keep
 * the blurred planes of the last two frames (full size, and half size with
 * motion_add_scale1) and fill the record with the row sums of
 * |previous - current|.
 */
#include <stdlib.h>
#include <string.h>

#include "float_motion_priv.h"
#include "../common/float_plane.h"

int vq_float_motion_tables(FMotionPriv *s)
{
    const VqFloatMotionDims *d = &s->dims;
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
    const VqFloatMotionDims *d = &s->dims;
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

void vq_float_motion_cpu_close(FMotionPriv *s)
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

int vq_float_motion_cpu_run(VqFex *fex, const VqFrame *ref, const VqFrame *dis,
                       unsigned index, void *acc, void *scratch)
{
    (void)dis;
    (void)scratch;
    FMotionPriv *s = fex->priv;
    if (s->force_zero)
        return 0;
    if (!s->work && cpu_buffers(s))
        return vq_fail(fex->err, VQ_ENOMEM, "float_motion: out of memory");
    const VqFloatMotionDims *d = &s->dims;
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
