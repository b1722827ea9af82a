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

#include <vqhip.h>

#include "config.h"

#include "libavutil/avstring.h"
#include "libavutil/fifo.h"
#include "libavutil/mem.h"
#include "libavutil/opt.h"
#include "avfilter.h"
#include "filters.h"
#include "formats.h"
#include "framesync.h"
#include "vf_vqhip.h"

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
    int ret, past_ref_end;

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
            ff_vqhip_take_renditions(ctx);
        }
    }
    if (ret < 0)
        return ret;
    s->got_event = 1;
    /* framesync repeats a reference frame by giving the same frame again
     * (it holds it until the next one replaces it, so the pointer is a
     * safe identity); duplicate timestamps in aligned inputs are not
     * repeats. framesync drops an input's sync level to 0 at its end: a
     * repeat after it pairs a main frame (a longer main input, or one whose
     * chain still held frames when ffmpeg was interrupted) with the
     * reference's last frame again. */
    past_ref_end = ref && ref == s->last_ref && !s->fs.in[REF_INPUT(s)].sync;
    if (ref && !ctx->is_disabled) {
        if (ref == s->last_ref)
            s->nb_ref_repeats++;
        s->last_ref = ref;
    }
    if (s->align_done) {
        av_frame_free(&master); /* the run has ended */
        return 0;
    }
    if (ff_vqhip_align_active(s))
        return ff_vqhip_align_take(ctx, master, ref, ctx->is_disabled,
                                   past_ref_end);
    if (s->max_pairs && s->nb_taken >= (uint64_t)s->max_pairs) {
        av_frame_free(&master); /* past frames=: the run has ended */
        return 0;
    }
    s->nb_taken++;
    if (past_ref_end && !ctx->is_disabled)
        s->nb_past_ref_end++;
    ret = ff_vqhip_process_pair(ctx, master, ref, ctx->is_disabled);
    if (ret >= 0 && s->nb_renditions > 1)
        ret = ff_vqhip_end_renditions(ctx, 0);
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
const char *ff_vqhip_log_file(const VQHIPContext *s, int k)
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
    if (ff_vqhip_align_active(s)) {
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
    ret = ff_vqhip_open(ctx, VQ_BACKEND_CPU);
    if (ret < 0)
        s->state = STATE_FAILED;
    if (ret < 0 || s->backend == VQ_BACKEND_CPU)
        return ret;
    vq_close(&s->vq);
    ff_vqhip_close_renditions(s);
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

/* A link that cannot be set up fails the filter (uninit then leaves no
 * earlier run's log at log_path). */
static int config_input_ref(AVFilterLink *inlink)
{
    int ret = ff_vqhip_check_input_ref(inlink);

    if (ret < 0)
        ((VQHIPContext *)inlink->dst->priv)->state = STATE_FAILED;
    return ret;
}

static int configure_output(AVFilterLink *outlink);

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
    if (ff_vqhip_align_active(s) && !s->fs.opt_shortest)
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
        if ((ret = ff_vqhip_start_run(ctx)) < 0)
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

    ff_vqhip_check_links(ctx);
    if (s->nb_renditions > 1 && ctx->enable_str) {
        av_log(ctx, AV_LOG_ERROR, "enable= does not work with inputs=%d: "
               "trim the inputs instead\n", s->nb_renditions);
        return AVERROR(ENOSYS);
    }
    if (ff_vqhip_align_active(s) && ctx->enable_str) {
        /* framesync gives no reference frame outside enable=, and the
         * shifted pairs would need it */
        av_log(ctx, AV_LOG_ERROR, "offset=, sync= and realign= do not work "
               "with enable=: trim the inputs instead\n");
        return AVERROR(ENOSYS);
    }
    if (s->realign && ff_vqhip_hw_input(ctx)) {
        av_log(ctx, AV_LOG_ERROR, "realign= reads each frame's luma on the "
               "CPU: not from hardware frames. Download them (hwdownload).\n");
        return AVERROR(ENOSYS);
    }
    if (s->sync != SYNC_OFF && !s->vsync && !s->sync_decided &&
        (ret = ff_vqhip_sync_open(ctx)) < 0)
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

/* sync=only decided: nothing is scored, no log is written, the output
 * ends. */
static int sync_only_end(AVFilterContext *ctx)
{
    VQHIPContext *s = ctx->priv;

    s->state = STATE_ENDED;
    s->log_owed = 0;
    ff_vqhip_align_free(s);
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
        if ((ret = ff_vqhip_release_pending(ctx)) < 0)
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
        if ((ret = ff_vqhip_align_end(ctx)) < 0 ||
            (ret = ff_vqhip_end_run(ctx)) < 0)
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
        if ((ret = ff_vqhip_end_run(ctx)) < 0)
            return ret;
        ff_outlink_set_status(ctx->outputs[0], AVERROR_EOF, s->last_pts);
        return 0;
    }
    if (!s->fs.eof) {
        /* framesync handles one frame per call. When that frame is still
         * waiting for its scores and the output wants one, come back for
         * the next input (nothing went out that would bring a request). */
        if (s->got_event &&
            (av_fifo_can_read(s->pending) || ff_vqhip_align_active(s)) &&
            ff_outlink_frame_wanted(ctx->outputs[0]))
            ff_filter_set_ready(ctx, 100);
        return 0;
    }
    if (s->state == STATE_ENDED)
        return 0;
    /* framesync has just set EOF on the output. Frames sent now still reach
     * the next filter before that status: a link reports its status only
     * once its queue is empty. */
    if (ff_vqhip_align_active(s) && (ret = ff_vqhip_align_end(ctx)) < 0)
        return ret;
    if (s->sync_only_done)
        return sync_only_end(ctx);
    return ff_vqhip_end_run(ctx);
}

static int activate(AVFilterContext *ctx)
{
    int ret = ff_vqhip_cuda_enter(ctx);
    if (ret < 0)
        return ret;
    ret = activate_in_context(ctx);
    ff_vqhip_cuda_leave(ctx);
    return ret;
}

static av_cold void uninit(AVFilterContext *ctx)
{
    VQHIPContext *s = ctx->priv;
    PendingFrame p;

    ff_framesync_uninit(&s->fs);
    ff_vqhip_align_free(s);
    while (s->pending && av_fifo_read(s->pending, &p, 1) >= 0)
        av_frame_free(&p.frame);
    av_fifo_freep2(&s->pending);

    if (s->vq && ff_vqhip_cuda_enter(ctx) < 0) {
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
        ff_vqhip_print_summary(ctx);
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
            if (vq_write_log(vq, ff_vqhip_log_file(s, k), s->log_fmt) < 0)
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
        if (s->log_path && ff_vqhip_log_file(s, k) && !s->log_written &&
            s->state == STATE_FAILED &&
            vq_discard_log(ff_vqhip_log_file(s, k)) > 0)
            av_log(ctx, AV_LOG_WARNING, "removed the earlier log %s: this "
                   "run wrote none\n", ff_vqhip_log_file(s, k));
    ff_vqhip_close_renditions(s);
    if (s->vq) {
        vq_close(&s->vq); /* a run cut short: the stream's summary */
        ff_vqhip_cuda_leave(ctx);
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
