/*
 * Copyright (c) 2026 the vqhip authors
 *
 * This file is part of vqhip and is built inside FFmpeg's tree (see
 * libavfilter_patch/apply.sh). It is distributed under the BSD-2-Clause
 * license, which is compatible with FFmpeg's LGPL.
 */

/**
 * @file
 * Video quality metrics of the VMAF family (PSNR, SSIM, VIF, ADM, motion,
 * VMAF models, ...) between two input videos, computed by libvqhip on the
 * GPU through HIP or on the CPU.
 */

#include <errno.h>
#include <stdio.h>
#include <vqhip.h>

#include "libavutil/avstring.h"
#include "libavutil/fifo.h"
#include "libavutil/mem.h"
#include "libavutil/opt.h"
#include "libavutil/pixdesc.h"
#include "avfilter.h"
#include "filters.h"
#include "formats.h"
#include "framesync.h"
#include "version.h"

/*
 * API drift between the supported series (5.1 .. 9.0):
 * - 7.1 (lavfi 10.4.100; 7.0 is 10.1.100) merged internal.h into filters.h and
 *   moved the link's frame rate into FilterLink;
 * - 8.0 (lavfi 11) wraps the public AVFilter in FFFilter.
 */
#if LIBAVFILTER_VERSION_INT < AV_VERSION_INT(10, 2, 100)
#include "internal.h"
#define VQHIP_HAVE_FILTERLINK 0
#else
#define VQHIP_HAVE_FILTERLINK 1
#endif

#if LIBAVFILTER_VERSION_MAJOR >= 11
#define VQHIP_FILTER_TYPE FFFilter
#define VQHIP_PUBLIC(field) .p.field
#else
#define VQHIP_FILTER_TYPE AVFilter
#define VQHIP_PUBLIC(field) .field
#endif

static void copy_frame_rate(AVFilterLink *dst, AVFilterLink *src)
{
#if VQHIP_HAVE_FILTERLINK
    ff_filter_link(dst)->frame_rate = ff_filter_link(src)->frame_rate;
#else
    dst->frame_rate = src->frame_rate;
#endif
}

/* A main frame waiting for its scores, or (scored == 0) for the frames
 * before it to leave. */
typedef struct VQHIPPending {
    AVFrame *frame;
    int scored;
} VQHIPPending;

typedef struct VQHIPContext {
    const AVClass *class;
    FFFrameSync fs;
    char *model_cfg;
    char *feature_cfg;
    char *log_path;
    int log_fmt;
    int pool;
    int n_threads;
    int n_subsample;
    int backend;
    int device;
    int strict;
    int depth;

    VqContext *vq;
    AVFifo *pending;
    VqPixFmt vq_fmt;
    unsigned bpc;
    uint64_t nb_submitted;
    int got_event;
    int flushed;
    int failed;
} VQHIPContext;

#define OFFSET(x) offsetof(VQHIPContext, x)
#define FLAGS AV_OPT_FLAG_FILTERING_PARAM|AV_OPT_FLAG_VIDEO_PARAM

static const AVOption vqhip_options[] = {
    { "model",       "Set the models, '|'-separated (version=NAME or path=FILE:name=NAME).", OFFSET(model_cfg),   AV_OPT_TYPE_STRING, { .str = NULL }, 0, 0, FLAGS },
    { "feature",     "Set the features, '|'-separated (name=NAME:option=value...).",        OFFSET(feature_cfg), AV_OPT_TYPE_STRING, { .str = NULL }, 0, 0, FLAGS },
    { "log_path",    "Set the file to write the per-frame log to.",                          OFFSET(log_path),    AV_OPT_TYPE_STRING, { .str = NULL }, 0, 0, FLAGS },
    { "log_fmt",     "Set the format of the log.",                                           OFFSET(log_fmt),     AV_OPT_TYPE_INT,    { .i64 = VQ_LOG_XML }, VQ_LOG_XML, VQ_LOG_SUB, FLAGS, .unit = "log_fmt" },
        { "xml",  "libvmaf's XML layout",  0, AV_OPT_TYPE_CONST, { .i64 = VQ_LOG_XML  }, 0, 0, FLAGS, .unit = "log_fmt" },
        { "json", "libvmaf's JSON layout", 0, AV_OPT_TYPE_CONST, { .i64 = VQ_LOG_JSON }, 0, 0, FLAGS, .unit = "log_fmt" },
        { "csv",  "libvmaf's CSV layout",  0, AV_OPT_TYPE_CONST, { .i64 = VQ_LOG_CSV  }, 0, 0, FLAGS, .unit = "log_fmt" },
        { "sub",  "libvmaf's subtitle layout", 0, AV_OPT_TYPE_CONST, { .i64 = VQ_LOG_SUB }, 0, 0, FLAGS, .unit = "log_fmt" },
    { "pool",        "Set the pooling method of the summary.",                               OFFSET(pool),        AV_OPT_TYPE_INT,    { .i64 = VQ_POOL_MEAN }, VQ_POOL_MEAN, VQ_POOL_HARMONIC_MEAN, FLAGS, .unit = "pool" },
        { "mean",          "arithmetic mean", 0, AV_OPT_TYPE_CONST, { .i64 = VQ_POOL_MEAN          }, 0, 0, FLAGS, .unit = "pool" },
        { "min",           "minimum",         0, AV_OPT_TYPE_CONST, { .i64 = VQ_POOL_MIN           }, 0, 0, FLAGS, .unit = "pool" },
        { "max",           "maximum",         0, AV_OPT_TYPE_CONST, { .i64 = VQ_POOL_MAX           }, 0, 0, FLAGS, .unit = "pool" },
        { "harmonic_mean", "harmonic mean",   0, AV_OPT_TYPE_CONST, { .i64 = VQ_POOL_HARMONIC_MEAN }, 0, 0, FLAGS, .unit = "pool" },
    { "n_threads",   "Set the number of CPU worker threads (0: one per core).",              OFFSET(n_threads),   AV_OPT_TYPE_INT,    { .i64 = 0 }, 0, 64, FLAGS },
    { "n_subsample", "Compute non-temporal features on every n-th frame only.",              OFFSET(n_subsample), AV_OPT_TYPE_INT,    { .i64 = 1 }, 1, INT_MAX, FLAGS },
    { "backend",     "Set where the metrics are computed.",                                  OFFSET(backend),     AV_OPT_TYPE_INT,    { .i64 = VQ_BACKEND_AUTO }, VQ_BACKEND_AUTO, VQ_BACKEND_CPU, FLAGS, .unit = "backend" },
        { "auto", "GPU if usable, else CPU (with a warning)", 0, AV_OPT_TYPE_CONST, { .i64 = VQ_BACKEND_AUTO }, 0, 0, FLAGS, .unit = "backend" },
        { "hip",  "GPU through HIP",                          0, AV_OPT_TYPE_CONST, { .i64 = VQ_BACKEND_HIP  }, 0, 0, FLAGS, .unit = "backend" },
        { "cpu",  "CPU reference path",                       0, AV_OPT_TYPE_CONST, { .i64 = VQ_BACKEND_CPU  }, 0, 0, FLAGS, .unit = "backend" },
    { "device",      "Set the GPU index.",                                                   OFFSET(device),      AV_OPT_TYPE_INT,    { .i64 = 0 }, 0, INT_MAX, FLAGS },
    { "strict",      "Fail instead of falling back to the CPU.",                             OFFSET(strict),      AV_OPT_TYPE_BOOL,   { .i64 = 0 }, 0, 1, FLAGS },
    { "depth",       "Set the number of frames in flight (0: library default; 1: each frame leaves as soon as its scores exist).", OFFSET(depth), AV_OPT_TYPE_INT, { .i64 = 0 }, 0, 16, FLAGS },
    { NULL }
};

FRAMESYNC_DEFINE_CLASS(vqhip, VQHIPContext, fs);

static int vq_averror(int err)
{
    switch (err) {
    case VQ_ENOMEM:       return AVERROR(ENOMEM);
    case VQ_EIO:          return AVERROR(EIO);
    case VQ_EMODEL:       return AVERROR_INVALIDDATA;
    case VQ_EDEVICE:      return AVERROR_EXTERNAL;
    case VQ_ESTATE:       return AVERROR_BUG;
    default:              return AVERROR(EINVAL);
    }
}

/* Logs what libvqhip said about its last failure (its messages name the
 * feature, model or input concerned and list the valid choices); returns
 * the AVERROR. */
static int vq_report(AVFilterContext *ctx, int err, const char *call)
{
    VQHIPContext *s = ctx->priv;
    const char *msg = s->vq ? vq_last_error(s->vq) : "";

    s->failed = 1;
    if (*msg)
        av_log(ctx, AV_LOG_ERROR, "%s\n", msg);
    else
        av_log(ctx, AV_LOG_ERROR, "%s: %s\n", call, vq_strerror(err));
    return vq_averror(err);
}

static void vq_log_callback(void *opaque, VqLogLevel level, const char *msg)
{
    static const int av_level[] = {
        [VQ_LOG_LEVEL_ERROR]   = AV_LOG_ERROR,
        [VQ_LOG_LEVEL_WARNING] = AV_LOG_WARNING,
        [VQ_LOG_LEVEL_INFO]    = AV_LOG_VERBOSE,
        [VQ_LOG_LEVEL_DEBUG]   = AV_LOG_DEBUG,
    };
    av_log(opaque, level <= VQ_LOG_LEVEL_DEBUG ? av_level[level] : AV_LOG_DEBUG,
           "%s\n", msg);
}

/* Hands each '|'-separated entry of list to use(); libvqhip parses it. */
static int use_each(AVFilterContext *ctx, const char *list, const char *call,
                    int (*use)(VqContext *, const char *))
{
    VQHIPContext *s = ctx->priv;
    char *copy = av_strdup(list), *save = NULL;
    int ret = 0;

    if (!copy)
        return AVERROR(ENOMEM);
    for (char *spec = av_strtok(copy, "|", &save); spec && !ret;
         spec = av_strtok(NULL, "|", &save)) {
        int err = use(s->vq, spec);
        if (err < 0)
            ret = vq_report(ctx, err, call);
    }
    av_free(copy);
    return ret;
}

static void set_meta(AVDictionary **metadata, const char *name, double d)
{
    char key[128], value[128];

    snprintf(key, sizeof(key), "lavfi.vqhip.%s", name);
    snprintf(value, sizeof(value), "%f", d);
    av_dict_set(metadata, key, value, 0);
}

/* Sends on every pending frame whose scores are in, oldest first. After
 * vq_flush() all of them are; before, this stops at the first frame that
 * libvqhip has not finished (VQ_EAGAIN). With depth=1 it first waits for the
 * work already submitted, so that a frame waits only for the inputs a
 * temporal feature needs; otherwise finished work is collected when the next
 * frames arrive, which keeps the GPU busy while they are decoded. */
static int release_pending(AVFilterContext *ctx)
{
    VQHIPContext *s = ctx->priv;
    VQHIPPending p;
    int ret;

    while (av_fifo_peek(s->pending, &p, 1, 0) >= 0) {
        if (p.scored) {
            VqFrameScores scores;
            int err = s->depth == 1 ? vq_receive_wait(s->vq, &scores)
                                    : vq_receive(s->vq, &scores);
            if (err == VQ_EAGAIN && !s->flushed)
                return 0;
            if (err == VQ_EAGAIN || err == VQ_EOF) {
                av_log(ctx, AV_LOG_ERROR, "libvqhip returned fewer frames "
                       "than were submitted\n");
                return AVERROR_BUG;
            }
            if (err < 0)
                return vq_report(ctx, err, "vq_receive");
            for (unsigned i = 0; i < scores.n; i++)
                set_meta(&p.frame->metadata, scores.scores[i].name,
                         scores.scores[i].value);
            av_dict_set(&p.frame->metadata, "lavfi.vqhip.backend",
                        vq_backend_name(s->vq), 0);
        }
        av_fifo_drain2(s->pending, 1);
        ret = ff_filter_frame(ctx->outputs[0], p.frame);
        if (ret < 0)
            return ret;
    }
    return 0;
}

static int queue_frame(AVFilterContext *ctx, AVFrame *frame, int scored)
{
    VQHIPContext *s = ctx->priv;
    VQHIPPending p = { .frame = frame, .scored = scored };
    int ret = av_fifo_write(s->pending, &p, 1);

    if (ret < 0) {
        av_frame_free(&frame);
        return ret;
    }
    return release_pending(ctx);
}

/* The frame's colour description in libvqhip's terms (ssimulacra2 converts
 * to RGB with it); what libvqhip does not know is VQ_MATRIX_OTHER. */
static VqMatrix vq_matrix(enum AVColorSpace cs)
{
    switch (cs) {
    case AVCOL_SPC_UNSPECIFIED: return VQ_MATRIX_UNSPECIFIED;
    case AVCOL_SPC_BT709:       return VQ_MATRIX_BT709;
    case AVCOL_SPC_BT470BG:
    case AVCOL_SPC_SMPTE170M:   return VQ_MATRIX_BT601;
    case AVCOL_SPC_SMPTE240M:   return VQ_MATRIX_SMPTE240M;
    case AVCOL_SPC_FCC:         return VQ_MATRIX_FCC;
    case AVCOL_SPC_BT2020_NCL:  return VQ_MATRIX_BT2020_NCL;
    case AVCOL_SPC_YCGCO:       return VQ_MATRIX_YCGCO;
    default:                    return VQ_MATRIX_OTHER;
    }
}

static VqChromaLoc vq_chroma_loc(enum AVChromaLocation loc)
{
    switch (loc) {
    case AVCHROMA_LOC_LEFT:       return VQ_CHROMA_LOC_LEFT;
    case AVCHROMA_LOC_CENTER:     return VQ_CHROMA_LOC_CENTER;
    case AVCHROMA_LOC_TOPLEFT:    return VQ_CHROMA_LOC_TOPLEFT;
    case AVCHROMA_LOC_TOP:        return VQ_CHROMA_LOC_TOP;
    case AVCHROMA_LOC_BOTTOMLEFT: return VQ_CHROMA_LOC_BOTTOMLEFT;
    case AVCHROMA_LOC_BOTTOM:     return VQ_CHROMA_LOC_BOTTOM;
    default:                      return VQ_CHROMA_LOC_UNSPECIFIED;
    }
}

static void wrap_picture(VqPicture *pic, const AVFrame *f, VqPixFmt fmt,
                         unsigned bpc)
{
    memset(pic, 0, sizeof(*pic));
    pic->fmt = fmt;
    pic->bpc = bpc;
    pic->w   = f->width;
    pic->h   = f->height;
    for (int p = 0; p < (fmt == VQ_PIX_FMT_GRAY ? 1 : 3); p++) {
        pic->data[p]   = f->data[p];
        pic->stride[p] = f->linesize[p];
    }
    pic->matrix     = vq_matrix(f->colorspace);
    pic->range      = f->color_range == AVCOL_RANGE_JPEG ? VQ_RANGE_FULL :
                      f->color_range == AVCOL_RANGE_MPEG ? VQ_RANGE_LIMITED :
                                                           VQ_RANGE_UNSPECIFIED;
    pic->chroma_loc = vq_chroma_loc(f->chroma_location);
}

static int do_vqhip(FFFrameSync *fs)
{
    AVFilterContext *ctx = fs->parent;
    VQHIPContext *s = ctx->priv;
    AVFrame *master, *ref;
    VqPicture pic_ref, pic_dis;
    int ret, err;

    ret = ff_framesync_dualinput_get(fs, &master, &ref);
    if (ret < 0)
        return ret;
    s->got_event = 1;
    if (ctx->is_disabled || !ref)
        return queue_frame(ctx, master, 0);

    if (master->color_range != ref->color_range) {
        av_log(ctx, AV_LOG_WARNING, "main and reference "
               "frames use different color ranges (%s != %s)\n",
               av_color_range_name(master->color_range),
               av_color_range_name(ref->color_range));
    }

    wrap_picture(&pic_ref, ref, s->vq_fmt, s->bpc);
    wrap_picture(&pic_dis, master, s->vq_fmt, s->bpc);
    err = vq_submit(s->vq, &pic_ref, &pic_dis);
    if (err < 0) {
        av_frame_free(&master);
        return vq_report(ctx, err, "vq_submit");
    }
    s->nb_submitted++;
    return queue_frame(ctx, master, 1);
}

/* Opens s->vq on the given backend and selects the features and models. */
static int open_vq(AVFilterContext *ctx, VqBackend backend)
{
    VQHIPContext *s = ctx->priv;
    VqConfig cfg = vq_default_config();
    int err, ret;

    cfg.backend     = backend;
    cfg.device      = s->device;
    cfg.strict      = s->strict;
    cfg.depth       = s->depth;
    cfg.n_subsample = s->n_subsample;
    cfg.n_threads   = s->n_threads;
    cfg.log         = vq_log_callback;
    cfg.log_opaque  = ctx;
    cfg.log_level   = VQ_LOG_LEVEL_DEBUG;

    err = vq_open(&s->vq, &cfg);
    if (err < 0)
        return vq_report(ctx, err, "vq_open");
    if (s->feature_cfg &&
        (ret = use_each(ctx, s->feature_cfg, "vq_use_feature", vq_use_feature)) < 0)
        return ret;
    if (s->model_cfg || !s->feature_cfg)
        return use_each(ctx, s->model_cfg ? s->model_cfg : "version=vmaf_v0.6.1",
                        "vq_use_model", vq_use_model);
    return 0;
}

static av_cold int init(AVFilterContext *ctx)
{
    VQHIPContext *s = ctx->priv;
    int ret;

    if (s->log_path) {
        /* Fail now rather than after the whole run. */
        FILE *log = fopen(s->log_path, "a");
        if (!log) {
            ret = AVERROR(errno);
            av_log(ctx, AV_LOG_ERROR, "Could not open log file %s: %s\n",
                   s->log_path, av_err2str(ret));
            return ret;
        }
        fclose(log);
    }

    s->pending = av_fifo_alloc2(4, sizeof(VQHIPPending), AV_FIFO_FLAG_AUTO_GROW);
    if (!s->pending)
        return AVERROR(ENOMEM);
    s->fs.on_event = do_vqhip;

    /* Features and models are checked now, on a CPU context. The GPU is
     * opened in config_output: ffmpeg's CLI initialises a filter graph once
     * just to learn its inputs and outputs, and that one is never
     * configured, so the device is probed (and a fallback reported) once. */
    ret = open_vq(ctx, VQ_BACKEND_CPU);
    if (ret < 0 || s->backend == VQ_BACKEND_CPU)
        return ret;
    vq_close(&s->vq);
    return 0;
}

static const int pix_fmts[] = {
    AV_PIX_FMT_YUV420P,     AV_PIX_FMT_YUV422P,     AV_PIX_FMT_YUV444P,
    AV_PIX_FMT_YUV420P10LE, AV_PIX_FMT_YUV422P10LE, AV_PIX_FMT_YUV444P10LE,
    AV_PIX_FMT_YUV420P12LE, AV_PIX_FMT_YUV422P12LE, AV_PIX_FMT_YUV444P12LE,
    AV_PIX_FMT_YUV420P16LE, AV_PIX_FMT_YUV422P16LE, AV_PIX_FMT_YUV444P16LE,
    AV_PIX_FMT_GRAY8, AV_PIX_FMT_GRAY10LE, AV_PIX_FMT_GRAY12LE, AV_PIX_FMT_GRAY16LE,
    AV_PIX_FMT_NONE
};

/* The output carries the main frames, so it shares the main input's format;
 * the reference input negotiates on its own, so that a reference in another
 * format or bit depth is reported in config_input_ref instead of being
 * converted silently. */
static int query_formats(AVFilterContext *ctx)
{
    AVFilterFormats *main_fmts;
    int ret;

    ret = ff_formats_ref(ff_make_format_list(pix_fmts),
                         &ctx->inputs[1]->outcfg.formats);
    if (ret < 0)
        return ret;
    main_fmts = ff_make_format_list(pix_fmts);
    if ((ret = ff_formats_ref(main_fmts, &ctx->inputs[0]->outcfg.formats)) < 0)
        return ret;
    return ff_formats_ref(main_fmts, &ctx->outputs[0]->incfg.formats);
}

static void describe_link(char *buf, size_t size, const AVFilterLink *link)
{
    const AVPixFmtDescriptor *desc = av_pix_fmt_desc_get(link->format);

    snprintf(buf, size, "%dx%d %s (%d-bit)", link->w, link->h,
             desc ? desc->name : "none", desc ? desc->comp[0].depth : 0);
}

static int config_input_ref(AVFilterLink *inlink)
{
    AVFilterContext *ctx = inlink->dst;
    VQHIPContext *s = ctx->priv;
    AVFilterLink *mainlink = ctx->inputs[0], *reflink = ctx->inputs[1];
    const AVPixFmtDescriptor *desc = av_pix_fmt_desc_get(mainlink->format);

    if (mainlink->w != reflink->w || mainlink->h != reflink->h ||
        mainlink->format != reflink->format) {
        char main_desc[128], ref_desc[128];
        describe_link(main_desc, sizeof(main_desc), mainlink);
        describe_link(ref_desc, sizeof(ref_desc), reflink);
        av_log(ctx, AV_LOG_ERROR, "The main input is %s but the reference "
               "input is %s: size, pixel format and bit depth must be the "
               "same.\n", main_desc, ref_desc);
        return AVERROR(EINVAL);
    }

    s->bpc = desc->comp[0].depth;
    if (desc->nb_components == 1)
        s->vq_fmt = VQ_PIX_FMT_GRAY;
    else if (desc->log2_chroma_h)
        s->vq_fmt = VQ_PIX_FMT_420;
    else if (desc->log2_chroma_w)
        s->vq_fmt = VQ_PIX_FMT_422;
    else
        s->vq_fmt = VQ_PIX_FMT_444;
    return 0;
}

static int config_output(AVFilterLink *outlink)
{
    AVFilterContext *ctx = outlink->src;
    VQHIPContext *s = ctx->priv;
    AVFilterLink *mainlink = ctx->inputs[0];
    int ret;

    ret = ff_framesync_init_dualinput(&s->fs, ctx);
    if (ret < 0)
        return ret;
    outlink->w = mainlink->w;
    outlink->h = mainlink->h;
    outlink->time_base = mainlink->time_base;
    outlink->sample_aspect_ratio = mainlink->sample_aspect_ratio;
    copy_frame_rate(outlink, mainlink);
    if ((ret = ff_framesync_configure(&s->fs)) < 0)
        return ret;

    outlink->time_base = s->fs.time_base;

    if (!s->vq && (ret = open_vq(ctx, s->backend)) < 0)
        return ret;

    if (av_cmp_q(mainlink->time_base, outlink->time_base) ||
        av_cmp_q(ctx->inputs[1]->time_base, outlink->time_base))
        av_log(ctx, AV_LOG_WARNING, "not matching timebases found between first input: %d/%d and second input %d/%d, results may be incorrect!\n",
               mainlink->time_base.num, mainlink->time_base.den,
               ctx->inputs[1]->time_base.num, ctx->inputs[1]->time_base.den);

    return 0;
}

static int activate(AVFilterContext *ctx)
{
    VQHIPContext *s = ctx->priv;
    int ret, err;

    s->got_event = 0;
    ret = ff_framesync_activate(&s->fs);
    if (ret < 0)
        return ret;
    if (!s->fs.eof) {
        /* framesync handles one frame per call. When that frame is still
         * waiting for its scores, nothing went out that would bring the next
         * request: come back for the next input. */
        if (s->got_event && av_fifo_can_read(s->pending))
            ff_filter_set_ready(ctx, 100);
        return 0;
    }
    if (s->flushed)
        return 0;

    /* framesync has just set EOF on the output. Frames sent now still reach
     * the next filter before that status: a link reports its status only
     * once its queue is empty. */
    s->flushed = 1;
    err = vq_flush(s->vq);
    if (err < 0)
        return vq_report(ctx, err, "vq_flush");
    return release_pending(ctx);
}

static void print_summary(AVFilterContext *ctx)
{
    static const char *const pool_name[] = {
        [VQ_POOL_MEAN] = "mean", [VQ_POOL_MIN] = "min",
        [VQ_POOL_MAX] = "max",   [VQ_POOL_HARMONIC_MEAN] = "harmonic_mean",
    };
    VQHIPContext *s = ctx->priv;
    const char *device = vq_device_name(s->vq);

    av_log(ctx, AV_LOG_INFO, "%s of %"PRIu64" frames, computed on %s%s%s:\n",
           pool_name[s->pool], s->nb_submitted, vq_backend_name(s->vq),
           *device ? " " : "", device);
    for (unsigned i = 0; i < vq_output_count(s->vq); i++) {
        const char *name = vq_output_name(s->vq, i);
        double value;
        int err = vq_pooled(s->vq, name, s->pool, &value);
        if (err < 0)
            vq_report(ctx, err, name);
        else
            av_log(ctx, AV_LOG_INFO, "%s score: %f\n", name, value);
    }
    for (unsigned i = 0; i < vq_aggregate_count(s->vq); i++) {
        VqScore agg;
        if (vq_aggregate(s->vq, i, &agg) >= 0)
            av_log(ctx, AV_LOG_INFO, "%s score: %f\n", agg.name, agg.value);
    }
    /* The line libvmaf's filter prints for each model. */
    for (unsigned i = 0; i < vq_model_count(s->vq); i++) {
        double value;
        if (vq_pooled(s->vq, vq_model_output(s->vq, i), s->pool, &value) >= 0)
            av_log(ctx, AV_LOG_INFO, "VMAF score: %f\n", value);
    }
}

static av_cold void uninit(AVFilterContext *ctx)
{
    VQHIPContext *s = ctx->priv;
    VQHIPPending p;

    ff_framesync_uninit(&s->fs);
    while (s->pending && av_fifo_read(s->pending, &p, 1) >= 0)
        av_frame_free(&p.frame);
    av_fifo_freep2(&s->pending);

    if (s->vq && s->nb_submitted && !s->failed) {
        int err = 0;
        /* The output may have closed early (e.g. -frames:v): the scores of
         * frames still in flight still count in the summary and the log. */
        if (!s->flushed) {
            VqFrameScores scores;
            err = vq_flush(s->vq);
            while (err >= 0 && (err = vq_receive(s->vq, &scores)) >= 0)
                ;
            if (err == VQ_EOF)
                err = 0;
            if (err < 0)
                vq_report(ctx, err, "vq_flush");
        }
        if (err >= 0)
            print_summary(ctx);
        if (err >= 0 && s->log_path &&
            (err = vq_write_log(s->vq, s->log_path, s->log_fmt)) < 0)
            vq_report(ctx, err, "vq_write_log");
    }
    vq_close(&s->vq);
}

static const AVFilterPad vqhip_inputs[] = {
    {
        .name         = "main",
        .type         = AVMEDIA_TYPE_VIDEO,
    },{
        .name         = "reference",
        .type         = AVMEDIA_TYPE_VIDEO,
        .config_props = config_input_ref,
    },
};

static const AVFilterPad vqhip_outputs[] = {
    {
        .name          = "default",
        .type          = AVMEDIA_TYPE_VIDEO,
        .config_props  = config_output,
    },
};

const VQHIP_FILTER_TYPE ff_vf_vqhip = {
    VQHIP_PUBLIC(name)        = "vqhip",
    VQHIP_PUBLIC(description) = NULL_IF_CONFIG_SMALL("Calculate VMAF-family video quality metrics (libvqhip: GPU through HIP, or CPU)."),
    VQHIP_PUBLIC(priv_class)  = &vqhip_class,
    VQHIP_PUBLIC(flags)       = AVFILTER_FLAG_SUPPORT_TIMELINE_INTERNAL |
                                AVFILTER_FLAG_METADATA_ONLY,
    .preinit       = vqhip_framesync_preinit,
    .init          = init,
    .uninit        = uninit,
    .activate      = activate,
    .priv_size     = sizeof(VQHIPContext),
    FILTER_INPUTS(vqhip_inputs),
    FILTER_OUTPUTS(vqhip_outputs),
    FILTER_QUERY_FUNC(query_formats),
};
