/*
 * vqhip plan | run-item | merge: a catalog scored as numbered work items
 * (docs/SCALE.md). Shared here: the items file, an item's options, the
 * part files, the exit codes batch engines read.
 */
#ifndef VQHIP_TOOLS_CATALOG_H
#define VQHIP_TOOLS_CATALOG_H

#include <stdio.h>

#include "vqhip.h"
#include "yuv_input.h"

/* sysexits.h's codes, which engines' retry rules name */
enum {
    CAT_EXIT_OK = 0,
    CAT_EXIT_USAGE = 64,    /* EX_USAGE: bad arguments, no such item */
    CAT_EXIT_DATAERR = 65,  /* EX_DATAERR: permanent (bad input, parts
                               inconsistent or duplicated) */
    CAT_EXIT_SOFTWARE = 70, /* EX_SOFTWARE: scoring failed */
    CAT_EXIT_TEMPFAIL = 75, /* EX_TEMPFAIL: try again later (input not yet
                               there, GPU busy, parts still missing) */
};

#define CAT_MAX_SPECS 32
#define CAT_FIELD 1024

/* An item's options column: a subset of vqhip's options. */
typedef struct CatOpts {
    unsigned w, h, bpc, subsample, precision;
    VqPixFmt fmt;
    VqBackend backend;
    VqLogFmt log_fmt;
    int no_prediction;
    const char *hwdec;     /* --hwdec (default none), checked */
    const char *model[CAT_MAX_SPECS], *feature[CAT_MAX_SPECS];
    unsigned n_model, n_feature;
    char buf[CAT_FIELD];   /* the tokens the pointers point into */
} CatOpts;

/* One line of DIR/items.tsv. */
typedef struct CatItem {
    unsigned index, first, end, dec_first, dec_end, frames;
    char title[256], ref[CAT_FIELD], dis[CAT_FIELD], log[CAT_FIELD];
    char opts[CAT_FIELD];
} CatItem;

int cat_opts_parse(const char *text, CatOpts *o, char *err, size_t errsz);
/* A context with the options' models and features (vqhip's defaults:
 * vmaf_v0.6.1 when none is given), its own backend `backend`, its
 * n_subsample `subsample`. */
int cat_open(const CatOpts *o, VqBackend backend, unsigned subsample,
             VqContext **ctx, char *err, size_t errsz);
const char *cat_backend_name(VqBackend b);

/* items.tsv: every item (malloc'ed *items of *n), or the one of `index`. */
int cat_items_read(const char *dir, CatItem **items, unsigned *n, char *err,
                   size_t errsz);

/* Raw / Y4M inputs: the frames from the reader's position to the end,
 * counted without reading them (the position is kept); skipping k.
 * FFmpeg inputs (in->src): counted from the start, skipped to frame k
 * from the start (tools/av_input.h). */
int cat_count_frames(YuvInput *in, const char *path, unsigned *n, char *err,
                     size_t errsz);
int cat_skip_frames(YuvInput *in, unsigned k, char *err, size_t errsz);

/* The index an engine gives a task (docs/SCALE.md: their precedence). */
int cat_env_index(unsigned *index, const char **from);

/* Splits a line at tabs in place (the newline dropped): up to max fields. */
unsigned cat_split(char *line, char **field, unsigned max);

/* vqhip plan's engine options: which submit files, and their settings. */
typedef struct CatEngines {
    int slurm, parallel, k8s, aws, gpu;
    const char *gres, *partition, *time;   /* Slurm */
    const char *image, *claim, *gpu_resource, *queue;   /* Kubernetes, AWS */
    const char *vqhip;   /* the vqhip the Slurm and parallel files run */
    unsigned throttle, parallelism;
} CatEngines;

/* Writes the submit files of DIR's plan (its items.tsv) for `e`. */
int cat_engines_write(const char *dir, const CatEngines *e, char *err,
                      size_t errsz);

int catalog_plan_main(int argc, char **argv);
int catalog_item_main(int argc, char **argv);
int catalog_merge_main(int argc, char **argv);

#endif
