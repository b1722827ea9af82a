/*
 * Windows of a run: tumbling windows of N frames or of T seconds of the
 * frames' timestamps, each pooled into statistics (core/stat.h) of every
 * output when it closes. Frames enter in delivery order (vq_receive);
 * windows_close() in windows.c is the one place where a window closes.
 * Memory: the open window's values (one double per scored frame and
 * output), and per closed window its statistics (one double per output
 * and statistic), kept for the log.
 */
#ifndef VQHIP_RUN_WINDOWS_H
#define VQHIP_RUN_WINDOWS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/error.h"
#include "core/collector.h"
#include "core/stat.h"

typedef struct VqWindowResult {
    unsigned first_frame, last_frame; /* frame indices, inclusive */
    unsigned n_frames, n_scored;
    double start, end;    /* seconds of the first and last frame (NaN
                             without a time base) */
    bool partial;         /* closed by the end of the run */
    size_t values;        /* offset of its n_out * n_stats values in
                             VqWindows.done_values, output-major */
} VqWindowResult;

typedef struct VqWindows {
    bool on;
    unsigned frames;      /* window length in frames, or 0 */
    double seconds;       /* or in seconds */
    unsigned tb_num, tb_den; /* the pts' unit (0/0: none) */
    VqStat *stats;
    unsigned n_stats;

    unsigned n_out;       /* outputs, fixed at the first frame */
    int *ids;             /* their collector ids, log order */

    bool open;            /* the open window */
    unsigned first, last, n_frames, n_scored;
    double start, end;
    int64_t slot;
    double *vals;         /* vals[o * cap + k]: output o, k-th scored frame */
    unsigned *n_vals, cap;
    double *sorted;

    int64_t *pts;         /* pts of frames pts_head .. pts_head + pts_n - 1 */
    unsigned pts_cap, pts_head, pts_n;
    double frame_t;       /* seconds of the last frame's pts (NaN: none) */
    bool have_pts0;
    int64_t pts0;

    VqWindowResult *done; /* closed windows, in order */
    unsigned n_done, cap_done, n_taken;
    double *done_values;
    size_t n_done_values, cap_done_values;
} VqWindows;

/* Windows of `frames` frames or `seconds` seconds (one of them nonzero),
 * with the statistics of stats|thresholds (core/stat.h's names). */
int vq_windows_setup(VqWindows *w, unsigned frames, double seconds,
                     unsigned tb_num, unsigned tb_den, const char *stats,
                     const char *thresholds, VqErrBuf *err);
/* Frame `index` was submitted with this pts (index: one past the last). */
int vq_windows_note_pts(VqWindows *w, unsigned index, int64_t pts);
/* Frame `index` (the next in order) was delivered with its values in c. */
int vq_windows_frame(VqWindows *w, const VqCollector *c, unsigned index);
/* The run ended: the open window closes, partial. */
int vq_windows_finish(VqWindows *w);
/* Name of output o (o < n_out). */
const char *vq_windows_output(const VqWindows *w, const VqCollector *c,
                              unsigned o);
void vq_windows_free(VqWindows *w);

#endif
