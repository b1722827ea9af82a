/* What av_input.c and av_seek.c share (tools/ only). */
#ifndef VQHIP_TOOLS_AV_INPUT_PRIV_H
#define VQHIP_TOOLS_AV_INPUT_PRIV_H

#include <stdint.h>

#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>

#include "yuv_input.h"

typedef struct Pkt {
    int64_t pts, dts, pos;
    int key, discard;
    unsigned rank; /* presentation rank among the frames (not discarded) */
} Pkt;

typedef struct AvIn {
    char path[1024];
    AVFormatContext *fmt;
    AVCodecContext *dec;
    AVPacket *pkt;
    AVFrame *frame;
    int si, pix, draining;
    int matrix_code, range_code, loc_code; /* the stream's, FFmpeg's numbers */
    Pkt *tab;          /* the stream's packets in decode order (counted) */
    unsigned n_tab, n_frames, counted, ranked;
    int64_t *sorted;   /* the frames' pts in presentation order (ranked) */
    unsigned next;     /* the number of the next frame the decoder gives */
    unsigned want;     /* frames before it are dropped */
    int check;         /* frames checked against `sorted` */
    unsigned next_pkt; /* after a seek: the table's next packet */
    int check_pkt;
    /* hardware decoding (av_hwdec.c) */
    AVBufferRef *hw_dev;  /* the device, kept across reopenings */
    int hw_pix;           /* the decoder's hardware pixel format */
    int hw_state;         /* 0 not tried, 1 device open, -1 software */
    int hw_noted;         /* the software fallback was said */
    int hw_refused;       /* a named type's decoder refused the stream */
    AVFrame *hw_host;     /* a transferred frame */
} AvIn;

/* "'path': what: FFmpeg's message" in err; -1. */
int av_err(char *err, size_t errsz, const AvIn *a, const char *what, int r);
/* The demuxer and decoder at the start of the file (again). */
int av_open_stream(AvIn *a, char *err, size_t errsz);
void av_close_stream(AvIn *a);
/* The decoder's next frame in a->frame: 1, 0 at the end, -1. */
int av_decode_next(AvIn *a, char *err, size_t errsz);
/* YuvSource's count and skip (av_seek.c). */
int av_seek_count(YuvInput *in, unsigned *n, char *err, size_t errsz);
int av_seek_skip(YuvInput *in, unsigned k, char *err, size_t errsz);

#endif
