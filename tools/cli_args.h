/* The vqhip CLI's usage, argument checks and exit status (docs/CLI.md). */
#ifndef VQHIP_TOOLS_CLI_ARGS_H
#define VQHIP_TOOLS_CLI_ARGS_H

#include <stdio.h>

#include "vqhip.h"

enum {
    CLI_EXIT_OK = 0,
    CLI_EXIT_ERROR = 1,       /* scoring failed, or the log was not written */
    CLI_EXIT_USAGE = 2,       /* a bad option or argument */
    CLI_EXIT_INPUT = 3,       /* an input missing, unreadable, malformed, empty */
    CLI_EXIT_UNSUPPORTED = 4, /* an unknown feature or model, an unsupported format */
    CLI_EXIT_GPU = 5,         /* the GPU failed and --strict forbade the CPU */
    CLI_EXIT_MISMATCH = 6,    /* --verify-log: a value differs from the log's */
    /* 128 + N: stopped by signal N (SIGINT: 130) after writing the log */
};

void cli_usage(FILE *f);
/* A whole decimal number in [min, max], or a message and -1. */
int cli_parse_uint(const char *opt, const char *arg, unsigned long min,
                   unsigned long max, unsigned *out);
/* The log can be written and is not one of the inputs (checked before the
 * run, not after it). 0, or a message and -1. */
int cli_check_log_path(const char *path, const char *ref, const char *dis);
/* Removes an earlier run's log at path when this run failed before writing
 * one (vq_discard_log), saying so. */
void cli_discard_log(const char *path);
/* Whether the log goes to standard output ("-" or the same file). */
int cli_log_on_stdout(const char *path);
/* The exit status for a libvqhip error code. */
int cli_exit_code(int vq_err);

/* vq_use_feature of libvmaf's tool's NAME=key=value:key=value as well as
 * the library's name=NAME:key=value. */
int cli_use_feature(VqContext *ctx, const char *spec);

#endif
