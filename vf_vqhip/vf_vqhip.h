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
 * The vqhip filter's private header: its state, shared by the files of the
 * filter (vf_vqhip.c and vf_vqhip_*.c), and the functions they call across.
 */

#ifndef AVFILTER_VF_VQHIP_H
#define AVFILTER_VF_VQHIP_H

#include <stdint.h>

#include <vqhip.h>

#include "config.h"

#include "libavutil/fifo.h"
#include "libavutil/frame.h"
#include "libavutil/pixdesc.h"
#include "libavformat/avio.h"
#include "avfilter.h"
#include "framesync.h"

#if CONFIG_CUDA
#include "libavutil/hwcontext_cuda_internal.h"
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
    uint64_t nb_main_seen;  ///< main frames ff_vqhip_process_pair saw
                            ///< (enable=: the log's frame numbers are
                            ///< the video's)
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

/* The input index of the reference: after the N renditions. */
#define REF_INPUT(s) ((s)->nb_renditions)
/* a held reference frame that framesync repeated after the reference ended */
#define PAST_REF_END "vqhip.past_reference_end"

/* vf_vqhip.c */
const char *ff_vqhip_log_file(const VQHIPContext *s, int k);

/* vf_vqhip_report.c: errors, frame metadata, the frames waiting for their
 * scores, the run's statistics and its summary */
int ff_vqhip_report_error(AVFilterContext *ctx, int err, const char *call);
int ff_vqhip_report_rendition_error(AVFilterContext *ctx, int k, int err,
                                    const char *call);
void ff_vqhip_set_meta(AVDictionary **metadata, const char *name, double d);
int ff_vqhip_release_pending(AVFilterContext *ctx);
int ff_vqhip_queue_frame(AVFilterContext *ctx, AVFrame *frame, int scored);
int ff_vqhip_use_stats(AVFilterContext *ctx);
void ff_vqhip_print_summary(AVFilterContext *ctx);

/* vf_vqhip_frames.c: frames handed to libvqhip (host, CUDA, DRM PRIME) */
int ff_vqhip_is_yuvj(int format);
enum AVColorRange ff_vqhip_frame_range(const AVFrame *f);
void ff_vqhip_wrap_picture(VqPicture *pic, const AVFrame *f,
                           const VQHIPContext *s);
int ff_vqhip_cuda_enter(AVFilterContext *ctx);
void ff_vqhip_cuda_leave(AVFilterContext *ctx);
int ff_vqhip_submit(AVFilterContext *ctx, const AVFrame *ref,
                    const AVFrame *dis);
int ff_vqhip_submit_renditions(AVFilterContext *ctx, const AVFrame *ref);
int ff_vqhip_hw_input(AVFilterContext *ctx);
const AVPixFmtDescriptor *ff_vqhip_link_sw_format(AVFilterContext *ctx,
                                                  AVFilterLink *link);

/* vf_vqhip_run.c: libvqhip opened, the run started, pairs scored, the run
 * ended */
int ff_vqhip_open(AVFilterContext *ctx, VqBackend backend);
void ff_vqhip_close_renditions(VQHIPContext *s);
int ff_vqhip_start_run(AVFilterContext *ctx);
int ff_vqhip_run_depth_known(VQHIPContext *s);
void ff_vqhip_take_renditions(AVFilterContext *ctx);
int ff_vqhip_end_renditions(AVFilterContext *ctx, int all);
int ff_vqhip_process_pair(AVFilterContext *ctx, AVFrame *master,
                          AVFrame *ref, int disabled);
int ff_vqhip_end_run(AVFilterContext *ctx);

/* vf_vqhip_align.c: offset=, sync=, realign= */
int ff_vqhip_align_active(const VQHIPContext *s);
int ff_vqhip_align_take(AVFilterContext *ctx, AVFrame *master,
                        const AVFrame *ref, int disabled, int past_ref_end);
int ff_vqhip_align_end(AVFilterContext *ctx);
void ff_vqhip_align_free(VQHIPContext *s);
int ff_vqhip_sync_open(AVFilterContext *ctx);

/* vf_vqhip_inputs.c: the inputs' formats, sizes and rates checked */
int ff_vqhip_check_input_ref(AVFilterLink *inlink);
void ff_vqhip_check_links(AVFilterContext *ctx);

#endif /* AVFILTER_VF_VQHIP_H */
