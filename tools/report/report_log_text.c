/*
 * libvmaf's XML and CSV logs. Both are read by hand: the layouts are fixed
 * (libvmaf's output.c), and a general XML library would add a dependency for
 * one element type.
 *   XML: <VMAF version=..> <fyi fps=".."/> <frames> <frame frameNum="0"
 *        name="value" .../> ... </frames> ...
 *   CSV: "Frame,name,...," then one "N,value,...," line per frame.
 */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report_log.h"

static int is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* The value of attribute `name` inside the tag starting at `tag`, copied to
 * out; 0 if found. */
static int tag_attr(const char *tag, const char *name, char *out, size_t outlen)
{
    const char *end = strchr(tag, '>');
    size_t nlen = strlen(name);
    for (const char *p = tag; p && (!end || p < end); p = strstr(p + 1, name)) {
        if (p > tag && is_space(p[-1]) && !strncmp(p, name, nlen) &&
            p[nlen] == '=' && p[nlen + 1] == '"') {
            const char *v = p + nlen + 2, *q = strchr(v, '"');
            if (!q || (size_t)(q - v) >= outlen)
                return -1;
            memcpy(out, v, (size_t)(q - v));
            out[q - v] = '\0';
            return 0;
        }
    }
    return -1;
}

static int parse_frame_num(const char *s, size_t len, unsigned *out)
{
    char buf[32];
    if (!len || len >= sizeof(buf))
        return -1;
    memcpy(buf, s, len);
    buf[len] = '\0';
    char *end;
    unsigned long v = strtoul(buf, &end, 10);
    if (*end || buf[0] == '-' || v > UINT_MAX)
        return -1;
    *out = (unsigned)v;
    return 0;
}

/* One <frame .../> element: its attributes up to "/>" or ">". */
static int xml_frame(ReportLog *log, const char *p, char *err, size_t errlen)
{
    const char *fn = strstr(p, "frameNum=\"");
    const char *close = strchr(p, '>');
    unsigned num;
    if (!close) {
        snprintf(err, errlen, "a <frame> element does not end (a cut file?)");
        return -1;
    }
    if (!fn || fn > close ||
        parse_frame_num(fn + 10, strcspn(fn + 10, "\""), &num)) {
        snprintf(err, errlen, "not a libvmaf log: a <frame> without frameNum");
        return -1;
    }
    if (report_log_add_frame(log, num) < 0)
        goto oom;
    while (p < close) {
        while (p < close && is_space(*p))
            p++;
        const char *name = p;
        while (p < close && *p != '=' && !is_space(*p) && *p != '/')
            p++;
        if (p >= close || *p != '=' || p[1] != '"') {
            p++;
            continue;
        }
        size_t nlen = (size_t)(p - name);
        const char *val = p + 2, *q = strchr(val, '"');
        if (!q || q > close)
            break;
        p = q + 1;
        if (nlen == 8 && !strncmp(name, "frameNum", 8))
            continue;
        char *end;
        double v = strtod(val, &end);
        if (end == val)
            continue;
        if (report_log_set(log, name, nlen, v))
            goto oom;
    }
    return 0;
oom:
    snprintf(err, errlen, "out of memory");
    return -1;
}

int report_log_parse_xml(ReportLog *log, const char *text, char *err,
                         size_t errlen)
{
    const char *root = strstr(text, "<VMAF");
    if (!root || (root[5] != ' ' && root[5] != '>')) {
        snprintf(err, errlen, "not a libvmaf log: no <VMAF> element");
        return -1;
    }
    char buf[128];
    if (!tag_attr(root, "version", buf, sizeof(buf)))
        log->version = strdup(buf);
    const char *fyi = strstr(root, "<fyi ");
    if (fyi && !tag_attr(fyi, "fps", buf, sizeof(buf)))
        log->scoring_fps = strtod(buf, NULL);
    const char *frames = strstr(root, "<frames>");
    if (!frames) {
        snprintf(err, errlen, "not a libvmaf log: no <frames> element");
        return -1;
    }
    const char *end = strstr(frames, "</frames>");
    if (!end) {
        snprintf(err, errlen, "the <frames> element does not end (a cut file?)");
        return -1;
    }
    for (const char *p = strstr(frames, "<frame"); p && p < end;
         p = strstr(p + 6, "<frame")) {
        if (!is_space(p[6]))
            continue;
        if (xml_frame(log, p + 6, err, errlen))
            return -1;
    }
    return 0;
}

int report_log_parse_csv(ReportLog *log, const char *text, char *err,
                         size_t errlen)
{
    size_t n_cols = 0, cap = 0;
    char **cols = NULL;
    int rc = -1;
    const char *p = text + strcspn(text, ",\n") + 1; /* past "Frame," */
    while (*p && *p != '\n' && *p != '\r') {
        size_t len = strcspn(p, ",\r\n");
        if (n_cols == cap) {
            cap = cap ? cap * 2 : 32;
            char **grown = realloc(cols, cap * sizeof(*grown));
            if (!grown)
                goto oom;
            cols = grown;
        }
        if (!(cols[n_cols] = strndup(p, len)))
            goto oom;
        n_cols++;
        p += len;
        if (*p == ',')
            p++;
    }
    size_t len_all = strlen(text);
    if (len_all && text[len_all - 1] != '\n') {
        /* libvmaf ends every line: a last line without its end was cut */
        snprintf(err, errlen, "the last line does not end (a cut file?)");
        goto out;
    }
    for (size_t line = 2; *p; line++) {
        while (*p == '\r' || *p == '\n')
            p++;
        if (!*p)
            break;
        size_t len = strcspn(p, ",\r\n");
        unsigned num;
        if (parse_frame_num(p, len, &num)) {
            snprintf(err, errlen, "not a libvmaf log: CSV line %zu does not "
                     "start with a frame number", line);
            goto out;
        }
        if (report_log_add_frame(log, num) < 0)
            goto oom;
        p += len;
        for (size_t c = 0; *p == ','; c++) {
            p++;
            len = strcspn(p, ",\r\n");
            char *end;
            double v = strtod(p, &end);
            if (c < n_cols && len && end == p + len &&
                report_log_set(log, cols[c], strlen(cols[c]), v))
                goto oom;
            p += len;
        }
    }
    rc = 0;
    goto out;
oom:
    snprintf(err, errlen, "out of memory");
out:
    for (size_t c = 0; c < n_cols; c++)
        free(cols[c]);
    free(cols);
    return rc;
}
