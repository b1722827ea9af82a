/* The page's sections, shared between report_html.c and report_html_more.c. */
#ifndef VQHIP_REPORT_HTML_H
#define VQHIP_REPORT_HTML_H

#include "report.h"

void report_html_worst(const Report *r, FILE *f);
void report_html_windows(const Report *r, FILE *f);
void report_html_ladder(const Report *r, FILE *f);
void report_html_data(const Report *r, FILE *f);

/* A legend of the logs, each in its curve's colour. */
void report_html_legend(const Report *r, FILE *f);

/* The value of column `col` in row `row` as a number, or NAN. */
double report_table_number(const ReportTable *t, size_t row, const char *col);

#endif
