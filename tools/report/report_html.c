/*
 * The page: one HTML file with inline CSS and SVG and no script but a JSON
 * data block, so that it opens anywhere, offline, years from now, and reads
 * the same with scripts off.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "report_html.h"
#include "report_svg.h"

static const char css[] =
    "body{font:15px/1.45 'DejaVu Sans',Verdana,Arial,sans-serif;color:#1d2433;"
    "background:#fff;margin:0}\n"
    "main{max-width:1200px;margin:0 auto;padding:12px 24px 48px}\n"
    "h1{font-size:26px;margin:8px 0 2px}h2{font-size:20px;margin:30px 0 8px;"
    "border-bottom:1px solid #d8dde6;padding-bottom:4px}h3{font-size:16px;"
    "margin:18px 0 6px}p{margin:6px 0}\n"
    "table{border-collapse:collapse;font-size:13px;margin:6px 0}\n"
    "th,td{padding:3px 7px;border-bottom:1px solid #e4e7ec;text-align:left;"
    "vertical-align:top}th{background:#f5f6f8}\n"
    ".wide{overflow-x:auto}table.stats td:first-child{word-break:break-all}\n"
    "td.n,th.n{text-align:right;font-variant-numeric:tabular-nums;"
    "white-space:nowrap}\n"
    "tr.primary td{background:#f1f5fb;font-weight:600}\n"
    ".note{background:#fff7e0;border-left:4px solid #e0a800;padding:6px 10px;"
    "margin:8px 0}\n"
    ".muted{color:#5a6272;font-size:13px}\n"
    "svg.chart{width:100%;height:auto;display:block}\n"
    "svg text{font-family:inherit;font-size:13px;fill:#1d2433}\n"
    "svg .tick{font-size:12px;fill:#4a5363}svg .time{font-size:11px;"
    "fill:#6b7383}svg .label{font-size:13px;font-weight:bold}\n"
    "svg .grid{stroke:#e6e9ef;stroke-width:1}svg .frame{fill:none;"
    "stroke:#9aa3b2}\n"
    "svg .curve{fill:none;stroke-width:1.4;stroke-linejoin:round}\n"
    "svg .hist{fill-opacity:.15;stroke-width:1.4}\n"
    "svg .worst{fill:#fff;fill-opacity:.6;stroke-width:2}\n"
    "svg .window{stroke:#7a8394;stroke-dasharray:4 3}\n"
    "svg .span{fill-opacity:.3}svg .rq{fill:none;stroke-width:2}\n"
    "svg .rqpt{stroke:#fff;stroke-width:1.5}\n"
    ".legend{list-style:none;padding:0;margin:6px 0 2px;display:flex;"
    "flex-wrap:wrap;gap:4px 20px;font-size:13px}\n"
    ".sw{display:inline-block;width:20px;height:4px;margin-right:6px;"
    "vertical-align:middle}\n"
    "details{margin:8px 0;border:1px solid #e4e7ec;border-radius:4px;"
    "padding:4px 12px}summary{cursor:pointer;font-weight:bold;padding:2px 0}\n"
    "img.thumb{display:block;width:100%;border:1px solid #c9ced8}\n"
    "table.worst{width:100%}td.img{width:40%}\n";

static void logs_table(const Report *r, FILE *f)
{
    fprintf(f, "<h2 id=\"logs\">Logs</h2>\n<table><tr><th>log</th><th>file</th>"
            "<th>layout</th><th>version</th><th class=\"n\">frames</th>"
            "<th class=\"n\">frame numbers</th><th class=\"n\">outputs</th>"
            "<th class=\"n\">bitrate (kbit/s)</th><th class=\"n\">scoring "
            "speed (frames/s)</th></tr>\n");
    for (size_t i = 0; i < r->n_in; i++) {
        const ReportInput *in = &r->in[i];
        const ReportLog *l = &in->log;
        fprintf(f, "<tr><td><span class=\"sw\" style=\"background:%s\"></span>",
                report_colour(i));
        report_put_text(f, in->label);
        fprintf(f, "</td><td>");
        report_put_text(f, l->path);
        fprintf(f, "</td><td>%s</td><td>", l->format);
        report_put_text(f, l->version ? l->version : "-");
        fprintf(f, "</td><td class=\"n\">%zu</td><td class=\"n\">%u-%u</td>"
                "<td class=\"n\">%zu</td><td class=\"n\">", l->n_frames,
                l->frame_num[0], l->frame_num[l->n_frames - 1], l->n_series);
        if (isfinite(in->kbps))
            fprintf(f, "%.1f (%s)", in->kbps, in->kbps_source);
        else
            fputs("-", f);
        fprintf(f, "</td><td class=\"n\">");
        if (isfinite(l->scoring_fps))
            fprintf(f, "%.2f", l->scoring_fps);
        else
            fputs("-", f);
        fprintf(f, "</td></tr>\n");
    }
    fprintf(f, "</table>\n");
    for (size_t i = 0; i < r->n_in; i++)
        if (r->in[i].note[0]) {
            fprintf(f, "<p class=\"note\">");
            report_put_text(f, r->in[i].note);
            fprintf(f, "</p>\n");
        }
    fprintf(f, "<p class=\"muted\">A log's <code>fps</code> is how fast it was "
            "scored, not the video's frame rate. Timestamps use ");
    if (isfinite(r->fps)) {
        fprintf(f, "%.6g frames/s (", r->fps);
        report_put_text(f, r->fps_source);
        fprintf(f, ")");
    } else {
        fprintf(f, "no frame rate: give <code>--fps</code> or <code>--dis</code>");
    }
    fprintf(f, ".</p>\n");
}

static void stats_row(FILE *f, const ReportInput *in, size_t s, int primary)
{
    const ReportStats *st = &in->stats[s];
    fprintf(f, "<tr%s data-log=\"", primary ? " class=\"primary\"" : "");
    report_put_text(f, in->label);
    fprintf(f, "\" data-output=\"");
    report_put_text(f, in->log.series[s].name);
    fprintf(f, "\"><td>");
    report_put_text(f, in->log.series[s].name);
    fprintf(f, "</td><td>");
    report_put_text(f, in->label);
    fprintf(f, "</td><td class=\"n\" data-stat=\"n\">%zu", st->n);
    if (st->n_nonfinite)
        fprintf(f, " (+%zu n/a)", st->n_nonfinite);
    fprintf(f, "</td>");
    const double v[] = { st->mean, st->harmonic_mean, st->min, st->pct[0],
                         st->pct[1], st->pct[2], st->pct[3], st->pct[4],
                         st->max };
    static const char *const key[] = { "mean", "harmonic_mean", "min", "p1",
                                       "p5", "p10", "p20", "p50", "max" };
    for (int k = 0; k < 9; k++) {
        fprintf(f, "<td class=\"n\" data-stat=\"%s\" data-value=\"", key[k]);
        report_put_json_num(f, v[k]);
        fprintf(f, "\">");
        report_put_num(f, v[k]);
        fprintf(f, "</td>");
    }
    fprintf(f, "</tr>\n");
}

static void stats_header(FILE *f, const char *id)
{
    fprintf(f, "<div class=\"wide\"><table id=\"%s\" class=\"stats\"><tr>"
            "<th>output</th><th>log</th><th class=\"n\">frames</th>"
            "<th class=\"n\">mean</th><th class=\"n\">harmonic mean</th>"
            "<th class=\"n\">min</th><th class=\"n\">p1</th><th class=\"n\">"
            "p5</th><th class=\"n\">p10</th><th class=\"n\">p20</th>"
            "<th class=\"n\">p50</th><th class=\"n\">max</th></tr>\n", id);
}

static void stats_rows(const Report *r, FILE *f, size_t from, size_t to)
{
    for (size_t o = from; o < to; o++)
        for (size_t i = 0; i < r->n_in; i++) {
            int s = report_log_find(&r->in[i].log, r->outputs[o]);
            if (s >= 0)
                stats_row(f, &r->in[i], (size_t)s, o == 0);
        }
    fprintf(f, "</table></div>\n");
}

/* The primary output's rows in sight; with many outputs the others fold
 * away (they stay in the page: a closed <details> is still there). */
static void stats_table(const Report *r, FILE *f)
{
    enum { FEW = 6 };
    fprintf(f, "<h2 id=\"stats\">Pooled statistics</h2>\n<p class=\"muted\">"
            "From every frame's value as the log has it. Harmonic mean as "
            "libvmaf's: 1/mean(1/(x+1)) &minus; 1. Percentiles as numpy's "
            "default (linear interpolation between order statistics); p50 is "
            "the median.</p>\n");
    stats_header(f, "pooled");
    if (r->n_outputs <= FEW) {
        stats_rows(r, f, 0, r->n_outputs);
        return;
    }
    stats_rows(r, f, 0, 1);
    fprintf(f, "<details><summary>The other %zu outputs</summary>\n",
            r->n_outputs - 1);
    stats_header(f, "pooled-more");
    stats_rows(r, f, 1, r->n_outputs);
    fprintf(f, "</details>\n");
}

void report_html_legend(const Report *r, FILE *f)
{
    fprintf(f, "<ul class=\"legend\">");
    for (size_t i = 0; i < r->n_in; i++) {
        fprintf(f, "<li><span class=\"sw\" style=\"background:%s\"></span>",
                report_colour(i));
        report_put_text(f, r->in[i].label);
        fprintf(f, "</li>");
    }
    fprintf(f, "</ul>\n");
}

/* Worst frames as circles and windows / events as shaded ranges, on the
 * primary output's chart. */
static size_t primary_marks(const Report *r, ReportMark *m, char (*titles)[96],
                            size_t cap)
{
    size_t n = 0;
    for (size_t i = 0; i < r->n_in; i++) {
        const ReportInput *in = &r->in[i];
        for (int which = 0; which < 2; which++) {
            const ReportTable *t = which ? &in->log.events : &in->log.windows;
            for (size_t row = 0; row < t->n_rows && n < cap; row++) {
                double a = report_table_number(t, row, "start_frame");
                double b = report_table_number(t, row, "end_frame");
                if (isnan(a))
                    a = report_table_number(t, row, "frame");
                if (isnan(a))
                    continue;
                snprintf(titles[n], sizeof(titles[n]), "%s %zu of %s",
                         which ? "event" : "window start", row + 1, in->label);
                m[n] = (ReportMark){ a, isnan(b) ? a : b, NAN, !which,
                                     "#e15759", titles[n] };
                n++;
            }
        }
        if (in->primary < 0 || strcmp(in->log.series[in->primary].name,
                                      r->outputs[0]))
            continue;
        for (size_t k = 0; k < in->n_worst && n < cap; k++) {
            size_t e = in->worst[k];
            double v = in->log.series[in->primary].values[e];
            snprintf(titles[n], sizeof(titles[n]), "%s: worst #%zu, frame %u, "
                     "%.6f", in->label, k + 1, in->log.frame_num[e], v);
            m[n] = (ReportMark){ in->log.frame_num[e], in->log.frame_num[e], v,
                                 0, report_colour(i), titles[n] };
            n++;
        }
    }
    return n;
}

static void charts(const Report *r, FILE *f)
{
    int spans = 0;
    for (size_t i = 0; i < r->n_in; i++)
        spans |= r->in[i].log.windows.n_rows || r->in[i].log.events.n_rows;
    fprintf(f, "<h2 id=\"curves\">Per-frame scores</h2>\n<p class=\"muted\">"
            "One line per log. Where a log has more frames than the chart has "
            "pixels, each pixel column shows the lowest and highest frame in "
            "it; the statistics use every frame. Circles: the worst frames%s. "
            "Each output's histogram follows its curves.</p>\n", spans
            ? "; dashed lines: windows' starts; red bands: events" : "");
    ReportCurve *c = calloc(r->n_in ? r->n_in : 1, sizeof(*c));
    enum { MARKS = 512 };
    ReportMark *marks = calloc(MARKS, sizeof(*marks));
    char (*titles)[96] = calloc(MARKS, sizeof(*titles));
    if (!c || !marks || !titles)
        goto out;
    for (size_t o = 0; o < r->n_outputs; o++) {
        const char *name = r->outputs[o];
        size_t nc = 0;
        for (size_t i = 0; i < r->n_in; i++) {
            int s = report_log_find(&r->in[i].log, name);
            if (s < 0)
                continue;
            c[nc++] = (ReportCurve){ r->in[i].label, report_colour(i),
                                     r->in[i].log.frame_num,
                                     r->in[i].log.series[s].values,
                                     r->in[i].log.n_frames };
        }
        char ylabel[256];
        snprintf(ylabel, sizeof(ylabel), "%s (%s)", name, report_unit(name));
        fprintf(f, "<details%s data-output=\"", o == 0 ? " open" : "");
        report_put_text(f, name);
        fprintf(f, "\"><summary>");
        report_put_text(f, name);
        fprintf(f, "%s</summary>\n", o == 0 ? " (primary output)" : "");
        report_html_legend(r, f);
        size_t nm = o == 0 ? primary_marks(r, marks, titles, MARKS) : 0;
        report_svg_curves(f, name, ylabel, c, nc, r->fps, marks, nm);
        report_svg_histogram(f, name, ylabel, c, nc);
        fprintf(f, "</details>\n");
    }
out:
    free(c);
    free(marks);
    free(titles);
}

int report_write_html(const Report *r, FILE *f)
{
    fprintf(f, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset="
            "\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width,"
            "initial-scale=1\">\n<meta name=\"generator\" content=\"vqhip_report"
            "\">\n<title>");
    report_put_text(f, r->title);
    fprintf(f, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<main>\n<h1>",
            css);
    report_put_text(f, r->title);
    fprintf(f, "</h1>\n<p class=\"muted\">%zu log%s; primary output <b>",
            r->n_in, r->n_in == 1 ? "" : "s");
    report_put_text(f, r->primary);
    fprintf(f, "</b> (worst frames: its %s values). Sections: <a href=\"#logs\">"
            "logs</a>, <a href=\"#stats\">statistics</a>%s%s, <a href=\"#curves\">"
            "per-frame scores</a>, <a href=\"#worst\">worst frames</a>.</p>\n",
            r->high_is_worse ? "highest" : "lowest",
            r->n_ladders ? ", <a href=\"#ladder\">rate and quality</a>" : "",
            r->n_bd ? ", <a href=\"#bdrate\">BD-rate</a>" : "");
    logs_table(r, f);
    stats_table(r, f);
    report_html_ladder(r, f);
    charts(r, f);
    report_html_worst(r, f);
    report_html_windows(r, f);
    fprintf(f, "<p class=\"muted\">Written by vqhip_report. The numbers above "
            "are also in the block <code>script#vqhip-data</code> (JSON) of "
            "this file.</p>\n</main>\n");
    report_html_data(r, f);
    fprintf(f, "</body>\n</html>\n");
    fflush(f);
    return ferror(f) ? -1 : 0;
}
