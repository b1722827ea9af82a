/* The vqhip CLI's command line (docs/CLI.md): every option of a pair or
 * ladder run, parsed into one struct. */
#ifndef VQHIP_TOOLS_CLI_OPTIONS_H
#define VQHIP_TOOLS_CLI_OPTIONS_H

#include "cli_align.h"
#include "cli_live.h"
#include "cli_stats.h"
#include "verify_log.h"
#include "vqhip.h"

#define CLI_MAX_SPECS VERIFY_MAX_SPECS

typedef struct CliArgs {
    const char *ref_path, *dis_path, *log_path; /* dis_path: the last -d */
    const char *dis_paths[VQ_LADDER_MAX];
    unsigned n_dis;
    const char *verify_log;                     /* --verify-log */
    int backend_given;
    const char *features[CLI_MAX_SPECS], *models[CLI_MAX_SPECS];
    unsigned n_features, n_models, w, h, bpc, frame_cnt, precision;
    int quiet, no_prediction, zero_copy;
    VqPixFmt fmt;
    VqLogFmt log_fmt;
    VqConfig cfg;
    CliAlign align;
    CliStats st;
    CliLive lv;
} CliArgs;

/* Parses argv (the defaults first). -1: a run to do; otherwise the exit
 * status to end with (0 after --help, --list or --version; CLI_EXIT_USAGE
 * for a bad option, with its message printed). */
int cli_parse_args(CliArgs *a, int argc, char **argv);

#endif
