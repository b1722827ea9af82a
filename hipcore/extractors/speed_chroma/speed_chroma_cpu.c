/* speed_chroma's CPU stage. */
#include "speed_chroma_priv.h"

static VqSpeedSrc host_src(const VqPlane *p, const VqFormat *fmt)
{
    VqSpeedSrc src = {
        .cur = p->data, .cur_pitch = (size_t)p->stride,
        .bytes = (int32_t)fmt->bytes_per_sample,
        .scaler = (float)(1u << (fmt->bpc - 8)),
    };
    return src;
}

int speed_chroma_cpu_run(VqFex *fex, const VqFrame *ref, const VqFrame *dis,
                   unsigned index, void *acc, void *scratch)
{
    (void)index;
    const ChromaPriv *s = fex->priv;
    const size_t nb = (size_t)s->sp.g.nb;
    float *res_buf = (float *)((char *)scratch + s->img_scratch);
    VqSpeedResult rr = { res_buf, res_buf + nb, false };
    VqSpeedResult rd = { res_buf + 2 * nb, res_buf + 3 * nb, false };
    for (int c = 1; c <= 2; c++) {
        VqSpeedSrc sr = host_src(&ref->plane[c], &fex->fmt);
        VqSpeedSrc sd = host_src(&dis->plane[c], &fex->fmt);
        vq_speed_cpu_image(&s->sp, &sr, &rr, scratch);
        vq_speed_cpu_image(&s->sp, &sd, &rd, scratch);
        vq_speed_cpu_pair(&s->sp, &rr, &rd,
                          (char *)acc + (size_t)(c - 1) * pair_bytes(s));
    }
    return 0;
}
