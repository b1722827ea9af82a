/* --realign: drops and repeats mid-stream (docs/ALIGNMENT.md#drops-and-
 * repeats). The pairs are taken from the two readers through a read-ahead
 * of vq_realign_ahead frames of each input; the library's detector decides
 * for each pair whether to score it or to leave one input's frame out. */
#ifndef VQHIP_TOOLS_CLI_REALIGN_H
#define VQHIP_TOOLS_CLI_REALIGN_H

#include <stdio.h>

#include "frame_reader.h"
#include "vqhip.h"

#define CLI_REALIGN_AHEAD_MAX 32

typedef struct CliRealign {
    int on;                      /* --realign */
    unsigned window;             /* --realign_window (0: the library's) */
    VqRealign *det;
    FrameReader *rd[2];          /* [0] reference, [1] distorted */
    VqPicture pic[2][CLI_REALIGN_AHEAD_MAX];
    unsigned seq[2][CLI_REALIGN_AHEAD_MAX];
    unsigned qn[2];              /* frames read ahead, not yet paired */
    unsigned taken[2];           /* frames taken from each reader */
    int end[2];                  /* the reader's last answer, once <= 0 */
    char err[2][256];
    unsigned ahead;
    unsigned events;
    unsigned max_pairs;          /* --frame_cnt (0: all) */
    unsigned fps_num, fps_den;   /* for the events' times (0: unknown) */
    VqContext *ctx;              /* the events for its log and stream */
} CliRealign;

/* --realign (arg NULL), --realign_window N: 0, or a message and -1. */
int cli_realign_option(CliRealign *p, const char *opt, const char *arg);
/* Opens the detector (when on). Frames of each input held by the read-ahead (0 when off). */
unsigned cli_realign_held(CliRealign *p);
/* The next pair: *a and *b as frame_reader_next answers for each input
 * (the reference's error in err_r, the distorted video's in err_d), and
 * each frame's reader seq for frame_reader_give_back. When off: one
 * frame of each reader, seq = n. */
void cli_realign_next(CliRealign *p, FrameReader *rr, FrameReader *rd,
                      unsigned n, VqPicture *rp, VqPicture *dp,
                      unsigned seq[2], int *a, int *b, char *err_r,
                      char *err_d, size_t err_size);
/* Gives the frames read ahead back and closes the detector (before
 * frame_reader_stop); says how many events there were. */
void cli_realign_finish(CliRealign *p);

#endif
