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
 * vqhip filter: what a run reports. libvqhip's errors, the scores, windows
 * and alerts as frame metadata, the frames waiting for their scores, the
 * statistics and streams of the run (window=, pool=, prom_file=, alerts=,
 * stats_url=) and its summary.
 */

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "libavutil/bprint.h"
#include "libavutil/error.h"
#include "avfilter.h"
#include "filters.h"
#include "vf_vqhip.h"

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
int ff_vqhip_report_error(AVFilterContext *ctx, int err, const char *call)
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

/* ff_vqhip_report_error() for rendition k of inputs=N (k = 0: the main
 * input). */
int ff_vqhip_report_rendition_error(AVFilterContext *ctx, int k, int err,
                                    const char *call)
{
    VQHIPContext *s = ctx->priv;
    const char *msg = s->rvq[k] ? vq_last_error(s->rvq[k]) : "";

    if (!k)
        return ff_vqhip_report_error(ctx, err, call);
    s->state = STATE_FAILED;
    snprintf(s->why, sizeof(s->why), "rendition %s: %s", s->label[k],
             *msg ? msg : vq_strerror(err));
    av_log(ctx, AV_LOG_ERROR, "rendition %s: %s: %s\n", s->label[k], call,
           *msg ? msg : vq_strerror(err));
    return error_map(err);
}

void ff_vqhip_set_meta(AVDictionary **metadata, const char *name, double d)
{
    char key[256], value[128];

    snprintf(key, sizeof(key), "lavfi.vqhip.%s", name);
    snprintf(value, sizeof(value), "%f", d);
    av_dict_set(metadata, key, value, 0);
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
            ff_vqhip_set_meta(metadata, key, w.stats[i].value);
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
    char name[192]; /* with "lavfi.vqhip.", ff_vqhip_set_meta's key */

    for (unsigned i = 0; i < scores->n; i++) {
        if (s->nb_renditions == 1) {
            ff_vqhip_set_meta(metadata, scores->scores[i].name,
                              scores->scores[i].value);
            continue;
        }
        snprintf(name, sizeof(name), "%s.%s", s->label[k],
                 scores->scores[i].name);
        ff_vqhip_set_meta(metadata, name, scores->scores[i].value);
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
            return ff_vqhip_report_rendition_error(ctx, k, err, "vq_receive");
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
int ff_vqhip_release_pending(AVFilterContext *ctx)
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
            if (!ended && !ff_vqhip_run_depth_known(s))
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
                return ff_vqhip_report_error(ctx, err, "vq_receive");
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

int ff_vqhip_queue_frame(AVFilterContext *ctx, AVFrame *frame, int scored)
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
    return ff_vqhip_release_pending(ctx);
}

/* window=, stats=, thresholds=, pool=, prom_file=: before the first
 * pair; the output's time base is the pts' (framesync's). */
int ff_vqhip_use_stats(AVFilterContext *ctx)
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
            return ff_vqhip_report_error(ctx, ret, "window");
    }
    if (!s->pool || !*s->pool) {
        av_log(ctx, AV_LOG_ERROR, "pool: no statistic given\n");
        return AVERROR(EINVAL);
    }
    if ((ret = vq_log_pools(s->vq, s->pool)) < 0)
        return ff_vqhip_report_error(ctx, ret, "pool");
    /* written now: an unwritable folder fails before the first frame */
    if (s->prom_file &&
        (ret = vq_set_prometheus_file(s->vq, s->prom_file, s->prom_labels)) < 0)
        return ff_vqhip_report_error(ctx, ret, "prom_file");
    if (s->alerts && (ret = vq_add_alert(s->vq, s->alerts)) < 0)
        return ff_vqhip_report_error(ctx, ret, "alerts");
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
        return ff_vqhip_report_error(ctx, ret, "stats_url");
    return 0;
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
                ff_vqhip_report_error(ctx, err, name);
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

void ff_vqhip_print_summary(AVFilterContext *ctx)
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
