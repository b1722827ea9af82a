/*
 * Video files through libavformat / libavcodec / libswscale: the bitrate and
 * frame rate of a rendition, and thumbnails of given frames. Frames are found
 * by counting decoded frames from the start of the file: timestamps lie
 * (edit lists, B-frames, variable frame rate), frame counts do not.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/opt.h>
#include <libswscale/swscale.h>

#include "report_image.h"
#include "report_media.h"

int report_media_available(void)
{
    return 1;
}

/* FFmpeg's own notes (a damaged packet, a deprecated format) would bury
 * the tool's messages; its errors still show. */
static void quiet_ffmpeg(void)
{
    av_log_set_level(AV_LOG_ERROR);
}

static int open_video(const char *path, AVFormatContext **fmt, int *stream,
                      char *err, size_t errlen)
{
    char msg[128];
    quiet_ffmpeg();
    int r = avformat_open_input(fmt, path, NULL, NULL);
    if (r >= 0)
        r = avformat_find_stream_info(*fmt, NULL);
    if (r < 0) {
        av_strerror(r, msg, sizeof(msg));
        snprintf(err, errlen, "%s: cannot read: %s", path, msg);
        avformat_close_input(fmt);
        return -1;
    }
    *stream = av_find_best_stream(*fmt, AVMEDIA_TYPE_VIDEO, -1, -1, NULL, 0);
    if (*stream < 0) {
        snprintf(err, errlen, "%s: no video stream", path);
        avformat_close_input(fmt);
        return -1;
    }
    return 0;
}

static double stream_fps(const AVStream *st)
{
    AVRational r = st->avg_frame_rate.num > 0 ? st->avg_frame_rate
                                               : st->r_frame_rate;
    return r.num > 0 && r.den > 0 ? av_q2d(r) : NAN;
}

int report_media_probe(const char *path, double *kbps, double *fps,
                       char *err, size_t errlen)
{
    AVFormatContext *fmt = NULL;
    int si;
    if (open_video(path, &fmt, &si, err, errlen))
        return -1;
    AVStream *st = fmt->streams[si];
    *fps = stream_fps(st);
    *kbps = NAN;
    if (st->codecpar->bit_rate > 0) {
        *kbps = st->codecpar->bit_rate / 1000.0;
    } else {
        /* The container does not say (raw streams, Matroska): the video
         * packets' sizes over the frames' duration. */
        AVPacket *pkt = av_packet_alloc();
        int64_t bytes = 0, count = 0;
        while (pkt && av_read_frame(fmt, pkt) >= 0) {
            if (pkt->stream_index == si) {
                bytes += pkt->size;
                count++;
            }
            av_packet_unref(pkt);
        }
        av_packet_free(&pkt);
        if (count && isfinite(*fps))
            *kbps = bytes * 8.0 / (count / *fps) / 1000.0;
    }
    avformat_close_input(&fmt);
    return 0;
}

typedef struct Thumbs {
    AVCodecContext *enc;
    struct SwsContext *sws;
    AVFrame *scaled;
    AVPacket *pkt;
    unsigned width;
    const char *mime;
    int src_w, src_h, src_fmt, src_full; /* what t->sws was made for */
} Thumbs;

static int thumbs_open(Thumbs *t, const AVFrame *src, unsigned width)
{
    const AVCodec *codec = avcodec_find_encoder(AV_CODEC_ID_MJPEG);
    enum AVPixelFormat pf = AV_PIX_FMT_YUV420P; /* full range, as JPEG is */
    t->mime = "image/jpeg";
    if (!codec) {
        codec = avcodec_find_encoder(AV_CODEC_ID_PNG);
        pf = AV_PIX_FMT_RGB24;
        t->mime = "image/png";
    }
    if (!codec)
        return -1;
    /* Display aspect: the sample aspect ratio widens or narrows the picture. */
    double sar = src->sample_aspect_ratio.num > 0
        ? av_q2d(src->sample_aspect_ratio) : 1.0;
    /* never larger than the picture: a small rendition stays as it is */
    unsigned shown = (unsigned)lrint(src->width * sar);
    unsigned w = shown && shown < width ? (shown + 1) & ~1u : width;
    unsigned h = (unsigned)lrint(w * src->height / (src->width * sar));
    h = (h + 1) & ~1u;
    t->enc = avcodec_alloc_context3(codec);
    t->scaled = av_frame_alloc();
    t->pkt = av_packet_alloc();
    if (!t->enc || !t->scaled || !t->pkt)
        return -1;
    t->enc->width = (int)(w ? w : 2);
    t->enc->height = (int)(h ? h : 2);
    t->enc->pix_fmt = pf;
    t->enc->color_range = AVCOL_RANGE_JPEG;
    t->enc->time_base = (AVRational){ 1, 25 };
    t->enc->flags |= AV_CODEC_FLAG_QSCALE;
    t->enc->global_quality = 3 * FF_QP2LAMBDA;
    t->scaled->width = t->enc->width;
    t->scaled->height = t->enc->height;
    t->scaled->format = pf;
    t->width = width;
    if (avcodec_open2(t->enc, codec, NULL) < 0 ||
        av_frame_get_buffer(t->scaled, 0) < 0)
        return -1;
    return 0;
}

static void thumbs_close(Thumbs *t)
{
    avcodec_free_context(&t->enc);
    sws_freeContext(t->sws);
    av_frame_free(&t->scaled);
    av_packet_free(&t->pkt);
}

static char *thumbnail(Thumbs *t, const AVFrame *f)
{
    if (!t->enc && thumbs_open(t, f, t->width))
        return NULL;
    /* The source's range as it says, out to JPEG's full range. Both are
     * set before the context is made: set later, a same-size copy would
     * skip the range conversion. */
    int src_full = f->color_range == AVCOL_RANGE_JPEG ||
                   f->format == AV_PIX_FMT_YUVJ420P ||
                   f->format == AV_PIX_FMT_YUVJ422P ||
                   f->format == AV_PIX_FMT_YUVJ444P;
    if (!t->sws || t->src_w != f->width || t->src_h != f->height ||
        t->src_fmt != f->format || t->src_full != src_full) {
        sws_freeContext(t->sws);
        t->sws = sws_alloc_context();
        t->src_w = f->width;
        t->src_h = f->height;
        t->src_fmt = f->format;
        t->src_full = src_full;
        if (!t->sws ||
            av_opt_set_int(t->sws, "srcw", f->width, 0) < 0 ||
            av_opt_set_int(t->sws, "srch", f->height, 0) < 0 ||
            av_opt_set_int(t->sws, "src_format", f->format, 0) < 0 ||
            av_opt_set_int(t->sws, "src_range", src_full, 0) < 0 ||
            av_opt_set_int(t->sws, "dstw", t->scaled->width, 0) < 0 ||
            av_opt_set_int(t->sws, "dsth", t->scaled->height, 0) < 0 ||
            av_opt_set_int(t->sws, "dst_format", t->scaled->format, 0) < 0 ||
            av_opt_set_int(t->sws, "dst_range", 1, 0) < 0 ||
            av_opt_set_int(t->sws, "sws_flags", SWS_BICUBIC, 0) < 0 ||
            sws_init_context(t->sws, NULL, NULL) < 0) {
            sws_freeContext(t->sws);
            t->sws = NULL;
            return NULL;
        }
        const int *coefs = sws_getCoefficients(f->colorspace == AVCOL_SPC_BT709
                                               ? SWS_CS_ITU709 : SWS_CS_ITU601);
        sws_setColorspaceDetails(t->sws, coefs, src_full, coefs, 1, 0, 1 << 16,
                                 1 << 16);
    }
    if (av_frame_make_writable(t->scaled) < 0)
        return NULL;
    sws_scale(t->sws, (const uint8_t *const *)f->data, f->linesize, 0,
              f->height, t->scaled->data, t->scaled->linesize);
    t->scaled->pts = f->pts;
    char *uri = NULL;
    if (avcodec_send_frame(t->enc, t->scaled) >= 0 &&
        avcodec_receive_packet(t->enc, t->pkt) >= 0) {
        uri = report_data_uri(t->mime, t->pkt->data, (size_t)t->pkt->size);
        av_packet_unref(t->pkt);
    }
    return uri;
}

int report_media_thumbnails(const char *path, const unsigned *frames, size_t n,
                            unsigned width, char **uris, char *err,
                            size_t errlen)
{
    AVFormatContext *fmt = NULL;
    int si;
    if (!n)
        return 0;
    if (open_video(path, &fmt, &si, err, errlen))
        return -1;
    const AVCodecParameters *par = fmt->streams[si]->codecpar;
    const AVCodec *codec = avcodec_find_decoder(par->codec_id);
    AVCodecContext *dec = codec ? avcodec_alloc_context3(codec) : NULL;
    AVPacket *pkt = av_packet_alloc();
    AVFrame *frame = av_frame_alloc();
    Thumbs t = { .width = width };
    int rc = -1;
    if (!dec || !pkt || !frame || avcodec_parameters_to_context(dec, par) < 0) {
        snprintf(err, errlen, "%s: no decoder for its video", path);
        goto out;
    }
    dec->thread_count = 0;
    if (avcodec_open2(dec, codec, NULL) < 0) {
        snprintf(err, errlen, "%s: cannot open its video decoder", path);
        goto out;
    }
    size_t next = 0;
    unsigned long count = 0;
    int eof = 0;
    while (next < n) {
        int r = 0;
        if (!eof) {
            r = av_read_frame(fmt, pkt);
            if (r < 0) {
                eof = 1;
                r = avcodec_send_packet(dec, NULL); /* drain */
            } else {
                if (pkt->stream_index == si)
                    r = avcodec_send_packet(dec, pkt);
                av_packet_unref(pkt);
            }
            /* a damaged packet is skipped as players skip it */
            (void)r;
        }
        while (next < n && (r = avcodec_receive_frame(dec, frame)) >= 0) {
            if (count == frames[next]) {
                if (!(uris[next] = thumbnail(&t, frame))) {
                    snprintf(err, errlen, "%s: frame %lu: cannot make its "
                             "thumbnail", path, count);
                    av_frame_unref(frame);
                    goto out;
                }
                next++;
            }
            count++;
            av_frame_unref(frame);
        }
        if (eof && r < 0)
            break; /* drained */
    }
    rc = 0;
out:
    thumbs_close(&t);
    av_frame_free(&frame);
    av_packet_free(&pkt);
    avcodec_free_context(&dec);
    avformat_close_input(&fmt);
    return rc;
}
