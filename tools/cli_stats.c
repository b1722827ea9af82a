#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_args.h"
#include "cli_stats.h"

int cli_parse_window(const char *arg, VqWindowConfig *wc)
{
    char *end;
    errno = 0;
    if (arg[0] >= '0' && arg[0] <= '9') {
        double v = strtod(arg, &end);
        if (!errno && !strcmp(end, "s") && v > 0 && isfinite(v)) {
            wc->seconds = v;
            wc->frames = 0;
            return 0;
        }
        unsigned long n = strtoul(arg, &end, 10);
        if (!errno && !*end && n > 0 && n <= 1u << 30) {
            wc->frames = (unsigned)n;
            wc->seconds = 0;
            return 0;
        }
    }
    fprintf(stderr, "vqhip: --window: '%s' is neither a number of frames "
            "(50) nor of seconds (2s)\n", arg);
    return -1;
}

int cli_parse_fps(const char *arg, unsigned *num, unsigned *den)
{
    char *end;
    errno = 0;
    unsigned long n = strtoul(arg, &end, 10), d = 1;
    if (*end == '/')
        d = strtoul(end + 1, &end, 10);
    if (errno || *end || arg[0] < '0' || arg[0] > '9' || !n || !d ||
        n > 0xffffffffUL || d > 0xffffffffUL) {
        fprintf(stderr, "vqhip: --fps: '%s' is not N or N/D\n", arg);
        return -1;
    }
    *num = (unsigned)n;
    *den = (unsigned)d;
    return 0;
}

int cli_parse_precision(const char *arg, unsigned *digits)
{
    char *end;
    if (!strcmp(arg, "max")) {
        *digits = 17;
        return 0;
    }
    unsigned long d = strtoul(arg, &end, 10);
    if (arg[0] < '0' || arg[0] > '9' || *end || d > 17) {
        fprintf(stderr, "vqhip: --precision: '%s' is not 0 to 17 or max\n",
                arg);
        return -1;
    }
    *digits = (unsigned)d;
    return 0;
}

int cli_stats_open(CliStats *st, int log_on_stdout)
{
    char err[512];
    st->sink.fd = -1;
    if (!st->stats_url)
        return 0;
    int r = stats_sink_open(&st->sink, st->stats_url, err, sizeof(err));
    if (r)
        fprintf(stderr, "vqhip: %s\n", err);
    if (!r && st->sink.is_stdout && log_on_stdout) {
        fprintf(stderr, "vqhip: --stats-url %s and the log cannot both go "
                "to standard output\n", st->stats_url);
        r = CLI_EXIT_USAGE;
    }
    return r;
}

int cli_stats_setup(VqContext *ctx, CliStats *st)
{
    int r = 0;
    if (st->windows)
        r = vq_use_windows(ctx, &st->wc);
    if (!r && st->pools)
        r = vq_log_pools(ctx, st->pools);
    if (!r && st->prom_file)
        r = vq_set_prometheus_file(ctx, st->prom_file, st->prom_labels);
    for (unsigned i = 0; !r && i < st->n_alerts; i++)
        r = vq_add_alert(ctx, st->alerts[i]);
    if (!r && st->stats_url)
        r = vq_set_stats_sink(ctx, stats_sink_write, &st->sink,
                              st->stats_frames ? VQ_STATS_FRAMES : 0);
    return r;
}

void cli_print_alerts(VqContext *ctx)
{
    VqAlertEvent ev;
    while (!vq_receive_alert(ctx, &ev)) {
        fprintf(stderr, "vqhip: warning: alert %s %s at frame %u", ev.name,
                ev.raised ? "raised" : "cleared", ev.frame);
        if (!isnan(ev.pts))
            fprintf(stderr, " (%.3f s)", ev.pts);
        if (ev.window >= 0)
            fprintf(stderr, ", window %d", ev.window);
        fprintf(stderr, ": value %g, rule %s\n", ev.value, ev.rule);
    }
}

void cli_print_windows(VqContext *ctx, FILE *f)
{
    VqWindow w;
    while (!vq_receive_window(ctx, &w)) {
        fprintf(f, "window %u: frames %u-%u, %u scored", w.index, w.first_frame,
               w.last_frame, w.n_scored);
        if (!isnan(w.start))
            fprintf(f, ", %.3f-%.3f s", w.start, w.end);
        fprintf(f, "%s:", w.partial ? " (partial)" : "");
        const char *out = NULL;
        for (unsigned i = 0; i < w.n; i++) {
            const VqWindowStat *s = &w.stats[i];
            if (!out || strcmp(out, s->output))
                fprintf(f, "%s %s", out ? ";" : "", s->output);
            out = s->output;
            fprintf(f, " %s=%f", s->stat, s->value);
        }
        fprintf(f, "\n");
    }
}

int cli_print_pooled(VqContext *ctx, FILE *f, const char *name,
                     const char *pools)
{
    double v;
    if (!pools) {
        if (vq_pooled(ctx, name, VQ_POOL_MEAN, &v))
            return -1;
        fprintf(f, "%s: %f\n", name, v);
        return 0;
    }
    fprintf(f, "%s:", name);
    for (const char *p = pools; p && *p;) {
        const char *bar = strchr(p, '|');
        char stat[64];
        snprintf(stat, sizeof(stat), "%.*s",
                 (int)(bar ? (size_t)(bar - p) : strlen(p)), p);
        if (!vq_pooled_stat(ctx, name, stat, &v))
            fprintf(f, " %s=%f", stat, v);
        p = bar ? bar + 1 : NULL;
    }
    fprintf(f, "\n");
    return 0;
}
