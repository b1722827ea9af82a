/*
 * Hardware decoding of the CLI's video files (--hwdec): FFmpeg's hwaccel
 * decoders (CUDA/NVDEC, VAAPI, ...) decode, the frames come back to host
 * memory (av_hwframe_transfer_data) in the hardware's layout (NV12, P010,
 * P016, YUV444P16 ...), and av_hwdec_unpack turns them into the stream's
 * planar samples. Decoders conform bit for bit, so the scores are those of
 * software decoding; the unpack refuses samples whose dropped low bits are
 * not zero instead of guessing.
 */
#ifndef VQHIP_TOOLS_AV_HWDEC_H
#define VQHIP_TOOLS_AV_HWDEC_H

#include <stddef.h>

#include <libavcodec/avcodec.h>
#include <libavutil/frame.h>

#include "av_input_priv.h"

/* The process's choice, from --hwdec: "none" (the default), "auto" (the
 * first hardware type that opens for a stream's decoder, else software,
 * with a note on stderr) or one of FFmpeg's device type names ("cuda",
 * "vaapi" ...; a stream it cannot decode is an error). 0, or -1 and a
 * message naming the types this FFmpeg has. */
int av_hwdec_select(const char *mode, char *err, size_t errsz);
/* The selected mode's name ("none", "auto", "cuda" ...). */
const char *av_hwdec_mode(void);
/* Before avcodec_open2: gives the decoder a hardware device when the mode
 * asks for one (opened on the stream's first open, kept for reopenings).
 * 0, or -1 and a message (a named type that does not open). */
int av_hwdec_attach(AvIn *a, const AVCodec *codec, char *err, size_t errsz);
/* a->frame in host memory: hardware frames are transferred (into a frame
 * of the hardware's software layout), others left. 0 or -1. */
int av_hwdec_to_host(AvIn *a, char *err, size_t errsz);
/* Whether f's layout carries the stream's samples: its own format, or
 * (decoded by hardware) the hardware's own format or the same components
 * and subsampling at the same or a higher depth. */
int av_hwdec_layout_ok(const AvIn *a, const AVFrame *f);
/* Copies f's component c (rows of w samples, h rows) into dst (rows
 * packed), as samples of depth bits (bytes: 1 for 8 bits, else 2 in
 * native order). 0, or -1 when a dropped low bit is not zero. */
int av_hwdec_unpack(const AVFrame *f, unsigned c, unsigned w, unsigned h,
                    unsigned depth, unsigned char *dst);
void av_hwdec_free(AvIn *a);

#endif
