/* The CLI's live mode (--live): never hold the input back for the scores;
 * a pair that arrives while the run's depth of frames is in flight is
 * submitted unscored (vq_skip_next), as the filter's live=1 does. And
 * --realtime FPS: frames taken no faster than FPS (a file read as a live
 * source). docs/LIVE.md. */
#ifndef VQHIP_TOOLS_CLI_LIVE_H
#define VQHIP_TOOLS_CLI_LIVE_H

#include <signal.h>
#include <stdio.h>

#include "vqhip.h"

/* Frames skipped and not yet received: at most the frames in flight. */
#define CLI_LIVE_RING 128

typedef struct CliLive {
    int on;                 /* --live */
    double pace_fps;        /* --realtime FPS; 0: as fast as they come */
    double t0;              /* when pair 0 was taken (monotonic seconds) */
    unsigned skipped;       /* pairs submitted unscored */
    unsigned ring[CLI_LIVE_RING]; /* indices skipped, not yet received */
    unsigned head, tail;
} CliLive;

/* --live (arg NULL) or --realtime FPS: 0, or a message and -1. */
int cli_live_option(CliLive *lv, const char *name, const char *arg);
/* The readers' buffers: in live mode enough for the run's depth in
 * flight, its lag and the pairs being read, so the readers never wait for
 * the scoring while it has fewer than depth frames; else n_buf. */
unsigned cli_live_buffers(const CliLive *lv, VqContext *ctx, unsigned n_buf,
                          unsigned max);
/* Before pair n is taken: --realtime waits until its time (t0 + n / FPS;
 * a signal setting *cancel ends the wait early). */
void cli_live_pace(CliLive *lv, unsigned n, volatile sig_atomic_t *cancel);
/* Before pair n is submitted, the frames done received: --live skips it
 * when depth frames are in flight. 0 or a negative VQ_* code. */
int cli_live_skip(CliLive *lv, VqContext *ctx, unsigned n);
/* On receiving frame `index` (in order): 1 when it was skipped. */
int cli_live_was_skipped(CliLive *lv, unsigned index);
/* The summary's line: "live: S of N frames scored (coverage P%)". */
void cli_live_summary(const CliLive *lv, VqContext *ctx, FILE *out);

#endif
