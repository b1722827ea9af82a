/* vqhip_report's command line. */
#ifndef VQHIP_REPORT_OPTIONS_H
#define VQHIP_REPORT_OPTIONS_H

#include <stddef.h>

enum { REPORT_EXIT_OK = 0, REPORT_EXIT_INPUT = 1, REPORT_EXIT_USAGE = 2 };

typedef struct ReportArgs {
    const char **v;
    size_t n;
} ReportArgs;

typedef struct ReportOptions {
    const char *output, *title, *primary, *ref, *worst_is;
    unsigned worst, thumb_width;
    double fps; /* NAN: not given */
    ReportArgs logs, labels, dis, heatmaps, bitrates, ladders, bd;
    int done;   /* --help or --version: nothing more to do */
} ReportOptions;

/* Returns REPORT_EXIT_OK, or REPORT_EXIT_USAGE after a message on stderr. */
int report_options_parse(int argc, char **argv, ReportOptions *o);
void report_options_free(ReportOptions *o);

#endif
