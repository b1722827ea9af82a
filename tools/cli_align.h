/* The CLI's frame alignment: --offset, --sync (docs/ALIGNMENT.md). */
#ifndef VQHIP_TOOLS_CLI_ALIGN_H
#define VQHIP_TOOLS_CLI_ALIGN_H

#include <stdio.h>

#include "cli_realign.h"
#include "yuv_input.h"

enum { CLI_SYNC_OFF = 0, CLI_SYNC_AUTO, CLI_SYNC_ONLY };

typedef struct CliAlign {
    int offset;         /* > 0: skip the distorted video's first frames;
                           < 0: the reference's */
    int offset_given;
    int sync;           /* CLI_SYNC_* */
    unsigned range, frames; /* 0: the library's defaults (30, 30) */
    unsigned bench;     /* --sync_bench N: time N searches */
    VqBackend backend;  /* the run's --backend and --device: where the
                           search reduces the luma */
    int device;
    CliRealign re;      /* --realign, --realign_window */
    int searched;       /* --sync searched: res is its result, for the
                           log (vq_note_sync) */
    VqSyncResult res;
} CliAlign;

/* --offset, --sync, --sync_range, --sync_frames, --sync_bench,
 * --realign, --realign_window by name:
 * 0, or a message and -1. */
int cli_align_option(CliAlign *a, const char *opt, const char *arg);
/* Searches the offset (--sync) and skips the first frames of one input.
 * 0: go on and score; 1: done (--sync only, the offset printed on out);
 * else an exit status, said on stderr. */
int cli_align_inputs(CliAlign *a, YuvInput *ref, YuvInput *dis,
                     FILE *out);

#endif
