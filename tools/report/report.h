/*
 * What the page shows: the logs with everything computed from them. Built by
 * report_main.c, written by report_html.c.
 */
#ifndef VQHIP_REPORT_H
#define VQHIP_REPORT_H

#include <stdio.h>

#include "report_log.h"
#include "report_stats.h"

typedef struct ReportInput {
    ReportLog log;
    const char *label;
    const char *dis_path;    /* --dis, or NULL */
    const char *heatmap_dir; /* --cambi-heatmaps, or NULL */
    double kbps;             /* NAN: unknown */
    const char *kbps_source; /* "--bitrate" or "container" */
    ReportStats *stats;      /* one per series of log */
    int primary;             /* series index, or -1 */
    size_t n_worst;
    size_t *worst;           /* frame entry indices, worst first */
    char **ref_img, **dis_img, **heat_img; /* per worst frame, or NULL */
    double heat_top;
    char note[512];
} ReportInput;

typedef struct ReportLadder {
    const char *name;
    size_t n;
    size_t *inputs; /* indices into Report.in */
} ReportLadder;

typedef struct ReportBd {
    const char *a, *b;
    int ok;
    double percent, lo, hi;
    char err[256];
} ReportBd;

typedef struct Report {
    const char *title;
    ReportInput *in;
    size_t n_in;
    const char *primary;
    int high_is_worse;
    double fps;             /* NAN: unknown */
    const char *fps_source;
    const char *ref_path;
    unsigned thumb_width;
    const char **outputs;   /* every output name, primary first */
    size_t n_outputs;
    ReportLadder *ladders;
    size_t n_ladders;
    ReportBd *bd;
    size_t n_bd;
} Report;

/* Returns 0, or -1 when writing failed. */
int report_write_html(const Report *r, FILE *f);

/* Text helpers shared by the page's writers. */
void report_put_text(FILE *f, const char *s);      /* HTML-escaped */
void report_put_json_str(FILE *f, const char *s);  /* quoted, safe in <script> */
void report_put_num(FILE *f, double v);            /* as shown in tables */
void report_put_json_num(FILE *f, double v);       /* %.17g or null */
void report_format_time(double seconds, char *out, size_t outlen);
const char *report_colour(size_t i);
const char *report_unit(const char *output);       /* e.g. "dB", "score" */

#endif
