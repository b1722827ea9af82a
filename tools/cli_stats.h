/* The CLI's windows and pooled statistics (vq_use_windows, vq_pooled_stat):
 * options, the window lines and the summary. */
#ifndef VQHIP_TOOLS_CLI_STATS_H
#define VQHIP_TOOLS_CLI_STATS_H

#include <stdio.h>

#include "stats_sink.h"
#include "vqhip.h"

#define CLI_MAX_ALERTS 32

typedef struct CliStats {
    VqWindowConfig wc;
    int windows;            /* --window given */
    const char *pools;      /* --pool: the summary's and the log's pools */
    unsigned fps_num, fps_den; /* --fps */
    const char *prom_file;  /* --prom-file: vq_set_prometheus_file */
    const char *prom_labels; /* --prom-labels */
    const char *alerts[CLI_MAX_ALERTS]; /* --alert, each one or more rules */
    unsigned n_alerts;
    const char *stats_url;  /* --stats-url */
    int stats_frames;       /* --stats-frames */
    StatsSink sink;
} CliStats;

/* "50": windows of 50 frames; "2s", "0.5s": of seconds. 0 or -1 (message
 * printed). */
int cli_parse_window(const char *arg, VqWindowConfig *wc);
/* "N" or "N/D" frames a second. */
int cli_parse_fps(const char *arg, unsigned *num, unsigned *den);
/* "max" (17) or 0..17. */
int cli_parse_precision(const char *arg, unsigned *digits);
/* Applies the options to ctx (before the first pair). */
int cli_stats_setup(VqContext *ctx, CliStats *st);
/* Opens --stats-url: 0, or an exit status (message printed); standard
 * output only when the log does not go there. */
int cli_stats_open(CliStats *st, int log_on_stdout);
/* Prints the alert events waiting, to stderr. */
void cli_print_alerts(VqContext *ctx);
/* Prints the windows that closed ("window ..." lines). */
void cli_print_windows(VqContext *ctx, FILE *f);
/* The summary's line of output `name`: "name: MEAN", or with --pool
 * "name: mean=X perc5=Y ..."; 0, or -1 when a value is missing. */
int cli_print_pooled(VqContext *ctx, FILE *f, const char *name,
                     const char *pools);

#endif
