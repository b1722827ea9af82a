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
#include <stdatomic.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>
#include <vqhip.h>

#include "config.h"
#include "libavutil/avstring.h"
#include "libavutil/fifo.h"
#include "libavutil/mem.h"
#include "libavutil/opt.h"
#include "libavutil/pixdesc.h"
#include "libavutil/thread.h"
#include "avfilter.h"
#include "filters.h"
#include "formats.h"
#include "framesync.h"
#include "version.h"

/* CUDA hardware frames (hwupload_cuda, -hwaccel cuda) go to libvqhip's
 * device input without a copy through the host, when FFmpeg has CUDA and
 * libvqhip runs on NVIDIA. */
#if CONFIG_CUDA
#include "libavutil/hwcontext.h"
#include "libavutil/hwcontext_cuda_internal.h"
#define VQHIP_CUDA 1
#else
#define VQHIP_CUDA 0
#endif

/* DRM PRIME frames (and VAAPI frames, mapped to DRM PRIME) are imported into
 * HIP by dma-buf file descriptor and read in place (libvqhip on AMD). */
#if CONFIG_LIBDRM
#include "libavutil/hwcontext.h"
#include "libavutil/hwcontext_drm.h"
#define VQHIP_DRM 1
#else
#define VQHIP_DRM 0
#endif

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

static AVBufferRef **link_hw_frames(AVFilterLink *link)
{
#if VQHIP_HAVE_FILTERLINK
    return &ff_filter_link(link)->hw_frames_ctx;
#else
    return &link->hw_frames_ctx;
#endif
}

/* A main frame waiting for its scores, or (scored == 0) for the frames
 * before it to leave. */
typedef struct VQHIPPending {
    AVFrame *frame;
    int scored;
} VQHIPPending;

/* A frame pair that arrived while the GPU was opening, with what enable=
 * said of it then. */
typedef struct VQHIPHeld {
    AVFrame *main, *ref;
    int disabled;
} VQHIPHeld;

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
    int verify;
    int skip_unsupported;
    int hold_mb;
    int64_t max_pairs;     /* frames=: 0, or the pairs to score */

    VqContext *vq;
    AVFifo *pending;
    /* The GPU opens on a thread of its own (the GPU runtime's start takes a
     * few tenths of a second); the frame pairs that arrive meanwhile are
     * held, up to hold_mb, and scored in order once it is open. */
    pthread_t opener;
    int opening;           /* the opener runs or was not joined yet */
    atomic_int open_done;  /* the opener finished */
    int open_ret;
    AVFifo *held;          /* VQHIPHeld */
    size_t held_bytes;
    uint64_t nb_held;      /* pairs held in all */
    VqPixFmt vq_fmt;
    unsigned bpc;
    int n_stored;   /* planes of a frame in its layout (semi-planar: 2) */
#if VQHIP_CUDA
    AVCUDADeviceContext *cuda; /* set when the inputs are CUDA frames */
#endif
    int drm;        /* inputs are DRM PRIME or VAAPI frames */
    uint64_t nb_submitted;
    uint64_t nb_taken;     /* pairs framesync gave the filter */
    int64_t last_pts;      /* of the last frame sent on */
    unsigned ahead;        /* frames queued after a frame before it waits
                              for its scores: the run's depth - 1 */
    int got_event;
    int flushed;
    int lib_flushed;       /* vq_flush called before the end: the
                              reference or the enable= range ended */
    unsigned lag;          /* the run's temporal lag (VqRunInfo.lag) */
    uint64_t nb_after_range; /* frames in enable= after the run ended */
    int failed;
    int configured;        /* a run started: the log is this run's */
    int64_t nb_output;     /* frames sent on */
    int log_written;
    uint64_t nb_unscored;  /* main frames passed on without a reference */
    uint64_t nb_ref_repeats; /* reference frames scored more than once */
    int64_t last_ref_pts;
    int range_warned;
    char why[256];         /* why the run is incomplete, if it is */
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
    { "n_threads",   "Set the number of CPU worker threads (0: one per core).",              OFFSET(n_threads),   AV_OPT_TYPE_INT,    { .i64 = 0 }, 0, 1024, FLAGS },
    { "n_subsample", "Compute non-temporal features on every n-th frame only.",              OFFSET(n_subsample), AV_OPT_TYPE_INT,    { .i64 = 1 }, 1, INT_MAX, FLAGS },
    { "backend",     "Set where the metrics are computed.",                                  OFFSET(backend),     AV_OPT_TYPE_INT,    { .i64 = VQ_BACKEND_AUTO }, VQ_BACKEND_AUTO, VQ_BACKEND_CPU, FLAGS, .unit = "backend" },
        { "auto", "GPU if usable, else CPU (with a warning)", 0, AV_OPT_TYPE_CONST, { .i64 = VQ_BACKEND_AUTO }, 0, 0, FLAGS, .unit = "backend" },
        { "hip",  "GPU through HIP",                          0, AV_OPT_TYPE_CONST, { .i64 = VQ_BACKEND_HIP  }, 0, 0, FLAGS, .unit = "backend" },
        { "cpu",  "CPU reference path",                       0, AV_OPT_TYPE_CONST, { .i64 = VQ_BACKEND_CPU  }, 0, 0, FLAGS, .unit = "backend" },
    { "device",      "Set the GPU index.",                                                   OFFSET(device),      AV_OPT_TYPE_INT,    { .i64 = 0 }, 0, INT_MAX, FLAGS },
    { "strict",      "Fail instead of falling back to the CPU.",                             OFFSET(strict),      AV_OPT_TYPE_BOOL,   { .i64 = 0 }, 0, 1, FLAGS },
    { "depth",       "Set the number of frames in flight (0: library default; 1: each frame leaves as soon as its scores exist).", OFFSET(depth), AV_OPT_TYPE_INT, { .i64 = 0 }, 0, 16, FLAGS },
    { "verify",      "Also compute every n-th GPU frame on the CPU and compare (0: off).", OFFSET(verify), AV_OPT_TYPE_INT, { .i64 = 0 }, 0, INT_MAX, FLAGS },
    { "skip_unsupported", "Leave out features that cannot score the input's size or format instead of failing.", OFFSET(skip_unsupported), AV_OPT_TYPE_BOOL, { .i64 = 0 }, 0, 1, FLAGS },
    /* 512: with 1024, the fresh memory of the held 4K frames slowed the GPU
     * runtime's start (0.32-0.39 s against 0.20-0.22 s; docs/PERFORMANCE.md) */
    { "frames",      "Score the first N frame pairs, then end the output (0: every pair); unlike -frames:v, exactly N at any depth.", OFFSET(max_pairs), AV_OPT_TYPE_INT64, { .i64 = 0 }, 0, INT64_MAX, FLAGS },
    { "hold_mb",     "Set how many MiB of frames may wait while the GPU opens (0: the first frame waits for it).", OFFSET(hold_mb), AV_OPT_TYPE_INT, { .i64 = 512 }, 0, 65536, FLAGS },
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
    snprintf(s->why, sizeof(s->why), "%s", *msg ? msg : vq_strerror(err));
    if (*msg)
        av_log(ctx, AV_LOG_ERROR, "%s\n", msg);
    else
        av_log(ctx, AV_LOG_ERROR, "%s: %s\n", call, vq_strerror(err));
    return vq_averror(err);
}

/* With CUDA frames, libvqhip's streams and buffers live in the frames' CUDA
 * context: it is made current around every call into libvqhip. */
static int vq_enter(AVFilterContext *ctx)
{
#if VQHIP_CUDA
    VQHIPContext *s = ctx->priv;
    if (s->cuda) {
        CudaFunctions *cu = s->cuda->internal->cuda_dl;
        if (cu->cuCtxPushCurrent(s->cuda->cuda_ctx) != CUDA_SUCCESS) {
            av_log(ctx, AV_LOG_ERROR, "cannot make the CUDA context current\n");
            return AVERROR_EXTERNAL;
        }
    }
#else
    (void)ctx;
#endif
    return 0;
}

static void vq_leave(AVFilterContext *ctx)
{
#if VQHIP_CUDA
    VQHIPContext *s = ctx->priv;
    if (s->cuda) {
        CUcontext dummy;
        s->cuda->internal->cuda_dl->cuCtxPopCurrent(&dummy);
    }
#else
    (void)ctx;
#endif
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

/* Sends on pending frames, oldest first, while the output asks for frames
 * (after vq_flush(): all of them). Before a scored frame waits for its
 * scores, the filter reads ahead until `ahead` (depth - 1) frames were
 * queued after it, so the GPU (or the CPU workers) work on them while
 * the next inputs are read; a frame also waits for more input when a
 * temporal feature needs the next frame (VQ_EAGAIN). Both depend only on
 * the frames read, never on how fast the work went, and frames are
 * received only as they leave: what a run cut short (-frames:v) scored and
 * pooled is the frames that went out, the same at any depth. */
static int release_pending(AVFilterContext *ctx)
{
    VQHIPContext *s = ctx->priv;
    VQHIPPending p;
    int ret;

    while (av_fifo_peek(s->pending, &p, 1, 0) >= 0) {
        /* Before the end, a frame leaves only when the output asks for one:
         * the frames scored, pooled and logged are then the frames that
         * went out, whatever the depth, also when the output closes early
         * (-frames:v). */
        if (!s->flushed && !ff_outlink_frame_wanted(ctx->outputs[0]))
            return 0;
        if (p.scored) {
            VqFrameScores scores;
            int err;
            /* frames without a reference (eof_action=pass, outside enable=)
             * count too: no frame waits for submissions that may not come,
             * and at most `ahead` frames are held behind it */
            int ended = s->flushed || s->lib_flushed;
            if (!ended && av_fifo_can_read(s->pending) <= s->ahead)
                return 0; /* read ahead first */
            err = vq_receive_wait(s->vq, &scores);
            if (err == VQ_EAGAIN && !ended)
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
                        scores.backend, 0);
        }
        av_fifo_drain2(s->pending, 1);
        s->nb_output++;
        s->last_pts = p.frame->pts;
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

static void set_color(VqPicture *pic, const AVFrame *f)
{
    pic->matrix     = vq_matrix(f->colorspace);
    pic->range      = f->color_range == AVCOL_RANGE_JPEG ? VQ_RANGE_FULL :
                      f->color_range == AVCOL_RANGE_MPEG ? VQ_RANGE_LIMITED :
                                                           VQ_RANGE_UNSPECIFIED;
    pic->chroma_loc = vq_chroma_loc(f->chroma_location);
}

static void wrap_picture(VqPicture *pic, const AVFrame *f,
                         const VQHIPContext *s)
{
    memset(pic, 0, sizeof(*pic));
    pic->fmt = s->vq_fmt;
    pic->bpc = s->bpc;
    pic->w   = f->width;
    pic->h   = f->height;
    for (int p = 0; p < s->n_stored; p++) {
        pic->data[p]   = f->data[p];
        pic->stride[p] = f->linesize[p];
    }
    set_color(pic, f);
}

#if VQHIP_DRM
/* A DRM PRIME frame's planes (in layer order) as device pointers of its
 * imported objects; VAAPI frames are first mapped to DRM PRIME. */
typedef struct DrmImport {
    AVFrame *mapped;
    VqImport *imp[AV_DRM_MAX_PLANES];
} DrmImport;

static void drm_release(VQHIPContext *s, DrmImport *d)
{
    for (int i = 0; i < AV_DRM_MAX_PLANES; i++)
        vq_import_release(s->vq, &d->imp[i]);
    av_frame_free(&d->mapped);
}

static int drm_import(AVFilterContext *ctx, const AVFrame *f, DrmImport *d,
                      VqDevicePicture *pic)
{
    VQHIPContext *s = ctx->priv;
    const AVDRMFrameDescriptor *desc;
    void *base[AV_DRM_MAX_PLANES] = { 0 };
    int n = 0, ret;

    memset(d, 0, sizeof(*d));
    if (f->format == AV_PIX_FMT_VAAPI) {
        if (!(d->mapped = av_frame_alloc()))
            return AVERROR(ENOMEM);
        d->mapped->format = AV_PIX_FMT_DRM_PRIME;
        if ((ret = av_hwframe_map(d->mapped, f, AV_HWFRAME_MAP_READ)) < 0) {
            av_log(ctx, AV_LOG_ERROR, "cannot map a VAAPI frame to DRM PRIME\n");
            return ret;
        }
        f = d->mapped;
    }
    desc = (const AVDRMFrameDescriptor *)f->data[0];
    for (int i = 0; i < desc->nb_objects; i++) {
        /* DRM_FORMAT_MOD_LINEAR is 0: other layouts are tiled. */
        if (desc->objects[i].format_modifier != 0) {
            av_log(ctx, AV_LOG_ERROR, "DRM frame object %d is not "
                   "pitch-linear (modifier 0x%"PRIx64"): use hwdownload\n",
                   i, desc->objects[i].format_modifier);
            return AVERROR(ENOSYS);
        }
        ret = vq_import_dmabuf(s->vq, desc->objects[i].fd,
                               desc->objects[i].size, &d->imp[i], &base[i]);
        if (ret < 0)
            return vq_report(ctx, ret, "vq_import_dmabuf");
    }
    memset(pic, 0, sizeof(*pic));
    pic->device = s->device;
    pic->pic.fmt = s->vq_fmt;
    pic->pic.bpc = s->bpc;
    pic->pic.w = f->width;
    pic->pic.h = f->height;
    set_color(&pic->pic, f);
    for (int l = 0; l < desc->nb_layers; l++)
        for (int p = 0; p < desc->layers[l].nb_planes && n < 3; p++, n++) {
            const AVDRMPlaneDescriptor *pl = &desc->layers[l].planes[p];
            pic->pic.data[n] = (const uint8_t *)base[pl->object_index] + pl->offset;
            pic->pic.stride[n] = pl->pitch;
        }
    if (n != s->n_stored) {
        av_log(ctx, AV_LOG_ERROR, "DRM frame has %d planes, %d expected\n",
               n, s->n_stored);
        return AVERROR(EINVAL);
    }
    return 0;
}
#endif

/* A pair of frames lent to libvqhip (vq_submit_retained,
 * vq_submit_device_retained): its references are dropped when libvqhip has
 * read the planes, from whichever thread it calls back on (AVFrame
 * references are thread-safe). */
typedef struct LentPair {
    AVFrame *ref, *dis;
} LentPair;

static void lent_pair_free(void *opaque)
{
    LentPair *p = opaque;
    av_frame_free(&p->ref);
    av_frame_free(&p->dis);
    av_free(p);
}

/* New references to both frames, or NULL (out of memory). */
static LentPair *lent_pair(const AVFrame *ref, const AVFrame *dis)
{
    LentPair *lp = av_mallocz(sizeof(*lp));
    if (lp) {
        lp->ref = av_frame_clone(ref);
        lp->dis = av_frame_clone(dis);
    }
    if (lp && (!lp->ref || !lp->dis)) {
        lent_pair_free(lp);
        lp = NULL;
    }
    return lp;
}

/* Hands a frame pair to libvqhip; returns 0 or an AVERROR (logged). */
static int submit(AVFilterContext *ctx, const AVFrame *ref, const AVFrame *dis)
{
    VQHIPContext *s = ctx->priv;
    VqPicture r, d;
    LentPair *lp;
    int err;
#if VQHIP_CUDA
    if (s->cuda) {
        /* data[] of CUDA frames are device pointers, written on the
         * device context's stream. */
        VqDevicePicture dr = { .device = s->device, .stream = s->cuda->stream };
        VqDevicePicture dd = dr;
        wrap_picture(&dr.pic, ref, s);
        wrap_picture(&dd.pic, dis, s);
        /* The kernels read the frames in place while references to them
         * are held (the pool of CUDA frames grows on demand); copied
         * device to device only when no reference can be made. */
        lp = lent_pair(ref, dis);
        err = lp ? vq_submit_device_retained(s->vq, &dr, &dd, lent_pair_free, lp)
                 : vq_submit_device(s->vq, &dr, &dd);
        return err < 0 ? vq_report(ctx, err, "vq_submit_device") : 0;
    }
#endif
#if VQHIP_DRM
    if (s->drm) {
        DrmImport ir, id;
        VqDevicePicture dr, dd;
        int ret = drm_import(ctx, ref, &ir, &dr);
        if (ret >= 0)
            ret = drm_import(ctx, dis, &id, &dd);
        else
            memset(&id, 0, sizeof(id));
        /* vq_submit_device has read the planes when it returns. */
        if (ret >= 0 && (ret = vq_submit_device(s->vq, &dr, &dd)) < 0)
            ret = vq_report(ctx, ret, "vq_submit_device");
        drm_release(s, &ir);
        drm_release(s, &id);
        return ret < 0 ? ret : 0;
    }
#endif
    wrap_picture(&r, ref, s);
    wrap_picture(&d, dis, s);
    /* The CPU backend reads the planes in place, holding references,
     * instead of copying every frame for its worker threads. */
    lp = lent_pair(ref, dis);
    err = lp ? vq_submit_retained(s->vq, &r, &d, lent_pair_free, lp)
             : vq_submit(s->vq, &r, &d);
    return err < 0 ? vq_report(ctx, err, "vq_submit") : 0;
}

/* Scores one pair (ref may be NULL: no reference) or passes the main frame
 * on unscored (disabled: outside enable=); takes master. */
static int process_pair(AVFilterContext *ctx, AVFrame *master, AVFrame *ref,
                        int disabled)
{
    VQHIPContext *s = ctx->priv;
    int ret;

    if (s->nb_submitted && !s->lib_flushed &&
        ((!disabled && !ref) || (disabled && s->lag))) {
        /* The run ends here, in two cases. framesync gives no reference
         * frame once one was given only after the reference ended
         * (eof_action=pass): no pair can follow. Or a frame lies outside
         * enable= after scored ones, and a temporal feature (motion)
         * compares each scored frame with the next scored one: across the
         * gap that is not its neighbour, and every frame of the gap would
         * wait for it, from a live source without end. Either way the last
         * scored frame is final now, as at the end of the input, and
         * neither it nor the frames behind it wait. */
        int err = vq_flush(s->vq);
        s->lib_flushed = 1;
        if (err < 0) {
            av_frame_free(&master);
            return vq_report(ctx, err, "vq_flush");
        }
    }
    if (!disabled && !ref) {
        s->nb_unscored++;
    } else if (!disabled && s->lib_flushed && !s->nb_after_range++) {
        av_log(ctx, AV_LOG_WARNING, "a frame inside enable= again, after "
               "the run ended with the previous range: with temporal "
               "features (motion) a run covers one contiguous enable= "
               "range, so this and later frames are not scored\n");
    }
    if (disabled || !ref || s->lib_flushed)
        return queue_frame(ctx, master, 0);

    if (master->width != ctx->inputs[0]->w || master->height != ctx->inputs[0]->h ||
        ref->width != ctx->inputs[1]->w || ref->height != ctx->inputs[1]->h) {
        av_log(ctx, AV_LOG_ERROR, "a frame of %dx%d (main) / %dx%d "
               "(reference) arrived in a run of %dx%d: the size changed "
               "mid-stream. Scale both inputs to one size (and use "
               "-reinit_filter 0 so that ffmpeg does not start a new run).\n",
               master->width, master->height, ref->width, ref->height,
               ctx->inputs[0]->w, ctx->inputs[0]->h);
        snprintf(s->why, sizeof(s->why), "the frame size changed at frame "
                 "%"PRIu64, s->nb_submitted);
        s->failed = 1;
        av_frame_free(&master);
        return AVERROR(EINVAL);
    }
    if (s->nb_submitted && ref->pts == s->last_ref_pts)
        s->nb_ref_repeats++;
    s->last_ref_pts = ref->pts;
    if (master->color_range != ref->color_range && !s->range_warned) {
        av_log(ctx, AV_LOG_WARNING, "main and reference "
               "frames use different color ranges (%s != %s): the scores "
               "compare unlike samples\n",
               av_color_range_name(master->color_range),
               av_color_range_name(ref->color_range));
        s->range_warned = 1;
    }

    ret = submit(ctx, ref, master);
    if (ret < 0) {
        av_frame_free(&master);
        return ret;
    }
    if (!s->nb_submitted++) {
        /* the depth the library chose for this run, known from now on */
        VqRunInfo info;
        vq_run_info(s->vq, &info);
        s->ahead = info.depth > 1 ? info.depth - 1 : 0;
        s->lag = info.lag;
    }
    return queue_frame(ctx, master, 1);
}

static size_t frame_bytes(const AVFrame *f)
{
    size_t n = 0;
    for (int i = 0; f && i < AV_NUM_DATA_POINTERS && f->buf[i]; i++)
        n += f->buf[i]->size;
    for (int i = 0; f && i < f->nb_extended_buf; i++)
        n += f->extended_buf[i]->size;
    return n;
}

/* Waits for the opener; the open's result, also on every later call (a
 * failed open leaves no context to score with). */
static int join_opener(AVFilterContext *ctx)
{
    VQHIPContext *s = ctx->priv;

    if (!s->opening)
        return s->open_ret;
    pthread_join(s->opener, NULL);
    s->opening = 0;
    if (s->nb_held)
        av_log(ctx, AV_LOG_VERBOSE, "%"PRIu64" frame pairs (%zu KiB) waited "
               "while the GPU opened\n", s->nb_held, s->held_bytes >> 10);
    return s->open_ret;
}

/* Once the GPU is open: the held pairs, oldest first. */
static int release_held(AVFilterContext *ctx)
{
    VQHIPContext *s = ctx->priv;
    VQHIPHeld h;
    int ret = join_opener(ctx);

    while (ret >= 0 && av_fifo_read(s->held, &h, 1) >= 0) {
        s->held_bytes -= frame_bytes(h.main) + frame_bytes(h.ref);
        ret = process_pair(ctx, h.main, h.ref, h.disabled);
        av_frame_free(&h.ref);
    }
    return ret;
}

static int do_vqhip(FFFrameSync *fs)
{
    AVFilterContext *ctx = fs->parent;
    VQHIPContext *s = ctx->priv;
    AVFrame *master, *ref;
    VQHIPHeld h;
    int ret;

    ret = ff_framesync_dualinput_get(fs, &master, &ref);
    if (ret < 0)
        return ret;
    if (s->max_pairs && s->nb_taken >= (uint64_t)s->max_pairs) {
        av_frame_free(&master); /* past frames=: the run has ended */
        return 0;
    }
    s->nb_taken++;
    s->got_event = 1;
    if (!s->opening && !av_fifo_can_read(s->held))
        return process_pair(ctx, master, ref, ctx->is_disabled);

    /* the GPU is opening: the pair waits (framesync keeps its reference
     * frame, so the pair holds a reference of its own) */
    h.main = master;
    h.ref = ref ? av_frame_clone(ref) : NULL;
    h.disabled = ctx->is_disabled;
    if (ref && !h.ref) {
        av_frame_free(&master);
        return AVERROR(ENOMEM);
    }
    ret = av_fifo_write(s->held, &h, 1);
    if (ret < 0) {
        av_frame_free(&master);
        av_frame_free(&h.ref);
        return ret;
    }
    s->nb_held++;
    s->held_bytes += frame_bytes(h.main) + frame_bytes(h.ref);
    if (s->opening && !atomic_load(&s->open_done) &&
        s->held_bytes < (size_t)s->hold_mb << 20)
        return 0;
    return release_held(ctx);
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
    cfg.verify      = s->verify;
    cfg.skip_unsupported = s->skip_unsupported;
    cfg.log         = vq_log_callback;
    cfg.log_opaque  = ctx;
    cfg.log_level   = VQ_LOG_LEVEL_DEBUG;
#if VQHIP_CUDA
    /* libvqhip works in the CUDA context that vq_enter() makes current. */
    cfg.use_current_context = s->cuda != NULL;
    if (s->cuda && backend == VQ_BACKEND_CPU) {
        av_log(ctx, AV_LOG_ERROR, "CUDA frames need backend=hip or auto "
               "(download them with hwdownload for the CPU backend)\n");
        return AVERROR(EINVAL);
    }
#endif

    err = vq_open(&s->vq, &cfg);
    if (err < 0)
        return vq_report(ctx, err, "vq_open");
    /* Models first, then features, as libvmaf's filter: the log lists
     * outputs in that order. */
    if ((s->model_cfg || !s->feature_cfg) &&
        (ret = use_each(ctx, s->model_cfg ? s->model_cfg : "version=vmaf_v0.6.1",
                        "vq_use_model", vq_use_model)) < 0)
        return ret;
    if (s->feature_cfg)
        return use_each(ctx, s->feature_cfg, "vq_use_feature", vq_use_feature);
    return 0;
}

/* Fails now rather than after the whole run when the log cannot be
 * written; creates nothing. libvqhip writes the log under a temporary name
 * beside it and renames it (devices and pipes are written in place). */
static int check_log_path(AVFilterContext *ctx, const char *path)
{
    struct stat st;
    char *tmp;
    FILE *f;
    int ret = 0;

    if (!strcmp(path, "-")) {
        av_log(ctx, AV_LOG_ERROR, "log_path=- would mix the log into "
               "ffmpeg's output on stdout: give a file name (or /dev/stdout "
               "when nothing else goes there)\n");
        return AVERROR(EINVAL);
    }
    if (!lstat(path, &st) && !S_ISREG(st.st_mode)) {
        f = fopen(path, "a");
    } else {
        if (!(tmp = av_asprintf("%s.tmp-%ld", path, (long)getpid())))
            return AVERROR(ENOMEM);
        if ((f = fopen(tmp, "w")))
            remove(tmp);
        av_free(tmp);
    }
    if (!f) {
        ret = AVERROR(errno);
        av_log(ctx, AV_LOG_ERROR, "Could not open log file %s: %s\n", path,
               av_err2str(ret));
        return ret;
    }
    fclose(f);
    return 0;
}

static av_cold int init(AVFilterContext *ctx)
{
    VQHIPContext *s = ctx->priv;
    int ret;

    if (s->log_path && (ret = check_log_path(ctx, s->log_path)) < 0)
        return ret;

    s->pending = av_fifo_alloc2(4, sizeof(VQHIPPending), AV_FIFO_FLAG_AUTO_GROW);
    s->held = av_fifo_alloc2(4, sizeof(VQHIPHeld), AV_FIFO_FLAG_AUTO_GROW);
    if (!s->pending || !s->held)
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

static const enum AVPixelFormat pix_fmts[] = {
    AV_PIX_FMT_YUV420P,     AV_PIX_FMT_YUV422P,     AV_PIX_FMT_YUV444P,
    AV_PIX_FMT_YUV420P10LE, AV_PIX_FMT_YUV422P10LE, AV_PIX_FMT_YUV444P10LE,
    AV_PIX_FMT_YUV420P12LE, AV_PIX_FMT_YUV422P12LE, AV_PIX_FMT_YUV444P12LE,
    AV_PIX_FMT_YUV420P16LE, AV_PIX_FMT_YUV422P16LE, AV_PIX_FMT_YUV444P16LE,
    AV_PIX_FMT_GRAY8, AV_PIX_FMT_GRAY10LE, AV_PIX_FMT_GRAY12LE, AV_PIX_FMT_GRAY16LE,
    /* semi-planar, as hardware decoders and hwdownload give them */
    AV_PIX_FMT_NV12, AV_PIX_FMT_NV16, AV_PIX_FMT_NV24, AV_PIX_FMT_NV20LE,
    AV_PIX_FMT_P010LE, AV_PIX_FMT_P016LE,
    AV_PIX_FMT_P210LE, AV_PIX_FMT_P216LE, AV_PIX_FMT_P410LE, AV_PIX_FMT_P416LE,
#ifdef AV_PIX_FMT_P012
    AV_PIX_FMT_P012LE,
#endif
#ifdef AV_PIX_FMT_P212
    AV_PIX_FMT_P212LE, AV_PIX_FMT_P412LE,
#endif
#if VQHIP_CUDA
    AV_PIX_FMT_CUDA,
#endif
#if VQHIP_DRM
    AV_PIX_FMT_DRM_PRIME,
#if CONFIG_VAAPI
    AV_PIX_FMT_VAAPI,
#endif
#endif
    AV_PIX_FMT_NONE
};

/* Colour spaces and ranges take part in format negotiation in the series
 * this filter supports from FFmpeg 7.0 (lavfi 10) on; a filter that sets
 * none gets one list shared by all its links, and then a scaler converts
 * one input to the other's range. */
#define VQHIP_NEGOTIATES_COLOR (LIBAVFILTER_VERSION_INT >= AV_VERSION_INT(10, 0, 100))

/* The output carries the main frames, so it shares the main input's format
 * (and colour space and range); the reference input negotiates on its own,
 * so that a reference in another format or bit depth is reported in
 * config_input_ref, and one in another range is warned about (ssimulacra2
 * reads each picture's own description), instead of being converted
 * silently. */
static int query_formats(AVFilterContext *ctx)
{
    AVFilterFormats *main_fmts;
    int ret;

    ret = ff_formats_ref(ff_make_format_list((const int *)pix_fmts),
                         &ctx->inputs[1]->outcfg.formats);
    if (ret < 0)
        return ret;
    main_fmts = ff_make_format_list((const int *)pix_fmts);
    if ((ret = ff_formats_ref(main_fmts, &ctx->inputs[0]->outcfg.formats)) < 0)
        return ret;
    if ((ret = ff_formats_ref(main_fmts, &ctx->outputs[0]->incfg.formats)) < 0)
        return ret;
#if VQHIP_NEGOTIATES_COLOR
    {
        AVFilterFormats *spaces = ff_all_color_spaces();
        AVFilterFormats *ranges = ff_all_color_ranges();
        if ((ret = ff_formats_ref(ff_all_color_spaces(),
                                  &ctx->inputs[1]->outcfg.color_spaces)) < 0 ||
            (ret = ff_formats_ref(ff_all_color_ranges(),
                                  &ctx->inputs[1]->outcfg.color_ranges)) < 0 ||
            (ret = ff_formats_ref(spaces, &ctx->inputs[0]->outcfg.color_spaces)) < 0 ||
            (ret = ff_formats_ref(spaces, &ctx->outputs[0]->incfg.color_spaces)) < 0 ||
            (ret = ff_formats_ref(ranges, &ctx->inputs[0]->outcfg.color_ranges)) < 0)
            return ret;
        return ff_formats_ref(ranges, &ctx->outputs[0]->incfg.color_ranges);
    }
#else
    return 0;
#endif
}

/* libvqhip's name for a software pixel format, its bit depth and how many
 * planes its frames have. */
static int vq_format_of(const AVPixFmtDescriptor *desc, VqPixFmt *fmt,
                        unsigned *bpc, int *n_stored)
{
    static const VqPixFmt semi[2][3] = {
        { VQ_PIX_FMT_NV12, VQ_PIX_FMT_NV16, VQ_PIX_FMT_NV24 },
        { VQ_PIX_FMT_P010, VQ_PIX_FMT_P210, VQ_PIX_FMT_P410 },
    };
    int sub = desc->log2_chroma_h ? 0 : desc->log2_chroma_w ? 1 : 2;

    *bpc = desc->comp[0].depth;
    if (desc->nb_components == 1) {
        *fmt = VQ_PIX_FMT_GRAY;
        *n_stored = 1;
    } else if (desc->comp[1].plane == desc->comp[2].plane) {
        /* Cb then Cr; samples in the high bits when shifted (p010). */
        if (desc->comp[1].offset > desc->comp[2].offset)
            return AVERROR(EINVAL);
        *fmt = semi[desc->comp[0].shift > 0][sub];
        *n_stored = 2;
    } else {
        *fmt = sub == 0 ? VQ_PIX_FMT_420 : sub == 1 ? VQ_PIX_FMT_422
                                                    : VQ_PIX_FMT_444;
        *n_stored = 3;
    }
    return 0;
}

static void describe_link(char *buf, size_t size, const AVFilterLink *link)
{
    const AVPixFmtDescriptor *desc = av_pix_fmt_desc_get(link->format);

    snprintf(buf, size, "%dx%d %s (%d-bit)", link->w, link->h,
             desc ? desc->name : "none", desc ? desc->comp[0].depth : 0);
}

/* The software format behind a link (the frames' format for hardware
 * frames), and for CUDA frames the device context. */
static const AVPixFmtDescriptor *link_sw_format(AVFilterContext *ctx,
                                                AVFilterLink *link)
{
#if VQHIP_DRM
    if (link->format == AV_PIX_FMT_DRM_PRIME || link->format == AV_PIX_FMT_VAAPI) {
        VQHIPContext *s = ctx->priv;
        AVBufferRef *ref = *link_hw_frames(link);
        if (!ref)
            return NULL;
        s->drm = 1;
        return av_pix_fmt_desc_get(((AVHWFramesContext *)ref->data)->sw_format);
    }
#endif
    if (link->format != AV_PIX_FMT_CUDA)
        return av_pix_fmt_desc_get(link->format);
#if VQHIP_CUDA
    {
        VQHIPContext *s = ctx->priv;
        AVBufferRef *ref = *link_hw_frames(link);
        AVHWFramesContext *frames;
        AVCUDADeviceContext *dev;

        if (!ref) {
            av_log(ctx, AV_LOG_ERROR, "CUDA frames without a frames "
                   "context on input %s\n", link == ctx->inputs[0]
                   ? "main" : "reference");
            return NULL;
        }
        frames = (AVHWFramesContext *)ref->data;
        dev = frames->device_ctx->hwctx;
        if (s->cuda && s->cuda->cuda_ctx != dev->cuda_ctx) {
            av_log(ctx, AV_LOG_ERROR, "the main and reference CUDA frames "
                   "come from different CUDA contexts (each hwupload_cuda, "
                   "and each input decoded without -hwaccel_device, makes "
                   "its own): give both one device, e.g. -init_hw_device "
                   "cuda=gpu -filter_hw_device gpu with hwupload, or "
                   "-hwaccel_device gpu\n");
            return NULL;
        }
        s->cuda = dev;
        return av_pix_fmt_desc_get(frames->sw_format);
    }
#else
    (void)ctx;
    return NULL;
#endif
}

static int config_input_ref(AVFilterLink *inlink)
{
    AVFilterContext *ctx = inlink->dst;
    VQHIPContext *s = ctx->priv;
    AVFilterLink *mainlink = ctx->inputs[0], *reflink = ctx->inputs[1];
    const AVPixFmtDescriptor *desc = link_sw_format(ctx, mainlink);
    const AVPixFmtDescriptor *ref_desc = desc ? link_sw_format(ctx, reflink)
                                              : NULL;

    if (!desc || !ref_desc) {
        /* hardware frames whose format or device cannot be used (said) */
        av_log(ctx, AV_LOG_ERROR, "the %s input's frames cannot be read\n",
               !desc ? "main" : "reference");
        return AVERROR(EINVAL);
    }
    if (mainlink->w != reflink->w || mainlink->h != reflink->h ||
        mainlink->format != reflink->format || desc != ref_desc) {
        char main_desc[128], ref_text[128];
        describe_link(main_desc, sizeof(main_desc), mainlink);
        describe_link(ref_text, sizeof(ref_text), reflink);
        av_log(ctx, AV_LOG_ERROR, "The main input is %s but the reference "
               "input is %s: size, pixel format and bit depth must be the "
               "same.\n", main_desc, ref_text);
        return AVERROR(EINVAL);
    }
    if (vq_format_of(desc, &s->vq_fmt, &s->bpc, &s->n_stored) < 0) {
        av_log(ctx, AV_LOG_ERROR, "pixel format %s is not supported\n",
               desc->name);
        return AVERROR(EINVAL);
    }
    return 0;
}

/* Opens libvqhip on the filter's backend (unless init did: the CPU) and
 * configures the run for the inputs' size and format. */
static int start_run(AVFilterContext *ctx)
{
    VQHIPContext *s = ctx->priv;
    AVFilterLink *mainlink = ctx->inputs[0];
    int ret;

    if (!s->vq) {
        if ((ret = vq_enter(ctx)) < 0)
            return ret;
        ret = open_vq(ctx, s->backend);
        vq_leave(ctx);
        if (ret < 0)
            return ret;
    }
    /* The size is known now: an extractor that cannot score it says so
     * here, not at the first frame. */
    if (!s->configured) {
        VqPicture geometry = { .fmt = s->vq_fmt, .bpc = s->bpc,
                               .w = mainlink->w, .h = mainlink->h };
        if ((ret = vq_enter(ctx)) < 0)
            return ret;
        ret = vq_configure(s->vq, &geometry);
        vq_leave(ctx);
        if (ret < 0)
            return vq_report(ctx, ret, "vq_configure");
        s->configured = 1;
    }
    return 0;
}

static void *opener_main(void *arg)
{
    AVFilterContext *ctx = arg;
    VQHIPContext *s = ctx->priv;

    s->open_ret = start_run(ctx);
    atomic_store(&s->open_done, 1);
    return NULL;
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

    if ((ret = join_opener(ctx)) < 0)
        return ret;
    /* Software frames: the GPU opens while the first frames arrive. Frames
     * of a hardware pool (CUDA, DRM) are not held (the decoder would run
     * out of them), nor are frames when hold_mb is 0: the GPU opens now. */
    if (!s->vq && !s->configured && s->hold_mb && !s->drm
#if VQHIP_CUDA
        && !s->cuda
#endif
        ) {
        atomic_store(&s->open_done, 0);
        if (!pthread_create(&s->opener, NULL, opener_main, ctx)) {
            s->opening = 1;
            ret = 0;
        } else {
            ret = start_run(ctx);
        }
    } else {
        ret = start_run(ctx);
    }
    if (ret < 0)
        return ret;
    /* The output passes the main frames on, hardware frames included: the
     * filter is marked hardware-frame aware, so the link's frames context
     * is set here (libavfilter asserts that only such filters set it). */
    if (*link_hw_frames(mainlink)) {
        AVBufferRef **out = link_hw_frames(outlink);
        av_buffer_unref(out);
        if (!(*out = av_buffer_ref(*link_hw_frames(mainlink))))
            return AVERROR(ENOMEM);
    }

    if (av_cmp_q(mainlink->time_base, outlink->time_base) ||
        av_cmp_q(ctx->inputs[1]->time_base, outlink->time_base))
        av_log(ctx, AV_LOG_WARNING, "not matching timebases found between first input: %d/%d and second input %d/%d, results may be incorrect!\n",
               mainlink->time_base.num, mainlink->time_base.den,
               ctx->inputs[1]->time_base.num, ctx->inputs[1]->time_base.den);

    return 0;
}

static int end_run(AVFilterContext *ctx);

static int activate_in_context(AVFilterContext *ctx)
{
    VQHIPContext *s = ctx->priv;
    int ret;

    s->got_event = 0;
    /* A frame held back until the output asked for it. */
    if (!s->flushed && av_fifo_can_read(s->pending) &&
        ff_outlink_frame_wanted(ctx->outputs[0])) {
        int64_t before = s->nb_output;
        if ((ret = release_pending(ctx)) < 0)
            return ret;
        if (s->nb_output != before)
            return 0;
    }
    ret = ff_framesync_activate(&s->fs);
    if (ret < 0)
        return ret;
    if (!s->flushed && s->max_pairs && s->nb_taken >= (uint64_t)s->max_pairs) {
        /* frames=: the run ends as at the inputs' end, whatever the output
         * asked for and however far the filter read ahead */
        ff_inlink_set_status(ctx->inputs[0], AVERROR_EOF);
        ff_inlink_set_status(ctx->inputs[1], AVERROR_EOF);
        if ((ret = end_run(ctx)) < 0)
            return ret;
        ff_outlink_set_status(ctx->outputs[0], AVERROR_EOF, s->last_pts);
        return 0;
    }
    if (!s->fs.eof) {
        /* framesync handles one frame per call. When that frame is still
         * waiting for its scores and the output wants one, come back for
         * the next input (nothing went out that would bring a request). */
        if (s->got_event && (av_fifo_can_read(s->pending) ||
                             av_fifo_can_read(s->held)) &&
            ff_outlink_frame_wanted(ctx->outputs[0]))
            ff_filter_set_ready(ctx, 100);
        return 0;
    }
    if (s->flushed)
        return 0;
    /* framesync has just set EOF on the output. Frames sent now still reach
     * the next filter before that status: a link reports its status only
     * once its queue is empty. */
    return end_run(ctx);
}

/* The inputs ended (or frames= was reached): the held and pending frames
 * are scored and sent on, the log is written. */
static int end_run(AVFilterContext *ctx)
{
    VQHIPContext *s = ctx->priv;
    int ret, err;

    if ((ret = release_held(ctx)) < 0)
        return ret;
    s->flushed = 1;
    if (!s->nb_submitted) {
        /* Never a summary or log that looks like a measurement of nothing. */
        av_log(ctx, AV_LOG_ERROR, "no frame pair was scored: an input ended "
               "before its first frame (or every frame was outside the "
               "enable= range)\n");
        snprintf(s->why, sizeof(s->why), "no frame pair was scored");
        s->failed = 1;
        return AVERROR(EINVAL);
    }
    err = vq_flush(s->vq);
    if (err < 0)
        return vq_report(ctx, err, "vq_flush");
    if ((ret = release_pending(ctx)) < 0)
        return ret;
    /* The log is written now, while a failure (a full disk) can still stop
     * ffmpeg with an error; uninit writes it only for runs cut short. */
    if (s->log_path) {
        s->log_written = 1;
        if ((err = vq_write_log(s->vq, s->log_path, s->log_fmt)) < 0)
            return vq_report(ctx, err, "vq_write_log");
    }
    return 0;
}

static int activate(AVFilterContext *ctx)
{
    int ret = vq_enter(ctx);
    if (ret < 0)
        return ret;
    ret = activate_in_context(ctx);
    vq_leave(ctx);
    return ret;
}

static void print_summary(AVFilterContext *ctx)
{
    static const char *const pool_name[] = {
        [VQ_POOL_MEAN] = "mean", [VQ_POOL_MIN] = "min",
        [VQ_POOL_MAX] = "max",   [VQ_POOL_HARMONIC_MEAN] = "harmonic_mean",
    };
    VQHIPContext *s = ctx->priv;
    const char *device = vq_device_name(s->vq);

    VqRunInfo info;

    vq_run_info(s->vq, &info);
    av_log(ctx, AV_LOG_INFO, "%s of %u frames, computed on %s%s%s:\n",
           pool_name[s->pool], info.received, vq_backend_name(s->vq),
           *device ? " " : "", device);
    if (info.fell_back)
        av_log(ctx, AV_LOG_WARNING, "GPU fault: frames %u and later were "
               "computed on the CPU (%s)\n", info.fallback_frame,
               info.fallback_reason);
    if (info.verify)
        av_log(ctx, info.mismatches ? AV_LOG_WARNING : AV_LOG_INFO,
               "verify: %u frames checked on the CPU, %u mismatched\n",
               info.verified, info.mismatches);
    if (s->nb_unscored)
        av_log(ctx, AV_LOG_WARNING, "%"PRIu64" main frames had no reference "
               "frame (the reference ended first, eof_action=pass) and were "
               "not scored\n", s->nb_unscored);
    if (s->nb_after_range)
        av_log(ctx, AV_LOG_WARNING, "%"PRIu64" main frames inside enable= "
               "came after the range in which the run ended and were not "
               "scored (temporal features: one contiguous range a run)\n",
               s->nb_after_range);
    if (s->nb_ref_repeats)
        av_log(ctx, AV_LOG_WARNING, "%"PRIu64" main frames were scored "
               "against a repeated reference frame (the reference ended "
               "first or has fewer frames; repeatlast=1): use shortest=1 to "
               "stop at the shorter input\n", s->nb_ref_repeats);
    if (*s->why)
        av_log(ctx, AV_LOG_WARNING, "incomplete run: %s\n", s->why);
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
    VQHIPHeld h;

    join_opener(ctx);
    ff_framesync_uninit(&s->fs);
    while (s->pending && av_fifo_read(s->pending, &p, 1) >= 0)
        av_frame_free(&p.frame);
    av_fifo_freep2(&s->pending);
    while (s->held && av_fifo_read(s->held, &h, 1) >= 0) {
        av_frame_free(&h.main);
        av_frame_free(&h.ref);
    }
    av_fifo_freep2(&s->held);

    if (s->vq && vq_enter(ctx) < 0)
        return; /* without its context the GPU state cannot be released */
    if (s->vq && s->nb_submitted && !s->failed) {
        int err = 0;
        /* The output closed early (e.g. -frames:v): the summary and the
         * log hold the frames that went out (frames still in flight were
         * never received: they were not part of the output), and the log
         * says the run was cut short. */
        if (!s->flushed)
            snprintf(s->why, sizeof(s->why), "the filter graph closed after "
                     "%"PRId64" frames went out, before its inputs ended",
                     s->nb_output);
        if (err >= 0)
            print_summary(ctx);
    }
    /* Once a run started, the log is this run's, complete or marked
     * incomplete: never an earlier run's file left in place. */
    if (s->vq && s->configured && s->log_path && !s->log_written) {
        int err;
        if (*s->why)
            vq_set_incomplete(s->vq, s->why);
        if ((err = vq_write_log(s->vq, s->log_path, s->log_fmt)) < 0)
            av_log(ctx, AV_LOG_ERROR, "the log was not written: %s\n",
                   vq_last_error(s->vq));
    }
    if (s->vq) {
        vq_close(&s->vq);
        vq_leave(ctx);
    }
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
    .flags_internal = FF_FILTER_FLAG_HWFRAME_AWARE,
    FILTER_INPUTS(vqhip_inputs),
    FILTER_OUTPUTS(vqhip_outputs),
    FILTER_QUERY_FUNC(query_formats),
};
