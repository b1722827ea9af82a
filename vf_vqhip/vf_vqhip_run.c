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
 * vqhip filter: the run. libvqhip opened with the filter's features and
 * models, the run configured and started, each pair scored (and with
 * inputs=N the other renditions' frames), and the run ended.
 */

#include "libavutil/avstring.h"
#include "libavutil/mem.h"
#include "libavutil/pixdesc.h"
#include "avfilter.h"
#include "filters.h"
#include "vf_vqhip.h"

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
            ret = ff_vqhip_report_error(ctx, err, call);
    }
    av_free(copy);
    return ret;
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
    if (backend != VQ_BACKEND_CPU && s->hold_mb && !ff_vqhip_hw_input(ctx)) {
        cfg.open_async      = 1;
        cfg.open_hold_bytes = (size_t)s->hold_mb << 20;
    }
#if CONFIG_CUDA
    /* libvqhip works in the CUDA context that ff_vqhip_cuda_enter() makes
     * current. */
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
        return ff_vqhip_report_error(ctx, err, "vq_open");
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
int ff_vqhip_open(AVFilterContext *ctx, VqBackend backend)
{
    VQHIPContext *s = ctx->priv;
    int ret = open_one(ctx, backend, &s->vq);

    for (int k = 1; ret >= 0 && k < s->nb_renditions; k++)
        ret = open_one(ctx, backend, &s->rvq[k]);
    return ret;
}

void ff_vqhip_close_renditions(VQHIPContext *s)
{
    for (int k = 1; k < s->nb_renditions; k++)
        vq_close(&s->rvq[k]);
}

/* Opens libvqhip on the filter's backend (unless init did: the CPU) and
 * configures the run for the inputs' size and format. */
int ff_vqhip_start_run(AVFilterContext *ctx)
{
    VQHIPContext *s = ctx->priv;
    AVFilterLink *mainlink = ctx->inputs[0];
    /* The size is known now: an extractor that cannot score it says so
     * here, not at the first frame. */
    VqPicture geometry = { .fmt = s->vq_fmt, .bpc = s->bpc,
                           .w = mainlink->w, .h = mainlink->h };
    int ret;

    if (!s->vq) {
        if ((ret = ff_vqhip_cuda_enter(ctx)) < 0)
            return ret;
        ret = ff_vqhip_open(ctx, s->backend);
        ff_vqhip_cuda_leave(ctx);
        if (ret < 0)
            return ret;
    }
    if ((ret = ff_vqhip_cuda_enter(ctx)) < 0)
        return ret;
    ret = vq_configure(s->vq, &geometry);
    ff_vqhip_cuda_leave(ctx);
    if (ret < 0)
        return ff_vqhip_report_error(ctx, ret, "vq_configure");
    /* inputs=N: the other renditions' runs alike (ff_vqhip_use_stats'
     * other options are refused with N > 1 in init) */
    for (int k = 1; k < s->nb_renditions; k++) {
        if ((ret = vq_configure(s->rvq[k], &geometry)) < 0)
            return ff_vqhip_report_rendition_error(ctx, k, ret, "vq_configure");
        if ((ret = vq_log_pools(s->rvq[k], s->pool ? s->pool : "")) < 0)
            return ff_vqhip_report_rendition_error(ctx, k, ret, "pool");
    }
    return ff_vqhip_use_stats(ctx);
}

/* Whether the depth libvqhip chose for the run is known, and then sets
 * `ahead`. With the GPU opening in the background (hold_mb), the depth is
 * chosen once it is open; until then no frame waits for its scores, and
 * the pairs wait in libvqhip (at most hold_mb of them; past that,
 * vq_submit waits for the open). */
int ff_vqhip_run_depth_known(VQHIPContext *s)
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
    if (!s->live || !s->nb_submitted || !ff_vqhip_run_depth_known(s) ||
        vq_run_info(s->vq, &info) < 0 ||
        info.submitted - info.received < info.depth)
        return 0;
    if ((err = vq_skip_next(s->vq)) < 0)
        return ff_vqhip_report_error(ctx, err, "vq_skip_next");
    *skipped = 1;
    s->nb_live_skipped++;
    return 0;
}

/* inputs=N > 1: framesync's frames of renditions 1..N-1 at this event; a
 * frame given again (the input has no newer one: it ended, or has no frame
 * at this time) is not new, as its pair run would have had no event. */
void ff_vqhip_take_renditions(AVFilterContext *ctx)
{
    VQHIPContext *s = ctx->priv;

    for (int k = 1; k < s->nb_renditions; k++) {
        AVFrame *f = NULL;
        ff_framesync_get_frame(&s->fs, k, &f, 0);
        s->r_new[k] = f && f != s->r_last[k] && !s->r_ended[k] ? f : NULL;
        s->r_last[k] = f;
    }
}

/* Renditions 1..N-1 whose input ended (framesync holds its end, or gives
 * no frame past it with eof_action=pass) are flushed: their last frame is
 * final, and the others go on. After the event's submissions, so that a
 * last frame that came with its end is scored first. */
int ff_vqhip_end_renditions(AVFilterContext *ctx, int all)
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
            return ff_vqhip_report_rendition_error(ctx, k, err, "vq_flush");
    }
    return 0;
}

/* Scores one pair (ref may be NULL: no reference) or passes the main frame
 * on unscored (disabled: outside enable=); takes master. */
int ff_vqhip_process_pair(AVFilterContext *ctx, AVFrame *master,
                          AVFrame *ref, int disabled)
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
            return ff_vqhip_report_error(ctx, err, "vq_flush");
        }
        if ((err = ff_vqhip_end_renditions(ctx, 1)) < 0) {
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
        return ff_vqhip_queue_frame(ctx, master, 0);

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
    if (ff_vqhip_frame_range(master) != ff_vqhip_frame_range(ref) &&
        ff_vqhip_frame_range(master) != AVCOL_RANGE_UNSPECIFIED &&
        ff_vqhip_frame_range(ref) != AVCOL_RANGE_UNSPECIFIED &&
        !(s->range_warned & 1)) {
        int full = ff_vqhip_frame_range(ref) == AVCOL_RANGE_JPEG;
        av_log(ctx, AV_LOG_WARNING, "main and reference "
               "frames use different color ranges (%s != %s): the scores "
               "compare unlike samples. Convert the main input with "
               "scale=out_range=%s (or setrange=%s where it is only "
               "mislabelled).\n",
               av_color_range_name(ff_vqhip_frame_range(master)),
               av_color_range_name(ff_vqhip_frame_range(ref)),
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
        return ff_vqhip_report_error(ctx, ret, "vq_set_next_frame_number");
    }
    if ((ret = live_skip(ctx, &skipped)) < 0 ||
        (ret = ff_vqhip_submit(ctx, ref, master)) < 0 ||
        (ret = ff_vqhip_submit_renditions(ctx, ref)) < 0) {
        av_frame_free(&master);
        return ret;
    }
    if (!s->nb_submitted++) {
        /* the temporal lag is known once the run is configured */
        VqRunInfo info;
        vq_run_info(s->vq, &info);
        s->lag = info.lag;
    }
    return ff_vqhip_queue_frame(ctx, master, skipped ? LIVE_SKIPPED : 1);
}

/* The inputs ended (or frames= was reached): the pending frames are
 * scored and sent on, the log is written. */
int ff_vqhip_end_run(AVFilterContext *ctx)
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
        return ff_vqhip_report_error(ctx, err, "vq_flush");
    if ((ret = ff_vqhip_end_renditions(ctx, 1)) < 0)
        return ret;
    if ((ret = ff_vqhip_release_pending(ctx)) < 0)
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
            if ((err = vq_write_log(k ? s->rvq[k] : s->vq,
                                    ff_vqhip_log_file(s, k), s->log_fmt)) < 0)
                return ff_vqhip_report_rendition_error(ctx, k, err,
                                                       "vq_write_log");
        s->log_written = 1;
    }
    return 0;
}
