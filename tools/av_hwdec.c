/* Hardware decoding of the CLI's video files (av_hwdec.h). */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <libavutil/hwcontext.h>
#include <libavutil/log.h>
#include <libavutil/pixdesc.h>

#include "av_hwdec.h"

enum { HW_NONE, HW_AUTO, HW_NAMED };
static int hw_mode = HW_NONE;
static enum AVHWDeviceType hw_type = AV_HWDEVICE_TYPE_NONE;
/* One device of each type for the whole process: every input of a run (a
 * ladder's too) decodes on it, and its start-up (a few tenths of a second
 * for CUDA) is paid once. A type that did not open is not tried again. */
enum { MAX_TYPES = 32 };
static AVBufferRef *devices[MAX_TYPES];
static char failed[MAX_TYPES];

static int device_of_type(enum AVHWDeviceType t, AVBufferRef **dev)
{
    if ((unsigned)t >= MAX_TYPES)
        return av_hwdevice_ctx_create(dev, t, NULL, NULL, 0);
    if (!devices[t] && !failed[t]) {
        int r = av_hwdevice_ctx_create(&devices[t], t, NULL, NULL, 0);
        if (r < 0) {
            failed[t] = 1;
            return r;
        }
    }
    if (!devices[t])
        return AVERROR(ENODEV);
    return (*dev = av_buffer_ref(devices[t])) ? 0 : AVERROR(ENOMEM);
}

int av_hwdec_select(const char *mode, char *err, size_t errsz)
{
    if (!strcmp(mode, "none") || !strcmp(mode, "auto")) {
        hw_mode = mode[0] == 'n' ? HW_NONE : HW_AUTO;
        hw_type = AV_HWDEVICE_TYPE_NONE;
        return 0;
    }
    enum AVHWDeviceType t = av_hwdevice_find_type_by_name(mode);
    if (t == AV_HWDEVICE_TYPE_NONE) {
        int n = snprintf(err, errsz, "--hwdec: '%s' is not a hardware type "
                         "this FFmpeg has (none, auto", mode);
        for (t = av_hwdevice_iterate_types(AV_HWDEVICE_TYPE_NONE);
             t != AV_HWDEVICE_TYPE_NONE && n > 0 && (size_t)n < errsz;
             t = av_hwdevice_iterate_types(t))
            n += snprintf(err + n, errsz - (size_t)n, ", %s",
                          av_hwdevice_get_type_name(t));
        if (n > 0 && (size_t)n < errsz)
            snprintf(err + n, errsz - (size_t)n, ")");
        return -1;
    }
    hw_mode = HW_NAMED;
    hw_type = t;
    return 0;
}

const char *av_hwdec_mode(void)
{
    return hw_mode == HW_NONE ? "none" : hw_mode == HW_AUTO ? "auto"
                                       : av_hwdevice_get_type_name(hw_type);
}

static void note_software(AvIn *a, const char *why)
{
    if (a->hw_noted)
        return;
    a->hw_noted = 1;
    fprintf(stderr, "vqhip: '%s': decoding in software (--hwdec auto: %s)\n",
            a->path, why);
}

/* The decoder's format callback: the hardware format when offered (a
 * stream's profile or size can rule it out), else a software one under
 * auto; a named type without it fails the decode. */
static enum AVPixelFormat pick_format(AVCodecContext *dec,
                                      const enum AVPixelFormat *fmts)
{
    AvIn *a = dec->opaque;
    const enum AVPixelFormat *p;
    for (p = fmts; *p != AV_PIX_FMT_NONE; p++)
        if (*p == (enum AVPixelFormat)a->hw_pix)
            return *p;
    if (hw_mode == HW_NAMED) {
        a->hw_refused = 1;
        return AV_PIX_FMT_NONE;
    }
    note_software(a, "the hardware does not decode this stream");
    for (p = fmts; *p != AV_PIX_FMT_NONE; p++) {
        const AVPixFmtDescriptor *d = av_pix_fmt_desc_get(*p);
        if (d && !(d->flags & AV_PIX_FMT_FLAG_HWACCEL))
            return *p;
    }
    return AV_PIX_FMT_NONE;
}

static int open_device(AvIn *a, const AVCodec *codec, char *err, size_t errsz)
{
    char tried[160] = "";
    size_t n = 0;
    int last = AVERROR(ENOSYS);
    /* auto tries quietly (FFmpeg's own messages of each failed type would
     * read as errors); the one line below says what happened */
    int level = av_log_get_level();
    if (hw_mode == HW_AUTO)
        av_log_set_level(AV_LOG_QUIET);
    for (int i = 0;; i++) {
        const AVCodecHWConfig *cfg = avcodec_get_hw_config(codec, i);
        if (!cfg)
            break;
        if (!(cfg->methods & AV_CODEC_HW_CONFIG_METHOD_HW_DEVICE_CTX) ||
            (hw_mode == HW_NAMED && cfg->device_type != hw_type))
            continue;
        int r = device_of_type(cfg->device_type, &a->hw_dev);
        if (r >= 0) {
            a->hw_pix = cfg->pix_fmt;
            a->hw_state = 1;
            av_log_set_level(level);
            return 0;
        }
        last = r;
        if (n < sizeof(tried))
            n += (size_t)snprintf(tried + n, sizeof(tried) - n, "%s%s",
                                  n ? ", " : "",
                                  av_hwdevice_get_type_name(cfg->device_type));
    }
    av_log_set_level(level);
    a->hw_state = -1;
    char e[AV_ERROR_MAX_STRING_SIZE], why[320];
    av_strerror(last, e, sizeof(e));
    if (!n)
        snprintf(why, sizeof(why), "this FFmpeg has no %s decoding of %s",
                 hw_mode == HW_NAMED ? av_hwdevice_get_type_name(hw_type)
                                     : "hardware",
                 codec->name);
    else if (hw_mode == HW_AUTO)
        snprintf(why, sizeof(why), "no device opened (%s tried)", tried);
    else
        snprintf(why, sizeof(why), "the device does not open: %s", e);
    if (hw_mode == HW_AUTO) {
        note_software(a, why);
        return 0;
    }
    snprintf(err, errsz, "'%s': --hwdec %s: %s", a->path,
             av_hwdevice_get_type_name(hw_type), why);
    return -1;
}

int av_hwdec_attach(AvIn *a, const AVCodec *codec, char *err, size_t errsz)
{
    if (hw_mode == HW_NONE)
        return 0;
    if (!a->hw_state && open_device(a, codec, err, errsz))
        return -1;
    if (a->hw_state != 1)
        return 0;
    if (!(a->dec->hw_device_ctx = av_buffer_ref(a->hw_dev))) {
        snprintf(err, errsz, "out of memory");
        return -1;
    }
    a->dec->opaque = a;
    a->dec->get_format = pick_format;
    return 0;
}

int av_hwdec_to_host(AvIn *a, char *err, size_t errsz)
{
    if (a->hw_state != 1 || a->frame->format != a->hw_pix)
        return 0;
    if (!a->hw_host && !(a->hw_host = av_frame_alloc())) {
        snprintf(err, errsz, "out of memory");
        return -1;
    }
    int r = av_hwframe_transfer_data(a->hw_host, a->frame, 0);
    if (r >= 0)
        r = av_frame_copy_props(a->hw_host, a->frame);
    if (r < 0) {
        av_frame_unref(a->hw_host);
        return av_err(err, errsz, a, "hardware frame to host memory", r);
    }
    av_frame_unref(a->frame);
    av_frame_move_ref(a->frame, a->hw_host);
    return 0;
}

int av_hwdec_layout_ok(const AvIn *a, const AVFrame *f)
{
    if (f->format == a->pix)
        return 1;
    if (a->hw_state != 1)
        return 0;
    if (f->format == a->hw_pix)
        return 1; /* a frame dropped in device memory */
    const AVPixFmtDescriptor *s = av_pix_fmt_desc_get(a->pix);
    const AVPixFmtDescriptor *d = av_pix_fmt_desc_get(f->format);
    if (!s || !d || (d->flags & (AV_PIX_FMT_FLAG_HWACCEL |
                                 AV_PIX_FMT_FLAG_RGB | AV_PIX_FMT_FLAG_PAL |
                                 AV_PIX_FMT_FLAG_BE | AV_PIX_FMT_FLAG_BAYER)) ||
        d->nb_components != s->nb_components ||
        d->log2_chroma_w != s->log2_chroma_w ||
        d->log2_chroma_h != s->log2_chroma_h)
        return 0;
    for (unsigned c = 0; c < d->nb_components; c++)
        if (d->comp[c].depth < s->comp[0].depth ||
            d->comp[c].depth + d->comp[c].shift > 16)
            return 0;
    return 1;
}

int av_hwdec_unpack(const AVFrame *f, unsigned c, unsigned w, unsigned h,
                    unsigned depth, unsigned char *dst)
{
    const AVPixFmtDescriptor *d = av_pix_fmt_desc_get(f->format);
    const AVComponentDescriptor *k = &d->comp[c];
    unsigned top = (unsigned)(k->depth + k->shift);
    /* Hardware layouts keep a sample in the high bits (P010: 10 bits
     * above 6 zero bits; YUV444P16 from a 12-bit stream: 4 zero bits
     * below): the bits under the stream's depth must be zero. */
    unsigned drop = top - depth;
    unsigned mask = (1u << drop) - 1;
    int wide = top > 8;
    for (unsigned y = 0; y < h; y++) {
        const uint8_t *row = f->data[k->plane] +
                             (ptrdiff_t)y * f->linesize[k->plane] + k->offset;
        for (unsigned x = 0; x < w; x++) {
            const uint8_t *s = row + (size_t)x * (unsigned)k->step;
            unsigned raw = wide ? *(const uint16_t *)(const void *)s : *s;
            if (raw & mask)
                return -1;
            unsigned v = raw >> drop;
            if (depth > 8)
                ((uint16_t *)(void *)dst)[(size_t)y * w + x] = (uint16_t)v;
            else
                dst[(size_t)y * w + x] = (uint8_t)v;
        }
    }
    return 0;
}

void av_hwdec_free(AvIn *a)
{
    av_buffer_unref(&a->hw_dev);
    av_frame_free(&a->hw_host);
}
