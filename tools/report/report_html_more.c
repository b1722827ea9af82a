/* The page's later sections: worst frames, windows and events, the ladder,
 * and the machine-readable data block. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "report_html.h"
#include "report_image.h"
#include "report_svg.h"

double report_table_number(const ReportTable *t, size_t row, const char *col)
{
    for (size_t c = 0; c < t->n_cols; c++) {
        const char *s = t->cells[row * t->n_cols + c];
        if (strcmp(t->cols[c], col) || !s)
            continue;
        char *end;
        double v = strtod(s, &end);
        return end != s && !*end ? v : NAN;
    }
    return NAN;
}

static double frame_time(const Report *r, unsigned frame)
{
    return isfinite(r->fps) && r->fps > 0 ? frame / r->fps : NAN;
}

static void image_cell(FILE *f, char **imgs, size_t k, const char *kind,
                       unsigned frame, const char *what)
{
    if (!imgs)
        return;
    fprintf(f, "<td class=\"img\">");
    if (imgs[k])
        fprintf(f, "<img class=\"thumb\" data-kind=\"%s\" data-frame=\"%u\" "
                "alt=\"%s, frame %u\" src=\"%s\">", kind, frame, what, frame,
                imgs[k]);
    else
        fprintf(f, "<span class=\"muted\">not in the file</span>");
    fprintf(f, "</td>");
}

static void worst_table(const Report *r, const ReportInput *in, FILE *f)
{
    const char *name = in->log.series[in->primary].name;
    fprintf(f, "<table class=\"worst\" data-log=\"");
    report_put_text(f, in->label);
    fprintf(f, "\"><tr><th class=\"n\">#</th><th class=\"n\">frame</th>"
            "<th class=\"n\">time</th><th class=\"n\">");
    report_put_text(f, name);
    fprintf(f, "</th>%s%s%s</tr>\n",
            in->ref_img ? "<th>reference</th>" : "",
            in->dis_img ? "<th>distorted</th>" : "",
            in->heat_img ? "<th>CAMBI heatmap (scale 0)</th>" : "");
    for (size_t k = 0; k < in->n_worst; k++) {
        unsigned frame = in->log.frame_num[in->worst[k]];
        double v = in->log.series[in->primary].values[in->worst[k]];
        char t[32];
        report_format_time(frame_time(r, frame), t, sizeof(t));
        fprintf(f, "<tr data-frame=\"%u\"><td class=\"n\">%zu</td><td class="
                "\"n\">%u</td><td class=\"n\">%s</td><td class=\"n\" "
                "data-value=\"", frame, k + 1, frame, t);
        report_put_json_num(f, v);
        fprintf(f, "\">");
        report_put_num(f, v);
        fprintf(f, "</td>");
        image_cell(f, in->ref_img, k, "ref", frame, "reference");
        image_cell(f, in->dis_img, k, "dis", frame, "distorted");
        image_cell(f, in->heat_img, k, "cambi", frame, "CAMBI heatmap");
        fprintf(f, "</tr>\n");
    }
    fprintf(f, "</table>\n");
    if (in->heat_img) {
        char lo[8], hi[8];
        report_heat_colour(0, lo);
        report_heat_colour(255, hi);
        fprintf(f, "<p class=\"muted\">Heatmap colours: <span class=\"sw\" "
                "style=\"background:%s\"></span>no banding to <span class=\"sw\" "
                "style=\"background:%s\"></span>the largest value shown "
                "(%.4f of the heatmap's full scale); each pixel is the most "
                "of the block it stands for.</p>\n", lo, hi, in->heat_top);
    }
}

void report_html_worst(const Report *r, FILE *f)
{
    fprintf(f, "<h2 id=\"worst\">Worst frames</h2>\n<p class=\"muted\">Per "
            "log, the frames with the %s <b>", r->high_is_worse ? "highest"
            : "lowest");
    report_put_text(f, r->primary);
    fprintf(f, "</b>, worst first (ties: the earlier frame first). Frame "
            "numbers as in the log; pictures found by counting decoded "
            "frames from the start of each file.</p>\n");
    for (size_t i = 0; i < r->n_in; i++) {
        const ReportInput *in = &r->in[i];
        fprintf(f, "<h3><span class=\"sw\" style=\"background:%s\"></span>",
                report_colour(i));
        report_put_text(f, in->label);
        fprintf(f, "</h3>\n");
        if (in->primary < 0) {
            fprintf(f, "<p class=\"note\">This log has no output <b>");
            report_put_text(f, r->primary);
            fprintf(f, "</b>.</p>\n");
            continue;
        }
        if (strcmp(in->log.series[in->primary].name, r->primary)) {
            fprintf(f, "<p class=\"note\">This log has no <b>");
            report_put_text(f, r->primary);
            fprintf(f, "</b>: ranked by its first output.</p>\n");
        }
        worst_table(r, in, f);
    }
}

static void generic_table(const ReportTable *t, FILE *f, const char *kind,
                          const char *label)
{
    fprintf(f, "<table class=\"%s\" data-log=\"", kind);
    report_put_text(f, label);
    fprintf(f, "\"><tr>");
    for (size_t c = 0; c < t->n_cols; c++) {
        fprintf(f, "<th>");
        report_put_text(f, t->cols[c]);
        fprintf(f, "</th>");
    }
    fprintf(f, "</tr>\n");
    for (size_t row = 0; row < t->n_rows; row++) {
        fprintf(f, "<tr>");
        for (size_t c = 0; c < t->n_cols; c++) {
            fprintf(f, "<td>");
            report_put_text(f, t->cells[row * t->n_cols + c]);
            fprintf(f, "</td>");
        }
        fprintf(f, "</tr>\n");
    }
    fprintf(f, "</table>\n");
}

void report_html_windows(const Report *r, FILE *f)
{
    int any = 0;
    for (size_t i = 0; i < r->n_in; i++) {
        const ReportLog *l = &r->in[i].log;
        if (!l->windows.n_rows && !l->events.n_rows)
            continue;
        if (!any++)
            fprintf(f, "<h2 id=\"windows\">Windows and alert events</h2>\n");
        fprintf(f, "<h3>");
        report_put_text(f, r->in[i].label);
        fprintf(f, "</h3>\n");
        if (l->windows.n_rows) {
            fprintf(f, "<p>Windows (%zu):</p>\n", l->windows.n_rows);
            generic_table(&l->windows, f, "windows", r->in[i].label);
        }
        if (l->events.n_rows) {
            fprintf(f, "<p>Events (%zu):</p>\n", l->events.n_rows);
            generic_table(&l->events, f, "events", r->in[i].label);
        }
    }
}

static double input_quality(const ReportInput *in)
{
    return in->primary >= 0 ? in->stats[in->primary].mean : NAN;
}

static int by_kbps(const void *a, const void *b, const Report *r)
{
    double x = r->in[*(const size_t *)a].kbps, y = r->in[*(const size_t *)b].kbps;
    return (x > y) - (x < y);
}

void report_html_ladder(const Report *r, FILE *f)
{
    if (!r->n_ladders)
        return;
    char ylabel[256];
    snprintf(ylabel, sizeof(ylabel), "mean %s (%s)", r->primary,
             report_unit(r->primary));
    fprintf(f, "<h2 id=\"ladder\">Rate and quality</h2>\n<p class=\"muted\">"
            "Quality: each log's mean <b>");
    report_put_text(f, r->primary);
    fprintf(f, "</b>. Bitrate: <code>--bitrate</code>, else the distorted "
            "file's video bitrate as its container states it (else its video "
            "packets' sizes over their duration).</p>\n");
    ReportRQSeries *s = calloc(r->n_ladders, sizeof(*s));
    double *buf = calloc(r->n_in * 2 * r->n_ladders + 1, sizeof(*buf));
    const char **labels = calloc(r->n_in * r->n_ladders + 1, sizeof(*labels));
    size_t *order = calloc(r->n_in + 1, sizeof(*order));
    if (!s || !buf || !labels || !order)
        goto out;
    fprintf(f, "<ul class=\"legend\">");
    for (size_t k = 0; k < r->n_ladders; k++) {
        const ReportLadder *l = &r->ladders[k];
        size_t n = 0;
        for (size_t j = 0; j < l->n; j++)
            if (isfinite(r->in[l->inputs[j]].kbps) &&
                isfinite(input_quality(&r->in[l->inputs[j]])))
                order[n++] = l->inputs[j];
        /* insertion sort by bitrate: ladders are short */
        for (size_t a = 1; a < n; a++)
            for (size_t b = a; b > 0 && by_kbps(&order[b - 1], &order[b], r) > 0; b--) {
                size_t t = order[b];
                order[b] = order[b - 1];
                order[b - 1] = t;
            }
        double *kbps = buf + k * r->n_in * 2, *q = kbps + r->n_in;
        const char **lab = labels + k * r->n_in;
        for (size_t j = 0; j < n; j++) {
            kbps[j] = r->in[order[j]].kbps;
            q[j] = input_quality(&r->in[order[j]]);
            lab[j] = r->in[order[j]].label;
        }
        s[k] = (ReportRQSeries){ l->name, report_colour(k), n, kbps, q, lab };
        fprintf(f, "<li><span class=\"sw\" style=\"background:%s\"></span>",
                report_colour(k));
        report_put_text(f, l->name);
        fprintf(f, " (%zu point%s)</li>", n, n == 1 ? "" : "s");
    }
    fprintf(f, "</ul>\n");
    report_svg_rate_quality(f, ylabel, s, r->n_ladders);
    fprintf(f, "<table id=\"ladder-points\"><tr><th>ladder</th><th>log</th>"
            "<th class=\"n\">bitrate (kbit/s)</th><th class=\"n\">mean ");
    report_put_text(f, r->primary);
    fprintf(f, "</th></tr>\n");
    for (size_t k = 0; k < r->n_ladders; k++)
        for (size_t j = 0; j < s[k].n; j++) {
            fprintf(f, "<tr><td>");
            report_put_text(f, s[k].name);
            fprintf(f, "</td><td>");
            report_put_text(f, s[k].labels[j]);
            fprintf(f, "</td><td class=\"n\">%.3f</td><td class=\"n\">",
                    s[k].kbps[j]);
            report_put_num(f, s[k].quality[j]);
            fprintf(f, "</td></tr>\n");
        }
    fprintf(f, "</table>\n");
    if (r->n_bd) {
        fprintf(f, "<h3 id=\"bdrate\">BD-rate</h3>\n<p class=\"muted\">"
                "Bjontegaard delta rate: PCHIP (monotone piecewise cubic Hermite) "
                "interpolation of log<sub>10</sub>(bitrate) over quality for "
                "each ladder, integrated over the qualities both ladders "
                "reach; BD-rate = (10<sup>D</sup> &minus; 1) &times; 100 %%, D "
                "the mean difference B &minus; A. Negative: B needs less "
                "bitrate for the same quality.</p>\n<table id=\"bd-rate\"><tr>"
                "<th>A</th><th>B</th><th class=\"n\">BD-rate</th><th class=\"n\">"
                "quality range</th><th>reading</th></tr>\n");
        for (size_t k = 0; k < r->n_bd; k++) {
            const ReportBd *b = &r->bd[k];
            fprintf(f, "<tr><td>");
            report_put_text(f, b->a);
            fprintf(f, "</td><td>");
            report_put_text(f, b->b);
            if (!b->ok) {
                fprintf(f, "</td><td class=\"n\">n/a</td><td></td><td>");
                report_put_text(f, b->err);
                fprintf(f, "</td></tr>\n");
                continue;
            }
            fprintf(f, "</td><td class=\"n\" data-value=\"%.17g\">%+.3f %%</td>"
                    "<td class=\"n\">%.4f&ndash;%.4f</td><td>", b->percent,
                    b->percent, b->lo, b->hi);
            report_put_text(f, b->b);
            fprintf(f, " needs %.2f %% %s bitrate than ", fabs(b->percent),
                    b->percent < 0 ? "less" : "more");
            report_put_text(f, b->a);
            fprintf(f, " for the same quality</td></tr>\n");
        }
        fprintf(f, "</table>\n");
    }
out:
    free(s);
    free(buf);
    free(labels);
    free(order);
}

static void json_key_num(FILE *f, const char *key, double v, int comma)
{
    fprintf(f, "%s\"%s\":", comma ? "," : "", key);
    report_put_json_num(f, v);
}

void report_html_data(const Report *r, FILE *f)
{
    fprintf(f, "<script type=\"application/json\" id=\"vqhip-data\">\n"
            "{\"generator\":\"vqhip_report\",\"primary\":");
    report_put_json_str(f, r->primary);
    fprintf(f, ",\"worst_is\":\"%s\"", r->high_is_worse ? "highest" : "lowest");
    json_key_num(f, "fps", r->fps, 1);
    fprintf(f, ",\"logs\":[");
    for (size_t i = 0; i < r->n_in; i++) {
        const ReportInput *in = &r->in[i];
        fprintf(f, "%s\n{\"label\":", i ? "," : "");
        report_put_json_str(f, in->label);
        fprintf(f, ",\"path\":");
        report_put_json_str(f, in->log.path);
        fprintf(f, ",\"format\":\"%s\",\"frames\":%zu", in->log.format,
                in->log.n_frames);
        json_key_num(f, "bitrate_kbps", in->kbps, 1);
        fprintf(f, ",\"outputs\":{");
        for (size_t s = 0; s < in->log.n_series; s++) {
            const ReportStats *st = &in->stats[s];
            fprintf(f, "%s\n", s ? "," : "");
            report_put_json_str(f, in->log.series[s].name);
            fprintf(f, ":{\"n\":%zu,\"nonfinite\":%zu", st->n, st->n_nonfinite);
            json_key_num(f, "mean", st->mean, 1);
            json_key_num(f, "harmonic_mean", st->harmonic_mean, 1);
            json_key_num(f, "min", st->min, 1);
            json_key_num(f, "max", st->max, 1);
            for (int k = 0; k < REPORT_N_PCT; k++) {
                char key[16];
                snprintf(key, sizeof(key), "p%g", report_pct_levels[k]);
                json_key_num(f, key, st->pct[k], 1);
            }
            fprintf(f, "}");
        }
        fprintf(f, "},\"worst\":[");
        for (size_t k = 0; k < in->n_worst; k++) {
            unsigned frame = in->log.frame_num[in->worst[k]];
            fprintf(f, "%s{\"frame\":%u", k ? "," : "", frame);
            json_key_num(f, "time", frame_time(r, frame), 1);
            json_key_num(f, "value",
                         in->log.series[in->primary].values[in->worst[k]], 1);
            fprintf(f, ",\"ref_image\":%s,\"dis_image\":%s,\"heatmap\":%s}",
                    in->ref_img && in->ref_img[k] ? "true" : "false",
                    in->dis_img && in->dis_img[k] ? "true" : "false",
                    in->heat_img && in->heat_img[k] ? "true" : "false");
        }
        fprintf(f, "],\"windows\":%zu,\"events\":%zu}", in->log.windows.n_rows,
                in->log.events.n_rows);
    }
    fprintf(f, "],\n\"ladders\":[");
    for (size_t k = 0; k < r->n_ladders; k++) {
        fprintf(f, "%s{\"name\":", k ? "," : "");
        report_put_json_str(f, r->ladders[k].name);
        fprintf(f, ",\"logs\":[");
        for (size_t j = 0; j < r->ladders[k].n; j++) {
            fprintf(f, "%s", j ? "," : "");
            report_put_json_str(f, r->in[r->ladders[k].inputs[j]].label);
        }
        fprintf(f, "]}");
    }
    fprintf(f, "],\n\"bd_rate\":[");
    for (size_t k = 0; k < r->n_bd; k++) {
        const ReportBd *b = &r->bd[k];
        fprintf(f, "%s{\"a\":", k ? "," : "");
        report_put_json_str(f, b->a);
        fprintf(f, ",\"b\":");
        report_put_json_str(f, b->b);
        if (b->ok) {
            json_key_num(f, "percent", b->percent, 1);
            json_key_num(f, "quality_lo", b->lo, 1);
            json_key_num(f, "quality_hi", b->hi, 1);
        } else {
            fprintf(f, ",\"error\":");
            report_put_json_str(f, b->err);
        }
        fprintf(f, "}");
    }
    fprintf(f, "]}\n</script>\n");
}
