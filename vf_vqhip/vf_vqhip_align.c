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
 * vqhip filter: the alignment of the inputs. offset= leaves out the first
 * frames of one input, sync= finds that offset from the first frames' luma,
 * realign= finds frames dropped or repeated mid-stream; framesync's pairs
 * are taken apart and the frames paired again in order.
 */

#include <math.h>
#include <string.h>

#include "config.h"

#include "avfilter.h"
#include "filters.h"
#include "vf_vqhip.h"

/* Whether framesync's pairs go through the alignment (offset=, sync=,
 * realign=): without it every pair goes straight to
 * ff_vqhip_process_pair, as before. */
int ff_vqhip_align_active(const VQHIPContext *s)
{
    return s->offset || s->sync != SYNC_OFF || s->realign;
}

/* A frame into the offset search: CUDA frames where they are (activate
 * made their context current), host frames as they are. */
static int sync_add(VQHIPContext *s, int distorted, const AVFrame *f)
{
    VqPicture pic;
    ff_vqhip_wrap_picture(&pic, f, s);
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
            ff_vqhip_wrap_picture(&pic, f, s);
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
        if ((ret = ff_vqhip_queue_frame(ctx, m.frame, 0)) < 0)
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
            if ((ret = ff_vqhip_queue_frame(ctx, m.frame, 0)) < 0)
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
            if ((ret = ff_vqhip_queue_frame(ctx, m.frame, 0)) < 0)
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
            ff_vqhip_set_meta(&m.frame->metadata, "sync.confidence",
                              s->sync_res.confidence);
            av_dict_set_int(&m.frame->metadata, "lavfi.vqhip.sync.found",
                            s->sync_res.found, 0);
        }
        if (ref && av_dict_get(ref->metadata, PAST_REF_END, NULL, 0))
            s->nb_past_ref_end++;
        ret = ff_vqhip_process_pair(ctx, m.frame, ref, m.disabled);
        av_frame_free(&ref);
        if (ret < 0)
            return ret;
    }
}

/* One pair from framesync into the alignment; takes master. past_ref_end:
 * ref is the reference's last frame, repeated after its end. */
int ff_vqhip_align_take(AVFilterContext *ctx, AVFrame *master,
                        const AVFrame *ref, int disabled, int past_ref_end)
{
    VQHIPContext *s = ctx->priv;
    AlignMain m = { .frame = master, .disabled = disabled };
    AVFrame *r = NULL;
    int ret;

    /* realign=1 pairs frames as the CLI reads them: the reference's last
     * frame, repeated by framesync after the reference's end, is not a
     * frame of it (the main frames past that end are not scored) */
    if (s->realign && past_ref_end) {
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
    if (r && past_ref_end &&
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
int ff_vqhip_align_end(AVFilterContext *ctx)
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
        if ((ret = ff_vqhip_queue_frame(ctx, m.frame, 0)) < 0)
            return ret;
    }
    while (av_fifo_read(s->align_ref, &ref, 1) >= 0)
        av_frame_free(&ref);
    return 0;
}

void ff_vqhip_align_free(VQHIPContext *s)
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

/* sync=: the search, opened once the inputs are known (not in init: ffmpeg
 * initialises a graph it never configures, and the search may open the
 * GPU). Host frames are reduced on the run's backend; CUDA frames are read
 * where they are, on the GPU of the CUDA context the filter works in;
 * other hardware frames are refused. */
int ff_vqhip_sync_open(AVFilterContext *ctx)
{
    VQHIPContext *s = ctx->priv;
    VqSyncConfig sc = { .range = s->sync_range, .frames = s->sync_frames,
                        .backend = s->backend, .device = s->device };

    if (!ff_vqhip_hw_input(ctx))
        return vq_sync_open(&s->vsync, &sc) < 0 ? AVERROR(ENOMEM) : 0;
#if CONFIG_CUDA
    if (s->cuda) {
        int ret;
        sc.backend = VQ_BACKEND_HIP;
        sc.use_current_context = 1;
        if ((ret = ff_vqhip_cuda_enter(ctx)) < 0)
            return ret;
        ret = vq_sync_open(&s->vsync, &sc);
        ff_vqhip_cuda_leave(ctx);
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
