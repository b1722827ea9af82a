/*
 * Logs in libvmaf's four layouts (xml, json, csv, sub): same keys, same
 * structure, same number formatting (%.6f, or %.16f for values with more than
 * six zeros after the decimal point; non-finite values as null in JSON), so
 * tools that read libvmaf logs read these. vqhip adds which backend computed
 * each output: a "vqhip" object in JSON, a <vqhip> element in XML, with the
 * run's provenance (log_provenance.c). CSV and sub have no place for more
 * than libvmaf writes there.
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/c_locale.h"
#include "context.h"
#include "log_file.h"

static const char *const pool_names[] = { "min", "max", "mean", "harmonic_mean" };
static const VqPool pool_order[] = { VQ_POOL_MIN, VQ_POOL_MAX, VQ_POOL_MEAN,
                                     VQ_POOL_HARMONIC_MEAN };

/* libvmaf's count_leading_zeros_d(): zeros after the decimal point. */
static int leading_zeros(double x)
{
    x = fabs(x);
    double frac = x - (double)(long long)x;
    int n = 0;
    while (frac < 1.0 && frac != 0) {
        frac *= 10;
        n++;
    }
    return n;
}

/* A number as libvmaf prints it, or with `digits` significant digits
 * (vq_set_log_precision: 17 is exact for every double); JSON writes
 * non-finite values as null. */
void vq_log_put_num(FILE *f, double v, int json, int digits)
{
    if (!isfinite(v)) {
        if (json)
            fputs("null", f);
        else
            fprintf(f, "%.6f", v);
        return;
    }
    if (digits)
        fprintf(f, "%.*g", digits, v);
    else
        fprintf(f, leading_zeros(v) <= 6 ? "%.6f" : "%.16f", v);
}

/* vq_log_pools' statistics that are not libvmaf's four: the k-th, or
 * NULL past the last. */
static const char *extra_pool(const VqContext *ctx, unsigned k)
{
    if (k >= ctx->n_log_pools)
        return NULL;
    const char *name = ctx->log_pools[k].name;
    for (unsigned i = 0; i < 4; i++)
        if (!strcmp(name, pool_names[i]))
            return "";
    return name;
}

/* The j-th output in log order (libvmaf's: core/fex.h, VQ_RANK_*). */
static const VqSeries *series(const VqCollector *c, unsigned j)
{
    return &c->series[vq_collector_nth(c, j)];
}

/* Free text (error messages) as a JSON string field / an XML attribute. */
void vq_log_json_str(FILE *f, const char *text)
{
    fputc('"', f);
    for (const char *p = text; *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(f, "\\%c", *p);
        else if ((unsigned char)*p < 0x20)
            fprintf(f, "\\u%04x", (unsigned char)*p);
        else
            fputc(*p, f);
    }
    fputc('"', f);
}

static void put_json_field(FILE *f, const char *key, const char *text)
{
    fprintf(f, "    \"%s\": ", key);
    vq_log_json_str(f, text);
    fprintf(f, ",\n");
}

void vq_log_xml_attr(FILE *f, const char *key, const char *text)
{
    fprintf(f, " %s=\"", key);
    for (const char *p = text; *p; p++) {
        switch (*p) {
        case '"': fputs("&quot;", f); break;
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        default: fputc((unsigned char)*p < 0x20 ? ' ' : *p, f);
        }
    }
    fputc('"', f);
}

static unsigned max_frames(const VqContext *ctx)
{
    return ctx->run.n_delivered;
}

static int frame_skipped(const VqContext *ctx, unsigned i)
{
    return !vq_collector_scored(&ctx->sel.coll, i);
}

static unsigned frame_count(const VqContext *ctx, unsigned i)
{
    unsigned cnt = 0;
    double v;
    for (unsigned j = 0; j < ctx->sel.coll.n; j++)
        cnt += (unsigned)vq_collector_get(&ctx->sel.coll, (int)j, i, &v);
    return cnt;
}

static double run_fps(const VqContext *ctx)
{
    double s = vq_pipeline_seconds(&ctx->run);
    return s > 0 ? ctx->run.n_delivered / s : NAN;
}

static void write_xml(VqContext *ctx, FILE *f)
{
    const VqCollector *c = &ctx->sel.coll;
    fprintf(f, "<VMAF version=\"%s\">\n", vq_version());
    fprintf(f, "  <params qualityWidth=\"%u\" qualityHeight=\"%u\" />\n",
            ctx->run.fmt.w[0], ctx->run.fmt.h[0]);
    fprintf(f, "  <fyi fps=\"%.2f\" />\n", run_fps(ctx));
    VqRunInfo ri;
    vq_run_info(ctx, &ri);
    fprintf(f, "  <vqhip backend=\"%s\" device=\"%s\" complete=\"%s\"",
            ctx->run.backend_name, vq_device_name(ctx), ri.complete ? "true" : "false");
    if (!ri.complete)
        vq_log_xml_attr(f, "incomplete", ri.incomplete);
    if (ri.fell_back) {
        fprintf(f, " cpu_from_frame=\"%u\"", ri.fallback_frame);
        vq_log_xml_attr(f, "fallback_reason", ri.fallback_reason);
    }
    if (ri.verify)
        fprintf(f, " verify=\"%u\" verified=\"%u\" mismatches=\"%u\"",
                ri.verify, ri.verified, ri.mismatches);
    fprintf(f, ">\n");
    vq_log_provenance_xml(ctx, f);
    vq_log_sync_xml(ctx, f);
    vq_log_realign_xml(ctx, f);
    for (unsigned j = 0; j < c->n; j++)
        fprintf(f, "    <output name=\"%s\" backend=\"%s\" />\n",
                series(c, j)->name, series(c, j)->backend);
    fprintf(f, "  </vqhip>\n");
    fprintf(f, "  <frames>\n");
    for (unsigned i = 0; i < max_frames(ctx); i++) {
        if (frame_skipped(ctx, i) || !frame_count(ctx, i))
            continue;
        fprintf(f, "    <frame frameNum=\"%u\" ",
                vq_log_frame_number(ctx, i));
        for (unsigned j = 0; j < c->n; j++) {
            double v;
            if (!vq_collector_get(c, vq_collector_nth(c, j), i, &v))
                continue;
            fprintf(f, "%s=\"", series(c, j)->name);
            vq_log_put_num(f, v, 0, ctx->log_precision);
            fputs("\" ", f);
        }
        fprintf(f, "/>\n");
    }
    fprintf(f, "  </frames>\n  <pooled_metrics>\n");
    for (unsigned j = 0; j < c->n; j++) {
        fprintf(f, "    <metric name=\"%s\" ", series(c, j)->name);
        for (unsigned k = 0; k < 4; k++) {
            double v;
            if (vq_collector_pool(c, series(c, j)->name, pool_order[k],
                                  ctx->run.n_delivered, &v))
                continue;
            fprintf(f, "%s=\"", pool_names[k]);
            vq_log_put_num(f, v, 0, ctx->log_precision);
            fputs("\" ", f);
        }
        const char *x;
        for (unsigned k = 0; (x = extra_pool(ctx, k)); k++) {
            double v;
            if (!*x || vq_pooled_stat(ctx, series(c, j)->name, x, &v))
                continue;
            fprintf(f, "%s=\"", x);
            vq_log_put_num(f, v, 0, ctx->log_precision);
            fputs("\" ", f);
        }
        fprintf(f, "/>\n");
    }
    fprintf(f, "  </pooled_metrics>\n  <aggregate_metrics ");
    for (unsigned j = 0; j < c->n_aggregate; j++) {
        fprintf(f, "%s=\"", c->aggregate[j].name);
        vq_log_put_num(f, c->aggregate[j].value, 0, ctx->log_precision);
        fputs("\" ", f);
    }
    fprintf(f, "/>\n");
    if (ctx->win.on)
        vq_log_windows_xml(ctx, f);
    fprintf(f, "</VMAF>\n");
}

static void write_json(VqContext *ctx, FILE *f)
{
    const VqCollector *c = &ctx->sel.coll;
    fprintf(f, "{\n  \"version\": \"%s\",\n", vq_version());
    double fps = run_fps(ctx);
    if (isfinite(fps))
        fprintf(f, "  \"fps\": %.2f,\n", fps);
    else
        fprintf(f, "  \"fps\": null,\n");
    VqRunInfo ri;
    vq_run_info(ctx, &ri);
    fprintf(f, "  \"vqhip\": {\n    \"backend\": \"%s\",\n    \"device\": \"%s\",\n",
            ctx->run.backend_name, vq_device_name(ctx));
    fprintf(f, "    \"complete\": %s,\n", ri.complete ? "true" : "false");
    if (!ri.complete)
        put_json_field(f, "incomplete", ri.incomplete);
    if (ri.fell_back) {
        fprintf(f, "    \"cpu_from_frame\": %u,\n", ri.fallback_frame);
        put_json_field(f, "fallback_reason", ri.fallback_reason);
    }
    if (ri.verify)
        fprintf(f, "    \"verify\": { \"every\": %u, \"frames\": %u, "
                "\"mismatches\": %u },\n", ri.verify, ri.verified,
                ri.mismatches);
    vq_log_sync_json(ctx, f);
    vq_log_realign_json(ctx, f);
    vq_log_provenance_json(ctx, f);
    fprintf(f, "    \"outputs\": {");
    for (unsigned j = 0; j < c->n; j++)
        fprintf(f, "%s\n      \"%s\": \"%s\"", j ? "," : "",
                series(c, j)->name, series(c, j)->backend);
    fprintf(f, "\n    }\n  },\n");

    fprintf(f, "  \"frames\": [");
    int first = 1;
    for (unsigned i = 0; i < max_frames(ctx); i++) {
        if (frame_skipped(ctx, i))
            continue;
        unsigned cnt = frame_count(ctx, i);
        if (!cnt)
            continue;
        fprintf(f, "%s    {\n      \"frameNum\": %u,\n      \"metrics\": {\n",
                first ? "\n" : ",\n", vq_log_frame_number(ctx, i));
        first = 0;
        unsigned k = 0;
        for (unsigned j = 0; j < c->n; j++) {
            double v;
            if (!vq_collector_get(c, vq_collector_nth(c, j), i, &v))
                continue;
            fprintf(f, "        \"%s\": ", series(c, j)->name);
            vq_log_put_num(f, v, 1, ctx->log_precision);
            fprintf(f, "%s\n", ++k < cnt ? "," : "");
        }
        fprintf(f, "      }\n    }");
    }
    fprintf(f, "\n  ],\n  \"pooled_metrics\": {");
    for (unsigned j = 0; j < c->n; j++) {
        fprintf(f, "%s    \"%s\": {", j ? ",\n" : "\n", series(c, j)->name);
        int any = 0;
        for (unsigned k = 0; k < 4; k++) {
            double v;
            if (vq_collector_pool(c, series(c, j)->name, pool_order[k],
                                  ctx->run.n_delivered, &v))
                continue;
            fprintf(f, "%s      \"%s\": ", any ? ",\n" : "\n", pool_names[k]);
            vq_log_put_num(f, v, 1, ctx->log_precision);
            any = 1;
        }
        const char *x;
        for (unsigned k = 0; (x = extra_pool(ctx, k)); k++) {
            double v;
            if (!*x || vq_pooled_stat(ctx, series(c, j)->name, x, &v))
                continue;
            fprintf(f, "%s      \"%s\": ", any ? ",\n" : "\n", x);
            vq_log_put_num(f, v, 1, ctx->log_precision);
            any = 1;
        }
        fprintf(f, "\n    }");
    }
    fprintf(f, "\n  },\n  \"aggregate_metrics\": {");
    for (unsigned j = 0; j < c->n_aggregate; j++) {
        fprintf(f, "%s\n    \"%s\": ", j ? "," : "", c->aggregate[j].name);
        vq_log_put_num(f, c->aggregate[j].value, 1, ctx->log_precision);
    }
    fprintf(f, "\n  }");
    if (ctx->win.on) {
        fprintf(f, ",\n");
        vq_log_windows_json(ctx, f);
    }
    fprintf(f, "\n}\n");
}

static void write_csv(VqContext *ctx, FILE *f)
{
    const VqCollector *c = &ctx->sel.coll;
    fprintf(f, "Frame,");
    for (unsigned j = 0; j < c->n; j++)
        fprintf(f, "%s,", series(c, j)->name);
    fprintf(f, "\n");
    for (unsigned i = 0; i < max_frames(ctx); i++) {
        if (frame_skipped(ctx, i) || !frame_count(ctx, i))
            continue;
        fprintf(f, "%u,", vq_log_frame_number(ctx, i));
        for (unsigned j = 0; j < c->n; j++) {
            double v;
            if (!vq_collector_get(c, vq_collector_nth(c, j), i, &v))
                continue;
            vq_log_put_num(f, v, 0, ctx->log_precision);
            fputc(',', f);
        }
        fprintf(f, "\n");
    }
    /* CSV has no comments: an incomplete run ends with one more row, as
     * many fields as the others, "incomplete" in the Frame column and the
     * reason (quoted) in the first output's. */
    VqRunInfo ri;
    vq_run_info(ctx, &ri);
    if (!ri.complete) {
        fputs("incomplete,\"", f);
        for (const char *p = ri.incomplete; *p; p++)
            if (*p == '"')
                fputs("\"\"", f);
            else
                fputc((unsigned char)*p < 0x20 ? ' ' : *p, f);
        fputs("\",", f);
        for (unsigned j = 1; j < c->n; j++)
            fputc(',', f);
        fputc('\n', f);
    }
}

static void write_sub(VqContext *ctx, FILE *f)
{
    const VqCollector *c = &ctx->sel.coll;
    for (unsigned i = 0; i < max_frames(ctx); i++) {
        if (frame_skipped(ctx, i) || !frame_count(ctx, i))
            continue;
        unsigned n = vq_log_frame_number(ctx, i);
        fprintf(f, "{%u}{%u}frame: %u|", n, n + 1, n);
        for (unsigned j = 0; j < c->n; j++) {
            double v;
            if (!vq_collector_get(c, vq_collector_nth(c, j), i, &v))
                continue;
            fprintf(f, "%s: ", series(c, j)->name);
            vq_log_put_num(f, v, 0, ctx->log_precision);
            fputc('|', f);
        }
        fprintf(f, "\n");
    }
    /* A subtitle after the last frame says the run is incomplete. */
    VqRunInfo ri;
    vq_run_info(ctx, &ri);
    if (!ri.complete) {
        fprintf(f, "{%u}{%u}incomplete: ", max_frames(ctx), max_frames(ctx) + 1);
        for (const char *p = ri.incomplete; *p; p++)
            fputc((unsigned char)*p < 0x20 ? ' ' : *p, f);
        fputc('\n', f);
    }
}

int vq_write_log(VqContext *ctx, const char *path, VqLogFmt fmt)
{
    if (!ctx || !path)
        return VQ_EINVAL;
    if (fmt != VQ_LOG_XML && fmt != VQ_LOG_JSON && fmt != VQ_LOG_CSV &&
        fmt != VQ_LOG_SUB)
        return vq_fail(&ctx->err, VQ_EINVAL, "unknown log format %d", (int)fmt);
    /* A log appears whole or not at all: written beside its final name,
     * flushed to disk, then renamed over it. Paths that are not regular
     * files (a device such as /dev/stdout, a pipe, a symbolic link) are
     * written in place: renaming would replace them. */
    bool to_stdout = !strcmp(path, "-");
    struct stat st;
    bool direct = !to_stdout && !lstat(path, &st) && !S_ISREG(st.st_mode);
    char *tmp = NULL;
    FILE *f = stdout;
    if (direct) {
        f = fopen(path, "w");
        if (!f)
            return vq_fail(&ctx->err, VQ_EIO, "cannot write log '%s': %s",
                           path, strerror(errno));
    } else if (!to_stdout) {
        int e = 0;
        int fd = vq_log_tmp_create(path, &tmp, &e);
        f = fd < 0 ? NULL : fdopen(fd, "w");
        if (!f) {
            if (fd >= 0) {
                e = errno;
                close(fd);
                unlink(tmp);
            }
            free(tmp);
            return vq_fail(&ctx->err, e == ENOMEM ? VQ_ENOMEM : VQ_EIO,
                           "cannot write log '%s': %s (no log was written)",
                           path, strerror(e));
        }
    }
    CLocale loc;
    c_locale_enter(&loc);
    switch (fmt) {
    case VQ_LOG_XML: write_xml(ctx, f); break;
    case VQ_LOG_JSON: write_json(ctx, f); break;
    case VQ_LOG_CSV: write_csv(ctx, f); break;
    case VQ_LOG_SUB: write_sub(ctx, f); break;
    }
    c_locale_leave(&loc);
    int bad = ferror(f), e = errno;
    if (direct) {
        bad |= fclose(f);
        return bad ? vq_fail(&ctx->err, VQ_EIO, "error writing log '%s': %s",
                             path, strerror(errno ? errno : e)) : 0;
    }
    if (to_stdout) {
        bad |= fflush(f);
        e = errno;
        return bad ? vq_fail(&ctx->err, VQ_EIO, "error writing the log to "
                             "standard output: %s", strerror(e)) : 0;
    }
    if (!bad && (fflush(f) || fsync(fileno(f))))
        bad = 1, e = errno;
    if (fclose(f) && !bad)
        bad = 1, e = errno;
    if (!bad && rename(tmp, path))
        bad = 1, e = errno;
    if (bad)
        unlink(tmp);
    free(tmp);
    return bad ? vq_fail(&ctx->err, VQ_EIO, "error writing log '%s': %s (no "
                         "log was written)", path, strerror(e)) : 0;
}
