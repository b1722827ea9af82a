/* float_ansnr's CPU stage. */
#include "float_ansnr_priv.h"

typedef struct Ring {
    float *row[RING];
    int *tag;
} Ring;

/* Row y of the plane as floats, padded by two mirrored columns each side. */
static const float *ring_row(const VqFloatAnsnrDsp *dsp, Ring *g,
                             const VqPlane *p, unsigned bps, float inv_scale,
                             int y)
{
    float *r = g->row[y & (RING - 1)];
    if (g->tag[y & (RING - 1)] == y)
        return r;
    g->tag[y & (RING - 1)] = y;
    const uint8_t *src = p->data + (ptrdiff_t)y * p->stride;
    unsigned w = p->w;
    if (bps == 1)
        dsp->conv_u8(r, src, inv_scale, w);
    else
        dsp->conv_u16(r, (const uint16_t *)(const void *)src, inv_scale, w);
    r[0] = r[4];
    r[1] = r[3];
    r[w + 2] = r[w + 1];
    r[w + 3] = r[w];
    return r;
}

int float_ansnr_cpu_run(VqFex *fex, const VqFrame *ref,
                        const VqFrame *dis, unsigned index, void *acc,
                        void *scratch)
{
    (void)index;
    const FloatAnsnrPriv *s = fex->priv;
    VqAnsnrRow *out = acc;
    unsigned bps = fex->fmt.bytes_per_sample;
    int w = (int)fex->fmt.w[0], h = (int)fex->fmt.h[0];
    float *f = scratch;
    Ring gr, gd;
    for (int k = 0; k < RING; k++) {
        gr.row[k] = f + (size_t)k * s->pw;
        gd.row[k] = f + (size_t)(RING + k) * s->pw;
    }
    float *rf = f + 2 * RING * s->pw, *df = rf + w;
    gr.tag = (int *)(void *)(df + w);
    gd.tag = gr.tag + RING;
    for (int k = 0; k < RING; k++)
        gr.tag[k] = gd.tag[k] = -1;
    for (int i = 0; i < h; i++) {
        const float *r[3], *d[5];
        for (int k = 0; k < 3; k++)
            r[k] = ring_row(&s->dsp, &gr, &ref->plane[0], bps, s->inv_scale,
                            vq_ansnr_mirror(i - 1 + k, h));
        for (int k = 0; k < 5; k++)
            d[k] = ring_row(&s->dsp, &gd, &dis->plane[0], bps, s->inv_scale,
                            vq_ansnr_mirror(i - 2 + k, h));
        s->dsp.ref3(rf, r, (unsigned)w);
        s->dsp.dis5(df, d, (unsigned)w);
        float sig = 0.0f, noise = 0.0f;
        for (int j = 0; j < w; j++) {
            sig += rf[j] * rf[j];
            noise += (rf[j] - df[j]) * (rf[j] - df[j]);
        }
        out[i].sig = sig;
        out[i].noise = noise;
    }
    return 0;
}
