/*
 * vq_set_prometheus_file: the run's state in Prometheus' text exposition
 * format (version 0.0.4), as a file for node_exporter's textfile
 * collector. The file is replaced whole (a temporary file in the same
 * folder, written, fsync'ed, renamed over it), so that a scrape reads
 * either the previous state or the new one, never half a file. It is
 * written when vq_set_prometheus_file is called (the folder is checked
 * then), when a window closes, and when the run ends.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/log.h"
#include "context.h"

#define PROM_MAX_LABELS 8

struct VqProm {
    char *path, *tmp;
    char *labels;         /* the user's labels, formatted: name="value",... */
    unsigned n_scored, n_not_scored; /* frames received */
    unsigned windows_written; /* VqWindows.n_done at the last write */
    bool done;            /* the end of the run was written */
    bool failing;         /* the last write failed (logged once) */
};

static bool label_name_ok(const char *s, size_t n)
{
    static const char *const reserved[] = { "output", "stat", "backend",
                                            "alert" };
    if (!n || (s[0] >= '0' && s[0] <= '9') || (n >= 2 && !strncmp(s, "__", 2)))
        return false;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
              (c >= '0' && c <= '9') || c == '_'))
            return false;
    }
    for (size_t i = 0; i < sizeof(reserved) / sizeof(*reserved); i++)
        if (strlen(reserved[i]) == n && !strncmp(s, reserved[i], n))
            return false;
    return true;
}

/* A label value with the format's escapes: \\, \" and \n. */
static void put_value(FILE *f, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '\\')
            fputs("\\\\", f);
        else if (s[i] == '"')
            fputs("\\\"", f);
        else if (s[i] == '\n')
            fputs("\\n", f);
        else
            fputc(s[i], f);
    }
}

/* "job=enc|instance=ch5" -> `job="enc",instance="ch5"` (escaped). */
static int parse_labels(const char *list, char **out, VqErrBuf *err)
{
    char *buf = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&buf, &size);
    if (!f)
        return vq_fail(err, VQ_ENOMEM, "out of memory");
    unsigned n = 0;
    int r = 0;
    for (const char *p = list; p && *p && !r;) {
        const char *bar = strchr(p, '|');
        size_t len = bar ? (size_t)(bar - p) : strlen(p);
        const char *eq = memchr(p, '=', len);
        if (!eq || !label_name_ok(p, (size_t)(eq - p)))
            r = vq_fail(err, VQ_EINVAL, "prometheus label '%.*s': not "
                        "name=value with a name of [a-zA-Z_][a-zA-Z0-9_]* "
                        "(not __*, output, stat or backend)", (int)len, p);
        else if (++n > PROM_MAX_LABELS)
            r = vq_fail(err, VQ_EINVAL, "more than %d prometheus labels",
                        PROM_MAX_LABELS);
        else {
            for (const char *q = list; q < p; q++) /* a name given twice */
                if ((q == list || q[-1] == '|') &&
                    !strncmp(q, p, (size_t)(eq - p) + 1)) {
                    r = vq_fail(err, VQ_EINVAL, "prometheus label '%.*s' "
                                "given twice", (int)(eq - p), p);
                    break;
                }
            fprintf(f, "%s%.*s=\"", n > 1 ? "," : "", (int)(eq - p), p);
            put_value(f, eq + 1, len - (size_t)(eq - p) - 1);
            fputc('"', f);
        }
        p = bar ? bar + 1 : NULL;
    }
    if (fclose(f) && !r)
        r = vq_fail(err, VQ_ENOMEM, "out of memory");
    if (r)
        free(buf);
    else
        *out = buf;
    return r;
}

/* A sample's value: Prometheus reads NaN, +Inf, -Inf and Go floats; %.17g
 * keeps every bit of the double. */
static void put_num(FILE *f, double v)
{
    if (isnan(v))
        fputs("NaN", f);
    else if (isinf(v))
        fputs(v > 0 ? "+Inf" : "-Inf", f);
    else
        fprintf(f, "%.17g", v);
}

static void head(FILE *f, const char *name, const char *type, const char *help)
{
    fprintf(f, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

/* name{user labels[,extra]} value */
static void sample(FILE *f, const VqProm *pr, const char *name,
                   const char *extra, double v)
{
    const char *sep = *pr->labels && extra && *extra ? "," : "";
    bool any = *pr->labels || (extra && *extra);
    fprintf(f, "%s%s%s%s%s%s ", name, any ? "{" : "", pr->labels, sep,
            extra ? extra : "", any ? "}" : "");
    put_num(f, v);
    fputc('\n', f);
}

static void write_windows(FILE *f, const VqContext *ctx, const VqProm *pr)
{
    const VqWindows *w = &ctx->win;
    if (!w->n_done)
        return;
    const VqWindowResult *r = &w->done[w->n_done - 1];
    head(f, "vqhip_window_stat", "gauge", "A statistic of an output over "
         "the last window that closed (NaN: no frame of it was scored).");
    for (unsigned o = 0; o < w->n_out; o++) {
        for (unsigned k = 0; k < w->n_stats; k++) {
            const char *name = vq_windows_output(w, &ctx->sel.coll, o);
            const char *stat = w->stats[k].name;
            fprintf(f, "vqhip_window_stat{%s%soutput=\"", pr->labels,
                    *pr->labels ? "," : "");
            put_value(f, name, strlen(name));
            fputs("\",stat=\"", f);
            put_value(f, stat, strlen(stat));
            fputs("\"} ", f);
            put_num(f, w->done_values[r->values + o * w->n_stats + k]);
            fputc('\n', f);
        }
    }
    head(f, "vqhip_window_index", "gauge", "Index of the last window that "
         "closed (0, 1, ...).");
    sample(f, pr, "vqhip_window_index", NULL, w->n_done - 1);
    head(f, "vqhip_window_frames", "gauge", "Frames in the last window.");
    sample(f, pr, "vqhip_window_frames", NULL, r->n_frames);
    head(f, "vqhip_window_frames_scored", "gauge", "Frames of the last "
         "window in its statistics.");
    sample(f, pr, "vqhip_window_frames_scored", NULL, r->n_scored);
    head(f, "vqhip_window_partial", "gauge", "1 when the last window was "
         "closed by the end of the run, incomplete.");
    sample(f, pr, "vqhip_window_partial", NULL, r->partial);
    if (!isnan(r->end)) {
        head(f, "vqhip_window_end_seconds", "gauge", "Timestamp of the last "
             "window's last frame, in seconds of the stream.");
        sample(f, pr, "vqhip_window_end_seconds", NULL, r->end);
    }
}

/* vq_add_alert's rules: whether each is raised now, and how often it was
 * (rule names are [A-Za-z0-9_.-], escaped all the same). */
static void write_alerts(FILE *f, const VqContext *ctx, const VqProm *pr)
{
    unsigned n = vq_alert_count(ctx);
    if (!n)
        return;
    static const char *const names[2] = { "vqhip_alert_active",
                                          "vqhip_alert_raised_total" };
    for (int m = 0; m < 2; m++) {
        if (m == 0)
            head(f, names[0], "gauge", "1 while the alert rule is raised "
                 "(not cleared).");
        else
            head(f, names[1], "counter", "Times the alert rule was raised.");
        for (unsigned i = 0; i < n; i++) {
            VqAlertState st;
            if (vq_alert_state(ctx, i, &st))
                continue;
            fprintf(f, "%s{%s%salert=\"", names[m], pr->labels,
                    *pr->labels ? "," : "");
            put_value(f, st.name, strlen(st.name));
            fputs("\"} ", f);
            put_num(f, m == 0 ? (double)st.active : (double)st.n_raised);
            fputc('\n', f);
        }
    }
}

static void write_metrics(FILE *f, const VqContext *ctx, const VqProm *pr)
{
    write_windows(f, ctx, pr);
    head(f, "vqhip_frames_scored_total", "counter", "Frames received with "
         "their scores.");
    sample(f, pr, "vqhip_frames_scored_total", NULL, pr->n_scored);
    head(f, "vqhip_frames_not_scored_total", "counter", "Frames received "
         "without scores (n_subsample, skipped).");
    sample(f, pr, "vqhip_frames_not_scored_total", NULL, pr->n_not_scored);
    const char *backend = ctx->run.backend_name;
    if (*backend) {
        char lab[64];
        snprintf(lab, sizeof(lab), "backend=\"%s\"", backend);
        head(f, "vqhip_backend_info", "gauge", "The backend that computes "
             "the run's scores (cpu, hip, or hip+cpu for a mix).");
        sample(f, pr, "vqhip_backend_info", lab, 1);
    }
    head(f, "vqhip_gpu_fallback", "gauge", "1 when a GPU fault moved the "
         "run to the CPU.");
    sample(f, pr, "vqhip_gpu_fallback", NULL, ctx->run.fallback.fell_back);
    head(f, "vqhip_run_done", "gauge", "1 once the run ended.");
    sample(f, pr, "vqhip_run_done", NULL, pr->done);
    write_alerts(f, ctx, pr);
}

/* Replaces the file: 0, or a VQ_E* code with the reason in msg. */
static int write_file(const VqContext *ctx, const VqProm *pr, char *msg,
                      size_t size)
{
    int fd = open(pr->tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) {
        snprintf(msg, size, "cannot create '%s': %s", pr->tmp, strerror(errno));
        return VQ_EIO;
    }
    FILE *f = fdopen(fd, "w");
    if (!f) {
        snprintf(msg, size, "'%s': %s", pr->tmp, strerror(errno));
        close(fd);
        unlink(pr->tmp);
        return VQ_EIO;
    }
    write_metrics(f, ctx, pr);
    /* on disk before the rename: a crash leaves the old file or the new */
    int bad = fflush(f) || ferror(f) || fsync(fd);
    int e = errno;
    if (fclose(f) && !bad) {
        bad = 1;
        e = errno;
    }
    if (!bad && rename(pr->tmp, pr->path)) {
        bad = 1;
        e = errno;
    }
    if (bad) {
        snprintf(msg, size, "cannot write '%s': %s", pr->path, strerror(e));
        unlink(pr->tmp);
        return VQ_EIO;
    }
    return 0;
}

int vq_set_prometheus_file(VqContext *ctx, const char *path,
                           const char *labels)
{
    if (!ctx || !path || !*path)
        return VQ_EINVAL;
    if (ctx->run.n_submitted || ctx->run.held.n || ctx->prom)
        return vq_fail(&ctx->err, VQ_ESTATE, "the prometheus file is set "
                       "once, before the first pair");
    VqProm *pr = calloc(1, sizeof(*pr));
    size_t n = strlen(path) + 32;
    if (!pr || !(pr->path = strdup(path)) || !(pr->tmp = malloc(n))) {
        vq_prom_free(pr);
        return vq_fail(&ctx->err, VQ_ENOMEM, "out of memory");
    }
    /* same folder, a name the textfile collector skips (not *.prom) */
    snprintf(pr->tmp, n, "%s.%ld.tmp", path, (long)getpid());
    int r = parse_labels(labels, &pr->labels, &ctx->err);
    char msg[512];
    if (!r && write_file(ctx, pr, msg, sizeof(msg)))
        r = vq_fail(&ctx->err, VQ_EIO, "prometheus file: %s", msg);
    if (r) {
        vq_prom_free(pr);
        return r;
    }
    ctx->prom = pr;
    return 0;
}

void vq_prom_frame(VqContext *ctx, unsigned index, bool end)
{
    VqProm *pr = ctx->prom;
    if (!pr)
        return;
    if (index != UINT_MAX) {
        bool scored = false;
        double v;
        const VqCollector *c = &ctx->sel.coll;
        for (unsigned j = 0; j < c->n && vq_collector_scored(c, index); j++)
            scored |= vq_collector_get(c, vq_collector_nth(c, j), index, &v);
        if (scored)
            pr->n_scored++;
        else
            pr->n_not_scored++;
    }
    if (pr->done || (!end && pr->windows_written == ctx->win.n_done))
        return;
    pr->windows_written = ctx->win.n_done;
    pr->done = end;
    char msg[512];
    /* a failure does not stop the run: logged once, tried again at the
     * next window */
    if (write_file(ctx, pr, msg, sizeof(msg))) {
        if (!pr->failing)
            vq_log(&ctx->run.log, VQ_LOG_LEVEL_WARNING, "prometheus file: "
                   "%s (scoring goes on; tried again at the next window)", msg);
        pr->failing = true;
    } else if (pr->failing) {
        vq_log(&ctx->run.log, VQ_LOG_LEVEL_WARNING, "prometheus file: "
               "written again");
        pr->failing = false;
    }
}

void vq_prom_free(VqProm *pr)
{
    if (!pr)
        return;
    free(pr->path);
    free(pr->tmp);
    free(pr->labels);
    free(pr);
}
