/*
 * One libvmaf-layout log in memory: per-frame values of each output, in the
 * log's order, and the optional "windows" / "events" arrays of vqhip's JSON.
 */
#ifndef VQHIP_REPORT_LOG_H
#define VQHIP_REPORT_LOG_H

#include <stddef.h>

typedef struct ReportSeries {
    char *name;
    double *values; /* one per frame entry; NAN where the frame lacks it */
} ReportSeries;

/* A generic table (windows, events): column names and cells as text. */
typedef struct ReportTable {
    size_t n_cols, n_rows;
    char **cols;
    char **cells; /* n_rows * n_cols; NULL: empty cell */
} ReportTable;

typedef struct ReportLog {
    char *path;
    const char *format; /* "json", "xml", "csv" */
    char *version;      /* NULL if absent */
    double scoring_fps; /* the log's "fps": scoring speed, NAN if absent */
    size_t n_frames, cap_frames;
    unsigned *frame_num;
    size_t n_series, cap_series;
    ReportSeries *series;
    size_t hint; /* next series expected, to find names without a search */
    ReportTable windows, events;
    const char *json_start; /* while reading: for byte offsets in messages */
} ReportLog;

/* Reads the log at `path`. Returns 0, or -1 with a message in err. */
int report_log_load(const char *path, ReportLog *log, char *err, size_t errlen);
void report_log_free(ReportLog *log);

/* The series named `name`, or -1. */
int report_log_find(const ReportLog *log, const char *name);

/* For the format readers: a new frame entry (its index, or -1 when out of
 * memory) and a value of the last one. */
long report_log_add_frame(ReportLog *log, unsigned frame_num);
int report_log_set(ReportLog *log, const char *name, size_t name_len, double v);

int report_table_add_row(ReportTable *t);
int report_table_set(ReportTable *t, const char *col, const char *text);
void report_table_free(ReportTable *t);

/* Format readers (report_log_json.c, report_log_text.c). `text` is the whole
 * file, NUL-terminated. */
int report_log_parse_json(ReportLog *log, const char *text, size_t len,
                          char *err, size_t errlen);
int report_log_parse_xml(ReportLog *log, const char *text, char *err,
                         size_t errlen);
int report_log_parse_csv(ReportLog *log, const char *text, char *err,
                         size_t errlen);

#endif
