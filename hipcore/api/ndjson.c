/* The stats stream (vq_set_stats_sink): one JSON object a line, each
 * handed to the caller's write() as soon as its data exists. The schema is
 * in docs/LIVE.md and docs/stats.schema.json; every line carries
 * "schema": VQ_STATS_SCHEMA. Numbers are printed with 17 significant
 * digits (every double exactly), in the C locale; NaN and inf as null. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/c_locale.h"
#include "base/log.h"
#include "context.h"

typedef struct Line {
    char *buf;
    size_t n, cap;
    bool oom;
} Line;

static void put(Line *l, const char *fmt, ...) VQ_PRINTF(2, 3);
static void put(Line *l, const char *fmt, ...)
{
    for (int tries = 0; tries < 2 && !l->oom; tries++) {
        va_list ap;
        va_start(ap, fmt);
        int n = vsnprintf(l->buf ? l->buf + l->n : NULL,
                          l->buf ? l->cap - l->n : 0, fmt, ap);
        va_end(ap);
        if (n < 0) {
            l->oom = true;
            return;
        }
        if (l->buf && l->n + (size_t)n < l->cap) {
            l->n += (size_t)n;
            return;
        }
        size_t cap = l->cap ? l->cap : 256;
        while (cap <= l->n + (size_t)n)
            cap *= 2;
        char *b = realloc(l->buf, cap);
        if (!b) {
            l->oom = true;
            return;
        }
        l->buf = b;
        l->cap = cap;
    }
}

static void put_num(Line *l, double v)
{
    if (isfinite(v))
        put(l, "%.17g", v);
    else
        put(l, "null");
}

static void put_str(Line *l, const char *s)
{
    put(l, "\"");
    for (; s && *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            put(l, "\\%c", c);
        else if (c < 0x20)
            put(l, "\\u%04x", c);
        else
            put(l, "%c", c);
    }
    put(l, "\"");
}

/* Starts a line of `type`. */
static void begin(Line *l, const char *type)
{
    put(l, "{\"schema\":\"%s\",\"type\":\"%s\"", VQ_STATS_SCHEMA, type);
}

/* Ends the line and hands it to the sink; a failure is reported once. */
static void emit(VqContext *ctx, Line *l)
{
    put(l, "}\n");
    VqStatsSink *s = &ctx->sink;
    int r = l->oom ? -1 : s->write(s->opaque, l->buf, l->n);
    if (r < 0) {
        if (!s->n_lost)
            vq_log(&ctx->run.log, VQ_LOG_LEVEL_WARNING, "stats stream: a "
                   "line could not be %s; scoring and the log go on (later "
                   "lines are still tried)", l->oom ? "made (out of memory)"
                   : "written");
        s->n_lost++;
    }
    free(l->buf);
}

void vq_ndjson_frame(VqContext *ctx, unsigned index, double t)
{
    CLocale loc;
    c_locale_enter(&loc);
    Line l = { 0 };
    const VqCollector *c = &ctx->sel.coll;
    begin(&l, "frame");
    put(&l, ",\"frame\":%u,\"pts\":", index);
    put_num(&l, t);
    put(&l, ",\"backend\":");
    put_str(&l, vq_pipeline_frame_backend(&ctx->run, index));
    put(&l, ",\"values\":{");
    bool first = true;
    for (unsigned i = 0; i < c->n; i++) {
        int id = vq_collector_nth(c, i);
        double v;
        if (!vq_collector_get(c, id, index, &v))
            continue;
        put(&l, first ? "" : ",");
        put_str(&l, c->series[id].name);
        put(&l, ":");
        put_num(&l, v);
        first = false;
    }
    put(&l, "}");
    emit(ctx, &l);
    c_locale_leave(&loc);
}

void vq_ndjson_window(VqContext *ctx, unsigned wi)
{
    const VqWindows *w = &ctx->win;
    const VqWindowResult *r = &w->done[wi];
    CLocale loc;
    c_locale_enter(&loc);
    Line l = { 0 };
    begin(&l, "window");
    put(&l, ",\"window\":%u,\"first_frame\":%u,\"last_frame\":%u,"
        "\"frames\":%u,\"scored\":%u,\"start\":", wi, r->first_frame,
        r->last_frame, r->n_frames, r->n_scored);
    put_num(&l, r->start);
    put(&l, ",\"end\":");
    put_num(&l, r->end);
    put(&l, ",\"partial\":%s,\"values\":{", r->partial ? "true" : "false");
    for (unsigned o = 0; o < w->n_out; o++) {
        put(&l, o ? "," : "");
        put_str(&l, vq_windows_output(w, &ctx->sel.coll, o));
        put(&l, ":{");
        for (unsigned k = 0; k < w->n_stats; k++) {
            put(&l, k ? "," : "");
            put_str(&l, w->stats[k].name);
            put(&l, ":");
            put_num(&l, w->done_values[r->values + o * w->n_stats + k]);
        }
        put(&l, "}");
    }
    put(&l, "}");
    emit(ctx, &l);
    c_locale_leave(&loc);
}

void vq_ndjson_alert(VqContext *ctx, const VqAlertEv *ev)
{
    const VqAlertRule *r = &ctx->alerts.rules[ev->rule];
    CLocale loc;
    c_locale_enter(&loc);
    Line l = { 0 };
    begin(&l, "alert");
    put(&l, ",\"name\":");
    put_str(&l, r->name);
    put(&l, ",\"rule\":");
    put_str(&l, r->text);
    put(&l, ",\"state\":\"%s\",\"frame\":%u,\"window\":",
        ev->raised ? "raised" : "cleared", ev->frame);
    if (ev->window >= 0)
        put(&l, "%d", ev->window);
    else
        put(&l, "null");
    put(&l, ",\"pts\":");
    put_num(&l, ev->pts);
    put(&l, ",\"value\":");
    put_num(&l, ev->value);
    emit(ctx, &l);
    c_locale_leave(&loc);
}

static void put_pooled(VqContext *ctx, Line *l, const char *name)
{
    static const struct { const char *key; VqPool pool; } lib[] = {
        { "mean", VQ_POOL_MEAN }, { "min", VQ_POOL_MIN },
        { "max", VQ_POOL_MAX }, { "harmonic_mean", VQ_POOL_HARMONIC_MEAN },
    };
    unsigned n = ctx->run.n_delivered;
    for (unsigned k = 0; k < 4; k++) {
        double v = NAN;
        vq_collector_pool(&ctx->sel.coll, name, lib[k].pool, n, &v);
        put(l, "%s\"%s\":", k ? "," : "", lib[k].key);
        put_num(l, v);
    }
    for (unsigned k = 0; k < ctx->n_log_pools; k++) {
        const char *stat = ctx->log_pools[k].name;
        bool dup = false;
        for (unsigned j = 0; j < 4; j++)
            dup |= !strcmp(stat, lib[j].key);
        double v = NAN;
        if (dup || vq_pooled_stat(ctx, name, stat, &v) == VQ_ENOMEM)
            continue;
        put(l, ",");
        put_str(l, stat);
        put(l, ":");
        put_num(l, v);
    }
}

void vq_ndjson_summary(VqContext *ctx, bool complete)
{
    const VqCollector *c = &ctx->sel.coll;
    unsigned n = ctx->run.n_delivered;
    unsigned n_scored = ctx->n_received_scored;
    char err[VQ_ERR_MSG_SIZE];
    /* vq_pooled_stat's messages are not this line's business */
    memcpy(err, ctx->err.msg, sizeof(err));
    CLocale loc;
    c_locale_enter(&loc);
    Line l = { 0 };
    begin(&l, "summary");
    put(&l, ",\"frames\":%u,\"scored\":%u,\"windows\":%u,\"complete\":%s,"
        "\"backend\":", n, n_scored, ctx->win.n_done,
        complete ? "true" : "false");
    put_str(&l, ctx->run.backend_name);
    /* scored / frames (below 1: n_subsample, or live mode's skipped frames) */
    put(&l, ",\"coverage\":");
    put_num(&l, n ? (double)n_scored / n : NAN);
    put(&l, ",\"lost_lines\":%u,\"pooled\":{", ctx->sink.n_lost);
    for (unsigned i = 0; i < c->n; i++) {
        const char *name = c->series[vq_collector_nth(c, i)].name;
        put(&l, i ? "," : "");
        put_str(&l, name);
        put(&l, ":{");
        put_pooled(ctx, &l, name);
        put(&l, "}");
    }
    put(&l, "},\"alerts\":[");
    for (unsigned i = 0; i < ctx->alerts.n; i++) {
        const VqAlertRule *r = &ctx->alerts.rules[i];
        put(&l, "%s{\"name\":", i ? "," : "");
        put_str(&l, r->name);
        put(&l, ",\"rule\":");
        put_str(&l, r->text);
        put(&l, ",\"active\":%s,\"raised\":%u}", r->active ? "true" : "false",
            r->n_raised);
    }
    put(&l, "]");
    emit(ctx, &l);
    c_locale_leave(&loc);
    memcpy(ctx->err.msg, err, sizeof(err));
}

void vq_ndjson_realign(VqContext *ctx, const VqRealignNote *n)
{
    const VqRealignEvent *ev = &n->ev;
    CLocale loc;
    c_locale_enter(&loc);
    Line l = { 0 };
    begin(&l, "realign");
    put(&l, ",\"frame\":%u,\"time\":", n->frame);
    put_num(&l, n->t);
    put(&l, ",\"input\":\"%s\",\"kind\":\"%s\",\"delta\":%d,"
        "\"offset\":%d,\"ref_frame\":%llu,\"dis_frame\":%llu,"
        "\"mse_pair\":", ev->input ? "distorted" : "reference",
        ev->repeat ? "repeat" : "drop", ev->delta, ev->offset, ev->ref_frame,
        ev->dis_frame);
    put_num(&l, ev->mse_pair);
    put(&l, ",\"mse_realigned\":");
    put_num(&l, ev->mse_neighbour);
    emit(ctx, &l);
    c_locale_leave(&loc);
}

void vq_ndjson_sync(VqContext *ctx)
{
    const VqSyncResult *r = &ctx->sync;
    CLocale loc;
    c_locale_enter(&loc);
    Line l = { 0 };
    begin(&l, "sync");
    put(&l, ",\"found\":%s,\"applied\":%s,\"offset\":%d,\"confidence\":",
        r->found ? "true" : "false", ctx->sync_applied ? "true" : "false",
        r->found ? r->offset : 0);
    put_num(&l, r->confidence);
    if (r->lo < r->hi) { /* two offsets or more compared */
        put(&l, ",\"mse_best\":");
        put_num(&l, r->best_mse);
        put(&l, ",\"mse_next\":");
        put_num(&l, r->second_mse);
        put(&l, ",\"lo\":%d,\"hi\":%d,\"frames\":%u", r->lo, r->hi,
            r->compared);
    }
    put(&l, ",\"motion\":");
    put_num(&l, r->motion);
    if (!r->found) {
        put(&l, ",\"why\":");
        put_str(&l, r->why);
    }
    emit(ctx, &l);
    c_locale_leave(&loc);
}
