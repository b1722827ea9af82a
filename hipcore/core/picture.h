/* Frame geometry and host-side plane views. */
#ifndef VQHIP_PICTURE_H
#define VQHIP_PICTURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/error.h"
#include "vqhip.h"

/* Geometry shared by every picture of a run. Chroma sizes follow libvmaf:
 * w>>1 (and h>>1 for 4:2:0), so the last column/row of an odd-size frame's
 * chroma is not scored; FFmpeg's (w+1)>>1 planes are read with that crop. */
typedef struct VqFormat {
    VqPixFmt fmt;              /* GRAY, 420, 422 or 444: what extractors see */
    VqPixFmt layout;           /* the caller's format (NV12, P010, ... too) */
    bool semiplanar;           /* Cb and Cr interleaved in plane 1 */
    unsigned msb_shift;        /* samples stored << msb_shift (P010: 6) */
    unsigned bpc;
    unsigned bytes_per_sample; /* 1 or 2 */
    unsigned n_planes;         /* 1 for GRAY, else 3 */
    unsigned w[3], h[3];       /* scored size of each plane */
    unsigned sw[3], sh[3];     /* stored size (FFmpeg's (w+1)>>1 chroma): what
                                  the core's plane copies hold */
    unsigned ss_x, ss_y;       /* chroma subsampling shifts */
    /* Colour description of the first pair: [0] reference, [1] distorted. */
    VqMatrix matrix[2];
    VqRange range[2];
    VqChromaLoc chroma_loc[2];
} VqFormat;

/* Whether pictures of this format must be converted (deinterleaved,
 * shifted) into planar low-bit samples before extractors read them. */
static inline bool vq_format_converts(const VqFormat *fmt)
{
    return fmt->semiplanar || fmt->msb_shift;
}

/* A host plane that the CPU path reads: sample (x, y) is at
 * data + y * stride + x * bytes_per_sample. */
typedef struct VqPlane {
    const uint8_t *data;
    ptrdiff_t stride;
    unsigned w, h;
} VqPlane;

/* Planes as extractors read them. For a picture that converts
 * (vq_format_converts) vq_frame_from_picture leaves the caller's layout:
 * plane 1 is then the interleaved Cb/Cr plane (w: samples per component)
 * and plane 2 is empty, until vq_frame_convert_plane makes planar ones. */
typedef struct VqFrame {
    VqPlane plane[3];
} VqFrame;

enum {
    VQ_PLANE_Y = 1 << 0,
    VQ_PLANE_U = 1 << 1,
    VQ_PLANE_V = 1 << 2,
    VQ_PLANE_ALL = 7,
};

/* Fills fmt from a picture; checks the pixel format, depth and size. */
int vq_format_from_picture(VqFormat *fmt, const VqPicture *pic,
                           const char *which, VqErrBuf *e);
/* Sets fmt's colour description from the first pair (unchecked). */
int vq_format_set_color(VqFormat *fmt, const VqPicture *ref,
                        const VqPicture *dis);
/* Nonzero when pic's colour description differs from fmt's entry k. */
int vq_color_differs(const VqFormat *fmt, unsigned k, const VqPicture *pic);
/* Checks that pic matches fmt and has usable pointers and strides; fills the
 * plane views. which names the picture in messages ("reference"). */
int vq_frame_from_picture(VqFrame *frame, const VqFormat *fmt,
                          const VqPicture *pic, const char *which,
                          VqErrBuf *e);
/* Refuses a host picture of 10 or 12 planar bits with a sample above the
 * depth's largest value in one of the planes (VQ_PLANE_* bits) the run
 * reads: extractors would compute on values outside the format. */
int vq_frame_check_range(const VqFrame *frame, const VqFormat *fmt,
                         unsigned planes, const char *which, VqErrBuf *e);
/* Whether vq_frame_check_range scans pictures of fmt (10 and 12 planar
 * bits); the refusal of sample `value` at (x, y) of plane p, the message
 * of host and device pictures alike. */
bool vq_format_range_checked(const VqFormat *fmt);
int vq_range_fail(VqErrBuf *e, const VqFormat *fmt, const char *which,
                  unsigned p, unsigned value, unsigned x, unsigned y);
const char *vq_pix_fmt_name(VqPixFmt fmt);
/* Writes plane p of a picture in the caller's layout (raw, from
 * vq_frame_from_picture) as planar low-bit samples: the stored
 * fmt->sw[p] x fmt->sh[p] samples at dst, rows dst_stride bytes apart. */
void vq_frame_convert_plane(const VqFormat *fmt, const VqFrame *raw,
                            unsigned p, uint8_t *dst, size_t dst_stride);
/* Bytes per stored row of plane p in the caller's layout (interleaved
 * chroma: both components), stored width. */
size_t vq_raw_row_bytes(const VqFormat *fmt, unsigned p);

#endif
