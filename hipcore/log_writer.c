/*
 * Logs in libvmaf's four layouts (xml, json, csv, sub): same keys, same
 * structure, same number formatting (%.6f, or %.16f for values with more than
 * six zeros after the decimal point; non-finite values as null in JSON), so
 * tools that read libvmaf logs read these. vqhip adds which backend computed
 * each output: a "vqhip" object in JSON, a <vqhip> element in XML.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "c_locale.h"
#include "context.h"

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

/* A number as libvmaf prints it; JSON writes non-finite values as null. */
static void put_num(FILE *f, double v, int json)
{
    if (!isfinite(v)) {
        if (json)
            fputs("null", f);
        else
            fprintf(f, "%.6f", v);
        return;
    }
    fprintf(f, leading_zeros(v) <= 6 ? "%.6f" : "%.16f", v);
}

/* The j-th output in log order (libvmaf's: output_rank in pipeline.c). */
static const VqSeries *series(const VqCollector *c, unsigned j)
{
    return &c->series[vq_collector_nth(c, j)];
}

static unsigned max_frames(const VqContext *ctx)
{
    return ctx->n_delivered;
}

static int frame_skipped(const VqContext *ctx, unsigned i)
{
    unsigned sub = ctx->cfg.n_subsample;
    return sub > 1 && i % sub;
}

static unsigned frame_count(const VqContext *ctx, unsigned i)
{
    unsigned cnt = 0;
    double v;
    for (unsigned j = 0; j < ctx->coll.n; j++)
        cnt += (unsigned)vq_collector_get(&ctx->coll, (int)j, i, &v);
    return cnt;
}

static double run_fps(const VqContext *ctx)
{
    double s = vq_run_seconds(ctx);
    return s > 0 ? ctx->n_delivered / s : NAN;
}

static void write_xml(VqContext *ctx, FILE *f)
{
    const VqCollector *c = &ctx->coll;
    fprintf(f, "<VMAF version=\"%s\">\n", vq_version());
    fprintf(f, "  <params qualityWidth=\"%u\" qualityHeight=\"%u\" />\n",
            ctx->fmt.w[0], ctx->fmt.h[0]);
    fprintf(f, "  <fyi fps=\"%.2f\" />\n", run_fps(ctx));
    fprintf(f, "  <vqhip backend=\"%s\" device=\"%s\">\n", ctx->backend_name,
            vq_device_name(ctx));
    for (unsigned j = 0; j < c->n; j++)
        fprintf(f, "    <output name=\"%s\" backend=\"%s\" />\n",
                series(c, j)->name, series(c, j)->backend);
    fprintf(f, "  </vqhip>\n");
    fprintf(f, "  <frames>\n");
    for (unsigned i = 0; i < max_frames(ctx); i++) {
        if (frame_skipped(ctx, i) || !frame_count(ctx, i))
            continue;
        fprintf(f, "    <frame frameNum=\"%u\" ", i);
        for (unsigned j = 0; j < c->n; j++) {
            double v;
            if (!vq_collector_get(c, vq_collector_nth(c, j), i, &v))
                continue;
            fprintf(f, "%s=\"", series(c, j)->name);
            put_num(f, v, 0);
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
                                  ctx->n_delivered, &v))
                continue;
            fprintf(f, "%s=\"", pool_names[k]);
            put_num(f, v, 0);
            fputs("\" ", f);
        }
        fprintf(f, "/>\n");
    }
    fprintf(f, "  </pooled_metrics>\n  <aggregate_metrics ");
    for (unsigned j = 0; j < c->n_aggregate; j++) {
        fprintf(f, "%s=\"", c->aggregate[j].name);
        put_num(f, c->aggregate[j].value, 0);
        fputs("\" ", f);
    }
    fprintf(f, "/>\n</VMAF>\n");
}

static void write_json(VqContext *ctx, FILE *f)
{
    const VqCollector *c = &ctx->coll;
    fprintf(f, "{\n  \"version\": \"%s\",\n", vq_version());
    double fps = run_fps(ctx);
    if (isfinite(fps))
        fprintf(f, "  \"fps\": %.2f,\n", fps);
    else
        fprintf(f, "  \"fps\": null,\n");
    fprintf(f, "  \"vqhip\": {\n    \"backend\": \"%s\",\n    \"device\": \"%s\",\n"
            "    \"outputs\": {", ctx->backend_name, vq_device_name(ctx));
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
                first ? "\n" : ",\n", i);
        first = 0;
        unsigned k = 0;
        for (unsigned j = 0; j < c->n; j++) {
            double v;
            if (!vq_collector_get(c, vq_collector_nth(c, j), i, &v))
                continue;
            fprintf(f, "        \"%s\": ", series(c, j)->name);
            put_num(f, v, 1);
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
                                  ctx->n_delivered, &v))
                continue;
            fprintf(f, "%s      \"%s\": ", any ? ",\n" : "\n", pool_names[k]);
            put_num(f, v, 1);
            any = 1;
        }
        fprintf(f, "\n    }");
    }
    fprintf(f, "\n  },\n  \"aggregate_metrics\": {");
    for (unsigned j = 0; j < c->n_aggregate; j++) {
        fprintf(f, "%s\n    \"%s\": ", j ? "," : "", c->aggregate[j].name);
        put_num(f, c->aggregate[j].value, 1);
    }
    fprintf(f, "\n  }\n}\n");
}

static void write_csv(VqContext *ctx, FILE *f)
{
    const VqCollector *c = &ctx->coll;
    fprintf(f, "Frame,");
    for (unsigned j = 0; j < c->n; j++)
        fprintf(f, "%s,", series(c, j)->name);
    fprintf(f, "\n");
    for (unsigned i = 0; i < max_frames(ctx); i++) {
        if (frame_skipped(ctx, i) || !frame_count(ctx, i))
            continue;
        fprintf(f, "%u,", i);
        for (unsigned j = 0; j < c->n; j++) {
            double v;
            if (!vq_collector_get(c, vq_collector_nth(c, j), i, &v))
                continue;
            put_num(f, v, 0);
            fputc(',', f);
        }
        fprintf(f, "\n");
    }
}

static void write_sub(VqContext *ctx, FILE *f)
{
    const VqCollector *c = &ctx->coll;
    for (unsigned i = 0; i < max_frames(ctx); i++) {
        if (frame_skipped(ctx, i) || !frame_count(ctx, i))
            continue;
        fprintf(f, "{%u}{%u}frame: %u|", i, i + 1, i);
        for (unsigned j = 0; j < c->n; j++) {
            double v;
            if (!vq_collector_get(c, vq_collector_nth(c, j), i, &v))
                continue;
            fprintf(f, "%s: ", series(c, j)->name);
            put_num(f, v, 0);
            fputc('|', f);
        }
        fprintf(f, "\n");
    }
}

int vq_write_log(VqContext *ctx, const char *path, VqLogFmt fmt)
{
    if (!ctx || !path)
        return VQ_EINVAL;
    if (fmt != VQ_LOG_XML && fmt != VQ_LOG_JSON && fmt != VQ_LOG_CSV &&
        fmt != VQ_LOG_SUB)
        return vq_fail(&ctx->err, VQ_EINVAL, "unknown log format %d", (int)fmt);
    FILE *f = strcmp(path, "-") ? fopen(path, "w") : stdout;
    if (!f)
        return vq_fail(&ctx->err, VQ_EIO, "cannot write log '%s'", path);
    CLocale loc;
    c_locale_enter(&loc);
    switch (fmt) {
    case VQ_LOG_XML: write_xml(ctx, f); break;
    case VQ_LOG_JSON: write_json(ctx, f); break;
    case VQ_LOG_CSV: write_csv(ctx, f); break;
    case VQ_LOG_SUB: write_sub(ctx, f); break;
    }
    c_locale_leave(&loc);
    int bad = ferror(f);
    if (f != stdout)
        bad |= fclose(f);
    else
        bad |= fflush(f);
    return bad ? vq_fail(&ctx->err, VQ_EIO, "error writing log '%s'", path) : 0;
}
