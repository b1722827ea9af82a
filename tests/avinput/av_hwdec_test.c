/*
 * --hwdec (tools/av_hwdec.c) without a hardware decoder: frames in the
 * layouts hardware decoders hand back (NV12, P010, P016, YUV444P16), filled
 * here by hand from known planar samples, must unpack to those samples; a
 * set bit below the stream's depth is refused; only layouts that carry the
 * stream's components and subsampling are taken; the mode parser.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <libavutil/frame.h>
#include <libavutil/hwcontext.h>

#include "../common/unit_check.h"
#include "av_hwdec.h"

enum { W = 37, H = 21 };

/* Planar samples of a stream: plane p is pw[p] x ph[p]. */
typedef struct Planes {
    uint16_t s[3][W * H];
    unsigned pw[3], ph[3], depth;
} Planes;

static void make_planes(Planes *pl, unsigned depth, int sub, uint64_t seed)
{
    pl->depth = depth;
    for (unsigned p = 0; p < 3; p++) {
        pl->pw[p] = p && sub ? (W + 1) / 2 : W;
        pl->ph[p] = p && sub ? (H + 1) / 2 : H;
        for (unsigned i = 0; i < pl->pw[p] * pl->ph[p]; i++)
            pl->s[p][i] = (uint16_t)(vq_test_xorshift(&seed) &
                                     ((1u << depth) - 1));
    }
}

/* Semi-planar: luma then interleaved Cb Cr, each sample << shift in 8 or
 * 16 bits. */
static AVFrame *semi_planar(const Planes *pl, enum AVPixelFormat fmt,
                            unsigned shift, int wide)
{
    AVFrame *f = av_frame_alloc();
    f->format = fmt;
    f->width = W;
    f->height = H;
    if (av_frame_get_buffer(f, 0) < 0)
        return NULL;
    for (unsigned y = 0; y < H; y++)
        for (unsigned x = 0; x < W; x++) {
            unsigned v = (unsigned)pl->s[0][y * W + x] << shift;
            uint8_t *d = f->data[0] + (ptrdiff_t)y * f->linesize[0];
            if (wide)
                ((uint16_t *)(void *)d)[x] = (uint16_t)v;
            else
                d[x] = (uint8_t)v;
        }
    for (unsigned y = 0; y < pl->ph[1]; y++)
        for (unsigned x = 0; x < pl->pw[1]; x++)
            for (unsigned c = 0; c < 2; c++) {
                unsigned v = (unsigned)pl->s[1 + c][y * pl->pw[1] + x] << shift;
                uint8_t *d = f->data[1] + (ptrdiff_t)y * f->linesize[1];
                if (wide)
                    ((uint16_t *)(void *)d)[2 * x + c] = (uint16_t)v;
                else
                    d[2 * x + c] = (uint8_t)v;
            }
    return f;
}

/* Planar 16 bits, each sample << shift (YUV444P16 from a 12-bit stream). */
static AVFrame *planar16(const Planes *pl, enum AVPixelFormat fmt,
                         unsigned shift)
{
    AVFrame *f = av_frame_alloc();
    f->format = fmt;
    f->width = W;
    f->height = H;
    if (av_frame_get_buffer(f, 0) < 0)
        return NULL;
    for (unsigned p = 0; p < 3; p++)
        for (unsigned y = 0; y < pl->ph[p]; y++)
            for (unsigned x = 0; x < pl->pw[p]; x++)
                ((uint16_t *)(void *)(f->data[p] +
                  (ptrdiff_t)y * f->linesize[p]))[x] =
                    (uint16_t)(pl->s[p][y * pl->pw[p] + x] << shift);
    return f;
}

static void check_unpack(const char *name, const AVFrame *f, const Planes *pl)
{
    static uint8_t out[W * H * 2];
    for (unsigned p = 0; p < 3; p++) {
        memset(out, 0xa5, sizeof(out));
        int r = av_hwdec_unpack(f, p, pl->pw[p], pl->ph[p], pl->depth, out);
        CHECK_MSG(r == 0, "%s plane %u: refused", name, p);
        unsigned bad = 0;
        for (unsigned i = 0; i < pl->pw[p] * pl->ph[p]; i++) {
            unsigned v = pl->depth > 8 ? ((uint16_t *)(void *)out)[i] : out[i];
            bad += v != pl->s[p][i];
        }
        CHECK_MSG(!bad, "%s plane %u: %u of %u samples differ", name, p, bad,
              pl->pw[p] * pl->ph[p]);
    }
}

int main(void)
{
    Planes pl;
    AVFrame *f;

    make_planes(&pl, 8, 1, 1);
    f = semi_planar(&pl, AV_PIX_FMT_NV12, 0, 0);
    check_unpack("nv12", f, &pl);
    av_frame_free(&f);

    make_planes(&pl, 10, 1, 2);
    f = semi_planar(&pl, AV_PIX_FMT_P010LE, 6, 1);
    check_unpack("p010", f, &pl);
    /* a bit under the 10 bits set: refused, not rounded away */
    uint8_t out[W * H * 2];
    f->data[1][f->linesize[1]] |= 1; /* row 1's first Cb */
    CHECK_MSG(av_hwdec_unpack(f, 1, pl.pw[1], pl.ph[1], 10, out) == -1,
          "p010 with a low bit set: taken");
    CHECK_MSG(av_hwdec_unpack(f, 0, pl.pw[0], pl.ph[0], 10, out) == 0,
          "p010 luma refused for a chroma bit");
    av_frame_free(&f);

    make_planes(&pl, 12, 1, 3);
    f = semi_planar(&pl, AV_PIX_FMT_P016LE, 4, 1);
    check_unpack("p016 (12-bit stream)", f, &pl);
    av_frame_free(&f);

    make_planes(&pl, 12, 0, 4);
    f = planar16(&pl, AV_PIX_FMT_YUV444P16LE, 4);
    check_unpack("yuv444p16 (12-bit stream)", f, &pl);
    av_frame_free(&f);

    /* layouts that carry a stream's samples */
    AvIn a;
    memset(&a, 0, sizeof(a));
    AVFrame probe;
    memset(&probe, 0, sizeof(probe));
    struct { int stream, hw, frame, ok; } lay[] = {
        { AV_PIX_FMT_YUV420P, 1, AV_PIX_FMT_YUV420P, 1 },
        { AV_PIX_FMT_YUV420P, 1, AV_PIX_FMT_NV12, 1 },
        { AV_PIX_FMT_YUV420P, 0, AV_PIX_FMT_NV12, 0 },
        { AV_PIX_FMT_YUV420P, 1, AV_PIX_FMT_NV16, 0 },
        { AV_PIX_FMT_YUV420P, 1, AV_PIX_FMT_YUV422P, 0 },
        { AV_PIX_FMT_YUV420P, 1, AV_PIX_FMT_RGB24, 0 },
        { AV_PIX_FMT_YUV420P, 1, AV_PIX_FMT_CUDA, 0 },
        { AV_PIX_FMT_YUV420P10LE, 1, AV_PIX_FMT_P010LE, 1 },
        { AV_PIX_FMT_YUV420P10LE, 1, AV_PIX_FMT_NV12, 0 },
        { AV_PIX_FMT_YUV420P10LE, 1, AV_PIX_FMT_P010BE, 0 },
        { AV_PIX_FMT_YUV420P12LE, 1, AV_PIX_FMT_P016LE, 1 },
        { AV_PIX_FMT_YUV444P12LE, 1, AV_PIX_FMT_YUV444P16LE, 1 },
        { AV_PIX_FMT_YUV444P12LE, 1, AV_PIX_FMT_P016LE, 0 },
    };
    for (unsigned i = 0; i < sizeof(lay) / sizeof(*lay); i++) {
        a.pix = lay[i].stream;
        a.hw_state = lay[i].hw;
        probe.format = lay[i].frame;
        CHECK_MSG(av_hwdec_layout_ok(&a, &probe) == lay[i].ok,
              "stream %d, hardware %d, frame %d: %s expected", lay[i].stream,
              lay[i].hw, lay[i].frame, lay[i].ok ? "taken" : "refused");
    }

    /* a frame dropped before the transfer is still in the hardware's format */
    a.pix = AV_PIX_FMT_YUV420P;
    a.hw_pix = AV_PIX_FMT_CUDA;
    probe.format = AV_PIX_FMT_CUDA;
    a.hw_state = 1;
    CHECK_MSG(av_hwdec_layout_ok(&a, &probe), "a device frame refused");
    a.hw_state = 0;
    CHECK_MSG(!av_hwdec_layout_ok(&a, &probe), "a device frame taken without hardware");

    /* the mode parser */
    char err[512];
    CHECK_MSG(!av_hwdec_select("auto", err, sizeof(err)) &&
          !strcmp(av_hwdec_mode(), "auto"), "auto refused");
    CHECK_MSG(!av_hwdec_select("none", err, sizeof(err)) &&
          !strcmp(av_hwdec_mode(), "none"), "none refused");
    enum AVHWDeviceType t = av_hwdevice_iterate_types(AV_HWDEVICE_TYPE_NONE);
    if (t != AV_HWDEVICE_TYPE_NONE) {
        const char *name = av_hwdevice_get_type_name(t);
        CHECK_MSG(!av_hwdec_select(name, err, sizeof(err)) &&
              !strcmp(av_hwdec_mode(), name), "%s refused", name);
    }
    const char *before = av_hwdec_mode();
    err[0] = 0;
    CHECK_MSG(av_hwdec_select("no-such-hardware", err, sizeof(err)) == -1 &&
          strstr(err, "'no-such-hardware'") && strstr(err, "none, auto"),
          "an unknown type: '%s'", err);
    CHECK_MSG(!strcmp(av_hwdec_mode(), before), "a refused mode replaced %s",
          before);

    printf("av_hwdec: %u checks, %u failed\n", n_checks, n_fail);
    return n_fail || !n_checks;
}
