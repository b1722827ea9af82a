/*
 * The page's charts as inline SVG: per-frame curves, histograms and the
 * rate-quality plot. Each chart scales to the page's width (viewBox), has
 * labelled axes with units, and carries data- attributes for tests.
 */
#ifndef VQHIP_REPORT_SVG_H
#define VQHIP_REPORT_SVG_H

#include <stdio.h>

typedef struct ReportCurve {
    const char *label, *colour;
    const unsigned *frames; /* ascending */
    const double *values;   /* NAN: no value */
    size_t n;
} ReportCurve;

/* A marked frame (a worst frame) or frame range (a window, an event). */
typedef struct ReportMark {
    double first, last, value; /* value NAN: a shaded range */
    int boundary;              /* a window's start: a dashed line */
    const char *colour;
    const char *title;
} ReportMark;

/* Per-frame curves of one output, one polyline per log. Logs longer than the
 * plot is wide are drawn as each pixel column's minimum and maximum. */
void report_svg_curves(FILE *f, const char *output, const char *ylabel,
                       const ReportCurve *c, size_t nc, double fps,
                       const ReportMark *marks, size_t nm);

/* Histograms of one output on common bins, as shares of each log's frames. */
void report_svg_histogram(FILE *f, const char *output, const char *xlabel,
                          const ReportCurve *c, size_t nc);

typedef struct ReportRQSeries {
    const char *name, *colour;
    size_t n;
    const double *kbps, *quality; /* sorted by kbps */
    const char *const *labels;
} ReportRQSeries;

/* Quality over bitrate (log scale), one line per ladder. */
void report_svg_rate_quality(FILE *f, const char *ylabel,
                             const ReportRQSeries *s, size_t ns);

#endif
