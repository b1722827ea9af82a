#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "report_svg.h"

/* Chart geometry in viewBox units (the page shows them about 1:1 at
 * 1280 px). */
enum { W = 1160, ML = 78, MR = 34, MT = 14, MB = 52, PW = W - ML - MR };

typedef struct Axis {
    double lo, hi, step;
    int log10_scale;
} Axis;

static void nice_axis(double lo, double hi, int ticks, int integer, Axis *a)
{
    if (!(hi > lo)) {
        double d = lo != 0 ? fabs(lo) * 0.01 : 1;
        lo -= d;
        hi += d;
    }
    double raw = (hi - lo) / ticks, mag = pow(10, floor(log10(raw)));
    double m = raw / mag;
    a->step = (m < 1.5 ? 1 : m < 3 ? 2 : m < 7 ? 5 : 10) * mag;
    if (integer && a->step < 1)
        a->step = 1;
    a->lo = floor(lo / a->step) * a->step;
    a->hi = ceil(hi / a->step) * a->step;
    a->log10_scale = 0;
}

static double frac(const Axis *a, double v)
{
    if (a->log10_scale)
        return (log10(v) - log10(a->lo)) / (log10(a->hi) - log10(a->lo));
    return (v - a->lo) / (a->hi - a->lo);
}

static void tick_text(double v, double step, char *out, size_t n)
{
    int decimals = step >= 1 ? 0 : (int)ceil(-log10(step) - 1e-9);
    snprintf(out, n, "%.*f", decimals, fabs(v) < step * 1e-9 ? 0.0 : v);
}

/* A time tick as m:ss or h:mm:ss, with as many decimals as the ticks'
 * spacing needs. */
static void time_tick(double t, double step, char *out, size_t n)
{
    int dec = step >= 1 ? 0 : step >= 0.1 ? 1 : step >= 0.01 ? 2 : 3;
    double scale = pow(10, dec);
    t = round(t * scale) / scale;
    long long whole = (long long)floor(t + 1e-9);
    double sec = (double)(whole % 60) + (t - (double)whole);
    char ss[16];
    snprintf(ss, sizeof(ss), "%0*.*f", dec ? dec + 3 : 2, dec, sec);
    if (whole >= 3600)
        snprintf(out, n, "%lld:%02lld:%s", whole / 3600, whole / 60 % 60, ss);
    else
        snprintf(out, n, "%lld:%s", whole / 60, ss);
}

static void svg_open(FILE *f, int height, const char *kind, const char *output)
{
    fprintf(f, "<svg class=\"chart\" viewBox=\"0 0 %d %d\" role=\"img\" "
            "data-chart=\"%s\" data-output=\"", W, height, kind);
    report_put_text(f, output);
    fprintf(f, "\">\n");
}

/* Frame, grid lines, tick labels and axis titles. */
static void axes(FILE *f, int ph, const Axis *xa, const Axis *ya,
                 const char *xlabel, const char *ylabel, double fps)
{
    char t[64];
    fprintf(f, "<g class=\"axes\">");
    for (double v = ya->lo; v <= ya->hi + ya->step * 1e-6; v += ya->step) {
        double y = MT + (1 - frac(ya, v)) * ph;
        tick_text(v, ya->step, t, sizeof(t));
        fprintf(f, "<line class=\"grid\" x1=\"%d\" x2=\"%d\" y1=\"%.1f\" "
                "y2=\"%.1f\"/><text class=\"tick\" x=\"%d\" y=\"%.1f\" "
                "text-anchor=\"end\">%s</text>", ML, ML + PW, y, y, ML - 6,
                y + 4, t);
    }
    if (xa->log10_scale) {
        for (double dec = pow(10, floor(log10(xa->lo))); dec <= xa->hi; dec *= 10)
            for (int m = 1; m <= 5; m += m == 1 ? 1 : 3) {
                double v = dec * m;
                if (v < xa->lo || v > xa->hi)
                    continue;
                double x = ML + frac(xa, v) * PW;
                fprintf(f, "<line class=\"grid\" x1=\"%.1f\" x2=\"%.1f\" "
                        "y1=\"%d\" y2=\"%d\"/><text class=\"tick\" x=\"%.1f\" "
                        "y=\"%d\" text-anchor=\"middle\">%g</text>", x, x, MT,
                        MT + ph, x, MT + ph + 16, v);
            }
    } else {
        for (double v = ceil(xa->lo / xa->step - 1e-9) * xa->step;
             v <= xa->hi + xa->step * 1e-6; v += xa->step) {
            double x = ML + frac(xa, v) * PW;
            tick_text(v, xa->step, t, sizeof(t));
            fprintf(f, "<line class=\"grid\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" "
                    "y2=\"%d\"/><text class=\"tick\" x=\"%.1f\" y=\"%d\" "
                    "text-anchor=\"middle\">%s", x, x, MT, MT + ph, x,
                    MT + ph + 16, t);
            if (isfinite(fps) && fps > 0) {
                time_tick(v / fps, xa->step / fps, t, sizeof(t));
                fprintf(f, "<tspan class=\"time\" x=\"%.1f\" dy=\"14\">%s"
                        "</tspan>", x, t);
            }
            fprintf(f, "</text>");
        }
    }
    fprintf(f, "<rect class=\"frame\" x=\"%d\" y=\"%d\" width=\"%d\" "
            "height=\"%d\"/>", ML, MT, PW, ph);
    fprintf(f, "<text class=\"label\" x=\"%d\" y=\"%d\" text-anchor=\"middle\">",
            ML + PW / 2, MT + ph + 46);
    report_put_text(f, xlabel);
    fprintf(f, "</text><text class=\"label\" transform=\"translate(18 %d) "
            "rotate(-90)\" text-anchor=\"middle\">", MT + ph / 2);
    report_put_text(f, ylabel);
    fprintf(f, "</text></g>\n");
}

static void put_point(FILE *f, double x, double y, size_t *count)
{
    fprintf(f, "%s%.1f,%.1f", *count ? " " : "", x, y);
    (*count)++;
}

/* One log's polyline; the points attribute ends with a data-points count. */
static void curve_line(FILE *f, const ReportCurve *c, const Axis *xa,
                       const Axis *ya, int ph, const char *output)
{
    size_t finite = 0;
    for (size_t i = 0; i < c->n; i++)
        finite += isfinite(c->values[i]) != 0;
    int decimate = finite > 2 * (size_t)PW;
    fprintf(f, "<polyline class=\"curve\" stroke=\"%s\" data-log=\"", c->colour);
    report_put_text(f, c->label);
    fprintf(f, "\" data-output=\"");
    report_put_text(f, output);
    fprintf(f, "\" data-frames=\"%zu\" data-decimated=\"%d\" points=\"",
            finite, decimate);
    size_t count = 0;
    long col = -1;
    size_t lo_i = 0, hi_i = 0;
    for (size_t i = 0; i <= c->n; i++) {
        int end = i == c->n;
        double v = end ? 0 : c->values[i];
        if (!end && !isfinite(v))
            continue;
        double x = end ? 0 : ML + frac(xa, c->frames[i]) * PW;
        if (!decimate) {
            if (!end)
                put_point(f, x, MT + (1 - frac(ya, v)) * ph, &count);
            continue;
        }
        long k = end ? -2 : lrint(floor(x - ML));
        if (k != col && col >= 0) {
            /* the column's extremes in the order they occur */
            size_t a = lo_i < hi_i ? lo_i : hi_i, b = lo_i < hi_i ? hi_i : lo_i;
            double cx = ML + col + 0.5;
            put_point(f, cx, MT + (1 - frac(ya, c->values[a])) * ph, &count);
            if (b != a)
                put_point(f, cx, MT + (1 - frac(ya, c->values[b])) * ph, &count);
        }
        if (end)
            break;
        if (k != col) {
            col = k;
            lo_i = hi_i = i;
        } else {
            lo_i = v < c->values[lo_i] ? i : lo_i;
            hi_i = v > c->values[hi_i] ? i : hi_i;
        }
    }
    fprintf(f, "\" data-points=\"%zu\"><title>", count);
    report_put_text(f, c->label);
    fprintf(f, "</title></polyline>\n");
}

static void value_range(const ReportCurve *c, size_t nc, double *lo, double *hi)
{
    *lo = INFINITY;
    *hi = -INFINITY;
    for (size_t s = 0; s < nc; s++)
        for (size_t i = 0; i < c[s].n; i++)
            if (isfinite(c[s].values[i])) {
                *lo = fmin(*lo, c[s].values[i]);
                *hi = fmax(*hi, c[s].values[i]);
            }
    if (!isfinite(*lo))
        *lo = 0, *hi = 1;
}

void report_svg_curves(FILE *f, const char *output, const char *ylabel,
                       const ReportCurve *c, size_t nc, double fps,
                       const ReportMark *marks, size_t nm)
{
    const int ph = 250;
    double x0 = INFINITY, x1 = -INFINITY, lo, hi;
    for (size_t s = 0; s < nc; s++)
        if (c[s].n) {
            x0 = fmin(x0, c[s].frames[0]);
            x1 = fmax(x1, c[s].frames[c[s].n - 1]);
        }
    Axis xa, ya;
    value_range(c, nc, &lo, &hi);
    nice_axis(x0, x1 > x0 ? x1 : x0 + 1, 10, 1, &xa);
    nice_axis(lo, hi, 5, 0, &ya);
    svg_open(f, MT + ph + MB + (isfinite(fps) ? 10 : 0), "curve", output);
    axes(f, ph, &xa, &ya, !(isfinite(fps) && fps > 0) ? "frame number"
         : xa.hi / fps >= 3600 ? "frame number (and time, h:mm:ss)"
         : "frame number (and time, m:ss)", ylabel, fps);
    for (size_t m = 0; m < nm; m++) {
        double x = ML + frac(&xa, marks[m].first) * PW;
        if (marks[m].boundary) {
            fprintf(f, "<line class=\"window\" x1=\"%.1f\" x2=\"%.1f\" "
                    "y1=\"%d\" y2=\"%d\"><title>", x, x, MT, MT + ph);
            report_put_text(f, marks[m].title);
            fprintf(f, "</title></line>\n");
        } else if (isnan(marks[m].value)) {
            double w = fmax(1, (marks[m].last - marks[m].first) / (xa.hi - xa.lo) * PW);
            fprintf(f, "<rect class=\"span\" x=\"%.1f\" y=\"%d\" width=\"%.1f\" "
                    "height=\"%d\" fill=\"%s\"><title>", x, MT, w, ph,
                    marks[m].colour);
            report_put_text(f, marks[m].title);
            fprintf(f, "</title></rect>\n");
        }
    }
    for (size_t s = 0; s < nc; s++)
        curve_line(f, &c[s], &xa, &ya, ph, output);
    for (size_t m = 0; m < nm; m++) {
        if (isnan(marks[m].value) || marks[m].boundary)
            continue;
        fprintf(f, "<circle class=\"worst\" cx=\"%.1f\" cy=\"%.1f\" r=\"4\" "
                "stroke=\"%s\"><title>", ML + frac(&xa, marks[m].first) * PW,
                MT + (1 - frac(&ya, marks[m].value)) * ph, marks[m].colour);
        report_put_text(f, marks[m].title);
        fprintf(f, "</title></circle>\n");
    }
    fprintf(f, "</svg>\n");
}

void report_svg_histogram(FILE *f, const char *output, const char *xlabel,
                          const ReportCurve *c, size_t nc)
{
    enum { BINS = 40 };
    const int ph = 150;
    double lo, hi;
    value_range(c, nc, &lo, &hi);
    if (!(hi > lo))
        lo -= 0.5, hi += 0.5;
    size_t counts[BINS];
    double share_max = 0, *shares = malloc(nc * BINS * sizeof(*shares));
    if (!shares)
        return;
    for (size_t s = 0; s < nc; s++) {
        report_histogram(c[s].values, c[s].n, lo, hi, BINS, counts);
        size_t total = 0;
        for (int b = 0; b < BINS; b++)
            total += counts[b];
        for (int b = 0; b < BINS; b++) {
            shares[s * BINS + b] = total ? 100.0 * counts[b] / total : 0;
            share_max = fmax(share_max, shares[s * BINS + b]);
        }
    }
    /* the bins span the data exactly; the ticks fall on nice values in it */
    Axis xa, ya;
    nice_axis(lo, hi, 10, 0, &xa);
    xa.lo = lo;
    xa.hi = hi;
    nice_axis(0, share_max > 0 ? share_max : 1, 4, 0, &ya);
    svg_open(f, MT + ph + MB, "histogram", output);
    axes(f, ph, &xa, &ya, xlabel, "share of frames (%)", NAN);
    for (size_t s = 0; s < nc; s++) {
        fprintf(f, "<polyline class=\"hist\" stroke=\"%s\" fill=\"%s\" "
                "data-log=\"", c[s].colour, c[s].colour);
        report_put_text(f, c[s].label);
        fprintf(f, "\" data-bins=\"%d\" points=\"%d,%d", BINS, ML, MT + ph);
        for (int b = 0; b < BINS; b++) {
            double y = MT + (1 - frac(&ya, shares[s * BINS + b])) * ph;
            fprintf(f, " %.1f,%.1f %.1f,%.1f", ML + (double)b * PW / BINS, y,
                    ML + (double)(b + 1) * PW / BINS, y);
        }
        fprintf(f, " %d,%d\"><title>", ML + PW, MT + ph);
        report_put_text(f, c[s].label);
        fprintf(f, "</title></polyline>\n");
    }
    fprintf(f, "</svg>\n");
    free(shares);
}

void report_svg_rate_quality(FILE *f, const char *ylabel,
                             const ReportRQSeries *s, size_t ns)
{
    const int ph = 320;
    double rlo = INFINITY, rhi = -INFINITY, qlo = INFINITY, qhi = -INFINITY;
    for (size_t k = 0; k < ns; k++)
        for (size_t i = 0; i < s[k].n; i++) {
            rlo = fmin(rlo, s[k].kbps[i]);
            rhi = fmax(rhi, s[k].kbps[i]);
            qlo = fmin(qlo, s[k].quality[i]);
            qhi = fmax(qhi, s[k].quality[i]);
        }
    if (!isfinite(rlo))
        return;
    Axis xa = { rlo / 1.25, rhi * 1.25, 0, 1 }, ya;
    nice_axis(qlo, qhi, 6, 0, &ya);
    svg_open(f, MT + ph + MB, "rate-quality", ylabel);
    axes(f, ph, &xa, &ya, "bitrate (kbit/s, log scale)", ylabel, NAN);
    for (size_t k = 0; k < ns; k++) {
        fprintf(f, "<polyline class=\"rq\" stroke=\"%s\" data-ladder=\"",
                s[k].colour);
        report_put_text(f, s[k].name);
        fprintf(f, "\" data-points=\"%zu\" points=\"", s[k].n);
        for (size_t i = 0; i < s[k].n; i++)
            fprintf(f, "%s%.1f,%.1f", i ? " " : "",
                    ML + frac(&xa, s[k].kbps[i]) * PW,
                    MT + (1 - frac(&ya, s[k].quality[i])) * ph);
        fprintf(f, "\"/>\n");
        for (size_t i = 0; i < s[k].n; i++) {
            fprintf(f, "<circle class=\"rqpt\" cx=\"%.1f\" cy=\"%.1f\" r=\"5\" "
                    "fill=\"%s\"><title>", ML + frac(&xa, s[k].kbps[i]) * PW,
                    MT + (1 - frac(&ya, s[k].quality[i])) * ph, s[k].colour);
            report_put_text(f, s[k].labels[i]);
            fprintf(f, ": %.1f kbit/s, %.4f</title></circle>\n", s[k].kbps[i],
                    s[k].quality[i]);
        }
    }
    fprintf(f, "</svg>\n");
}
