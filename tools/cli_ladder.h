/* The CLI's ladder: several distorted videos (-d, more than one) scored
 * against one reference in one pass (docs/LADDER.md). */
#ifndef VQHIP_TOOLS_CLI_LADDER_H
#define VQHIP_TOOLS_CLI_LADDER_H

#include "cli_align.h"
#include "cli_stats.h"
#include "vqhip.h"

/* What main() parsed, for a ladder run. */
typedef struct CliLadderArgs {
    const char *ref_path;
    const char *const *dis_paths;
    unsigned n;                   /* renditions, 2..VQ_LADDER_MAX */
    const char *log_path;         /* holds %d and/or %s; NULL: no logs */
    VqLogFmt log_fmt;
    unsigned precision;
    const char *const *features, *const *models;
    unsigned n_features, n_models;
    int quiet, no_prediction;
    VqPixFmt fmt;
    unsigned bpc, w, h, frame_cnt;
    VqConfig cfg;
    /* --pool is taken from st; the other options of st, align, verify_log,
     * zero_copy and live are refused (not yet with several renditions) */
    const CliStats *st;
    const CliAlign *align;
    const char *verify_log;
    int zero_copy;
    int live;                     /* --live or --realtime given */
} CliLadderArgs;

/* A rendition's label: its file's base name without the extension. */
void cli_ladder_label(const char *path, char *out, size_t size);

/* Checks the options and runs the ladder; returns the exit status
 * (docs/CLI.md). */
int cli_ladder_run(const CliLadderArgs *a);

#endif
