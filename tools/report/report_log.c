/*
 * Loading a libvmaf-layout log: reads the file, picks the reader by its first
 * bytes (the layouts are told apart by content, not by the file name), and
 * holds the values frame entry by frame entry.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report_log.h"

static char *read_file(const char *path, size_t *len, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
        return NULL;
    }
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    while (buf) {
        n += fread(buf + n, 1, cap - n - 1, f);
        if (n < cap - 1)
            break;
        char *grown = realloc(buf, cap * 2);
        if (!grown) {
            free(buf);
            buf = NULL;
            break;
        }
        buf = grown;
        cap *= 2;
    }
    int bad = ferror(f);
    fclose(f);
    if (!buf || bad) {
        snprintf(err, errlen, "%s: cannot read%s", path,
                 buf ? "" : " (out of memory)");
        free(buf);
        return NULL;
    }
    buf[n] = '\0';
    *len = n;
    return buf;
}

int report_log_load(const char *path, ReportLog *log, char *err, size_t errlen)
{
    memset(log, 0, sizeof(*log));
    log->scoring_fps = NAN;
    log->path = strdup(path);
    size_t len = 0;
    char *text = log->path ? read_file(path, &len, err, errlen) : NULL;
    if (!text)
        return -1;
    const char *p = text;
    if (len >= 3 && !memcmp(p, "\xef\xbb\xbf", 3))
        p += 3;
    while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')
        p++;
    char why[400] = "";
    int rc;
    if (*p == '{') {
        log->format = "json";
        rc = report_log_parse_json(log, p, len - (size_t)(p - text), why,
                                   sizeof(why));
    } else if (*p == '<') {
        log->format = "xml";
        rc = report_log_parse_xml(log, p, why, sizeof(why));
    } else if (!strncmp(p, "Frame,", 6)) {
        log->format = "csv";
        rc = report_log_parse_csv(log, p, why, sizeof(why));
    } else {
        rc = -1;
        snprintf(why, sizeof(why), "not a libvmaf log (expected JSON, XML or "
                 "CSV as libvmaf writes them)");
    }
    free(text);
    if (!rc && !log->n_frames) {
        rc = -1;
        snprintf(why, sizeof(why), "the log has no frames");
    }
    if (!rc && !log->n_series) {
        rc = -1;
        snprintf(why, sizeof(why), "the log's frames have no metrics");
    }
    if (rc)
        snprintf(err, errlen, "%s: %s", path, why);
    return rc;
}

int report_log_find(const ReportLog *log, const char *name)
{
    for (size_t i = 0; i < log->n_series; i++)
        if (!strcmp(log->series[i].name, name))
            return (int)i;
    return -1;
}

static double *nan_array(size_t n)
{
    double *a = malloc((n ? n : 1) * sizeof(*a));
    for (size_t i = 0; a && i < n; i++)
        a[i] = NAN;
    return a;
}

long report_log_add_frame(ReportLog *log, unsigned frame_num)
{
    if (log->n_frames == log->cap_frames) {
        size_t cap = log->cap_frames ? log->cap_frames * 2 : 256;
        unsigned *fn = realloc(log->frame_num, cap * sizeof(*fn));
        if (!fn)
            return -1;
        log->frame_num = fn;
        for (size_t s = 0; s < log->n_series; s++) {
            double *v = realloc(log->series[s].values, cap * sizeof(*v));
            if (!v)
                return -1;
            log->series[s].values = v;
        }
        log->cap_frames = cap;
    }
    size_t i = log->n_frames++;
    log->frame_num[i] = frame_num;
    for (size_t s = 0; s < log->n_series; s++)
        log->series[s].values[i] = NAN;
    log->hint = 0;
    return (long)i;
}

static int name_is(const char *a, const char *b, size_t blen)
{
    return !strncmp(a, b, blen) && a[blen] == '\0';
}

int report_log_set(ReportLog *log, const char *name, size_t name_len, double v)
{
    if (!log->n_frames)
        return -1;
    size_t s = log->hint;
    if (s >= log->n_series || !name_is(log->series[s].name, name, name_len)) {
        for (s = 0; s < log->n_series; s++)
            if (name_is(log->series[s].name, name, name_len))
                break;
    }
    if (s == log->n_series) {
        if (log->n_series == log->cap_series) {
            size_t cap = log->cap_series ? log->cap_series * 2 : 16;
            ReportSeries *grown = realloc(log->series, cap * sizeof(*grown));
            if (!grown)
                return -1;
            log->series = grown;
            log->cap_series = cap;
        }
        ReportSeries *ns = &log->series[s];
        ns->name = strndup(name, name_len);
        ns->values = nan_array(log->cap_frames);
        if (!ns->name || !ns->values) {
            free(ns->name);
            free(ns->values);
            return -1;
        }
        log->n_series++;
    }
    log->series[s].values[log->n_frames - 1] = v;
    log->hint = s + 1;
    return 0;
}

int report_table_add_row(ReportTable *t)
{
    char **cells = realloc(t->cells, (t->n_rows + 1) * (t->n_cols ? t->n_cols : 1)
                           * sizeof(*cells));
    if (!cells)
        return -1;
    t->cells = cells;
    for (size_t c = 0; c < t->n_cols; c++)
        cells[t->n_rows * t->n_cols + c] = NULL;
    t->n_rows++;
    return 0;
}

/* Sets a cell of the last row; a new column grows every row. */
int report_table_set(ReportTable *t, const char *col, const char *text)
{
    size_t c = 0;
    while (c < t->n_cols && strcmp(t->cols[c], col))
        c++;
    if (c == t->n_cols) {
        size_t nc = t->n_cols + 1;
        char **cols = realloc(t->cols, nc * sizeof(*cols));
        if (!cols)
            return -1;
        t->cols = cols;
        char **cells = malloc((t->n_rows ? t->n_rows : 1) * nc * sizeof(*cells));
        if (!cells || !(cols[t->n_cols] = strdup(col))) {
            free(cells);
            return -1;
        }
        for (size_t r = 0; r < t->n_rows; r++) {
            for (size_t k = 0; k < t->n_cols; k++)
                cells[r * nc + k] = t->cells[r * t->n_cols + k];
            cells[r * nc + t->n_cols] = NULL;
        }
        free(t->cells);
        t->cells = cells;
        t->n_cols = nc;
    }
    char **cell = &t->cells[(t->n_rows - 1) * t->n_cols + c];
    free(*cell);
    *cell = strdup(text);
    return *cell ? 0 : -1;
}

void report_table_free(ReportTable *t)
{
    for (size_t i = 0; i < t->n_rows * t->n_cols; i++)
        free(t->cells[i]);
    for (size_t c = 0; c < t->n_cols; c++)
        free(t->cols[c]);
    free(t->cells);
    free(t->cols);
    memset(t, 0, sizeof(*t));
}

void report_log_free(ReportLog *log)
{
    for (size_t s = 0; s < log->n_series; s++) {
        free(log->series[s].name);
        free(log->series[s].values);
    }
    free(log->series);
    free(log->frame_num);
    free(log->path);
    free(log->version);
    report_table_free(&log->windows);
    report_table_free(&log->events);
    memset(log, 0, sizeof(*log));
}
