/*
 * Copyright (c) 2026 the vqhip authors
 *
 * This file is part of FFmpeg.
 *
 * FFmpeg is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Lesser General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 *
 * FFmpeg is distributed in the hope that it will be useful,
 * but WITHOUT ANY WARRANTY; without even the implied warranty of
 * MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.  See the GNU
 * Lesser General Public License for more details.
 *
 * You should have received a copy of the GNU Lesser General Public
 * License along with FFmpeg; if not, write to the Free Software
 * Foundation, Inc., 51 Franklin Street, Fifth Floor, Boston, MA 02110-1301 USA
 */

/**
 * @file
 * Calculate video quality metrics of the VMAF family (VMAF models, PSNR,
 * SSIM, VIF, ADM, motion, ...) between two input videos with libvqhip, on
 * the GPU through HIP or on the CPU; with inputs=N, between each of N
 * distorted inputs (an encoding ladder's renditions) and one reference.
 */

#include <math.h>

#include <vqhip.h>

#include "config.h"

#include "libavutil/avstring.h"
#include "libavutil/bprint.h"
#include "libavutil/fifo.h"
#include "libavutil/hwcontext.h"
#include "libavutil/mem.h"
#include "libavutil/opt.h"
#include "libavutil/pixdesc.h"
#include "libavutil/thread.h"
#include "libavformat/avio.h"
#include "avfilter.h"
#include "filters.h"
#include "formats.h"
#include "framesync.h"

#if CONFIG_CUDA
#include "libavutil/hwcontext_cuda_internal.h"
#endif
#if CONFIG_LIBDRM
#include "libavutil/hwcontext_drm.h"
#endif

/*
 * The filter's state.
 *
 *   INIT ---config_output------------------------------------------> RUNNING
 *   RUNNING ---the reference or the enable= range ended---> PASSTHROUGH
 *   RUNNING, PASSTHROUGH ---the inputs ended, or frames=---------> ENDED
 *   any state ---an error reported, init or a link's setup failed---> FAILED
 *
 * uninit() prints the summary of a run that scored frames unless it FAILED,
 * and marks it incomplete unless it ENDED. A FAILED filter that wrote no log
 * removes the file at log_path (an earlier run's).
 */
enum VQHIPState {
    STATE_INIT,         ///< options checked (init); the run opens in config_output
    STATE_RUNNING,      ///< the run is configured: pairs are scored
    STATE_PASSTHROUGH,  /**< the run ended before the inputs did (the reference
                             ended with eof_action=pass, or the enable= range
                             with a temporal feature): its last frames are
                             final, later main frames pass on unscored */
    STATE_ENDED,        /**< the inputs ended or frames= was reached: every
                             frame is scored and sent on at once */
    STATE_FAILED,       ///< an error was reported: no summary
};

/* A main frame waiting for its scores, or (scored == 0) for the frames
 * before it to leave. */
typedef struct PendingFrame {
    AVFrame *frame;
    int scored;             ///< 0: not submitted; 1: submitted; LIVE_SKIPPED
    unsigned renditions;    /**< inputs=N: bit k, renditions k >= 1 whose
                                 frame was submitted with this one */
} PendingFrame;

/* PendingFrame.scored of a pair submitted unscored by live=1 */
#define LIVE_SKIPPED 2

/* inputs=: the most distorted inputs (renditions) of one filter */
#define MAX_RENDITIONS 16

typedef struct VQHIPContext {
    const AVClass *class;
    FFFrameSync fs;
    char *model_cfg;
    char *feature_cfg;
    char *log_path;
    int log_fmt;
    char *pool;             ///< statistics of the run, '|'-separated
    char *window;           ///< "N" frames or "Ts" seconds
    char *stats;            ///< the windows' statistics
    char *thresholds;       ///< each T adds belowT to them
    char *prom_file;        ///< Prometheus textfile (vq_set_prometheus_file)
    char *prom_labels;      ///< its labels, "name=value|..."
    char *alerts;           ///< alert rules (vq_add_alert)
    char *stats_url;        ///< where the NDJSON stats stream goes
    int stats_frames;       ///< a stream line per frame too
    AVIOContext *stats_io;  ///< stats_url, opened when the run starts
    int log_precision;
    int n_threads;
    int n_subsample;
    int live;               ///< live=: never wait for the scores
    uint64_t nb_live_skipped; ///< pairs live=1 submitted unscored
    int backend;
    int device;
    int strict;
    int depth;
    int verify;
    int skip_unsupported;
    int64_t max_pairs;      ///< frames=: 0, or the pairs to score
    int hold_mb;
    int offset;             /**< offset=: > 0 the main input's first frames,
                                 < 0 the reference's first -offset, are
                                 not scored */
    int sync;               ///< sync=: SYNC_OFF, SYNC_AUTO, SYNC_ONLY
    int sync_range;
    int sync_frames;
    int realign;            ///< realign=: drops and repeats mid-stream
    int realign_window;
    int nb_renditions;      /**< inputs=: N distorted inputs, then the
                                 reference (input N) */
    char *labels_cfg;       ///< labels=, '|'-separated

    /* inputs=N > 1, a ladder: rendition 0 is the main input (s->vq, the
     * frames that leave); renditions 1..N-1 are scored in contexts of
     * their own against the same reference frames, and their frames are
     * dropped once scored. Index 0 of the arrays below is unused but for
     * label and log. */
    char *label[MAX_RENDITIONS];    ///< metadata keys' and logs' names
    char *log_of[MAX_RENDITIONS];   ///< log_path with %d/%s replaced
    VqContext *rvq[MAX_RENDITIONS];
    const AVFrame *r_last[MAX_RENDITIONS]; /**< framesync's frame of the
                                 last event, as an identity (a repeat is not
                                 a new frame: its pair run had no event) */
    AVFrame *r_new[MAX_RENDITIONS]; ///< this event's new frame, or NULL
    int r_ended[MAX_RENDITIONS];    ///< flushed: its input ended
    uint64_t r_submitted[MAX_RENDITIONS];
    unsigned next_mask;     ///< renditions submitted with the frame queued next
    unsigned head_got;      /**< renditions whose scores the oldest pending
                                 frame has (bit 0: the main's) */

    enum VQHIPState state;
    VqContext *vq;
    VqPixFmt vq_fmt;
    unsigned bpc;
    int n_stored;           ///< planes of a frame in its layout (semi-planar: 2)
#if CONFIG_CUDA
    AVCUDADeviceContext *cuda; ///< set when the inputs are CUDA frames
#endif

    AVFifo *pending;        ///< PendingFrame, oldest first
    unsigned ahead;         /**< frames queued after a frame before it waits
                                 for its scores: the run's depth - 1 */
    int ahead_known;        /**< the run's depth is known (with the GPU
                                 opening in the background: once it is open) */
    unsigned lag;           ///< the run's temporal lag (VqRunInfo.lag)
    int got_event;          ///< framesync gave a pair in this activation

    uint64_t nb_taken;      ///< pairs framesync gave the filter
    uint64_t nb_submitted;
    int64_t nb_output;      ///< frames sent on
    int64_t last_pts;       ///< of the last frame sent on
    const AVFrame *last_ref; /**< framesync's reference frame of the last
                                  event, as an identity only (never read) */
    int run_w, run_h;       ///< the size of the run's first pair
    uint64_t nb_before_ref; ///< main frames before the reference's first
    uint64_t nb_unscored;   ///< main frames passed on without a reference
    uint64_t nb_ref_repeats; ///< reference frames scored more than once
    uint64_t nb_past_ref_end; ///< of those, pairs after the reference ended
    uint64_t nb_after_range; ///< frames in enable= after the run ended
    uint64_t nb_main_seen;  ///< main frames process_pair saw (enable=: the
                            ///< log's frame numbers are the video's)
    int range_warned;       ///< bits: 1 colour ranges, 2 matrices differ
    int log_written;        ///< this run wrote the log at log_path
    int log_owed;           /**< the run started and its log is not written
                                 yet: uninit writes it, marked incomplete */
    char why[256];          ///< why the run is incomplete, if it is

    /* Alignment (offset=, sync=): framesync's pairs are taken apart, the
     * first frames of one input dropped, and the frames paired again in
     * order. */
    AVFifo *align_main;     ///< AlignMain: main frames not paired yet
    AVFifo *align_ref;      ///< AVFrame *: reference frames not paired yet
    int align_ref_ended;    ///< framesync gave a main frame without reference
    int align_main_ended;   ///< the main input ended (a repeat came)
    int align_done;         ///< every main frame paired: the run ends
    unsigned skip_main, skip_ref; ///< first frames still to drop
    VqSync *vsync;          ///< sync=: the search, until it decided
    unsigned sync_pairs;    ///< pairs fed to the search
    int sync_decided;       ///< sync=: the search decided (res is set)
    int sync_told;          ///< its result is on the first scored frame
    int sync_only_done;     ///< sync=only: decided, the output ends
    VqSyncResult sync_res;
    uint64_t nb_align_unscored; ///< main frames left out by the alignment
    /* realign=1: the detector is fed the entries of align_main and
     * align_ref from their heads, which are its head pair (after the
     * frames offset=/sync= drop) */
    VqRealign *vrealign;
    unsigned realign_ahead; ///< entries of each input it decides on
    unsigned realign_fed[2]; ///< main, reference entries added to it
    int realign_stopped;    ///< a main frame went on without a reference
    int align_flush;        ///< the inputs ended: no more entries come
    int align_ref_eof;      ///< the reference ended (its repeats not kept)
    unsigned nb_realign;    ///< events
    int realign_meta;       ///< events waiting for the next scored frame
    int realign_meta_delta; ///< the sum of their deltas
    VqRealignEvent realign_last; ///< the last of them
    int starts_checked;     /**< 1: the inputs' first timestamps were
                                 compared; else bit 1 << (i + 1): input i's
                                 first timestamp is in first_pts[i] */
    int64_t first_pts[2];
} VQHIPContext;

enum { SYNC_OFF, SYNC_AUTO, SYNC_ONLY };

/* A main frame waiting for its reference frame (alignment). */
typedef struct AlignMain {
    AVFrame *frame;
    int disabled;
} AlignMain;

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
    { "pool",        "Set the statistics of the summary, '|'-separated (mean, min, max, harmonic_mean, median, percP, belowT); the log adds them to its pooled metrics.", OFFSET(pool), AV_OPT_TYPE_STRING, { .str = "mean" }, 0, 0, FLAGS },
    { "window",      "Set windows of N frames (\"50\") or T seconds (\"2s\"): their statistics as metadata of the frame that closes each.", OFFSET(window), AV_OPT_TYPE_STRING, { .str = NULL }, 0, 0, FLAGS },
    { "stats",       "Set the windows' statistics, '|'-separated (default mean|min|max).",  OFFSET(stats),       AV_OPT_TYPE_STRING, { .str = NULL }, 0, 0, FLAGS },
    { "thresholds",  "Set thresholds, '|'-separated: each T adds the windows' statistic belowT (share of frames below T).", OFFSET(thresholds), AV_OPT_TYPE_STRING, { .str = NULL }, 0, 0, FLAGS },
    { "prom_file",   "Write the run's state (the last window's statistics, frames scored) as a Prometheus textfile, replaced at each window and at the end.", OFFSET(prom_file), AV_OPT_TYPE_STRING, { .str = NULL }, 0, 0, FLAGS },
    { "prom_labels", "Set labels of the Prometheus samples, '|'-separated name=value (job=enc|instance=ch5).", OFFSET(prom_labels), AV_OPT_TYPE_STRING, { .str = NULL }, 0, 0, FLAGS },
    { "alerts",      "Set alert rules, '|'-separated, e.g. vmaf.mean<70 for 3 clear>75 (a window statistic) or vmaf<30 for 5 (frames).", OFFSET(alerts), AV_OPT_TYPE_STRING, { .str = NULL }, 0, 0, FLAGS },
    { "stats_url",   "Set a URL to write the NDJSON stats stream to (file, pipe:1, udp://, tcp://).", OFFSET(stats_url), AV_OPT_TYPE_STRING, { .str = NULL }, 0, 0, FLAGS },
    { "stats_frames", "Also write a stats stream line per frame.",                            OFFSET(stats_frames), AV_OPT_TYPE_BOOL, { .i64 = 0 }, 0, 1, FLAGS },
    { "log_precision", "Set the log's significant digits (0: libvmaf's %f; 17: every value exactly).", OFFSET(log_precision), AV_OPT_TYPE_INT, { .i64 = 0 }, 0, 17, FLAGS },
    { "n_threads",   "Set the number of CPU worker threads (0: one per core).",              OFFSET(n_threads),   AV_OPT_TYPE_INT,    { .i64 = 0 }, 0, 1024, FLAGS },
    { "n_subsample", "Compute non-temporal features on every n-th frame only.",              OFFSET(n_subsample), AV_OPT_TYPE_INT,    { .i64 = 1 }, 1, INT_MAX, FLAGS },
    { "live",        "Never hold the frames back for their scores: a pair that arrives while depth frames are in flight is not scored (only temporal features run on it).", OFFSET(live), AV_OPT_TYPE_BOOL, { .i64 = 0 }, 0, 1, FLAGS },
    { "backend",     "Set where the metrics are computed.",                                  OFFSET(backend),     AV_OPT_TYPE_INT,    { .i64 = VQ_BACKEND_AUTO }, VQ_BACKEND_AUTO, VQ_BACKEND_CPU, FLAGS, .unit = "backend" },
        { "auto", "GPU if usable, else CPU (with a warning)", 0, AV_OPT_TYPE_CONST, { .i64 = VQ_BACKEND_AUTO }, 0, 0, FLAGS, .unit = "backend" },
        { "hip",  "GPU through HIP",                          0, AV_OPT_TYPE_CONST, { .i64 = VQ_BACKEND_HIP  }, 0, 0, FLAGS, .unit = "backend" },
        { "cpu",  "CPU reference path",                       0, AV_OPT_TYPE_CONST, { .i64 = VQ_BACKEND_CPU  }, 0, 0, FLAGS, .unit = "backend" },
    { "device",      "Set the GPU index.",                                                   OFFSET(device),      AV_OPT_TYPE_INT,    { .i64 = 0 }, 0, INT_MAX, FLAGS },
    { "strict",      "Fail instead of falling back to the CPU.",                             OFFSET(strict),      AV_OPT_TYPE_BOOL,   { .i64 = 0 }, 0, 1, FLAGS },
    { "depth",       "Set the number of frames in flight (0: library default; 1: each frame leaves as soon as its scores exist).", OFFSET(depth), AV_OPT_TYPE_INT, { .i64 = 0 }, 0, 16, FLAGS },
    { "verify",      "Also compute every n-th GPU frame on the CPU and compare (0: off).", OFFSET(verify), AV_OPT_TYPE_INT, { .i64 = 0 }, 0, INT_MAX, FLAGS },
    { "skip_unsupported", "Leave out features that cannot score the input's size or format instead of failing.", OFFSET(skip_unsupported), AV_OPT_TYPE_BOOL, { .i64 = 0 }, 0, 1, FLAGS },
    { "frames",      "Score the first N frame pairs, then end the output (0: every pair); unlike -frames:v, exactly N at any depth.", OFFSET(max_pairs), AV_OPT_TYPE_INT64, { .i64 = 0 }, 0, INT64_MAX, FLAGS },
    /* 512: VQ_DEFAULT_OPEN_HOLD_BYTES, libvqhip's default */
    { "hold_mb",     "Set how many MiB of frames may wait while the GPU opens (0: the first frame waits for it).", OFFSET(hold_mb), AV_OPT_TYPE_INT, { .i64 = 512 }, 0, 65536, FLAGS },
    { "offset",      "Set the frames to leave out at the start: N > 0 the main (distorted) input's first N, N < 0 the reference's first -N.", OFFSET(offset), AV_OPT_TYPE_INT, { .i64 = 0 }, -100000, 100000, FLAGS },
    { "sync",        "Find the offset from the first frames' luma.", OFFSET(sync), AV_OPT_TYPE_INT, { .i64 = SYNC_OFF }, SYNC_OFF, SYNC_ONLY, FLAGS, .unit = "sync" },
        { "off",  "score the pairs as given (or with offset=)", 0, AV_OPT_TYPE_CONST, { .i64 = SYNC_OFF  }, 0, 0, FLAGS, .unit = "sync" },
        { "auto", "find the offset, say it, score with it",     0, AV_OPT_TYPE_CONST, { .i64 = SYNC_AUTO }, 0, 0, FLAGS, .unit = "sync" },
        { "only", "find the offset, say it, end the output",    0, AV_OPT_TYPE_CONST, { .i64 = SYNC_ONLY }, 0, 0, FLAGS, .unit = "sync" },
    { "sync_range",  "Set the offsets sync= tries: -N..N.",                                  OFFSET(sync_range),  AV_OPT_TYPE_INT,    { .i64 = 30 }, 1, 1000, FLAGS },
    { "sync_frames", "Set the frames sync= compares at each offset (it holds sync_range + sync_frames frames of each input).", OFFSET(sync_frames), AV_OPT_TYPE_INT, { .i64 = 30 }, 1, 1000, FLAGS },
    { "realign",     "Find frames dropped or repeated mid-stream by one input and pair the later frames again.", OFFSET(realign), AV_OPT_TYPE_BOOL, { .i64 = 0 }, 0, 1, FLAGS },
    { "realign_window", "Set the consecutive pairs that must agree on a drop or repeat.", OFFSET(realign_window), AV_OPT_TYPE_INT, { .i64 = 3 }, 1, 31, FLAGS },
    { "inputs",      "Set the number of distorted inputs (renditions), scored against one reference: the last input.", OFFSET(nb_renditions), AV_OPT_TYPE_INT, { .i64 = 1 }, 1, MAX_RENDITIONS, FLAGS },
    { "labels",      "Set the renditions' labels, '|'-separated (default d1|d2|...): the metadata keys lavfi.vqhip.LABEL.NAME and %s in log_path.", OFFSET(labels_cfg), AV_OPT_TYPE_STRING, { .str = NULL }, 0, 0, FLAGS },
    { NULL }
};

FRAMESYNC_DEFINE_CLASS(vqhip, VQHIPContext, fs);

static int error_map(int err)
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
static int report_error(AVFilterContext *ctx, int err, const char *call)
{
    VQHIPContext *s = ctx->priv;
    const char *msg = s->vq ? vq_last_error(s->vq) : "";

    s->state = STATE_FAILED;
    snprintf(s->why, sizeof(s->why), "%s", *msg ? msg : vq_strerror(err));
    if (*msg)
        av_log(ctx, AV_LOG_ERROR, "%s\n", msg);
    else
        av_log(ctx, AV_LOG_ERROR, "%s: %s\n", call, vq_strerror(err));
    return error_map(err);
}

/* report_error() for rendition k of inputs=N (k = 0: the main input). */
static int report_rendition_error(AVFilterContext *ctx, int k, int err,
                                  const char *call)
{
    VQHIPContext *s = ctx->priv;
    const char *msg = s->rvq[k] ? vq_last_error(s->rvq[k]) : "";

    if (!k)
        return report_error(ctx, err, call);
    s->state = STATE_FAILED;
    snprintf(s->why, sizeof(s->why), "rendition %s: %s", s->label[k],
             *msg ? msg : vq_strerror(err));
    av_log(ctx, AV_LOG_ERROR, "rendition %s: %s: %s\n", s->label[k], call,
           *msg ? msg : vq_strerror(err));
    return error_map(err);
}

static void log_callback(void *opaque, VqLogLevel level, const char *msg)
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
static int use_each(AVFilterContext *ctx, VqContext *vq, const char *list,
                    const char *call, int (*use)(VqContext *, const char *))
{
    char *copy = av_strdup(list), *save = NULL;
    int ret = 0;

    if (!copy)
        return AVERROR(ENOMEM);
    for (char *spec = av_strtok(copy, "|", &save); spec && !ret;
         spec = av_strtok(NULL, "|", &save)) {
        int err = use(vq, spec);
        if (err < 0)
            ret = report_error(ctx, err, call);
    }
    av_free(copy);
    return ret;
}

/* The input index of the reference: after the N renditions. */
#define REF_INPUT(s) ((s)->nb_renditions)
/* a held reference frame that framesync repeated after the reference ended */
#define PAST_REF_END "vqhip.past_reference_end"

static void set_meta(AVDictionary **metadata, const char *name, double d)
{
    char key[256], value[128];

    snprintf(key, sizeof(key), "lavfi.vqhip.%s", name);
    snprintf(value, sizeof(value), "%f", d);
    av_dict_set(metadata, key, value, 0);
}

/* The frame's colour description in libvqhip's terms (ssimulacra2 converts
 * to RGB with it); what libvqhip does not know is VQ_MATRIX_OTHER. */
static VqMatrix matrix_map(enum AVColorSpace cs)
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

static VqChromaLoc chroma_loc_map(enum AVChromaLocation loc)
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

/* The yuvj formats are full range whatever the frame says. */
static int is_yuvj(int format)
{
    return format == AV_PIX_FMT_YUVJ420P || format == AV_PIX_FMT_YUVJ422P ||
           format == AV_PIX_FMT_YUVJ444P;
}

static enum AVColorRange frame_range(const AVFrame *f)
{
    return is_yuvj(f->format) ? AVCOL_RANGE_JPEG : f->color_range;
}

static void set_color(VqPicture *pic, const AVFrame *f)
{
    enum AVColorRange range = frame_range(f);

    pic->matrix     = matrix_map(f->colorspace);
    pic->range      = range == AVCOL_RANGE_JPEG ? VQ_RANGE_FULL :
                      range == AVCOL_RANGE_MPEG ? VQ_RANGE_LIMITED :
                                                  VQ_RANGE_UNSPECIFIED;
    pic->chroma_loc = chroma_loc_map(f->chroma_location);
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
    pic->pts = f->pts; /* the distorted one's is read (windows of seconds) */
}

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

#if CONFIG_CUDA
/* CUDA frames (hwupload_cuda, -hwaccel cuda) go to libvqhip's device input
 * without a copy through the host, when libvqhip runs on NVIDIA. Its
 * streams and buffers then live in the frames' CUDA context, which is made
 * current around every call into libvqhip. */
static int cuda_enter(AVFilterContext *ctx)
{
    VQHIPContext *s = ctx->priv;

    if (s->cuda) {
        CudaFunctions *cu = s->cuda->internal->cuda_dl;
        if (cu->cuCtxPushCurrent(s->cuda->cuda_ctx) != CUDA_SUCCESS) {
            av_log(ctx, AV_LOG_ERROR, "cannot make the CUDA context current\n");
            return AVERROR_EXTERNAL;
        }
    }
    return 0;
}

static void cuda_leave(AVFilterContext *ctx)
{
    VQHIPContext *s = ctx->priv;

    if (s->cuda) {
        CUcontext dummy;
        s->cuda->internal->cuda_dl->cuCtxPopCurrent(&dummy);
    }
}

/* The frames' software format; both inputs must share one CUDA context. */
static const AVPixFmtDescriptor *cuda_sw_format(AVFilterContext *ctx,
                                                AVFilterLink *link)
{
    VQHIPContext *s = ctx->priv;
    FilterLink *l = ff_filter_link(link);
    AVHWFramesContext *frames;
    AVCUDADeviceContext *dev;

    if (!l->hw_frames_ctx) {
        av_log(ctx, AV_LOG_ERROR, "CUDA frames without a frames "
               "context on input %s\n", link == ctx->inputs[0]
               ? "main" : "reference");
        return NULL;
    }
    frames = (AVHWFramesContext *)l->hw_frames_ctx->data;
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

static int cuda_submit(AVFilterContext *ctx, const AVFrame *ref,
                       const AVFrame *dis)
{
    VQHIPContext *s = ctx->priv;
    /* data[] of CUDA frames are device pointers, written on the device
     * context's stream. */
    VqDevicePicture dr = { .device = s->device, .stream = s->cuda->stream };
    VqDevicePicture dd = dr;
    LentPair *lp;
    int err;

    wrap_picture(&dr.pic, ref, s);
    wrap_picture(&dd.pic, dis, s);
    /* The kernels read the frames in place while references to them are
     * held (the pool of CUDA frames grows on demand); copied device to
     * device only when no reference can be made. */
    lp = lent_pair(ref, dis);
    err = lp ? vq_submit_device_retained(s->vq, &dr, &dd, lent_pair_free, lp)
             : vq_submit_device(s->vq, &dr, &dd);
    return err < 0 ? report_error(ctx, err, "vq_submit_device") : 0;
}
#else
static int cuda_enter(AVFilterContext *ctx)
{
    return 0;
}

static void cuda_leave(AVFilterContext *ctx)
{
}
#endif

#if CONFIG_LIBDRM
/* DRM PRIME frames (and VAAPI frames, mapped to DRM PRIME) are imported
 * into HIP by dma-buf file descriptor and read in place (libvqhip on AMD).
 * An imported frame's planes, in layer order, are device pointers into its
 * imported objects. */
typedef struct DRMImport {
    AVFrame *mapped;
    VqImport *imp[AV_DRM_MAX_PLANES];
} DRMImport;

static const AVPixFmtDescriptor *drm_sw_format(AVFilterContext *ctx,
                                               AVFilterLink *link)
{
    FilterLink *l = ff_filter_link(link);

    if (!l->hw_frames_ctx)
        return NULL;
    return av_pix_fmt_desc_get(((AVHWFramesContext *)l->hw_frames_ctx->data)->sw_format);
}

static void drm_release(VQHIPContext *s, DRMImport *d)
{
    for (int i = 0; i < AV_DRM_MAX_PLANES; i++)
        vq_import_release(s->vq, &d->imp[i]);
    av_frame_free(&d->mapped);
}

static int drm_import(AVFilterContext *ctx, const AVFrame *f, DRMImport *d,
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
            return report_error(ctx, ret, "vq_import_dmabuf");
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

static int drm_submit(AVFilterContext *ctx, const AVFrame *ref,
                      const AVFrame *dis)
{
    VQHIPContext *s = ctx->priv;
    DRMImport ir, id;
    VqDevicePicture dr, dd;
    int ret = drm_import(ctx, ref, &ir, &dr);

    if (ret >= 0)
        ret = drm_import(ctx, dis, &id, &dd);
    else
        memset(&id, 0, sizeof(id));
    /* vq_submit_device has read the planes when it returns. */
    if (ret >= 0 && (ret = vq_submit_device(s->vq, &dr, &dd)) < 0)
        ret = report_error(ctx, ret, "vq_submit_device");
    drm_release(s, &ir);
    drm_release(s, &id);
    return ret < 0 ? ret : 0;
}
#endif

/* Hands a frame pair to libvqhip; returns 0 or an AVERROR (logged). */
static int submit(AVFilterContext *ctx, const AVFrame *ref, const AVFrame *dis)
{
    VQHIPContext *s = ctx->priv;
    VqPicture r, d;
    LentPair *lp;
    int err;

    switch (ref->format) {
#if CONFIG_CUDA
    case AV_PIX_FMT_CUDA:
        return cuda_submit(ctx, ref, dis);
#endif
#if CONFIG_LIBDRM
    case AV_PIX_FMT_DRM_PRIME:
    case AV_PIX_FMT_VAAPI:
        return drm_submit(ctx, ref, dis);
#endif
    }
    wrap_picture(&r, ref, s);
    wrap_picture(&d, dis, s);
    /* The CPU backend reads the planes in place, holding references,
     * instead of copying every frame for its worker threads. */
    lp = lent_pair(ref, dis);
    err = lp ? vq_submit_retained(s->vq, &r, &d, lent_pair_free, lp)
             : vq_submit(s->vq, &r, &d);
    return err < 0 ? report_error(ctx, err, "vq_submit") : 0;
}

/* Whether the depth libvqhip chose for the run is known, and then sets
 * `ahead`. With the GPU opening in the background (hold_mb), the depth is
 * chosen once it is open; until then no frame waits for its scores, and
 * the pairs wait in libvqhip (at most hold_mb of them; past that,
 * vq_submit waits for the open). */
static int run_depth_known(VQHIPContext *s)
{
    VqRunInfo info;

    if (s->ahead_known)
        return 1;
    if (!*vq_backend_name(s->vq) || vq_run_info(s->vq, &info) < 0 || !info.depth)
        return 0;
    s->ahead = info.depth - 1;
    s->ahead_known = 1;
    return 1;
}

/* The windows this frame closed, as its metadata
 * (lavfi.vqhip.window.OUTPUT.STAT, and the window's frames), and a line at
 * verbose level. */
static int window_meta(AVFilterContext *ctx, AVDictionary **metadata)
{
    VQHIPContext *s = ctx->priv;
    VqWindow w;
    char key[160];

    while (s->window && vq_receive_window(s->vq, &w) == 0) {
        av_dict_set_int(metadata, "lavfi.vqhip.window.index", w.index, 0);
        av_dict_set_int(metadata, "lavfi.vqhip.window.first_frame", w.first_frame, 0);
        av_dict_set_int(metadata, "lavfi.vqhip.window.last_frame", w.last_frame, 0);
        av_dict_set_int(metadata, "lavfi.vqhip.window.frames", w.n_frames, 0);
        av_dict_set_int(metadata, "lavfi.vqhip.window.scored", w.n_scored, 0);
        av_dict_set_int(metadata, "lavfi.vqhip.window.partial", w.partial, 0);
        for (unsigned i = 0; i < w.n; i++) {
            snprintf(key, sizeof(key), "window.%s.%s", w.stats[i].output,
                     w.stats[i].stat);
            set_meta(metadata, key, w.stats[i].value);
        }
        av_log(ctx, AV_LOG_VERBOSE, "window %u: frames %u-%u, %u scored%s\n",
               w.index, w.first_frame, w.last_frame, w.n_scored,
               w.partial ? " (partial)" : "");
    }
    return 0;
}

/* The alert events of this frame: a warning, and its metadata
 * lavfi.vqhip.alert.NAME = raised | cleared. */
static void alert_meta(AVFilterContext *ctx, AVDictionary **metadata)
{
    VQHIPContext *s = ctx->priv;
    VqAlertEvent ev;
    char key[160];

    while (s->alerts && vq_receive_alert(s->vq, &ev) == 0) {
        snprintf(key, sizeof(key), "lavfi.vqhip.alert.%s", ev.name);
        av_dict_set(metadata, key, ev.raised ? "raised" : "cleared", 0);
        av_log(ctx, AV_LOG_WARNING, "alert %s %s at frame %u (%.3f s): "
               "value %g, rule %s\n", ev.name, ev.raised ? "raised" : "cleared",
               ev.frame, ev.pts, ev.value, ev.rule);
    }
}

/* vq_set_stats_sink's writer: the line, flushed at once. */
static int stats_write(void *opaque, const char *line, size_t len)
{
    AVIOContext *pb = opaque;

    avio_write(pb, (const unsigned char *)line, (int)len);
    avio_flush(pb);
    return pb->error < 0 ? -1 : 0;
}

/* A frame's scores as its metadata: lavfi.vqhip.NAME, or with inputs=N > 1
 * lavfi.vqhip.LABEL.NAME (the rendition's label). */
static void scores_meta(const VQHIPContext *s, AVDictionary **metadata,
                        int k, const VqFrameScores *scores)
{
    char name[192]; /* with "lavfi.vqhip.", set_meta's key */

    for (unsigned i = 0; i < scores->n; i++) {
        if (s->nb_renditions == 1) {
            set_meta(metadata, scores->scores[i].name, scores->scores[i].value);
            continue;
        }
        snprintf(name, sizeof(name), "%s.%s", s->label[k],
                 scores->scores[i].name);
        set_meta(metadata, name, scores->scores[i].value);
    }
    if (s->nb_renditions == 1) {
        av_dict_set(metadata, "lavfi.vqhip.backend", scores->backend, 0);
    } else {
        snprintf(name, sizeof(name), "lavfi.vqhip.%s.backend", s->label[k]);
        av_dict_set(metadata, name, scores->backend, 0);
    }
}

/* inputs=N > 1: the scores of renditions 1..N-1 submitted with the oldest
 * pending frame, onto it. Each was submitted with the main's frame and
 * has the same temporal lag, so once the main's scores exist theirs do
 * (or their input ended and was flushed). 1: all there; 0: wait for more
 * input (head_got keeps what was received); < 0: an error. */
static int receive_renditions(AVFilterContext *ctx, PendingFrame *p,
                              int ended)
{
    VQHIPContext *s = ctx->priv;

    for (int k = 1; k < s->nb_renditions; k++) {
        VqFrameScores scores;
        int err;
        if (!(p->renditions & (1u << k)) || (s->head_got & (1u << k)))
            continue;
        err = vq_receive_wait(s->rvq[k], &scores);
        if (err == VQ_EAGAIN && !ended)
            return 0;
        if (err == VQ_EAGAIN || err == VQ_EOF) {
            av_log(ctx, AV_LOG_ERROR, "libvqhip returned fewer frames "
                   "than were submitted (rendition %s)\n", s->label[k]);
            return AVERROR_BUG;
        }
        if (err < 0)
            return report_rendition_error(ctx, k, err, "vq_receive");
        scores_meta(s, &p->frame->metadata, k, &scores);
        s->head_got |= 1u << k;
    }
    return 1;
}

/* Sends on pending frames, oldest first, while the output asks for frames
 * (once the inputs ended: all of them). Before a scored frame waits for its
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
    PendingFrame p;
    int ret;

    while (av_fifo_peek(s->pending, &p, 1, 0) >= 0) {
        /* Before the end, a frame leaves only when the output asks for one:
         * the frames scored, pooled and logged are then the frames that
         * went out, whatever the depth, also when the output closes early
         * (-frames:v). */
        if (s->state != STATE_ENDED && !ff_outlink_frame_wanted(ctx->outputs[0]))
            return 0;
        if (p.scored && !(s->head_got & 1)) {
            VqFrameScores scores;
            int err;
            /* frames without a reference (eof_action=pass, outside enable=)
             * count too: no frame waits for submissions that may not come,
             * and at most `ahead` frames are held behind it */
            int ended = s->state == STATE_ENDED || s->state == STATE_PASSTHROUGH;
            if (!ended && !run_depth_known(s))
                return 0; /* the GPU is opening: pairs wait in libvqhip */
            if (!ended && !s->live && av_fifo_can_read(s->pending) <= s->ahead)
                return 0; /* read ahead first */
            /* live=1: the frame leaves once its scores exist, never
             * waiting for them while the inputs go on */
            err = s->live && !ended ? vq_receive(s->vq, &scores)
                                    : vq_receive_wait(s->vq, &scores);
            if (err == VQ_EAGAIN && !ended)
                return 0;
            if (err == VQ_EAGAIN || err == VQ_EOF) {
                av_log(ctx, AV_LOG_ERROR, "libvqhip returned fewer frames "
                       "than were submitted\n");
                return AVERROR_BUG;
            }
            if (err < 0)
                return report_error(ctx, err, "vq_receive");
            scores_meta(s, &p.frame->metadata, 0, &scores);
            if (s->live)
                av_dict_set(&p.frame->metadata, "lavfi.vqhip.live.scored",
                            p.scored == LIVE_SKIPPED || (s->n_subsample > 1 &&
                            scores.index % s->n_subsample) ? "0" : "1", 0);
            if ((err = window_meta(ctx, &p.frame->metadata)) < 0)
                return err;
            alert_meta(ctx, &p.frame->metadata);
            s->head_got |= 1;
        }
        if (p.renditions) {
            int ended = s->state == STATE_ENDED || s->state == STATE_PASSTHROUGH;
            if ((ret = receive_renditions(ctx, &p, ended)) <= 0)
                return ret;
        }
        s->head_got = 0;
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
    PendingFrame p = { .frame = frame, .scored = scored,
                       .renditions = s->next_mask };
    int ret;

    s->next_mask = 0;
    ret = av_fifo_write(s->pending, &p, 1);

    if (ret < 0) {
        av_frame_free(&frame);
        return ret;
    }
    return release_pending(ctx);
}

/* live=1: a pair that arrives while the run's depth of frames is in flight
 * (submitted, not yet received) is submitted unscored (vq_skip_next): only
 * the temporal features (motion) run on it, so each scored frame's still
 * uses its true neighbours, and the scoring catches up instead of holding
 * the input back. Until the depth is known (the GPU opening) nothing is
 * skipped. */
static int live_skip(AVFilterContext *ctx, int *skipped)
{
    VQHIPContext *s = ctx->priv;
    VqRunInfo info;
    int err;

    *skipped = 0;
    if (!s->live || !s->nb_submitted || !run_depth_known(s) ||
        vq_run_info(s->vq, &info) < 0 ||
        info.submitted - info.received < info.depth)
        return 0;
    if ((err = vq_skip_next(s->vq)) < 0)
        return report_error(ctx, err, "vq_skip_next");
    *skipped = 1;
    s->nb_live_skipped++;
    return 0;
}

/* inputs=N > 1: framesync's frames of renditions 1..N-1 at this event; a
 * frame given again (the input has no newer one: it ended, or has no frame
 * at this time) is not new, as its pair run would have had no event. */
static void take_renditions(AVFilterContext *ctx)
{
    VQHIPContext *s = ctx->priv;

    for (int k = 1; k < s->nb_renditions; k++) {
        AVFrame *f = NULL;
        ff_framesync_get_frame(&s->fs, k, &f, 0);
        s->r_new[k] = f && f != s->r_last[k] && !s->r_ended[k] ? f : NULL;
        s->r_last[k] = f;
    }
}

/* Submits this event's new frames of renditions 1..N-1 with the reference
 * frame the main's frame is scored against; sets next_mask. */
static int submit_renditions(AVFilterContext *ctx, const AVFrame *ref)
{
    VQHIPContext *s = ctx->priv;

    for (int k = 1; k < s->nb_renditions; k++) {
        const AVFrame *f = s->r_new[k];
        VqPicture r, d;
        LentPair *lp;
        int err;
        if (!f)
            continue;
        if (f->width != s->run_w || f->height != s->run_h) {
            av_log(ctx, AV_LOG_ERROR, "rendition %s: a frame of %dx%d arrived "
                   "in a run of %dx%d: the size changed mid-stream. Scale "
                   "it to the reference's size.\n", s->label[k], f->width,
                   f->height, s->run_w, s->run_h);
            snprintf(s->why, sizeof(s->why), "rendition %s: the frame size "
                     "changed", s->label[k]);
            s->state = STATE_FAILED;
            return AVERROR(EINVAL);
        }
        wrap_picture(&r, ref, s);
        wrap_picture(&d, f, s);
        lp = lent_pair(ref, f);
        err = lp ? vq_submit_retained(s->rvq[k], &r, &d, lent_pair_free, lp)
                 : vq_submit(s->rvq[k], &r, &d);
        if (err < 0)
            return report_rendition_error(ctx, k, err, "vq_submit");
        s->r_submitted[k]++;
        s->next_mask |= 1u << k;
    }
    return 0;
}

/* Renditions 1..N-1 whose input ended (framesync holds its end, or gives
 * no frame past it with eof_action=pass) are flushed: their last frame is
 * final, and the others go on. After the event's submissions, so that a
 * last frame that came with its end is scored first. */
static int end_renditions(AVFilterContext *ctx, int all)
{
    VQHIPContext *s = ctx->priv;

    for (int k = 1; k < s->nb_renditions; k++) {
        const FFFrameSyncIn *in = &s->fs.in[k];
        int err;
        if (s->r_ended[k] || (!all && !(in->have_next && !in->frame_next) &&
                              !(!in->frame && s->r_submitted[k])))
            continue;
        s->r_ended[k] = 1;
        if (s->r_submitted[k] && (err = vq_flush(s->rvq[k])) < 0)
            return report_rendition_error(ctx, k, err, "vq_flush");
    }
    return 0;
}

/* Scores one pair (ref may be NULL: no reference) or passes the main frame
 * on unscored (disabled: outside enable=); takes master. */
static int process_pair(AVFilterContext *ctx, AVFrame *master, AVFrame *ref,
                        int disabled)
{
    VQHIPContext *s = ctx->priv;
    int ret, skipped = 0;
    uint64_t frame_num = s->nb_main_seen++;

    if (s->nb_submitted && s->state == STATE_RUNNING &&
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
        s->state = STATE_PASSTHROUGH;
        if (err < 0) {
            av_frame_free(&master);
            return report_error(ctx, err, "vq_flush");
        }
        if ((err = end_renditions(ctx, 1)) < 0) {
            av_frame_free(&master);
            return err;
        }
    }
    if (!disabled && !ref && !s->nb_submitted) {
        s->nb_before_ref++;
    } else if (!disabled && !ref) {
        s->nb_unscored++;
    } else if (!disabled && s->state == STATE_PASSTHROUGH && !s->nb_after_range++) {
        av_log(ctx, AV_LOG_WARNING, "a frame inside enable= again, after "
               "the run ended with the previous range: with temporal "
               "features (motion) a run covers one contiguous enable= "
               "range, so this and later frames are not scored\n");
    }
    if (disabled || !ref || s->state == STATE_PASSTHROUGH)
        return queue_frame(ctx, master, 0);

    if (!s->nb_submitted) {
        /* the run's size is its first pair's (the links' may follow a
         * size change) */
        s->run_w = ctx->inputs[0]->w;
        s->run_h = ctx->inputs[0]->h;
    }
    if (master->width != s->run_w || master->height != s->run_h ||
        ref->width != s->run_w || ref->height != s->run_h) {
        av_log(ctx, AV_LOG_ERROR, "a frame of %dx%d (main) / %dx%d "
               "(reference) arrived in a run of %dx%d: the size changed "
               "mid-stream. Scale both inputs to one size (and use "
               "-reinit_filter 0 so that ffmpeg does not start a new run).\n",
               master->width, master->height, ref->width, ref->height,
               s->run_w, s->run_h);
        snprintf(s->why, sizeof(s->why), "the frame size changed at frame "
                 "%"PRIu64, s->nb_submitted);
        s->state = STATE_FAILED;
        av_frame_free(&master);
        return AVERROR(EINVAL);
    }
    /* Only two ranges that are known and differ: untagged frames are not
     * known to be of another range (the CLI says nothing there either). */
    if (frame_range(master) != frame_range(ref) &&
        frame_range(master) != AVCOL_RANGE_UNSPECIFIED &&
        frame_range(ref) != AVCOL_RANGE_UNSPECIFIED && !(s->range_warned & 1)) {
        int full = frame_range(ref) == AVCOL_RANGE_JPEG;
        av_log(ctx, AV_LOG_WARNING, "main and reference "
               "frames use different color ranges (%s != %s): the scores "
               "compare unlike samples. Convert the main input with "
               "scale=out_range=%s (or setrange=%s where it is only "
               "mislabelled).\n",
               av_color_range_name(frame_range(master)),
               av_color_range_name(frame_range(ref)),
               full ? "full" : "limited", full ? "full" : "limited");
        s->range_warned |= 1;
    }
    if (master->colorspace != ref->colorspace &&
        master->colorspace != AVCOL_SPC_UNSPECIFIED &&
        ref->colorspace != AVCOL_SPC_UNSPECIFIED && !(s->range_warned & 2)) {
        av_log(ctx, AV_LOG_WARNING, "main and reference frames use different "
               "colour matrices (%s != %s): their samples mean other colours "
               "(ssimulacra2 and ciede convert each with its own; the others "
               "compare them as they are). Convert the main input to the "
               "reference's matrix (the colorspace filter, or scale's "
               "out_color_matrix), or add setparams=colorspace=%s where it "
               "is only mislabelled.\n",
               av_color_space_name(master->colorspace),
               av_color_space_name(ref->colorspace),
               av_color_space_name(ref->colorspace));
        s->range_warned |= 2;
    }

    /* enable= scores part of the video: the log numbers its frames as the
     * video does (the main input's count, as libvmaf's frameNum would on
     * the whole video), not 0, 1, ... from the range's start */
    if (ctx->enable_str && frame_num <= UINT_MAX &&
        (ret = vq_set_next_frame_number(s->vq, (unsigned)frame_num)) < 0) {
        av_frame_free(&master);
        return report_error(ctx, ret, "vq_set_next_frame_number");
    }
    if ((ret = live_skip(ctx, &skipped)) < 0 ||
        (ret = submit(ctx, ref, master)) < 0 ||
        (ret = submit_renditions(ctx, ref)) < 0) {
        av_frame_free(&master);
        return ret;
    }
    if (!s->nb_submitted++) {
        /* the temporal lag is known once the run is configured */
        VqRunInfo info;
        vq_run_info(s->vq, &info);
        s->lag = info.lag;
    }
    return queue_frame(ctx, master, skipped ? LIVE_SKIPPED : 1);
}

/* Whether framesync's pairs go through the alignment (offset=, sync=,
 * realign=): without it every pair goes straight to process_pair, as
 * before. */
static int align_active(const VQHIPContext *s)
{
    return s->offset || s->sync != SYNC_OFF || s->realign;
}

/* A frame into the offset search: CUDA frames where they are (activate
 * made their context current), host frames as they are. */
static int sync_add(VQHIPContext *s, int distorted, const AVFrame *f)
{
    VqPicture pic;
    wrap_picture(&pic, f, s);
#if CONFIG_CUDA
    if (s->cuda) {
        VqDevicePicture dp = { .pic = pic, .device = s->device,
                               .stream = s->cuda->stream };
        return vq_sync_add_device(s->vsync, distorted, &dp);
    }
#endif
    return vq_sync_add(s->vsync, distorted, &pic);
}

/* The search's result, said once; the offset it picked is dropped from
 * the start of one input (none: the pairs are scored as given). */
static void sync_decide(AVFilterContext *ctx)
{
    VQHIPContext *s = ctx->priv;
    VqSyncResult *r = &s->sync_res;

    vq_sync_find(s->vsync, r);
    if (s->backend == VQ_BACKEND_HIP && strcmp(r->backend, "hip"))
        av_log(ctx, AV_LOG_WARNING, "sync: %s\n", vq_sync_error(s->vsync));
    av_log(ctx, AV_LOG_VERBOSE, "sync: the luma was reduced on the %s\n",
           strcmp(r->backend, "hip") ? "CPU" : "GPU");
    vq_sync_close(&s->vsync);
    s->sync_decided = 1;
    if (r->found)
        av_log(ctx, AV_LOG_INFO, "sync: offset %+d (%s), confidence %.3f: "
               "mean squared luma difference %.3f, next best %.3f; offsets "
               "%d..%d over %u frames\n", r->offset,
               r->offset > 0 ? "the main input's first frames are not scored" :
               r->offset < 0 ? "the reference's first frames are not scored" :
               "the inputs are aligned", r->confidence, r->best_mse,
               r->second_mse, r->lo, r->hi, r->compared);
    else
        av_log(ctx, AV_LOG_WARNING, "sync: no offset picked: %s; the pairs "
               "are scored as given\n", r->why);
    if (s->sync == SYNC_ONLY) {
        av_log(ctx, AV_LOG_INFO, "sync: offset=%d confidence=%f found=%d\n",
               r->found ? r->offset : 0, r->confidence, r->found);
        s->sync_only_done = 1;
        return;
    }
    /* the log's and the stats stream's record */
    if (s->vq && vq_note_sync(s->vq, r, r->found) < 0)
        av_log(ctx, AV_LOG_WARNING, "sync: the result could not be recorded "
               "for the log\n");
    if (r->found && r->offset > 0)
        s->skip_main = (unsigned)r->offset;
    else if (r->found && r->offset < 0)
        s->skip_ref = (unsigned)-r->offset;
}

/* realign=1: an event, said as the CLI's --realign says it, recorded for
 * the log and the stats stream, and put on the next scored frame. */
static void realign_report(AVFilterContext *ctx, const VqRealignEvent *ev)
{
    static const char *const what[2][2] = {
        { "the reference dropped a frame", "the reference repeated a frame" },
        { "the distorted video dropped a frame",
          "the distorted video repeated a frame" },
    };
    VQHIPContext *s = ctx->priv;
    AVFilterLink *mainlink = ctx->inputs[0];
    FilterLink *ml = ff_filter_link(mainlink);
    int left = ev->delta < 0 ? 0 : 1; /* the input whose frame is left out */
    unsigned n = (unsigned)s->nb_submitted; /* the log's next frame */
    /* the CLI's time: the log's frame number at the frame rate */
    double t = ml->frame_rate.num > 0 ?
               (double)n * ml->frame_rate.den / ml->frame_rate.num : NAN;
    char when[48] = "";

    if (!isnan(t))
        snprintf(when, sizeof(when), " (%.3f s)", t);
    av_log(ctx, AV_LOG_WARNING, "realign: frame %u%s: %s; pairs re-aligned "
           "by %+d (%s frame %llu left out, offset now %+d): mean squared "
           "luma difference %.3f, %.3f re-aligned\n", n, when,
           what[ev->input][ev->repeat], ev->delta,
           left ? "distorted" : "reference",
           left ? ev->dis_frame : ev->ref_frame, ev->offset, ev->mse_pair,
           ev->mse_neighbour);
    s->nb_realign++;
    s->realign_meta++;
    s->realign_meta_delta += ev->delta;
    s->realign_last = *ev;
    if (s->vq && vq_note_realign(s->vq, n, t, ev) < 0)
        av_log(ctx, AV_LOG_WARNING, "realign: the event could not be "
               "recorded for the log (out of memory)\n");
}

/* The keys of the events before this pair, on its main frame. */
static void realign_meta(VQHIPContext *s, AVFrame *frame)
{
    const VqRealignEvent *ev = &s->realign_last;

    if (!s->realign_meta)
        return;
    av_dict_set_int(&frame->metadata, "lavfi.vqhip.realign.delta",
                    s->realign_meta_delta, 0);
    av_dict_set_int(&frame->metadata, "lavfi.vqhip.realign.offset",
                    ev->offset, 0);
    av_dict_set(&frame->metadata, "lavfi.vqhip.realign.input",
                ev->input ? "distorted" : "reference", 0);
    av_dict_set(&frame->metadata, "lavfi.vqhip.realign.kind",
                ev->repeat ? "repeat" : "drop", 0);
    s->realign_meta = s->realign_meta_delta = 0;
}

/* realign=1, for the head entries of align_main and align_ref (both there):
 * 0 wait for more frames, 1 pair them, 2 one was left out (an event: decide
 * again), or an error. Decides once each input has the detector's entries
 * or has ended, as the CLI's read-ahead does. */
static int realign_step(AVFilterContext *ctx)
{
    VQHIPContext *s = ctx->priv;
    AVFifo *fifo[2] = { s->align_main, s->align_ref };
    int ended[2] = { s->align_main_ended || s->align_flush,
                     s->align_ref_ended || s->align_ref_eof || s->align_flush };
    VqRealignEvent ev;
    int st;

    for (int i = 0; i < 2; i++) {
        size_t have = av_fifo_can_read(fifo[i]);
        if (have < s->realign_ahead && !ended[i])
            return 0;
        for (; s->realign_fed[i] < have &&
               s->realign_fed[i] < s->realign_ahead; s->realign_fed[i]++) {
            VqPicture pic;
            AlignMain m;
            AVFrame *f;
            if (i) {
                av_fifo_peek(fifo[i], &f, 1, s->realign_fed[i]);
            } else {
                av_fifo_peek(fifo[i], &m, 1, s->realign_fed[i]);
                f = m.frame;
            }
            wrap_picture(&pic, f, s);
            /* the detector's inputs: 0 the reference, 1 the distorted */
            if (vq_realign_add(s->vrealign, !i, &pic) < 0) {
                av_log(ctx, AV_LOG_ERROR, "realign: %s\n",
                       vq_realign_error(s->vrealign));
                return AVERROR(EINVAL);
            }
        }
    }
    if ((st = vq_realign_decide(s->vrealign, &ev)) < 0) {
        av_log(ctx, AV_LOG_ERROR, "realign: %s\n",
               vq_realign_error(s->vrealign));
        return AVERROR_BUG;
    }
    if (!st)
        return 1;
    realign_report(ctx, &ev);
    if (ev.delta < 0) {
        AVFrame *ref;
        av_fifo_read(s->align_ref, &ref, 1);
        av_frame_free(&ref);
        s->realign_fed[1]--;
    } else {
        /* the main frame left out goes on unscored */
        AlignMain m;
        int ret;
        av_fifo_read(s->align_main, &m, 1);
        s->realign_fed[0]--;
        s->nb_align_unscored++;
        if ((ret = queue_frame(ctx, m.frame, 0)) < 0)
            return ret;
    }
    return 2;
}

/* Pairs the frames held, in order, after the frames to drop; a main frame
 * dropped is passed on unscored. */
static int align_drain(AVFilterContext *ctx)
{
    VQHIPContext *s = ctx->priv;
    AlignMain m;
    AVFrame *ref;
    int ret;

    if (s->vsync || s->sync_only_done)
        return 0;
    for (;;) {
        if (s->skip_main && av_fifo_read(s->align_main, &m, 1) >= 0) {
            s->skip_main--;
            s->nb_align_unscored++;
            if ((ret = queue_frame(ctx, m.frame, 0)) < 0)
                return ret;
            continue;
        }
        if (s->skip_ref && av_fifo_read(s->align_ref, &ref, 1) >= 0) {
            s->skip_ref--;
            av_frame_free(&ref);
            continue;
        }
        if (!s->skip_main && s->align_ref_eof &&
            !av_fifo_can_read(s->align_ref) &&
            av_fifo_read(s->align_main, &m, 1) >= 0) {
            /* realign=1, the reference ended: no pair follows, the main
             * frames go on unscored at once (not held to the end) */
            s->nb_align_unscored++;
            if ((ret = queue_frame(ctx, m.frame, 0)) < 0)
                return ret;
            continue;
        }
        if (s->skip_main || !av_fifo_can_read(s->align_main) ||
            (!av_fifo_can_read(s->align_ref) && !s->align_ref_ended))
            return 0;
        if (s->vrealign && !s->realign_stopped && !s->skip_ref &&
            av_fifo_can_read(s->align_ref) &&
            !(s->max_pairs && s->nb_taken >= (uint64_t)s->max_pairs)) {
            if ((ret = realign_step(ctx)) <= 0)
                return ret;
            if (ret == 2)
                continue;
        }
        av_fifo_read(s->align_main, &m, 1);
        ref = NULL;
        if (!s->skip_ref)
            av_fifo_read(s->align_ref, &ref, 1);
        if (s->vrealign && !s->realign_stopped) {
            /* the detector's head pair is the next entries */
            if (ref && s->realign_fed[0] && s->realign_fed[1]) {
                vq_realign_pop(s->vrealign);
                s->realign_fed[0]--;
                s->realign_fed[1]--;
            } else {
                s->realign_stopped = 1;
            }
        }
        if (s->max_pairs && s->nb_taken >= (uint64_t)s->max_pairs) {
            av_frame_free(&m.frame); /* past frames=: the run has ended */
            av_frame_free(&ref);
            continue;
        }
        if (ref)
            s->nb_taken++;
        if (ref)
            realign_meta(s, m.frame);
        if (ref && s->sync_decided && !s->sync_told) {
            s->sync_told = 1;
            av_dict_set_int(&m.frame->metadata, "lavfi.vqhip.sync.offset",
                            s->sync_res.found ? s->sync_res.offset : 0, 0);
            set_meta(&m.frame->metadata, "sync.confidence",
                     s->sync_res.confidence);
            av_dict_set_int(&m.frame->metadata, "lavfi.vqhip.sync.found",
                            s->sync_res.found, 0);
        }
        if (ref && av_dict_get(ref->metadata, PAST_REF_END, NULL, 0))
            s->nb_past_ref_end++;
        ret = process_pair(ctx, m.frame, ref, m.disabled);
        av_frame_free(&ref);
        if (ret < 0)
            return ret;
    }
}

/* One pair from framesync into the alignment; takes master. ref_again:
 * ref is the previous event's reference frame. */
static int align_take(AVFilterContext *ctx, AVFrame *master,
                      const AVFrame *ref, int disabled, int ref_again)
{
    VQHIPContext *s = ctx->priv;
    AlignMain m = { .frame = master, .disabled = disabled };
    AVFrame *r = NULL;
    int ret;

    /* realign=1 pairs frames as the CLI reads them: the reference's last
     * frame, repeated by framesync after the reference's end, is not a
     * frame of it (the main frames past that end are not scored) */
    if (s->realign && ref && ref_again && !s->fs.in[REF_INPUT(s)].sync) {
        s->align_ref_eof = 1;
        ref = NULL;
        if (!s->align_main_ended && s->fs.in[0].sync) {
            if ((ret = av_fifo_write(s->align_main, &m, 1)) < 0) {
                av_frame_free(&master);
                return ret;
            }
        } else {
            av_frame_free(&master);
            s->align_main_ended = 1;
        }
        return align_drain(ctx);
    }
    if (ref && !(r = av_frame_clone(ref))) {
        av_frame_free(&master);
        return AVERROR(ENOMEM);
    }
    /* the reference's last frame again after its end: the copy held says
     * so in its own metadata (reference frames are never output), for the
     * pairing below to count */
    if (r && ref_again && !s->fs.in[REF_INPUT(s)].sync &&
        (ret = av_dict_set(&r->metadata, PAST_REF_END, "1", 0)) < 0) {
        av_frame_free(&master);
        av_frame_free(&r);
        return ret;
    }
    /* framesync takes an input's sync level to 0 once it has its end; the
     * main frame of a later event is a copy of its last one */
    if (s->align_main_ended || !s->fs.in[0].sync) {
        /* The main input ended; framesync goes on (its main input is
         * extended for this) with the later reference frames, which the
         * last main frames need when the reference's first were dropped.
         * The repeated main frame is not a frame of the video: dropped. */
        s->align_main_ended = 1;
        av_frame_free(&master);
        if (s->vsync)
            sync_decide(ctx);
        if (r && (ret = av_fifo_write(s->align_ref, &r, 1)) < 0) {
            av_frame_free(&r);
            return ret;
        }
        if (!r)
            s->align_ref_ended = 1;
        if ((ret = align_drain(ctx)) < 0)
            return ret;
        if (!av_fifo_can_read(s->align_main) || s->sync_only_done)
            s->align_done = 1; /* nothing waits for a reference frame */
        return 0;
    }
    if ((ret = av_fifo_write(s->align_main, &m, 1)) < 0) {
        av_frame_free(&master);
        av_frame_free(&r);
        return ret;
    }
    if (!r)
        s->align_ref_ended = 1; /* eof_action=pass: no reference follows */
    else if ((ret = av_fifo_write(s->align_ref, &r, 1)) < 0) {
        av_frame_free(&r);
        return ret;
    }
    if (s->vsync) {
        int err = sync_add(s, 1, master);
        if (!err && r)
            err = sync_add(s, 0, r);
        if (err < 0) {
            av_log(ctx, AV_LOG_ERROR, "sync: %s\n", vq_sync_error(s->vsync));
            return AVERROR(EINVAL);
        }
        if (++s->sync_pairs >= vq_sync_needed(s->vsync))
            sync_decide(ctx);
    }
    return align_drain(ctx);
}

/* The inputs ended: a search decides on the frames it has, the last pairs
 * are scored, main frames left without a reference pass on unscored. */
static int align_end(AVFilterContext *ctx)
{
    VQHIPContext *s = ctx->priv;
    AlignMain m;
    AVFrame *ref;
    int ret;

    if (s->vsync)
        sync_decide(ctx);
    if (s->sync_only_done)
        return 0;
    s->align_flush = 1;
    if ((ret = align_drain(ctx)) < 0)
        return ret;
    while (av_fifo_read(s->align_main, &m, 1) >= 0) {
        s->nb_align_unscored++;
        if ((ret = queue_frame(ctx, m.frame, 0)) < 0)
            return ret;
    }
    while (av_fifo_read(s->align_ref, &ref, 1) >= 0)
        av_frame_free(&ref);
    return 0;
}

static void align_free(VQHIPContext *s)
{
    AlignMain m;
    AVFrame *ref;

    while (s->align_main && av_fifo_read(s->align_main, &m, 1) >= 0)
        av_frame_free(&m.frame);
    while (s->align_ref && av_fifo_read(s->align_ref, &ref, 1) >= 0)
        av_frame_free(&ref);
    av_fifo_freep2(&s->align_main);
    av_fifo_freep2(&s->align_ref);
    vq_sync_close(&s->vsync);
    vq_realign_close(&s->vrealign);
}

/* Whether the main input carries hardware frames (known once the inputs
 * are configured; init's check opens before that, on the CPU). */
static int hw_input(AVFilterContext *ctx)
{
    const AVPixFmtDescriptor *desc;

    if (!ctx->inputs[0] || ctx->inputs[0]->format < 0)
        return 0;
    desc = av_pix_fmt_desc_get(ctx->inputs[0]->format);
    return desc && (desc->flags & AV_PIX_FMT_FLAG_HWACCEL);
}

/* sync=: the search, opened once the inputs are known (not in init: ffmpeg
 * initialises a graph it never configures, and the search may open the
 * GPU). Host frames are reduced on the run's backend; CUDA frames are read
 * where they are, on the GPU of the CUDA context the filter works in;
 * other hardware frames are refused. */
static int sync_open(AVFilterContext *ctx)
{
    VQHIPContext *s = ctx->priv;
    VqSyncConfig sc = { .range = s->sync_range, .frames = s->sync_frames,
                        .backend = s->backend, .device = s->device };

    if (!hw_input(ctx))
        return vq_sync_open(&s->vsync, &sc) < 0 ? AVERROR(ENOMEM) : 0;
#if CONFIG_CUDA
    if (s->cuda) {
        int ret;
        sc.backend = VQ_BACKEND_HIP;
        sc.use_current_context = 1;
        if ((ret = cuda_enter(ctx)) < 0)
            return ret;
        ret = vq_sync_open(&s->vsync, &sc);
        cuda_leave(ctx);
        if (ret < 0)
            return AVERROR(ENOMEM);
        if (strcmp(vq_sync_backend(s->vsync), "hip")) {
            av_log(ctx, AV_LOG_ERROR, "sync= on CUDA frames needs the GPU: "
                   "%s\n", vq_sync_error(s->vsync));
            return AVERROR(ENOSYS);
        }
        return 0;
    }
#endif
    av_log(ctx, AV_LOG_ERROR, "sync= reads hardware frames on the GPU only "
           "as CUDA frames: download these (hwdownload) or give the offset "
           "with offset=.\n");
    return AVERROR(ENOSYS);
}

/* Opens *vq on the given backend and selects the features and models. */
static int open_one(AVFilterContext *ctx, VqBackend backend, VqContext **vq)
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
    cfg.log         = log_callback;
    cfg.log_opaque  = ctx;
    cfg.log_level   = VQ_LOG_LEVEL_DEBUG;
    /* The GPU runtime takes tenths of a second to start: it starts on
     * libvqhip's thread while the first pairs arrive, up to hold_mb of
     * them waiting. Hardware frames are not held (they would drain their
     * pool): they wait for the open. */
    if (backend != VQ_BACKEND_CPU && s->hold_mb && !hw_input(ctx)) {
        cfg.open_async      = 1;
        cfg.open_hold_bytes = (size_t)s->hold_mb << 20;
    }
#if CONFIG_CUDA
    /* libvqhip works in the CUDA context that cuda_enter() makes current. */
    cfg.use_current_context = s->cuda != NULL;
    if (s->cuda && backend == VQ_BACKEND_CPU) {
        av_log(ctx, AV_LOG_ERROR, "CUDA frames need backend=hip or auto "
               "(download them with hwdownload for the CPU backend)\n");
        return AVERROR(EINVAL);
    }
#endif

    err = vq_open(vq, &cfg);
    if (err >= 0)
        err = vq_set_log_precision(*vq, s->log_precision);
    if (err < 0)
        return report_error(ctx, err, "vq_open");
    /* Models first, then features, as libvmaf's filter: the log lists
     * outputs in that order. */
    if ((s->model_cfg || !s->feature_cfg) &&
        (ret = use_each(ctx, *vq, s->model_cfg ? s->model_cfg : "version=vmaf_v0.6.1",
                        "vq_use_model", vq_use_model)) < 0)
        return ret;
    if (s->feature_cfg)
        return use_each(ctx, *vq, s->feature_cfg, "vq_use_feature", vq_use_feature);
    return 0;
}

/* Opens s->vq and, with inputs=N > 1, a context per other rendition, each
 * with the same features, models and options. */
static int open_vqhip(AVFilterContext *ctx, VqBackend backend)
{
    VQHIPContext *s = ctx->priv;
    int ret = open_one(ctx, backend, &s->vq);

    for (int k = 1; ret >= 0 && k < s->nb_renditions; k++)
        ret = open_one(ctx, backend, &s->rvq[k]);
    return ret;
}

static void close_renditions(VQHIPContext *s)
{
    for (int k = 1; k < s->nb_renditions; k++)
        vq_close(&s->rvq[k]);
}

/* window=, stats=, thresholds=, pool=, prom_file=: before the first
 * pair; the output's time base is the pts' (framesync's). */
static int use_stats(AVFilterContext *ctx)
{
    VQHIPContext *s = ctx->priv;
    AVRational tb = ctx->outputs[0]->time_base;
    VqWindowConfig wc = { .stats = s->stats, .thresholds = s->thresholds };
    int ret;

    if (s->window) {
        char *end;
        double v = strtod(s->window, &end);
        /* windows of frames get their times too (the log's start and end,
         * Prometheus' vqhip_window_end_seconds, the alerts' and the
         * stream's times), as in the CLI */
        if (tb.num > 0 && tb.den > 0) {
            wc.time_base_num = tb.num;
            wc.time_base_den = tb.den;
        }
        if (!strcmp(end, "s") && v > 0 && tb.num > 0 && tb.den > 0) {
            wc.seconds = v;
        } else if (!*end && v >= 1 && v <= UINT_MAX && v == (unsigned)v) {
            wc.frames = (unsigned)v;
        } else {
            av_log(ctx, AV_LOG_ERROR, "window=%s: neither a number of frames "
                   "(50) nor of seconds (2s)\n", s->window);
            return AVERROR(EINVAL);
        }
        if ((ret = vq_use_windows(s->vq, &wc)) < 0)
            return report_error(ctx, ret, "window");
    }
    if (!s->pool || !*s->pool) {
        av_log(ctx, AV_LOG_ERROR, "pool: no statistic given\n");
        return AVERROR(EINVAL);
    }
    if ((ret = vq_log_pools(s->vq, s->pool)) < 0)
        return report_error(ctx, ret, "pool");
    /* written now: an unwritable folder fails before the first frame */
    if (s->prom_file &&
        (ret = vq_set_prometheus_file(s->vq, s->prom_file, s->prom_labels)) < 0)
        return report_error(ctx, ret, "prom_file");
    if (s->alerts && (ret = vq_add_alert(s->vq, s->alerts)) < 0)
        return report_error(ctx, ret, "alerts");
    /* Opened here, not in init: ffmpeg initialises a graph of several
     * inputs once more only to inspect it, and a TCP peer would see a
     * connection of that graph too. */
    if (s->stats_url && !s->stats_io) {
        ret = avio_open2(&s->stats_io, s->stats_url, AVIO_FLAG_WRITE,
                         NULL, NULL);
        if (ret < 0) {
            s->state = STATE_FAILED;
            av_log(ctx, AV_LOG_ERROR, "stats_url=%s: cannot open: %s\n",
                   s->stats_url, av_err2str(ret));
            return ret;
        }
    }
    if (s->stats_io &&
        (ret = vq_set_stats_sink(s->vq, stats_write, s->stats_io,
                                 s->stats_frames ? VQ_STATS_FRAMES : 0)) < 0)
        return report_error(ctx, ret, "stats_url");
    return 0;
}

/* Opens libvqhip on the filter's backend (unless init did: the CPU) and
 * configures the run for the inputs' size and format. */
static int start_run(AVFilterContext *ctx)
{
    VQHIPContext *s = ctx->priv;
    AVFilterLink *mainlink = ctx->inputs[0];
    /* The size is known now: an extractor that cannot score it says so
     * here, not at the first frame. */
    VqPicture geometry = { .fmt = s->vq_fmt, .bpc = s->bpc,
                           .w = mainlink->w, .h = mainlink->h };
    int ret;

    if (!s->vq) {
        if ((ret = cuda_enter(ctx)) < 0)
            return ret;
        ret = open_vqhip(ctx, s->backend);
        cuda_leave(ctx);
        if (ret < 0)
            return ret;
    }
    if ((ret = cuda_enter(ctx)) < 0)
        return ret;
    ret = vq_configure(s->vq, &geometry);
    cuda_leave(ctx);
    if (ret < 0)
        return report_error(ctx, ret, "vq_configure");
    /* inputs=N: the other renditions' runs alike (use_stats' other
     * options are refused with N > 1 in init) */
    for (int k = 1; k < s->nb_renditions; k++) {
        if ((ret = vq_configure(s->rvq[k], &geometry)) < 0)
            return report_rendition_error(ctx, k, ret, "vq_configure");
        if ((ret = vq_log_pools(s->rvq[k], s->pool ? s->pool : "")) < 0)
            return report_rendition_error(ctx, k, ret, "pool");
    }
    return use_stats(ctx);
}

static void run_started(VQHIPContext *s)
{
    s->state = STATE_RUNNING;
    s->log_owed = 1;
}

static int config_input_ref(AVFilterLink *inlink);

static int do_vqhip(FFFrameSync *fs)
{
    AVFilterContext *ctx = fs->parent;
    VQHIPContext *s = ctx->priv;
    AVFrame *master, *ref;
    int ret, ref_again;

    if (s->nb_renditions == 1) {
        ret = ff_framesync_dualinput_get(fs, &master, &ref);
    } else {
        /* ff_framesync_dualinput_get() for the main input and the
         * reference, the last input */
        ref = NULL;
        if ((ret = ff_framesync_get_frame(fs, 0, &master, 1)) >= 0 &&
            (ret = ff_framesync_get_frame(fs, REF_INPUT(s), &ref, 0)) < 0)
            av_frame_free(&master);
        if (ret >= 0 && !master)
            ret = AVERROR_BUG;
        if (ret >= 0) {
            master->pts = av_rescale_q(fs->pts, fs->time_base,
                                       ctx->outputs[0]->time_base);
            if (ctx->is_disabled)
                ref = NULL;
            take_renditions(ctx);
        }
    }
    if (ret < 0)
        return ret;
    s->got_event = 1;
    /* framesync repeats a reference frame by giving the same frame again
     * (it holds it until the next one replaces it, so the pointer is a
     * safe identity); duplicate timestamps in aligned inputs are not
     * repeats */
    ref_again = ref && ref == s->last_ref;
    if (ref && !ctx->is_disabled) {
        if (ref == s->last_ref)
            s->nb_ref_repeats++;
        s->last_ref = ref;
    }
    if (s->align_done) {
        av_frame_free(&master); /* the run has ended */
        return 0;
    }
    if (align_active(s))
        return align_take(ctx, master, ref, ctx->is_disabled, ref_again);
    if (s->max_pairs && s->nb_taken >= (uint64_t)s->max_pairs) {
        av_frame_free(&master); /* past frames=: the run has ended */
        return 0;
    }
    s->nb_taken++;
    /* framesync drops an input's sync level to 0 at its end: main frames
     * after it (a longer main input, or one whose chain still held frames
     * when ffmpeg was interrupted) are paired with the reference's last
     * frame again (alignment leaves them out instead) */
    if (ref_again && !ctx->is_disabled && !s->fs.in[REF_INPUT(s)].sync)
        s->nb_past_ref_end++;
    ret = process_pair(ctx, master, ref, ctx->is_disabled);
    if (ret >= 0 && s->nb_renditions > 1)
        ret = end_renditions(ctx, 0);
    return ret;
}

/* Fails now rather than after the whole run when the log cannot be
 * written (vq_check_log_path: libvqhip writes the log under a temporary
 * name beside log_path, created exclusively and never through a link, and
 * renames it; a pipe or device is written in place and not opened here, so
 * its reader does not see an end of file before the log). */
static int check_log_path(AVFilterContext *ctx, const char *path)
{
    char msg[1024];
    int err;

    if (!strcmp(path, "-")) {
        av_log(ctx, AV_LOG_ERROR, "log_path=- would mix the log into "
               "ffmpeg's output on stdout: give a file name (or /dev/stdout "
               "when nothing else goes there)\n");
        return AVERROR(EINVAL);
    }
    if ((err = vq_check_log_path(path, NULL, 0, msg, sizeof(msg))) < 0) {
        av_log(ctx, AV_LOG_ERROR, "Could not open log file %s: %s\n", path,
               msg);
        return err == VQ_ENOMEM ? AVERROR(ENOMEM) : AVERROR(EIO);
    }
    return 0;
}

/* labels=: N names (default d1, d2, ...), each a metadata key's part
 * and a file name's: letters, digits, '_' and '-', all different. */
static int parse_labels(AVFilterContext *ctx)
{
    VQHIPContext *s = ctx->priv;
    const char *p = s->labels_cfg;
    int n = s->nb_renditions;

    if (p && n == 1) {
        av_log(ctx, AV_LOG_ERROR, "labels= names the renditions of "
               "inputs=N with N > 1; with one distorted input the keys are "
               "lavfi.vqhip.NAME\n");
        return AVERROR(EINVAL);
    }
    for (int k = 0; k < n; k++) {
        size_t len = p ? strcspn(p, "|") : 0;
        if (p && (!*p || !len)) {
            av_log(ctx, AV_LOG_ERROR, "labels=%s: %s for inputs=%d: give "
                   "one label per distorted input, '|'-separated\n",
                   s->labels_cfg, *p ? "an empty label" : "too few labels", n);
            return AVERROR(EINVAL);
        }
        s->label[k] = p ? av_strndup(p, len) : av_asprintf("d%d", k + 1);
        if (!s->label[k])
            return AVERROR(ENOMEM);
        if (p)
            p += len + (p[len] == '|');
        if (strspn(s->label[k], "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOP"
                   "QRSTUVWXYZ0123456789_-") != strlen(s->label[k])) {
            av_log(ctx, AV_LOG_ERROR, "labels: '%s' has a character other "
                   "than letters, digits, '_' and '-' (it names metadata "
                   "keys and log files)\n", s->label[k]);
            return AVERROR(EINVAL);
        }
        for (int j = 0; j < k; j++)
            if (!strcmp(s->label[j], s->label[k])) {
                av_log(ctx, AV_LOG_ERROR, "labels: '%s' is given twice\n",
                       s->label[k]);
                return AVERROR(EINVAL);
            }
    }
    if (p && *p) {
        av_log(ctx, AV_LOG_ERROR, "labels=%s: more labels than inputs=%d\n",
               s->labels_cfg, n);
        return AVERROR(EINVAL);
    }
    return 0;
}

/* inputs=N > 1: rendition k's log (the library's rule: %d its number,
 * %s its label, %% a '%'). */
static int rendition_log_path(AVFilterContext *ctx, int k)
{
    VQHIPContext *s = ctx->priv;
    char path[4096], why[512];

    if (vq_ladder_log_path(path, sizeof(path), s->log_path, k, s->label[k],
                           why, sizeof(why)) < 0) {
        av_log(ctx, AV_LOG_ERROR, "log_path=%s with inputs=%d: %s\n",
               s->log_path, s->nb_renditions, why);
        return AVERROR(EINVAL);
    }
    s->log_of[k] = av_strdup(path);
    return s->log_of[k] ? 0 : AVERROR(ENOMEM);
}

/* The log file of rendition k (with inputs=1: log_path as given). */
static const char *log_file(const VQHIPContext *s, int k)
{
    return s->nb_renditions == 1 ? s->log_path : s->log_of[k];
}

/* inputs=N > 1: what a ladder run does not do yet, refused by name. */
static int check_ladder_options(AVFilterContext *ctx)
{
    VQHIPContext *s = ctx->priv;
    const char *no = s->live ? "live" : s->offset ? "offset" :
                     s->sync != SYNC_OFF ? "sync" : s->realign ? "realign" :
                     s->window ? "window" :
                     s->stats ? "stats" : s->thresholds ? "thresholds" :
                     s->prom_file ? "prom_file" : s->prom_labels ? "prom_labels" :
                     s->alerts ? "alerts" : s->stats_url ? "stats_url" : NULL;

    if (s->nb_renditions > 1 && no) {
        av_log(ctx, AV_LOG_ERROR, "%s= does not work with inputs=%d (a "
               "ladder run writes each rendition's log and metadata only): "
               "score that rendition in a filter of its own, "
               "[dK][ref]vqhip=%s=...\n", no, s->nb_renditions, no);
        return AVERROR(ENOSYS);
    }
    return 0;
}

/* The inputs: "main" and "reference" (inputs=1, as ever), or one pad per
 * rendition named by its label, then "reference". */
static int add_input_pads(AVFilterContext *ctx)
{
    VQHIPContext *s = ctx->priv;
    int ret;

    for (int k = 0; k <= s->nb_renditions; k++) {
        AVFilterPad pad = { .type = AVMEDIA_TYPE_VIDEO };
        if (k == s->nb_renditions) {
            pad.name = "reference";
            pad.config_props = config_input_ref;
            ret = ff_append_inpad(ctx, &pad);
        } else if (s->nb_renditions == 1) {
            pad.name = "main";
            ret = ff_append_inpad(ctx, &pad);
        } else {
            if (!(pad.name = av_strdup(s->label[k])))
                return AVERROR(ENOMEM);
            ret = ff_append_inpad_free_name(ctx, &pad);
        }
        if (ret < 0)
            return ret;
    }
    return 0;
}

static av_cold int init(AVFilterContext *ctx)
{
    VQHIPContext *s = ctx->priv;
    int ret;

    if ((ret = parse_labels(ctx)) < 0 || (ret = add_input_pads(ctx)) < 0 ||
        (ret = check_ladder_options(ctx)) < 0)
        return ret;
    if (s->log_path && s->nb_renditions == 1 &&
        (ret = check_log_path(ctx, s->log_path)) < 0)
        return ret;
    for (int k = 0; s->log_path && k < s->nb_renditions && s->nb_renditions > 1; k++)
        if ((ret = rendition_log_path(ctx, k)) < 0 ||
            (ret = check_log_path(ctx, s->log_of[k])) < 0)
            return ret;

    s->pending = av_fifo_alloc2(4, sizeof(PendingFrame), AV_FIFO_FLAG_AUTO_GROW);
    if (!s->pending)
        return AVERROR(ENOMEM);
    if (s->offset && s->sync != SYNC_OFF) {
        av_log(ctx, AV_LOG_ERROR, "offset= and sync=: give one (sync= finds "
               "the offset)\n");
        return AVERROR(EINVAL);
    }
    if (align_active(s)) {
        /* sync= holds sync_range + sync_frames frames of each input until
         * it decides; offset=N holds |N| frames of one input */
        VqRealignConfig rc = { .window = s->realign_window };
        s->align_main = av_fifo_alloc2(4, sizeof(AlignMain), AV_FIFO_FLAG_AUTO_GROW);
        s->align_ref = av_fifo_alloc2(4, sizeof(AVFrame *), AV_FIFO_FLAG_AUTO_GROW);
        if (!s->align_main || !s->align_ref ||
            (s->realign && vq_realign_open(&s->vrealign, &rc) < 0))
            return AVERROR(ENOMEM);
        s->realign_ahead = vq_realign_ahead(s->vrealign);
        s->skip_main = s->offset > 0 ? (unsigned)s->offset : 0;
        s->skip_ref = s->offset < 0 ? (unsigned)-s->offset : 0;
    }
    s->fs.on_event = do_vqhip;

    /* Features and models are checked now, on a CPU context. The GPU is
     * opened in config_output: ffmpeg's CLI initialises a filter graph once
     * just to learn its inputs and outputs, and that one is never
     * configured, so the device is probed (and a fallback reported) once. */
    ret = open_vqhip(ctx, VQ_BACKEND_CPU);
    if (ret < 0)
        s->state = STATE_FAILED;
    if (ret < 0 || s->backend == VQ_BACKEND_CPU)
        return ret;
    vq_close(&s->vq);
    close_renditions(s);
    return 0;
}

static const enum AVPixelFormat pix_fmts[] = {
    AV_PIX_FMT_YUV420P,     AV_PIX_FMT_YUV422P,     AV_PIX_FMT_YUV444P,
    /* full range by format (what FFmpeg 5.1's MJPEG and full-range H.264
     * decoders give): taken as they are, not converted to limited range */
    AV_PIX_FMT_YUVJ420P,    AV_PIX_FMT_YUVJ422P,    AV_PIX_FMT_YUVJ444P,
    AV_PIX_FMT_YUV420P10LE, AV_PIX_FMT_YUV422P10LE, AV_PIX_FMT_YUV444P10LE,
    AV_PIX_FMT_YUV420P12LE, AV_PIX_FMT_YUV422P12LE, AV_PIX_FMT_YUV444P12LE,
    AV_PIX_FMT_YUV420P16LE, AV_PIX_FMT_YUV422P16LE, AV_PIX_FMT_YUV444P16LE,
    AV_PIX_FMT_GRAY8, AV_PIX_FMT_GRAY10LE, AV_PIX_FMT_GRAY12LE, AV_PIX_FMT_GRAY16LE,
    /* semi-planar, as hardware decoders and hwdownload give them */
    AV_PIX_FMT_NV12, AV_PIX_FMT_NV16, AV_PIX_FMT_NV24, AV_PIX_FMT_NV20LE,
    AV_PIX_FMT_P010LE, AV_PIX_FMT_P016LE,
    AV_PIX_FMT_P210LE, AV_PIX_FMT_P216LE, AV_PIX_FMT_P410LE, AV_PIX_FMT_P416LE,
    AV_PIX_FMT_P012LE, AV_PIX_FMT_P212LE, AV_PIX_FMT_P412LE,
#if CONFIG_CUDA
    AV_PIX_FMT_CUDA,
#endif
#if CONFIG_LIBDRM
    AV_PIX_FMT_DRM_PRIME,
#if CONFIG_VAAPI
    AV_PIX_FMT_VAAPI,
#endif
#endif
    AV_PIX_FMT_NONE
};

/* Colour spaces and ranges, negotiated as the formats are. */
static int query_color_props(unsigned nb_in, AVFilterFormatsConfig **cfg_in,
                             AVFilterFormatsConfig **cfg_out)
{
    AVFilterFormats *spaces = ff_all_color_spaces();
    AVFilterFormats *ranges = ff_all_color_ranges();
    int ret;

    /* the reference and the renditions after the first: their own */
    for (unsigned i = 1; i < nb_in; i++)
        if ((ret = ff_formats_ref(ff_all_color_spaces(), &cfg_in[i]->color_spaces)) < 0 ||
            (ret = ff_formats_ref(ff_all_color_ranges(), &cfg_in[i]->color_ranges)) < 0)
            return ret;
    if ((ret = ff_formats_ref(spaces, &cfg_in[0]->color_spaces)) < 0 ||
        (ret = ff_formats_ref(spaces, &cfg_out[0]->color_spaces)) < 0 ||
        (ret = ff_formats_ref(ranges, &cfg_in[0]->color_ranges)) < 0)
        return ret;
    return ff_formats_ref(ranges, &cfg_out[0]->color_ranges);
}

/* The output carries the main frames, so it shares the main input's format
 * (and colour space and range); the reference input negotiates on its own,
 * so that a reference in another format or bit depth is reported in
 * config_input_ref, and one in another range is warned about (ssimulacra2
 * reads each picture's own description), instead of being converted
 * silently. */
static int query_formats(const AVFilterContext *ctx,
                         AVFilterFormatsConfig **cfg_in,
                         AVFilterFormatsConfig **cfg_out)
{
    AVFilterFormats *main_fmts;
    int ret;

    /* the reference and the renditions after the first (inputs=N) */
    for (unsigned i = 1; i < ctx->nb_inputs; i++)
        if ((ret = ff_formats_ref(ff_make_format_list((const int *)pix_fmts),
                                  &cfg_in[i]->formats)) < 0)
            return ret;
    main_fmts = ff_make_format_list((const int *)pix_fmts);
    if ((ret = ff_formats_ref(main_fmts, &cfg_in[0]->formats)) < 0)
        return ret;
    if ((ret = ff_formats_ref(main_fmts, &cfg_out[0]->formats)) < 0)
        return ret;
    return query_color_props(ctx->nb_inputs, cfg_in, cfg_out);
}

/* libvqhip's name for a software pixel format, its bit depth and how many
 * planes its frames have. */
static int pix_fmt_map(const AVPixFmtDescriptor *desc, VqPixFmt *fmt,
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

/* yuvj formats as the yuv format of the same layout. */
static int plain_format(int format)
{
    switch (format) {
    case AV_PIX_FMT_YUVJ420P: return AV_PIX_FMT_YUV420P;
    case AV_PIX_FMT_YUVJ422P: return AV_PIX_FMT_YUV422P;
    case AV_PIX_FMT_YUVJ444P: return AV_PIX_FMT_YUV444P;
    default:                  return format;
    }
}

/* A format FFmpeg converted on its own before the filter (a scale filter
 * it inserted: 9- and 14-bit samples to 10 and 16 bits, ...) changes the
 * samples scored: said, once per input, where it changes the bit depth or
 * the range (a conversion from RGB is what such input needs). */
static void warn_conversion(AVFilterContext *ctx, AVFilterLink *link,
                            const char *which)
{
    AVFilterContext *src = link->src;
    const AVPixFmtDescriptor *from, *to;

    if (!src || !src->filter || strcmp(src->filter->name, "scale") ||
        strncmp(src->name, "auto_", 5) || src->nb_inputs != 1 ||
        !src->inputs[0])
        return;
    from = av_pix_fmt_desc_get(src->inputs[0]->format);
    to = av_pix_fmt_desc_get(link->format);
    if (!from || !to || (from->flags & AV_PIX_FMT_FLAG_RGB) ||
        (from->comp[0].depth == to->comp[0].depth &&
         is_yuvj(src->inputs[0]->format) == is_yuvj(link->format)))
        return;
    av_log(ctx, AV_LOG_WARNING, "the %s input's frames are %s, converted to "
           "%s by a scale filter FFmpeg inserted before vqhip (vqhip takes "
           "8-, 10-, 12- and 16-bit samples as they are): the scores are of "
           "the converted samples\n", which, from->name, to->name);
}

/* The software format behind a link: the frames' format for hardware
 * frames (NULL, said, when they cannot be used). */
static const AVPixFmtDescriptor *link_sw_format(AVFilterContext *ctx,
                                                AVFilterLink *link)
{
    switch (link->format) {
#if CONFIG_CUDA
    case AV_PIX_FMT_CUDA:
        return cuda_sw_format(ctx, link);
#endif
#if CONFIG_LIBDRM
    case AV_PIX_FMT_DRM_PRIME:
    case AV_PIX_FMT_VAAPI:
        return drm_sw_format(ctx, link);
#endif
    default:
        return av_pix_fmt_desc_get(link->format);
    }
}

/* inputs=N > 1: rendition k's input against the reference's: the same
 * size and format, software frames. */
static int check_rendition(AVFilterContext *ctx, int k)
{
    VQHIPContext *s = ctx->priv;
    AVFilterLink *link = ctx->inputs[k], *reflink = ctx->inputs[REF_INPUT(s)];
    const AVPixFmtDescriptor *desc = av_pix_fmt_desc_get(link->format);
    const AVPixFmtDescriptor *ref_desc = av_pix_fmt_desc_get(reflink->format);
    char text[128], ref_text[128];

    if (!desc || !ref_desc || (desc->flags & AV_PIX_FMT_FLAG_HWACCEL) ||
        (ref_desc->flags & AV_PIX_FMT_FLAG_HWACCEL)) {
        av_log(ctx, AV_LOG_ERROR, "inputs=%d takes software frames only: "
               "download hardware frames (hwdownload) or score each "
               "rendition in a filter of its own\n", s->nb_renditions);
        return AVERROR(ENOSYS);
    }
    warn_conversion(ctx, link, s->label[k]);
    if (link->w == reflink->w && link->h == reflink->h &&
        plain_format(link->format) == plain_format(reflink->format))
        return 0;
    describe_link(text, sizeof(text), link);
    describe_link(ref_text, sizeof(ref_text), reflink);
    av_log(ctx, AV_LOG_ERROR, "Rendition %s (input %d of inputs=%d) is %s "
           "but the reference input is %s: size, pixel format and bit depth "
           "must be the same.\n", s->label[k], k + 1, s->nb_renditions, text,
           ref_text);
    if (link->w != reflink->w || link->h != reflink->h)
        av_log(ctx, AV_LOG_ERROR, "Upscale the rendition to the "
               "reference's size before vqhip, e.g. "
               "[%s_in]scale=%d:%d:flags=bicubic[%s]\n", s->label[k],
               reflink->w, reflink->h, s->label[k]);
    return AVERROR(EINVAL);
}

static int check_input_ref(AVFilterLink *inlink)
{
    AVFilterContext *ctx = inlink->dst;
    VQHIPContext *s = ctx->priv;
    AVFilterLink *mainlink = ctx->inputs[0], *reflink = ctx->inputs[REF_INPUT(s)];
    const AVPixFmtDescriptor *desc = link_sw_format(ctx, mainlink);
    const AVPixFmtDescriptor *ref_desc = desc ? link_sw_format(ctx, reflink)
                                              : NULL;

    if (!desc || !ref_desc) {
        /* hardware frames whose format or device cannot be used (said) */
        av_log(ctx, AV_LOG_ERROR, "the %s input's frames cannot be read\n",
               !desc ? "main" : "reference");
        return AVERROR(EINVAL);
    }
    for (int k = 0; k < s->nb_renditions && s->nb_renditions > 1; k++) {
        int ret = check_rendition(ctx, k);
        if (ret < 0)
            return ret;
    }
    if (s->nb_renditions == 1)
        warn_conversion(ctx, mainlink, "main");
    warn_conversion(ctx, reflink, "reference");
    if (mainlink->w != reflink->w || mainlink->h != reflink->h ||
        plain_format(mainlink->format) != plain_format(reflink->format) ||
        plain_format(av_pix_fmt_desc_get_id(desc)) !=
        plain_format(av_pix_fmt_desc_get_id(ref_desc))) {
        char main_desc[128], ref_text[128];
        describe_link(main_desc, sizeof(main_desc), mainlink);
        describe_link(ref_text, sizeof(ref_text), reflink);
        av_log(ctx, AV_LOG_ERROR, "The main input is %s but the reference "
               "input is %s: size, pixel format and bit depth must be the "
               "same.\n", main_desc, ref_text);
        if (mainlink->w != reflink->w || mainlink->h != reflink->h)
            /* a ladder rendition: scored at the reference's size, upscaled
             * (docs/ALIGNMENT.md: which model for which size) */
            av_log(ctx, AV_LOG_ERROR, "Upscale the distorted video to the "
                   "reference's size, e.g. with the distorted video as input "
                   "0 and the reference as input 1: -filter_complex "
                   "\"[0:v]scale=%d:%d:flags=bicubic[d];[d][1:v]vqhip\" "
                   "(vmaf_v0.6.1 for 1080p viewing, vmaf_4k_v0.6.1 for "
                   "4K).\n", reflink->w, reflink->h);
        return AVERROR(EINVAL);
    }
    if (pix_fmt_map(desc, &s->vq_fmt, &s->bpc, &s->n_stored) < 0) {
        av_log(ctx, AV_LOG_ERROR, "pixel format %s is not supported\n",
               desc->name);
        return AVERROR(EINVAL);
    }
    return 0;
}

/* A link that cannot be set up fails the filter (uninit then leaves no
 * earlier run's log at log_path). */
static int config_input_ref(AVFilterLink *inlink)
{
    int ret = check_input_ref(inlink);

    if (ret < 0)
        ((VQHIPContext *)inlink->dst->priv)->state = STATE_FAILED;
    return ret;
}

static int configure_output(AVFilterLink *outlink);

/* Inputs that can be compared only after a conversion: said, with the
 * filter that converts (frames are paired by timestamp, and the metrics
 * compare samples as they are). */
static void check_links(AVFilterContext *ctx)
{
    VQHIPContext *s = ctx->priv;
    AVFilterLink *mainlink = ctx->inputs[0], *reflink = ctx->inputs[REF_INPUT(s)];
    FilterLink *ml = ff_filter_link(mainlink), *rl = ff_filter_link(reflink);
    AVRational sar_m = mainlink->sample_aspect_ratio;
    AVRational sar_r = reflink->sample_aspect_ratio;

    if (ml->frame_rate.num > 0 && rl->frame_rate.num > 0 &&
        av_cmp_q(ml->frame_rate, rl->frame_rate))
        av_log(ctx, AV_LOG_WARNING, "the main input has %d/%d frames a "
               "second and the reference %d/%d: frames are paired by "
               "timestamp, so some are paired with a repeated frame or left "
               "out. Convert the main input with fps=%d/%d.\n",
               ml->frame_rate.num, ml->frame_rate.den, rl->frame_rate.num,
               rl->frame_rate.den, rl->frame_rate.num, rl->frame_rate.den);
    if (!sar_m.num || !sar_m.den)
        sar_m = (AVRational){ 1, 1 };
    if (!sar_r.num || !sar_r.den)
        sar_r = (AVRational){ 1, 1 };
    if (av_cmp_q(sar_m, sar_r))
        av_log(ctx, AV_LOG_WARNING, "the main input's sample aspect ratio is "
               "%d:%d and the reference's %d:%d: the pictures are shown at "
               "other shapes. Scale the main input to the reference's "
               "geometry, or add setsar=%d/%d where it is only mislabelled.\n",
               sar_m.num, sar_m.den, sar_r.num, sar_r.den, sar_r.num,
               sar_r.den);
}

static int config_output(AVFilterLink *outlink)
{
    int ret = configure_output(outlink);

    if (ret < 0)
        ((VQHIPContext *)outlink->src->priv)->state = STATE_FAILED;
    return ret;
}

/* framesync over the inputs: with inputs=1 FFmpeg's two-input setup; with
 * N renditions, the same for N + 1 inputs: events on the main input's
 * frames (sync 2), every other input taken at the main frame's time
 * (sync 1), repeated past its end (eof_action, repeatlast and shortest
 * apply to them as to the reference). */
static int init_framesync(AVFilterContext *ctx)
{
    VQHIPContext *s = ctx->priv;
    int ret;

    if (s->nb_renditions == 1)
        return ff_framesync_init_dualinput(&s->fs, ctx);
    if ((ret = ff_framesync_init(&s->fs, ctx, s->nb_renditions + 1)) < 0)
        return ret;
    for (int i = 0; i <= s->nb_renditions; i++) {
        s->fs.in[i].time_base = ctx->inputs[i]->time_base;
        s->fs.in[i].sync   = i ? 1 : 2;
        s->fs.in[i].before = i ? EXT_NULL : EXT_STOP;
        s->fs.in[i].after  = EXT_INFINITY;
    }
    return 0;
}

static int configure_output(AVFilterLink *outlink)
{
    AVFilterContext *ctx = outlink->src;
    VQHIPContext *s = ctx->priv;
    AVFilterLink *mainlink = ctx->inputs[0];
    FilterLink *il = ff_filter_link(mainlink);
    FilterLink *ol = ff_filter_link(outlink);
    int ret;

    ret = init_framesync(ctx);
    if (ret < 0)
        return ret;
    /* The main input is the video measured: the run ends with it, and a
     * longer reference's later frames are not read (so nothing can say
     * whether there were any). The dual-input default goes on pairing the
     * main's last frame with each later reference frame: a longer
     * reference added wrong pairs, a looped one never ended. */
    s->fs.in[0].after = EXT_STOP;
    /* With offset=/sync= the main frames are paired with later reference
     * frames (the reference's first dropped): framesync goes on past the
     * main input's end, and the alignment ends the run once every main
     * frame has its reference frame (align_done). */
    if (align_active(s) && !s->fs.opt_shortest)
        s->fs.in[0].after = EXT_INFINITY;
    outlink->w = mainlink->w;
    outlink->h = mainlink->h;
    outlink->time_base = mainlink->time_base;
    outlink->sample_aspect_ratio = mainlink->sample_aspect_ratio;
    ol->frame_rate = il->frame_rate;
    if ((ret = ff_framesync_configure(&s->fs)) < 0)
        return ret;

    outlink->time_base = s->fs.time_base;

    /* The GPU opens now, or in the background (hold_mb) while the first
     * pairs arrive. */
    if (s->state == STATE_INIT) {
        if ((ret = start_run(ctx)) < 0)
            return ret;
        run_started(s);
    }
    /* The output passes the main frames on, hardware frames included: the
     * filter is marked hardware-frame aware, so the link's frames context
     * is set here (libavfilter asserts that only such filters set it). */
    if (il->hw_frames_ctx) {
        av_buffer_unref(&ol->hw_frames_ctx);
        if (!(ol->hw_frames_ctx = av_buffer_ref(il->hw_frames_ctx)))
            return AVERROR(ENOMEM);
    }

    check_links(ctx);
    if (s->nb_renditions > 1 && ctx->enable_str) {
        av_log(ctx, AV_LOG_ERROR, "enable= does not work with inputs=%d: "
               "trim the inputs instead\n", s->nb_renditions);
        return AVERROR(ENOSYS);
    }
    if (align_active(s) && ctx->enable_str) {
        /* framesync gives no reference frame outside enable=, and the
         * shifted pairs would need it */
        av_log(ctx, AV_LOG_ERROR, "offset=, sync= and realign= do not work "
               "with enable=: trim the inputs instead\n");
        return AVERROR(ENOSYS);
    }
    if (s->realign && hw_input(ctx)) {
        av_log(ctx, AV_LOG_ERROR, "realign= reads each frame's luma on the "
               "CPU: not from hardware frames. Download them (hwdownload).\n");
        return AVERROR(ENOSYS);
    }
    if (s->sync != SYNC_OFF && !s->vsync && !s->sync_decided &&
        (ret = sync_open(ctx)) < 0)
        return ret;
    for (int i = 1; i <= REF_INPUT(s); i++)
        if (av_cmp_q(mainlink->time_base, outlink->time_base) ||
            av_cmp_q(ctx->inputs[i]->time_base, outlink->time_base)) {
            av_log(ctx, AV_LOG_WARNING, "not matching timebases found between first input: %d/%d and %s input %d/%d, results may be incorrect!\n",
                   mainlink->time_base.num, mainlink->time_base.den,
                   s->nb_renditions == 1 ? "second" : i == REF_INPUT(s) ?
                   "the reference" : s->label[i],
                   ctx->inputs[i]->time_base.num, ctx->inputs[i]->time_base.den);
            break;
        }

    return 0;
}

/* The inputs ended (or frames= was reached): the pending frames are
 * scored and sent on, the log is written. */
static int end_run(AVFilterContext *ctx)
{
    VQHIPContext *s = ctx->priv;
    int ret, err;

    s->state = STATE_ENDED;
    if (!s->nb_submitted) {
        /* Never a summary or log that looks like a measurement of nothing. */
        av_log(ctx, AV_LOG_ERROR, "no frame pair was scored: an input ended "
               "before its first frame (or every frame was outside the "
               "enable= range)\n");
        snprintf(s->why, sizeof(s->why), "no frame pair was scored");
        s->state = STATE_FAILED;
        return AVERROR(EINVAL);
    }
    for (int k = 1; k < s->nb_renditions; k++)
        if (!s->r_submitted[k]) {
            av_log(ctx, AV_LOG_ERROR, "rendition %s: no frame pair was "
                   "scored (its input had no frame at the main input's "
                   "times)\n", s->label[k]);
            snprintf(s->why, sizeof(s->why), "rendition %s: no frame pair "
                     "was scored", s->label[k]);
            s->state = STATE_FAILED;
            return AVERROR(EINVAL);
        }
    err = vq_flush(s->vq);
    if (err < 0)
        return report_error(ctx, err, "vq_flush");
    if ((ret = end_renditions(ctx, 1)) < 0)
        return ret;
    if ((ret = release_pending(ctx)) < 0)
        return ret;
    for (int k = 1; k < s->nb_renditions; k++)
        if (s->r_submitted[k] < s->nb_submitted)
            av_log(ctx, AV_LOG_WARNING, "rendition %s: %"PRIu64" of %"PRIu64
                   " frames scored: its input ended first (or had no frame "
                   "at some of the main input's times); its log holds "
                   "those\n", s->label[k], s->r_submitted[k],
                   s->nb_submitted);
    /* Pairs against the reference's last frame after its end are not
     * pairs of the two videos: the log says so (marked incomplete), as the
     * summary does. */
    if (s->nb_past_ref_end) {
        snprintf(s->why, sizeof(s->why), "%"PRIu64" main frames after the "
                 "reference's end were scored against its last frame "
                 "(repeatlast=1; shortest=1 ends the run with the reference)",
                 s->nb_past_ref_end);
        for (int k = 0; k < s->nb_renditions; k++)
            if (k ? s->rvq[k] : s->vq)
                vq_set_incomplete(k ? s->rvq[k] : s->vq, s->why);
    }
    /* The log is written now, while a failure (a full disk) can still stop
     * ffmpeg with an error; uninit writes it only for runs cut short. */
    if (s->log_path) {
        s->log_owed = 0;
        for (int k = 0; k < s->nb_renditions; k++)
            if ((err = vq_write_log(k ? s->rvq[k] : s->vq, log_file(s, k),
                                    s->log_fmt)) < 0)
                return report_rendition_error(ctx, k, err, "vq_write_log");
        s->log_written = 1;
    }
    return 0;
}

/* sync=only decided: nothing is scored, no log is written, the output
 * ends. */
static int sync_only_end(AVFilterContext *ctx)
{
    VQHIPContext *s = ctx->priv;

    s->state = STATE_ENDED;
    s->log_owed = 0;
    align_free(s);
    return 0;
}

/* The inputs' first timestamps, compared once both are known (peeked at
 * before framesync takes the frames): framesync pairs by timestamp, so
 * inputs that start far apart pair unrelated frames, or drop frames of
 * one input while waiting for the other. */
static void check_starts(AVFilterContext *ctx)
{
    VQHIPContext *s = ctx->priv;
    AVFilterLink *mainlink = ctx->inputs[0];
    FilterLink *ml = ff_filter_link(mainlink);
    double t[2], frame_s;

    if (s->starts_checked)
        return;
    for (int i = 0; i < 2; i++)
        if (!(s->starts_checked & (2 << i)) &&
            ff_inlink_queued_frames(ctx->inputs[i ? REF_INPUT(s) : 0])) {
            s->first_pts[i] = ff_inlink_peek_frame(ctx->inputs[i ? REF_INPUT(s) : 0], 0)->pts;
            s->starts_checked |= 2 << i;
        }
    if (s->starts_checked != 6)
        return;
    s->starts_checked = 1;
    if (s->first_pts[0] == AV_NOPTS_VALUE || s->first_pts[1] == AV_NOPTS_VALUE)
        return;
    for (int i = 0; i < 2; i++)
        t[i] = s->first_pts[i] * av_q2d(ctx->inputs[i ? REF_INPUT(s) : 0]->time_base);
    frame_s = ml->frame_rate.num > 0 ? av_q2d(av_inv_q(ml->frame_rate)) : 0.1;
    if (FFABS(t[0] - t[1]) > frame_s)
        av_log(ctx, AV_LOG_WARNING, "the main input starts at %.3f s and the "
               "reference at %.3f s: frames are paired by timestamp, so they "
               "pair frames %.3f s apart or leave frames out. When both start "
               "with the same picture, add setpts=PTS-STARTPTS to both "
               "inputs (and offset= or sync= for frames added at the "
               "start).\n", t[0], t[1], t[0] - t[1]);
}

static int activate_in_context(AVFilterContext *ctx)
{
    VQHIPContext *s = ctx->priv;
    int ret;

    s->got_event = 0;
    /* A frame held back until the output asked for it. */
    if (s->state != STATE_ENDED && av_fifo_can_read(s->pending) &&
        ff_outlink_frame_wanted(ctx->outputs[0])) {
        int64_t before = s->nb_output;
        if ((ret = release_pending(ctx)) < 0)
            return ret;
        if (s->nb_output != before)
            return 0;
    }
    check_starts(ctx);
    ret = ff_framesync_activate(&s->fs);
    if (ret < 0)
        return ret;
    if (s->sync_only_done && s->state != STATE_ENDED) {
        for (unsigned i = 0; i < ctx->nb_inputs; i++)
            ff_inlink_set_status(ctx->inputs[i], AVERROR_EOF);
        ret = sync_only_end(ctx);
        ff_outlink_set_status(ctx->outputs[0], AVERROR_EOF, s->last_pts);
        return ret;
    }
    if (s->state != STATE_ENDED && s->align_done) {
        /* the main input ended and each of its frames has its pair */
        for (unsigned i = 0; i < ctx->nb_inputs; i++)
            ff_inlink_set_status(ctx->inputs[i], AVERROR_EOF);
        if ((ret = align_end(ctx)) < 0 || (ret = end_run(ctx)) < 0)
            return ret;
        ff_outlink_set_status(ctx->outputs[0], AVERROR_EOF, s->last_pts);
        return 0;
    }
    if (s->state != STATE_ENDED && s->max_pairs &&
        s->nb_taken >= (uint64_t)s->max_pairs) {
        /* frames=: the run ends as at the inputs' end, whatever the output
         * asked for and however far the filter read ahead */
        for (unsigned i = 0; i < ctx->nb_inputs; i++)
            ff_inlink_set_status(ctx->inputs[i], AVERROR_EOF);
        if ((ret = end_run(ctx)) < 0)
            return ret;
        ff_outlink_set_status(ctx->outputs[0], AVERROR_EOF, s->last_pts);
        return 0;
    }
    if (!s->fs.eof) {
        /* framesync handles one frame per call. When that frame is still
         * waiting for its scores and the output wants one, come back for
         * the next input (nothing went out that would bring a request). */
        if (s->got_event && (av_fifo_can_read(s->pending) || align_active(s)) &&
            ff_outlink_frame_wanted(ctx->outputs[0]))
            ff_filter_set_ready(ctx, 100);
        return 0;
    }
    if (s->state == STATE_ENDED)
        return 0;
    /* framesync has just set EOF on the output. Frames sent now still reach
     * the next filter before that status: a link reports its status only
     * once its queue is empty. */
    if (align_active(s) && (ret = align_end(ctx)) < 0)
        return ret;
    if (s->sync_only_done)
        return sync_only_end(ctx);
    return end_run(ctx);
}

static int activate(AVFilterContext *ctx)
{
    int ret = cuda_enter(ctx);
    if (ret < 0)
        return ret;
    ret = activate_in_context(ctx);
    cuda_leave(ctx);
    return ret;
}

/* "NAME score: X" for one pool (libvmaf's filter's line; as_vmaf: "VMAF
 * score: X"), "NAME score: mean=X perc5=Y" for several (as_vmaf: the
 * first). */
static void print_pooled(AVFilterContext *ctx, VqContext *vq, const char *name,
                         int as_vmaf)
{
    VQHIPContext *s = ctx->priv;
    int several = strchr(s->pool, '|') && !as_vmaf;
    AVBPrint line;

    av_bprint_init(&line, 0, AV_BPRINT_SIZE_AUTOMATIC);
    av_bprintf(&line, "%s score:", as_vmaf ? "VMAF" : name);
    for (const char *p = s->pool; *p;) {
        size_t len = strcspn(p, "|");
        char stat[64];
        double value;
        int err;
        snprintf(stat, sizeof(stat), "%.*s", (int)len, p);
        err = vq_pooled_stat(vq, name, stat, &value);
        if (err < 0) {
            if (!as_vmaf && vq == s->vq)
                report_error(ctx, err, name);
            else if (!as_vmaf)
                av_log(ctx, AV_LOG_ERROR, "%s: %s\n", name, vq_last_error(vq));
            av_bprint_finalize(&line, NULL);
            return;
        }
        if (several)
            av_bprintf(&line, " %s=%f", stat, value);
        else
            av_bprintf(&line, " %f", value);
        if (!several)
            break;
        p += len + (p[len] == '|');
    }
    av_log(ctx, AV_LOG_INFO, "%s\n", line.str);
    av_bprint_finalize(&line, NULL);
}

/* The pooled scores of one run: per output, per aggregate, per model. */
static void print_scores(AVFilterContext *ctx, VqContext *vq)
{
    for (unsigned i = 0; i < vq_output_count(vq); i++)
        print_pooled(ctx, vq, vq_output_name(vq, i), 0);
    for (unsigned i = 0; i < vq_aggregate_count(vq); i++) {
        VqScore agg;
        if (vq_aggregate(vq, i, &agg) >= 0)
            av_log(ctx, AV_LOG_INFO, "%s score: %f\n", agg.name, agg.value);
    }
    /* The line libvmaf's filter prints for each model. */
    for (unsigned i = 0; i < vq_model_count(vq); i++)
        print_pooled(ctx, vq, vq_model_output(vq, i), 1);
}

static void print_summary(AVFilterContext *ctx)
{
    VQHIPContext *s = ctx->priv;
    const char *device = vq_device_name(s->vq);
    VqRunInfo info;

    vq_run_info(s->vq, &info);
    if (s->nb_renditions > 1)
        av_log(ctx, AV_LOG_INFO, "rendition %s (the output's frames):\n",
               s->label[0]);
    if (s->n_subsample > 1)
        /* the statistics are of the frames scored: i % n_subsample == 0 */
        av_log(ctx, AV_LOG_INFO, "%s of %u frames (1 in %d of %u: "
               "n_subsample), computed on %s%s%s:\n", s->pool,
               (info.received + s->n_subsample - 1) / s->n_subsample,
               s->n_subsample, info.received, vq_backend_name(s->vq),
               *device ? " " : "", device);
    else
        av_log(ctx, AV_LOG_INFO, "%s of %u frames, computed on %s%s%s:\n",
               s->pool, info.received, vq_backend_name(s->vq),
               *device ? " " : "", device);
    if (s->live)
        av_log(ctx, info.scored < info.received ? AV_LOG_WARNING : AV_LOG_INFO,
               "live: %u of %u frames scored (coverage %.1f%%)%s\n",
               info.scored, info.received,
               info.received ? 100.0 * info.scored / info.received : 0.0,
               s->nb_live_skipped ? ": the scoring did not keep up with "
               "the input; the others passed on without scores" : "");
    if (info.fell_back)
        av_log(ctx, AV_LOG_WARNING, "GPU fault: frames %u and later were "
               "computed on the CPU (%s)\n", info.fallback_frame,
               info.fallback_reason);
    if (info.verify)
        av_log(ctx, info.mismatches ? AV_LOG_WARNING : AV_LOG_INFO,
               "verify: %u frames checked on the CPU, %u mismatched\n",
               info.verified, info.mismatches);
    if (s->nb_before_ref)
        av_log(ctx, AV_LOG_WARNING, "%"PRIu64" main frames came before the "
               "reference's first frame (by timestamp) and were not scored: "
               "if both start together, align them with "
               "setpts=PTS-STARTPTS on each input\n", s->nb_before_ref);
    if (s->nb_unscored)
        av_log(ctx, AV_LOG_WARNING, "%"PRIu64" main frames had no reference "
               "frame (the reference ended first, eof_action=pass) and were "
               "not scored\n", s->nb_unscored);
    if (s->nb_realign)
        av_log(ctx, AV_LOG_WARNING, "realign: %u event%s; the frames left "
               "out were not scored\n", s->nb_realign,
               s->nb_realign == 1 ? "" : "s");
    if (s->nb_align_unscored)
        av_log(ctx, AV_LOG_INFO, "%"PRIu64" main frames were not scored: "
               "offset=/sync= left them out at the start, realign=1 left "
               "them out, or their reference frames had ended\n",
               s->nb_align_unscored);
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
    print_scores(ctx, s->vq);
    /* inputs=N: the other renditions, each under its label */
    for (int k = 1; k < s->nb_renditions; k++) {
        VqRunInfo ri;
        vq_run_info(s->rvq[k], &ri);
        av_log(ctx, AV_LOG_INFO, "rendition %s: %s of %u frames, computed "
               "on %s:\n", s->label[k], s->pool, ri.received,
               vq_backend_name(s->rvq[k]));
        if (ri.fell_back)
            av_log(ctx, AV_LOG_WARNING, "rendition %s: GPU fault: frames %u "
                   "and later were computed on the CPU (%s)\n", s->label[k],
                   ri.fallback_frame, ri.fallback_reason);
        print_scores(ctx, s->rvq[k]);
    }
}

static av_cold void uninit(AVFilterContext *ctx)
{
    VQHIPContext *s = ctx->priv;
    PendingFrame p;

    ff_framesync_uninit(&s->fs);
    align_free(s);
    while (s->pending && av_fifo_read(s->pending, &p, 1) >= 0)
        av_frame_free(&p.frame);
    av_fifo_freep2(&s->pending);

    if (s->vq && cuda_enter(ctx) < 0) {
        avio_closep(&s->stats_io);
        return; /* without its context the GPU state cannot be released */
    }
    if (s->vq && s->nb_submitted && s->state != STATE_FAILED) {
        /* The output closed early (e.g. -frames:v): the summary and the
         * log hold the frames that went out (frames still in flight were
         * never received: they were not part of the output), and the log
         * says the run was cut short. */
        if (s->state != STATE_ENDED)
            snprintf(s->why, sizeof(s->why), "the filter graph closed after "
                     "%"PRId64" frames went out, before its inputs ended",
                     s->nb_output);
        print_summary(ctx);
    }
    /* Once a run started, the log is this run's, complete or marked
     * incomplete: never an earlier run's file left in place. */
    if (s->vq && s->log_owed && s->log_path) {
        for (int k = 0; k < s->nb_renditions; k++) {
            VqContext *vq = k ? s->rvq[k] : s->vq;
            if (!vq)
                continue;
            if (*s->why)
                vq_set_incomplete(vq, s->why);
            if (vq_write_log(vq, log_file(s, k), s->log_fmt) < 0)
                av_log(ctx, AV_LOG_ERROR, "the log was not written: %s\n",
                       vq_last_error(vq));
            else
                s->log_written = 1;
        }
    }
    /* A failed run that wrote no log leaves none: an earlier run's file at
     * log_path would look like this one's (a pipe, a device or a link is
     * left alone). A graph only initialised to be inspected fails nothing. */
    for (int k = 0; k < s->nb_renditions; k++)
        if (s->log_path && log_file(s, k) && !s->log_written &&
            s->state == STATE_FAILED && vq_discard_log(log_file(s, k)) > 0)
            av_log(ctx, AV_LOG_WARNING, "removed the earlier log %s: this "
                   "run wrote none\n", log_file(s, k));
    close_renditions(s);
    if (s->vq) {
        vq_close(&s->vq); /* a run cut short: the stream's summary */
        cuda_leave(ctx);
    }
    avio_closep(&s->stats_io);
    for (int k = 0; k < MAX_RENDITIONS; k++) {
        av_freep(&s->label[k]);
        av_freep(&s->log_of[k]);
    }
}

static const AVFilterPad vqhip_outputs[] = {
    {
        .name          = "default",
        .type          = AVMEDIA_TYPE_VIDEO,
        .config_props  = config_output,
    },
};

const FFFilter ff_vf_vqhip = {
    .p.name         = "vqhip",
    .p.description  = NULL_IF_CONFIG_SMALL("Calculate VMAF-family video quality metrics (libvqhip: GPU through HIP, or CPU)."),
    .p.priv_class   = &vqhip_class,
    .p.flags        = AVFILTER_FLAG_SUPPORT_TIMELINE_INTERNAL |
                      AVFILTER_FLAG_METADATA_ONLY |
                      AVFILTER_FLAG_DYNAMIC_INPUTS,
    .preinit        = vqhip_framesync_preinit,
    .init           = init,
    .uninit         = uninit,
    .activate       = activate,
    .priv_size      = sizeof(VQHIPContext),
    .flags_internal = FF_FILTER_FLAG_HWFRAME_AWARE,
    FILTER_OUTPUTS(vqhip_outputs),
    FILTER_QUERY_FUNC2(query_formats),
};
