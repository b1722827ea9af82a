/* speed_temporal's CPU stage. */
#include "speed_temporal_priv.h"

static VqSpeedSrc diff_src(const VqPlane *cur, const uint8_t *prev,
                           size_t prev_pitch, const VqFormat *fmt)
{
    VqSpeedSrc src = {
        .cur = cur->data, .cur_pitch = (size_t)cur->stride,
        .prev = prev, .prev_pitch = prev_pitch,
        .bytes = (int32_t)fmt->bytes_per_sample,
        .scaler = (float)(1u << (fmt->bpc - 8)),
    };
    return src;
}

int speed_temporal_cpu_run(VqFex *fex, const VqFrame *ref,
                     const VqFrame *dis, unsigned index, void *acc,
                     void *scratch)
{
    TemporalPriv *s = fex->priv;
    const VqPlane *cur[2] = { &ref->plane[0], &dis->plane[0] };
    const unsigned h = fex->fmt.h[0];
    if (!s->kept[0]) {
        s->kept[0] = malloc(s->row_bytes * h);
        s->kept[1] = malloc(s->row_bytes * h);
        if (!s->kept[0] || !s->kept[1])
            return vq_fail(fex->err, VQ_ENOMEM, "speed_temporal: out of memory");
    }
    if (index > 0) {
        const size_t nb = (size_t)s->sp.g.nb;
        float *res_buf = (float *)((char *)scratch + s->img_scratch);
        VqSpeedResult rr = { res_buf, res_buf + nb, false };
        VqSpeedResult rd = { res_buf + 2 * nb, res_buf + 3 * nb, false };
        VqSpeedSrc sr = diff_src(cur[0], s->kept[0], s->row_bytes, &fex->fmt);
        VqSpeedSrc sd = diff_src(cur[s->use_ref_diff ? 0 : 1], s->kept[1],
                                 s->row_bytes, &fex->fmt);
        vq_speed_cpu_image(&s->sp, &sr, &rr, scratch);
        vq_speed_cpu_image(&s->sp, &sd, &rd, scratch);
        vq_speed_cpu_pair(&s->sp, &rr, &rd, acc);
    }
    for (int k = 0; k < 2; k++)
        for (unsigned y = 0; y < h; y++)
            memcpy(s->kept[k] + y * s->row_bytes,
                   cur[k]->data + (ptrdiff_t)y * cur[k]->stride, s->row_bytes);
    return 0;
}
