#include <string.h>

#include "picture.h"

/* Largest luma side accepted: keeps every size product within 32 bits. */
#define VQ_MAX_SIDE 16384
/* Largest stride accepted (16 MiB, 256 times the widest row): the library
 * cannot see how large the caller's buffers are, but no real picture has
 * rows this far apart, and it keeps stride * rows far from overflowing. */
#define VQ_MAX_STRIDE ((ptrdiff_t)1 << 24)

const char *vq_pix_fmt_name(VqPixFmt fmt)
{
    switch (fmt) {
    case VQ_PIX_FMT_GRAY: return "gray";
    case VQ_PIX_FMT_420: return "4:2:0";
    case VQ_PIX_FMT_422: return "4:2:2";
    case VQ_PIX_FMT_444: return "4:4:4";
    case VQ_PIX_FMT_NV12: return "NV12 (4:2:0 semi-planar)";
    case VQ_PIX_FMT_NV16: return "NV16 (4:2:2 semi-planar)";
    case VQ_PIX_FMT_NV24: return "NV24 (4:4:4 semi-planar)";
    case VQ_PIX_FMT_P010: return "P010 (4:2:0 semi-planar, high bits)";
    case VQ_PIX_FMT_P210: return "P210 (4:2:2 semi-planar, high bits)";
    case VQ_PIX_FMT_P410: return "P410 (4:4:4 semi-planar, high bits)";
    }
    return "unknown";
}

int vq_format_from_picture(VqFormat *fmt, const VqPicture *pic,
                           const char *which, VqErrBuf *e)
{
    memset(fmt, 0, sizeof(*fmt));
    if (!pic)
        return vq_fail(e, VQ_EINVAL, "%s picture is NULL", which);
    VqPixFmt sub;
    switch (pic->fmt) {
    case VQ_PIX_FMT_GRAY: case VQ_PIX_FMT_420: case VQ_PIX_FMT_422:
    case VQ_PIX_FMT_444: sub = pic->fmt; break;
    case VQ_PIX_FMT_NV12: case VQ_PIX_FMT_P010: sub = VQ_PIX_FMT_420; break;
    case VQ_PIX_FMT_NV16: case VQ_PIX_FMT_P210: sub = VQ_PIX_FMT_422; break;
    case VQ_PIX_FMT_NV24: case VQ_PIX_FMT_P410: sub = VQ_PIX_FMT_444; break;
    default:
        return vq_fail(e, VQ_EINVAL,
                       "%s picture: unknown pixel format %d (gray, 4:2:0, "
                       "4:2:2, 4:4:4, planar or semi-planar, are supported)",
                       which, (int)pic->fmt);
    }
    bool high_bits = pic->fmt >= VQ_PIX_FMT_P010;
    if (pic->bpc != 8 && pic->bpc != 10 && pic->bpc != 12 && pic->bpc != 16)
        return vq_fail(e, VQ_EINVAL,
                       "%s picture: %u bits per sample (8, 10, 12 and 16 are "
                       "supported)", which, pic->bpc);
    if (pic->w < 1 || pic->h < 1 || pic->w > VQ_MAX_SIDE || pic->h > VQ_MAX_SIDE)
        return vq_fail(e, VQ_EINVAL,
                       "%s picture: size %ux%u outside 1x1..%ux%u", which,
                       pic->w, pic->h, VQ_MAX_SIDE, VQ_MAX_SIDE);

    if (high_bits && pic->bpc == 8)
        return vq_fail(e, VQ_EINVAL,
                       "%s picture: %s holds 10, 12 or 16-bit samples, not 8",
                       which, vq_pix_fmt_name(pic->fmt));

    fmt->fmt = sub;
    fmt->layout = pic->fmt;
    fmt->semiplanar = pic->fmt >= VQ_PIX_FMT_NV12;
    fmt->msb_shift = high_bits ? 16 - pic->bpc : 0;
    fmt->bpc = pic->bpc;
    fmt->bytes_per_sample = pic->bpc > 8 ? 2 : 1;
    fmt->n_planes = sub == VQ_PIX_FMT_GRAY ? 1 : 3;
    fmt->ss_x = sub == VQ_PIX_FMT_420 || sub == VQ_PIX_FMT_422;
    fmt->ss_y = sub == VQ_PIX_FMT_420;
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
    if (f.layout != fmt->layout || f.bpc != fmt->bpc || f.w[0] != fmt->w[0] ||
        f.h[0] != fmt->h[0])
        return vq_fail(e, VQ_EINVAL,
                       "%s picture is %ux%u %s %u-bit, but the run is %ux%u "
                       "%s %u-bit", which, pic->w, pic->h,
                       vq_pix_fmt_name(pic->fmt), pic->bpc, fmt->w[0],
                       fmt->h[0], vq_pix_fmt_name(fmt->fmt), fmt->bpc);

    memset(frame, 0, sizeof(*frame));
    unsigned n_stored = fmt->semiplanar ? 2 : fmt->n_planes;
    for (unsigned p = 0; p < n_stored; p++) {
        /* A plane's stored width is FFmpeg's rounded-up size. */
        unsigned stored_w = p ? (pic->w + fmt->ss_x) >> fmt->ss_x : pic->w;
        size_t row = (size_t)stored_w * fmt->bytes_per_sample *
                     (p && fmt->semiplanar ? 2 : 1);
        if (!pic->data[p])
            return vq_fail(e, VQ_EINVAL, "%s picture: plane %u is NULL",
                           which, p);
        if (pic->stride[p] < 0 || (size_t)pic->stride[p] < row)
            return vq_fail(e, VQ_EINVAL,
                           "%s picture: plane %u stride %td is smaller than "
                           "its row (%zu bytes)", which, p, pic->stride[p], row);
        if (pic->stride[p] > VQ_MAX_STRIDE)
            return vq_fail(e, VQ_EINVAL,
                           "%s picture: plane %u stride %td is beyond the "
                           "limit (%td bytes)", which, p, pic->stride[p],
                           VQ_MAX_STRIDE);
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

bool vq_format_range_checked(const VqFormat *fmt)
{
    /* 8 and 16 bits have no spare values; P010-style samples are stored in
     * the high bits and converted by a shift, which drops the low ones. */
    return fmt->bytes_per_sample == 2 && fmt->bpc < 16 &&
           !vq_format_converts(fmt);
}

int vq_range_fail(VqErrBuf *e, const VqFormat *fmt, const char *which,
                  unsigned p, unsigned value, unsigned x, unsigned y)
{
    return vq_fail(e, VQ_EINVAL, "%s picture: plane %u has a sample of %u at "
                   "(%u, %u), above %u, the largest %u-bit value (the "
                   "picture is not %u-bit)", which, p, value, x, y,
                   (1u << fmt->bpc) - 1, fmt->bpc, fmt->bpc);
}

int vq_frame_check_range(const VqFrame *frame, const VqFormat *fmt,
                         unsigned planes, const char *which, VqErrBuf *e)
{
    if (!vq_format_range_checked(fmt))
        return 0;
    const unsigned max = (1u << fmt->bpc) - 1;
    for (unsigned p = 0; p < fmt->n_planes; p++) {
        const VqPlane *pl = &frame->plane[p];
        if (!(planes & (1u << p)) || !pl->data)
            continue;
        /* one OR over the plane (vectorised); the slow search only when it
         * finds a bit above the depth */
        for (unsigned y = 0; y < pl->h; y++) {
            const uint16_t *r = (const uint16_t *)(const void *)
                                (pl->data + (ptrdiff_t)y * pl->stride);
            unsigned acc = 0;
            for (unsigned x = 0; x < pl->w; x++)
                acc |= r[x];
            if (!(acc & ~max))
                continue;
            unsigned x = 0;
            while (r[x] <= max)
                x++;
            return vq_range_fail(e, fmt, which, p, r[x], x, y);
        }
    }
    return 0;
}

size_t vq_raw_row_bytes(const VqFormat *fmt, unsigned p)
{
    return (size_t)fmt->sw[p] * fmt->bytes_per_sample *
           (p && fmt->semiplanar ? 2 : 1);
}

void vq_frame_convert_plane(const VqFormat *fmt, const VqFrame *raw,
                            unsigned p, uint8_t *dst, size_t dst_stride)
{
    /* Interleaved chroma is in raw plane 1: Cb at even, Cr at odd samples. */
    unsigned src_p = p && fmt->semiplanar ? 1 : p;
    unsigned step = p && fmt->semiplanar ? 2 : 1;
    unsigned first = p == 2 && fmt->semiplanar ? 1 : 0;
    unsigned sh = fmt->msb_shift;
    const VqPlane *s = &raw->plane[src_p];
    for (unsigned y = 0; y < fmt->sh[p]; y++) {
        const uint8_t *row = s->data + (ptrdiff_t)y * s->stride;
        uint8_t *out = dst + (size_t)y * dst_stride;
        if (fmt->bytes_per_sample == 1) {
            for (unsigned x = 0; x < fmt->sw[p]; x++)
                out[x] = row[x * step + first];
        } else {
            const uint16_t *r16 = (const uint16_t *)(const void *)row;
            uint16_t *o16 = (uint16_t *)(void *)out;
            for (unsigned x = 0; x < fmt->sw[p]; x++)
                o16[x] = (uint16_t)(r16[x * step + first] >> sh);
        }
    }
}
