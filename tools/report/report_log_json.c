/*
 * libvmaf's JSON log: {"version", "fps", "frames": [{"frameNum", "metrics":
 * {name: number or null}}], "pooled_metrics", "aggregate_metrics"}; vqhip's
 * adds "vqhip" and may add "windows" and "events" (arrays of objects, shown
 * as they are).
 */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "report_log.h"

static int read_table(ReportTable *t, json_object *arr)
{
    size_t n = json_object_array_length(arr);
    for (size_t i = 0; i < n; i++) {
        json_object *row = json_object_array_get_idx(arr, i);
        if (report_table_add_row(t))
            return -1;
        if (!json_object_is_type(row, json_type_object)) {
            if (report_table_set(t, "value", json_object_to_json_string_ext(
                                     row, JSON_C_TO_STRING_PLAIN)))
                return -1;
            continue;
        }
        json_object_object_foreach(row, key, val) {
            const char *text = json_object_is_type(val, json_type_string)
                ? json_object_get_string(val)
                : json_object_to_json_string_ext(val, JSON_C_TO_STRING_PLAIN);
            if (report_table_set(t, key, text))
                return -1;
        }
    }
    return 0;
}

/* vqhip's windows section ({"frames" or "seconds", "list": [...]}, written
 * with vq_use_windows): a row a window, its frame range as start_frame and
 * end_frame (what the charts mark), its statistics flattened into
 * OUTPUT.STAT columns. */
static int read_vqhip_windows(ReportTable *t, json_object *obj)
{
    json_object *list;
    if (!json_object_object_get_ex(obj, "list", &list) ||
        !json_object_is_type(list, json_type_array))
        return 0;
    size_t n = json_object_array_length(list);
    for (size_t i = 0; i < n; i++) {
        json_object *w = json_object_array_get_idx(list, i);
        if (!json_object_is_type(w, json_type_object))
            continue;
        if (report_table_add_row(t))
            return -1;
        json_object_object_foreach(w, key, val) {
            const char *name = !strcmp(key, "first_frame") ? "start_frame"
                             : !strcmp(key, "last_frame") ? "end_frame" : key;
            if (!strcmp(key, "metrics") &&
                json_object_is_type(val, json_type_object)) {
                json_object_object_foreach(val, out, stats) {
                    if (!json_object_is_type(stats, json_type_object))
                        continue;
                    json_object_object_foreach(stats, stat, v) {
                        char col[256];
                        snprintf(col, sizeof(col), "%s.%s", out, stat);
                        if (report_table_set(t, col, json_object_to_json_string_ext(
                                                 v, JSON_C_TO_STRING_PLAIN)))
                            return -1;
                    }
                }
                continue;
            }
            if (report_table_set(t, name, json_object_is_type(val, json_type_string)
                                 ? json_object_get_string(val)
                                 : json_object_to_json_string_ext(
                                       val, JSON_C_TO_STRING_PLAIN)))
                return -1;
        }
    }
    return 0;
}

/* json-c would build one tree of the whole log: some 2.5 million objects
 * for a two-hour title, most of the time and memory. The top level is walked
 * here instead, and each frame and each small field is handed to json-c on
 * its own. */
static const char *skip_ws(const char *p, const char *end)
{
    while (p < end && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n'))
        p++;
    return p;
}

/* p at '"': past the closing quote, or NULL. */
static const char *skip_string(const char *p, const char *end)
{
    for (p++; p < end; p++) {
        if (*p == '\\')
            p++;
        else if (*p == '"')
            return p + 1;
    }
    return NULL;
}

/* Past the value at p (brackets matched, strings skipped), or NULL. */
static const char *skip_value(const char *p, const char *end)
{
    if (p >= end)
        return NULL;
    if (*p == '"')
        return skip_string(p, end);
    if (*p != '{' && *p != '[') {
        while (p < end && !strchr(",}] \t\r\n", *p))
            p++;
        return p;
    }
    size_t depth = 0;
    for (; p < end; p++) {
        if (*p == '"') {
            p = skip_string(p, end);
            if (!p)
                return NULL;
            p--;
        } else if (*p == '{' || *p == '[') {
            depth++;
        } else if ((*p == '}' || *p == ']') && !--depth) {
            return p + 1;
        }
    }
    return NULL;
}

/* json-c's value of text[0..len) (len + 1 readable: json-c needs to see
 * where a number ends). */
static json_object *parse_piece(json_tokener *tok, const char *text, size_t len)
{
    json_tokener_reset(tok);
    json_object *o = json_tokener_parse_ex(tok, text, (int)(len + 1));
    if (json_tokener_get_error(tok) != json_tokener_success) {
        json_object_put(o);
        return NULL;
    }
    return o;
}

static int read_frame(ReportLog *log, json_object *fr, size_t i, char *err,
                      size_t errlen)
{
    json_object *num, *metrics;
    if (!json_object_is_type(fr, json_type_object) ||
        !json_object_object_get_ex(fr, "frameNum", &num) ||
        !json_object_is_type(num, json_type_int) ||
        json_object_get_int64(num) < 0 ||
        json_object_get_int64(num) > (int64_t)UINT_MAX ||
        !json_object_object_get_ex(fr, "metrics", &metrics) ||
        !json_object_is_type(metrics, json_type_object)) {
        snprintf(err, errlen, "not a libvmaf log: frames[%zu] lacks "
                 "\"frameNum\" or \"metrics\"", i);
        return -1;
    }
    if (report_log_add_frame(log, (unsigned)json_object_get_int64(num)) < 0)
        goto oom;
    json_object_object_foreach(metrics, key, val) {
        double v;
        if (json_object_is_type(val, json_type_double) ||
            json_object_is_type(val, json_type_int))
            v = json_object_get_double(val);
        else if (json_object_is_type(val, json_type_null))
            v = NAN; /* libvmaf writes non-finite values as null */
        else
            continue;
        if (report_log_set(log, key, strlen(key), v))
            goto oom;
    }
    return 0;
oom:
    snprintf(err, errlen, "out of memory");
    return -1;
}

/* The "frames" array at p: past its end, or NULL with a message. */
static const char *read_frames(ReportLog *log, json_tokener *tok,
                               const char *p, const char *end, char *err,
                               size_t errlen)
{
    if (p >= end || *p != '[') {
        snprintf(err, errlen, "not a libvmaf log: \"frames\" is not an array");
        return NULL;
    }
    p = skip_ws(p + 1, end);
    for (size_t i = 0; p < end && *p != ']'; i++) {
        const char *e = skip_value(p, end);
        json_object *fr = e ? parse_piece(tok, p, (size_t)(e - p)) : NULL;
        if (!fr) {
            snprintf(err, errlen, "not valid JSON: frames[%zu] (byte %zu)", i,
                     (size_t)(p - log->json_start));
            return NULL;
        }
        int rc = read_frame(log, fr, i, err, errlen);
        json_object_put(fr);
        if (rc)
            return NULL;
        p = skip_ws(e, end);
        if (p < end && *p == ',')
            p = skip_ws(p + 1, end);
        else if (p >= end || *p != ']')
            break;
    }
    if (p >= end || *p != ']') {
        snprintf(err, errlen, "not valid JSON: the \"frames\" array does not end");
        return NULL;
    }
    return p + 1;
}

static int key_is(const char *key, size_t klen, const char *name)
{
    return strlen(name) == klen && !strncmp(key, name, klen);
}

static int read_field(ReportLog *log, const char *key, size_t klen,
                      json_object *o)
{
    if (key_is(key, klen, "version") && json_object_is_type(o, json_type_string))
        log->version = strdup(json_object_get_string(o));
    else if (key_is(key, klen, "fps") &&
             (json_object_is_type(o, json_type_double) ||
              json_object_is_type(o, json_type_int)))
        log->scoring_fps = json_object_get_double(o);
    else if (key_is(key, klen, "windows") && json_object_is_type(o, json_type_array))
        return read_table(&log->windows, o);
    else if (key_is(key, klen, "windows") && json_object_is_type(o, json_type_object))
        return read_vqhip_windows(&log->windows, o);
    else if (key_is(key, klen, "events") &&
             json_object_is_type(o, json_type_array))
        return read_table(&log->events, o);
    return 0;
}

int report_log_parse_json(ReportLog *log, const char *text, size_t len,
                          char *err, size_t errlen)
{
    const char *p = text, *end = text + len;
    json_tokener *tok = json_tokener_new();
    if (!tok) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    log->json_start = text;
    int rc = -1, have_frames = 0;
    p = skip_ws(p + 1, end); /* past '{' */
    while (p < end && *p != '}') {
        const char *k = p, *ke = *p == '"' ? skip_string(p, end) : NULL;
        const char *v = ke ? skip_ws(ke, end) : NULL;
        if (!v || v >= end || *v != ':')
            goto bad;
        v = skip_ws(v + 1, end);
        size_t klen = (size_t)(ke - k) - 2;
        const char *ve = key_is(k + 1, klen, "frames")
            ? read_frames(log, tok, v, end, err, errlen) : skip_value(v, end);
        if (!ve && key_is(k + 1, klen, "frames"))
            goto out;
        if (!ve)
            goto bad;
        if (key_is(k + 1, klen, "frames")) {
            have_frames = 1;
        } else if (key_is(k + 1, klen, "version") || key_is(k + 1, klen, "fps") ||
                   key_is(k + 1, klen, "windows") || key_is(k + 1, klen, "events")) {
            json_object *o = parse_piece(tok, v, (size_t)(ve - v));
            if (!o)
                goto bad;
            int r = read_field(log, k + 1, klen, o);
            json_object_put(o);
            if (r) {
                snprintf(err, errlen, "out of memory");
                goto out;
            }
        }
        p = skip_ws(ve, end);
        if (p < end && *p == ',')
            p = skip_ws(p + 1, end);
        else if (p >= end || *p != '}')
            goto bad;
    }
    if (p >= end)
        goto bad;
    if (!have_frames) {
        snprintf(err, errlen, "not a libvmaf log: no \"frames\" array");
        goto out;
    }
    rc = 0;
    goto out;
bad:
    snprintf(err, errlen, "not valid JSON (near byte %zu)", (size_t)(p - text));
out:
    json_tokener_free(tok);
    return rc;
}
