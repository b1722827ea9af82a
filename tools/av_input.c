/*
 * FFmpeg inputs (av_input.h): opening the first video stream, decoding it
 * in order, passing its planes. Counting and seeking: av_seek.c.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/pixdesc.h>

#include "av_hwdec.h"
#include "av_input.h"
#include "av_input_priv.h"

int av_err(char *err, size_t errsz, const AvIn *a, const char *what,
                 int r)
{
    char e[AV_ERROR_MAX_STRING_SIZE];
    av_strerror(r, e, sizeof(e));
    snprintf(err, errsz, "'%s': %s: %s", a->path, what, e);
    return -1;
}

/* vqhip's planar YUV (8, 10, 12, 16 bits, native order) or none. */
static int map_format(enum AVPixelFormat pf, VqPixFmt *fmt, unsigned *bpc)
{
    const AVPixFmtDescriptor *d = av_pix_fmt_desc_get(pf);
    if (!d || (d->flags & (AV_PIX_FMT_FLAG_RGB | AV_PIX_FMT_FLAG_PAL |
                           AV_PIX_FMT_FLAG_BE | AV_PIX_FMT_FLAG_ALPHA |
                           AV_PIX_FMT_FLAG_HWACCEL | AV_PIX_FMT_FLAG_BAYER)) ||
        !(d->flags & AV_PIX_FMT_FLAG_PLANAR || d->nb_components == 1) ||
        (d->nb_components != 1 && d->nb_components != 3))
        return -1;
    for (unsigned c = 0; c < d->nb_components; c++)
        if (d->comp[c].plane != (int)c || d->comp[c].shift ||
            d->comp[c].depth != d->comp[0].depth)
            return -1;
    unsigned depth = (unsigned)d->comp[0].depth;
    if (depth != 8 && depth != 10 && depth != 12 && depth != 16)
        return -1;
    if (d->nb_components == 1)
        *fmt = VQ_PIX_FMT_GRAY;
    else if (d->log2_chroma_w == 1 && d->log2_chroma_h == 1)
        *fmt = VQ_PIX_FMT_420;
    else if (d->log2_chroma_w == 1 && !d->log2_chroma_h)
        *fmt = VQ_PIX_FMT_422;
    else if (!d->log2_chroma_w && !d->log2_chroma_h)
        *fmt = VQ_PIX_FMT_444;
    else
        return -1;
    *bpc = depth;
    return 0;
}

void av_close_stream(AvIn *a)
{
    avcodec_free_context(&a->dec);
    avformat_close_input(&a->fmt);
    av_packet_free(&a->pkt);
    av_frame_free(&a->frame);
}

/* The demuxer and decoder at the start of the file. */
int av_open_stream(AvIn *a, char *err, size_t errsz)
{
    int r = avformat_open_input(&a->fmt, a->path, NULL, NULL);
    if (r < 0)
        return av_err(err, errsz, a, "not a file FFmpeg reads", r);
    if ((r = avformat_find_stream_info(a->fmt, NULL)) < 0)
        return av_err(err, errsz, a, "no stream information", r);
    a->si = -1;
    for (unsigned i = 0; i < a->fmt->nb_streams; i++) {
        AVStream *s = a->fmt->streams[i];
        int video = s->codecpar->codec_type == AVMEDIA_TYPE_VIDEO &&
                    !(s->disposition & AV_DISPOSITION_ATTACHED_PIC);
        if (video && a->si < 0)
            a->si = (int)i;
        else
            s->discard = AVDISCARD_ALL;
    }
    if (a->si < 0) {
        snprintf(err, errsz, "'%s': no video stream (%s, %u streams: audio "
                 "only?)", a->path, a->fmt->iformat->name, a->fmt->nb_streams);
        return -1;
    }
    AVStream *s = a->fmt->streams[a->si];
    const AVCodec *codec = avcodec_find_decoder(s->codecpar->codec_id);
    if (!codec) {
        snprintf(err, errsz, "'%s': no decoder for its video (%s) in this "
                 "FFmpeg", a->path, avcodec_get_name(s->codecpar->codec_id));
        return -1;
    }
    a->dec = avcodec_alloc_context3(codec);
    a->pkt = av_packet_alloc();
    a->frame = av_frame_alloc();
    if (!a->dec || !a->pkt || !a->frame) {
        snprintf(err, errsz, "out of memory");
        return -1;
    }
    if ((r = avcodec_parameters_to_context(a->dec, s->codecpar)) < 0)
        return av_err(err, errsz, a, "decoder parameters", r);
    a->dec->pkt_timebase = s->time_base;
    a->dec->thread_count = 0; /* FFmpeg's choice; the output is the same */
    if (av_hwdec_attach(a, codec, err, errsz))
        return -1;
    if ((r = avcodec_open2(a->dec, codec, NULL)) < 0)
        return av_err(err, errsz, a, "cannot open the decoder", r);
    a->draining = 0;
    a->next = a->want = 0;
    a->check = a->ranked;
    a->check_pkt = 0;
    return 0;
}

static int decode_error(const AvIn *a, char *err, size_t errsz, int r)
{
    if (!a->hw_refused)
        return av_err(err, errsz, a, "decoding", r);
    snprintf(err, errsz, "'%s': --hwdec %s: the hardware does not decode "
             "this stream (its profile or size); --hwdec auto falls back "
             "to software", a->path, av_hwdec_mode());
    return -1;
}

/* The decoder's next frame in a->frame (a hardware decoder's still in
 * device memory: av_hwdec_to_host): 1, 0 at the end, -1. */
int av_decode_next(AvIn *a, char *err, size_t errsz)
{
    for (;;) {
        int r = avcodec_receive_frame(a->dec, a->frame);
        if (r >= 0)
            return 1;
        if (r == AVERROR_EOF || (r == AVERROR(EAGAIN) && a->draining))
            return 0;
        if (r != AVERROR(EAGAIN))
            return decode_error(a, err, errsz, r);
        r = av_read_frame(a->fmt, a->pkt);
        if (r == AVERROR_EOF) {
            a->draining = 1;
            avcodec_send_packet(a->dec, NULL);
            continue;
        }
        if (r < 0)
            return av_err(err, errsz, a, "reading", r);
        if (a->pkt->stream_index != a->si) {
            av_packet_unref(a->pkt);
            continue;
        }
        if (a->check_pkt) {
            const Pkt *t = a->next_pkt < a->n_tab ? &a->tab[a->next_pkt++]
                                                  : NULL;
            if (!t || t->pos != a->pkt->pos || t->pts != a->pkt->pts) {
                av_packet_unref(a->pkt);
                snprintf(err, errsz, "'%s': after the seek, packet %u is "
                         "not the one counted", a->path, a->next_pkt - 1);
                return -1;
            }
        }
        r = avcodec_send_packet(a->dec, a->pkt);
        av_packet_unref(a->pkt);
        if (r < 0)
            return decode_error(a, err, errsz, r);
    }
}

/* The next frame to give (frames before `want` dropped, each frame
 * checked against the table when it ranks them): 1, 0, -1. */
static int next_frame(YuvInput *in, char *err, size_t errsz)
{
    AvIn *a = in->priv;
    for (;;) {
        int r = av_decode_next(a, err, errsz);
        if (r <= 0) {
            if (!r && a->counted && a->next != a->n_frames) {
                snprintf(err, errsz, "'%s': the decoder gave %u frames, the "
                         "count was %u", a->path, a->next, a->n_frames);
                return -1;
            }
            return r;
        }
        AVFrame *f = a->frame;
        unsigned no = a->next++;
        if (a->check && (no >= a->n_frames || f->pts != a->sorted[no])) {
            snprintf(err, errsz, "'%s': decoded frame %u is not the packet "
                     "index's frame %u: the frame count cannot be "
                     "established", a->path, no, no);
            return -1;
        }
        /* only the frames given leave the hardware */
        if (no >= a->want && av_hwdec_to_host(a, err, errsz))
            return -1;
        if (f->width != (int)in->w || f->height != (int)in->h ||
            !av_hwdec_layout_ok(a, f)) {
            snprintf(err, errsz, "'%s': frame %u is %dx%d %s, the stream "
                     "began %ux%u %s: a change mid-stream is not supported",
                     a->path, no, f->width, f->height,
                     av_get_pix_fmt_name(f->format), in->w, in->h,
                     av_get_pix_fmt_name(a->pix));
            return -1;
        }
        if (no >= a->want)
            return 1;
        av_frame_unref(f);
    }
}

static int av_read_into(YuvInput *in, unsigned char *buf, VqPicture *pic,
                        char *err, size_t errsz)
{
    AvIn *a = in->priv;
    int r = next_frame(in, err, errsz);
    if (r <= 0)
        return r;
    memset(pic, 0, sizeof(*pic));
    pic->fmt = in->fmt;
    pic->bpc = in->bpc;
    pic->w = in->w;
    pic->h = in->h;
    /* the frame's range, else the stream's */
    vq_picture_set_color(pic, a->matrix_code,
                         a->frame->color_range != AVCOL_RANGE_UNSPECIFIED
                         ? (int)a->frame->color_range : a->range_code,
                         a->loc_code);
    unsigned bps = in->bpc > 8 ? 2 : 1;
    size_t off = 0;
    /* the decoder's planes, rows packed (planes the extractors skip are
     * not copied: the buffer's zeros stay); a hardware decoder's layout
     * (NV12, P010 ...) unpacked */
    const AVFrame *f = a->frame;
    for (unsigned p = 0; p < (in->fmt == VQ_PIX_FMT_GRAY ? 1u : 3u); p++) {
        size_t row = (size_t)in->plane_w[p] * bps;
        if (f->format == a->pix && !(in->skip & (1u << p)))
            for (unsigned y = 0; y < in->plane_h[p]; y++)
                memcpy(buf + off + y * row, f->data[p] +
                       (ptrdiff_t)y * f->linesize[p], row);
        else if (!(in->skip & (1u << p)) &&
                 av_hwdec_unpack(f, p, in->plane_w[p], in->plane_h[p],
                                 in->bpc, buf + off)) {
            snprintf(err, errsz, "'%s': frame %u: the hardware decoder's %s "
                     "samples have bits set below the stream's %u bits",
                     a->path, a->next - 1, av_get_pix_fmt_name(f->format),
                     in->bpc);
            av_frame_unref(a->frame);
            return -1;
        }
        pic->data[p] = buf + off;
        pic->stride[p] = (ptrdiff_t)row;
        off += in->plane_size[p];
    }
    av_frame_unref(a->frame);
    return 1;
}

static void av_close(YuvInput *in)
{
    AvIn *a = in->priv;
    if (!a)
        return;
    av_close_stream(a);
    av_hwdec_free(a);
    free(a->tab);
    free(a->sorted);
    free(a);
    in->priv = NULL;
}

static const YuvSource av_source = { av_read_into, av_seek_count,
                                     av_seek_skip, av_close };

int av_input_open(YuvInput *in, const char *path, char *err, size_t errsz)
{
    memset(in, 0, sizeof(*in));
    av_log_set_level(AV_LOG_ERROR);
    AvIn *a = calloc(1, sizeof(*a));
    if (!a) {
        snprintf(err, errsz, "out of memory");
        return -1;
    }
    in->src = &av_source;
    in->priv = a;
    snprintf(a->path, sizeof(a->path), "%s", path);
    if (av_open_stream(a, err, errsz))
        return -1;
    const AVCodecParameters *cp = a->fmt->streams[a->si]->codecpar;
    a->pix = cp->format;
    if (map_format(a->pix, &in->fmt, &in->bpc)) {
        const char *name = av_get_pix_fmt_name(a->pix);
        snprintf(err, errsz, "'%s': pixel format %s is not one vqhip reads "
                 "(planar YUV or gray, 8, 10, 12 or 16 bits): convert it, "
                 "e.g. ffmpeg -i IN -pix_fmt yuv420p (or yuv420p10le, "
                 "yuv444p ...) OUT.y4m", path, name ? name : "(unknown)");
        return -1;
    }
    in->w = (unsigned)cp->width;
    in->h = (unsigned)cp->height;
    if (!in->w || !in->h || in->w > YUV_MAX_SIDE || in->h > YUV_MAX_SIDE) {
        snprintf(err, errsz, "'%s': size %ux%u is not supported", path,
                 in->w, in->h);
        return -1;
    }
    a->matrix_code = cp->color_space;
    a->range_code = cp->color_range;
    a->loc_code = cp->chroma_location;
    VqPicture stream = { 0 };
    vq_picture_set_color(&stream, a->matrix_code, a->range_code, a->loc_code);
    in->range = stream.range == VQ_RANGE_FULL ? 2
              : stream.range == VQ_RANGE_LIMITED;
    in->chroma_loc = stream.chroma_loc;
    AVRational fr = a->fmt->streams[a->si]->avg_frame_rate;
    if (fr.num > 0 && fr.den > 0) {
        in->fps_num = (unsigned)fr.num;
        in->fps_den = (unsigned)fr.den;
    }
    return yuv_set_geometry(in, path, err, errsz);
}

int av_input_claims(const char *path)
{
    static const char *const containers[] = { "mp4", "m4v", "mov", "mkv",
        "webm", "avi", "ts", "m2ts", "mts", "mxf", "flv", "nut", "mpg",
        "mpeg", "3gp", "ivf", "obu", "264", "h264", "265", "hevc" };
    struct stat st;
    if (!strcmp(path, "-") || stat(path, &st) || !S_ISREG(st.st_mode))
        return 0;
    const char *dot = strrchr(path, '.');
    const char *ext = dot && !strchr(dot, '/') ? dot + 1 : "";
    if (!strcasecmp(ext, "yuv") || !strcasecmp(ext, "y4m"))
        return 0;
    unsigned char buf[4096 + AVPROBE_PADDING_SIZE];
    memset(buf, 0, sizeof(buf));
    FILE *f = fopen(path, "rb");
    size_t n = f ? fread(buf, 1, 4096, f) : 0;
    if (f)
        fclose(f);
    if (n >= Y4M_MAGIC_LEN && !memcmp(buf, "YUV4MPEG2 ", Y4M_MAGIC_LEN))
        return 0;
    for (unsigned i = 0; i < sizeof(containers) / sizeof(*containers); i++)
        if (!strcasecmp(ext, containers[i]))
            return 1;
    AVProbeData pd = { .filename = path, .buf = buf, .buf_size = (int)n };
    int score = 0;
    return n && av_probe_input_format3(&pd, 1, &score) &&
           score > AVPROBE_SCORE_RETRY;
}

const char *av_input_versions(void)
{
    static char s[96];
    unsigned f = avformat_version(), c = avcodec_version();
    snprintf(s, sizeof(s), "libavformat %u.%u.%u, libavcodec %u.%u.%u",
             f >> 16, (f >> 8) & 255, f & 255, c >> 16, (c >> 8) & 255,
             c & 255);
    return s;
}
