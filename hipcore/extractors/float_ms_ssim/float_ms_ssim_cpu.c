/*
 * float_ms_ssim's 9x9 decimation on the CPU. Each output row gathers its
 * nine mirrored source rows, each split into even and odd columns, so that
 * every one of the 81 taps of the row filter (float_ms_ssim_dsp.c) reads a
 * contiguous run for a block of outputs.
 */
#include "float_ms_ssim_priv.h"

#define FMS_PAD 4 /* half the filter */

/* Scratch: a source row, then a ring of split rows: an output row reads
 * the nine rows 2y - 4 .. 2y + 4 (mirrored into the picture), so sixteen
 * slots indexed by row & 15 hold them without collisions, and each source
 * row is split about once. */
#define FMS_RING 16

static size_t split_len(unsigned w)
{
    return (w + 1) / 2 + FMS_PAD;
}

size_t vq_float_ms_ssim_lpf_scratch(unsigned w)
{
    return ((size_t)w + 2 * FMS_RING * split_len(w)) * sizeof(float);
}

/* even[i] = column 2i - 4, odd[i] = column 2i - 3 of row, mirrored. */
static void split_row(const float *row, int w, float *even, float *odd,
                      unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        int c = 2 * (int)i - FMS_PAD;
        even[i] = row[c >= 0 && c < w ? c : vq_float_ssim_mirror(c, w)];
        c++;
        odd[i] = row[c >= 0 && c < w ? c : vq_float_ssim_mirror(c, w)];
    }
}

void vq_float_ms_ssim_cpu_lpf(const VqFloatMsSsimDsp *dsp, const VqFloatSsimSrc *src, float *dst,
                    void *scratch)
{
    int w = (int)src->w, h = (int)src->h;
    unsigned ow = (src->w + 1) / 2, oh = (src->h + 1) / 2;
    size_t sl = split_len(src->w);
    float *row = scratch, *ring = row + w;
    int tag[FMS_RING];
    for (int i = 0; i < FMS_RING; i++)
        tag[i] = -1;
    const float *ev[VQ_FMS_LPF], *od[VQ_FMS_LPF];
    for (unsigned oy = 0; oy < oh; oy++) {
        for (int v = 0; v < VQ_FMS_LPF; v++) {
            int sy = vq_float_ssim_mirror(2 * (int)oy + v - FMS_PAD, h);
            int slot = sy & (FMS_RING - 1);
            float *e = ring + (size_t)(2 * slot) * sl, *o = e + sl;
            if (tag[slot] != sy) {
                vq_float_ssim_load_row(src, (unsigned)sy, row);
                /* even: i < ow + 4, odd: i < ow + 3 (one more is harmless) */
                split_row(row, w, e, o, ow + FMS_PAD);
                tag[slot] = sy;
            }
            ev[v] = e;
            od[v] = o;
        }
        dsp->lpf_row(ev, od, ow, dst + (size_t)oy * ow);
    }
}


int float_ms_ssim_cpu_run(VqFex *fex, const VqFrame *ref, const VqFrame *dis,
                unsigned index, void *acc, void *scratch)
{
    (void)index;
    const FmsPriv *s = fex->priv;
    uint8_t *base = scratch;
    void *work = base + s->work_off;
    VqFloatSsimRow *rows = acc;
    VqFloatSsimSrc src[2];
    const VqPlane *pl[2] = { &ref->plane[0], &dis->plane[0] };
    for (unsigned k = 0; k < 2; k++) {
        VqFloatSsimSrc p = { pl[k]->data, pl[k]->stride, pl[k]->w, pl[k]->h,
                         fex->fmt.bpc };
        src[k] = p;
    }
    for (unsigned sc = 0; sc < VQ_FMS_SCALES; sc++) {
        if (sc) {
            for (unsigned k = 0; k < 2; k++) {
                float *img = (float *)(void *)(base + s->img_off[sc][k]);
                vq_float_ms_ssim_cpu_lpf(&s->fms, &src[k], img, work);
                VqFloatSsimSrc f = { (const uint8_t *)img,
                                 (ptrdiff_t)(s->w[sc] * sizeof(float)),
                                 s->w[sc], s->h[sc], 0 };
                src[k] = f;
            }
        }
        vq_float_ssim_cpu_map(&s->dsp, &src[0], &src[1], s->k, work,
                         rows + s->row_off[sc]);
    }
    return 0;
}
