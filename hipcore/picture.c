#include <string.h>

#include "picture.h"

/* Largest luma side accepted: keeps every size product within 32 bits. */
#define VQ_MAX_SIDE 16384

const char *vq_pix_fmt_name(VqPixFmt fmt)
{
    switch (fmt) {
    case VQ_PIX_FMT_GRAY: return "gray";
    case VQ_PIX_FMT_420: return "4:2:0";
    case VQ_PIX_FMT_422: return "4:2:2";
    case VQ_PIX_FMT_444: return "4:4:4";
    }
    return "unknown";
}

int vq_format_from_picture(VqFormat *fmt, const VqPicture *pic,
                           const char *which, VqErrBuf *e)
{
    memset(fmt, 0, sizeof(*fmt));
    if (!pic)
        return vq_fail(e, VQ_EINVAL, "%s picture is NULL", which);
    if (pic->fmt != VQ_PIX_FMT_GRAY && pic->fmt != VQ_PIX_FMT_420 &&
        pic->fmt != VQ_PIX_FMT_422 && pic->fmt != VQ_PIX_FMT_444)
        return vq_fail(e, VQ_EINVAL,
                       "%s picture: unknown pixel format %d (gray, 4:2:0, "
                       "4:2:2 and 4:4:4 are supported)", which, (int)pic->fmt);
    if (pic->bpc != 8 && pic->bpc != 10 && pic->bpc != 12 && pic->bpc != 16)
        return vq_fail(e, VQ_EINVAL,
                       "%s picture: %u bits per sample (8, 10, 12 and 16 are "
                       "supported)", which, pic->bpc);
    if (pic->w < 1 || pic->h < 1 || pic->w > VQ_MAX_SIDE || pic->h > VQ_MAX_SIDE)
        return vq_fail(e, VQ_EINVAL,
                       "%s picture: size %ux%u outside 1x1..%ux%u", which,
                       pic->w, pic->h, VQ_MAX_SIDE, VQ_MAX_SIDE);

    fmt->fmt = pic->fmt;
    fmt->bpc = pic->bpc;
    fmt->bytes_per_sample = pic->bpc > 8 ? 2 : 1;
    fmt->n_planes = pic->fmt == VQ_PIX_FMT_GRAY ? 1 : 3;
    fmt->ss_x = pic->fmt == VQ_PIX_FMT_420 || pic->fmt == VQ_PIX_FMT_422;
    fmt->ss_y = pic->fmt == VQ_PIX_FMT_420;
    fmt->w[0] = fmt->sw[0] = pic->w;
    fmt->h[0] = fmt->sh[0] = pic->h;
    for (unsigned p = 1; p < fmt->n_planes; p++) {
        fmt->w[p] = pic->w >> fmt->ss_x;
        fmt->h[p] = pic->h >> fmt->ss_y;
        fmt->sw[p] = (pic->w + fmt->ss_x) >> fmt->ss_x;
        fmt->sh[p] = (pic->h + fmt->ss_y) >> fmt->ss_y;
    }
    return vq_format_set_color(fmt, pic, pic);
}

/* Copied as given: only extractors that read it (VQ_FEX_USES_COLOR) check
 * it, so callers that leave it uninitialised lose nothing elsewhere. */
int vq_format_set_color(VqFormat *fmt, const VqPicture *ref,
                        const VqPicture *dis)
{
    const VqPicture *pic[2] = { ref, dis ? dis : ref };
    for (unsigned k = 0; k < 2; k++) {
        fmt->matrix[k] = pic[k]->matrix;
        fmt->range[k] = pic[k]->range;
        fmt->chroma_loc[k] = pic[k]->chroma_loc;
    }
    return 0;
}

int vq_color_differs(const VqFormat *fmt, unsigned k, const VqPicture *pic)
{
    return pic->matrix != fmt->matrix[k] || pic->range != fmt->range[k] ||
           pic->chroma_loc != fmt->chroma_loc[k];
}

int vq_frame_from_picture(VqFrame *frame, const VqFormat *fmt,
                          const VqPicture *pic, const char *which,
                          VqErrBuf *e)
{
    VqFormat f;
    int err = vq_format_from_picture(&f, pic, which, e);
    if (err)
        return err;
    if (f.fmt != fmt->fmt || f.bpc != fmt->bpc || f.w[0] != fmt->w[0] ||
        f.h[0] != fmt->h[0])
        return vq_fail(e, VQ_EINVAL,
                       "%s picture is %ux%u %s %u-bit, but the run is %ux%u "
                       "%s %u-bit", which, pic->w, pic->h,
                       vq_pix_fmt_name(pic->fmt), pic->bpc, fmt->w[0],
                       fmt->h[0], vq_pix_fmt_name(fmt->fmt), fmt->bpc);

    memset(frame, 0, sizeof(*frame));
    for (unsigned p = 0; p < fmt->n_planes; p++) {
        /* A plane's stored width is FFmpeg's rounded-up size. */
        unsigned stored_w = p ? (pic->w + fmt->ss_x) >> fmt->ss_x : pic->w;
        size_t row = (size_t)stored_w * fmt->bytes_per_sample;
        if (!pic->data[p])
            return vq_fail(e, VQ_EINVAL, "%s picture: plane %u is NULL",
                           which, p);
        if (pic->stride[p] < 0 || (size_t)pic->stride[p] < row)
            return vq_fail(e, VQ_EINVAL,
                           "%s picture: plane %u stride %td is smaller than "
                           "its row (%zu bytes)", which, p, pic->stride[p], row);
        if (fmt->bytes_per_sample == 2 &&
            (((uintptr_t)pic->data[p] | (uintptr_t)pic->stride[p]) & 1))
            return vq_fail(e, VQ_EINVAL,
                           "%s picture: plane %u of a >8-bit picture must be "
                           "2-byte aligned (pointer and stride)", which, p);
        frame->plane[p].data = pic->data[p];
        frame->plane[p].stride = pic->stride[p];
        frame->plane[p].w = fmt->w[p];
        frame->plane[p].h = fmt->h[p];
    }
    return 0;
}
