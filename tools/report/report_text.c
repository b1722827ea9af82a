/* Text the page's writers share: escaping, numbers, times, colours, units. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report.h"

void report_put_text(FILE *f, const char *s)
{
    for (; s && *s; s++) {
        switch (*s) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        case '\'': fputs("&#39;", f); break;
        default: fputc(*s, f);
        }
    }
}

/* A JSON string that can sit inside <script>: '<', '>' and '&' escaped so
 * that no "</script>" can end the block early. */
void report_put_json_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)s; p && *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(f, "\\%c", *p);
        else if (*p < 0x20 || *p == '<' || *p == '>' || *p == '&')
            fprintf(f, "\\u%04x", *p);
        else
            fputc(*p, f);
    }
    fputc('"', f);
}

/* Six decimals, as libvmaf's logs print; tiny values in exponent form. */
void report_put_num(FILE *f, double v)
{
    if (!isfinite(v))
        fputs("n/a", f);
    else if (v == 0 || fabs(v) >= 1e-3)
        fprintf(f, "%.6f", v);
    else
        fprintf(f, "%.6e", v);
}

void report_put_json_num(FILE *f, double v)
{
    if (isfinite(v))
        fprintf(f, "%.17g", v);
    else
        fputs("null", f);
}

void report_format_time(double seconds, char *out, size_t outlen)
{
    if (!isfinite(seconds) || seconds < 0) {
        snprintf(out, outlen, "-");
        return;
    }
    long long ms = llround(seconds * 1000);
    long long h = ms / 3600000, m = ms / 60000 % 60, s = ms / 1000 % 60;
    if (ms % 1000)
        snprintf(out, outlen, "%lld:%02lld:%02lld.%03lld", h, m, s, ms % 1000);
    else
        snprintf(out, outlen, "%lld:%02lld:%02lld", h, m, s);
}

/* Tableau 10: distinct for most colour vision, readable on white. */
const char *report_colour(size_t i)
{
    static const char *const c[] = {
        "#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f",
        "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac",
    };
    return c[i % (sizeof(c) / sizeof(c[0]))];
}

static int starts(const char *s, const char *prefix)
{
    return !strncmp(s, prefix, strlen(prefix));
}

const char *report_unit(const char *o)
{
    if (strstr(o, "psnr"))
        return "dB";
    if (starts(o, "mse") || strstr(o, "_mse"))
        return "squared code values";
    if (strstr(o, "vmaf"))
        return "score, 0-100";
    if (starts(o, "cambi"))
        return "score, higher = more banding";
    if (strstr(o, "motion"))
        return "mean abs. difference, code values";
    if (strstr(o, "ssimulacra2"))
        return "score, up to 100";
    return "unitless";
}
