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
#include "core/refshare.h"

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
static int cpu_buffers(const FMotionPriv *s, FMotionBufs *b)
{
    const VqFloatMotionDims *d = &s->dims;
    size_t most = 0;
    for (unsigned p = 0; p < d->np; p++) {
        size_t n = (size_t)d->w[p][0] * d->h[p][0];
        most = n > most ? n : most;
        for (unsigned l = 0; l < d->nl; l++)
            for (unsigned k = 0; k < 2; k++) {
                b->blur[k][p][l] = malloc((size_t)d->w[p][l] * d->h[p][l] *
                                          sizeof(float));
                if (!b->blur[k][p][l])
                    return VQ_ENOMEM;
            }
    }
    /* the plane as floats, then a vertical-pass row with its borders */
    b->work = malloc((most + d->w[0][0] + VQ_FMOTION_MAX_TAPS) * sizeof(float));
    return b->work ? 0 : VQ_ENOMEM;
}

static void free_bufs(FMotionBufs *b)
{
    for (unsigned p = 0; p < VQ_FMOTION_MAX_PLANES; p++)
        for (unsigned l = 0; l < 2; l++)
            for (unsigned k = 0; k < 2; k++) {
                free(b->blur[k][p][l]);
                b->blur[k][p][l] = NULL;
            }
    free(b->work);
    b->work = NULL;
}

void vq_float_motion_free_shared(void *state)
{
    free_bufs(state);
    free(state);
}

void vq_float_motion_cpu_close(FMotionPriv *s)
{
    for (unsigned p = 0; p < VQ_FMOTION_MAX_PLANES; p++) {
        free(s->half_tab[p][0]);
        s->half_tab[p][0] = s->half_tab[p][1] = NULL;
    }
    free_bufs(&s->bufs);
}

static void half(const float *src, unsigned w, const VqFResizeTap *tx,
                 const VqFResizeTap *ty, unsigned dw, unsigned dh, float *dst)
{
    for (unsigned y = 0; y < dh; y++)
        for (unsigned x = 0; x < dw; x++)
            dst[(size_t)y * dw + x] = vq_fresize_pixel(
                VQ_FRESIZE_BILINEAR, src, (ptrdiff_t)w, &tx[x], &ty[y]);
}

/* Frame index's sums into acc, on the buffers b. */
static int fmotion_frame(VqFex *fex, FMotionBufs *b, const VqFrame *ref,
                         unsigned index, void *acc)
{
    FMotionPriv *s = fex->priv;
    if (!b->work && cpu_buffers(s, b)) {
        free_bufs(b);
        return vq_fail(fex->err, VQ_ENOMEM, "float_motion: out of memory");
    }
    const VqFloatMotionDims *d = &s->dims;
    const float scale = vq_fpix_scale(fex->fmt.bpc);
    const unsigned cur = index & 1, prev = cur ^ 1;
    for (unsigned p = 0; p < d->np; p++) {
        const unsigned w = d->w[p][0], h = d->h[p][0];
        float *plane = b->work, *vrow = b->work + (size_t)w * h;
        vq_plane_to_float(&ref->plane[p], fex->fmt.bytes_per_sample, scale,
                          plane);
        s->dsp.blur(plane, w, h, &s->taps, vrow, b->blur[cur][p][0]);
        if (d->nl > 1)
            half(b->blur[cur][p][0], w, s->half_tab[p][0], s->half_tab[p][1],
                 d->w[p][1], d->h[p][1], b->blur[cur][p][1]);
        if (index == 0)
            continue;
        for (unsigned l = 0; l < d->nl; l++)
            s->dsp.sad_rows(b->blur[prev][p][l], b->blur[cur][p][l],
                            d->w[p][l], d->h[p][l],
                            (float *)acc + d->off[p][l]);
    }
    return 0;
}

typedef struct FMotionShared {
    VqFex *fex;
    const VqFrame *ref;
    unsigned index;
} FMotionShared;

/* The ladder's computation (VqRefComputeFn) on the share's buffers. */
static int fmotion_shared_frame(void *arg, void **state, void *rec)
{
    FMotionShared *m = arg;
    if (!*state && !(*state = calloc(1, sizeof(FMotionBufs))))
        return vq_fail(m->fex->err, VQ_ENOMEM, "float_motion: out of memory");
    return fmotion_frame(m->fex, *state, m->ref, m->index, rec);
}

int vq_float_motion_cpu_run(VqFex *fex, const VqFrame *ref, const VqFrame *dis,
                            unsigned index, void *acc, void *scratch)
{
    (void)dis;
    (void)scratch;
    FMotionPriv *s = fex->priv;
    if (s->force_zero)
        return 0;
    if (!fex->share)
        return fmotion_frame(fex, &s->bufs, ref, index, acc);
    FMotionShared m = { fex, ref, index };
    return vq_refshare_get(fex->share, fex->share_user, index, acc,
                           fmotion_shared_frame, &m, fex->err);
}
