/* The windows' section of the JSON and XML logs (vq_use_windows): every
 * closed window with its statistics, numbers with 17 significant digits
 * so that they read back as the same doubles. */
#include "context.h"

static void put17(FILE *f, double v, int json)
{
    vq_log_put_num(f, v, json, 17);
}

void vq_log_windows_json(VqContext *ctx, FILE *f)
{
    const VqWindows *w = &ctx->win;
    fprintf(f, "  \"windows\": {\n");
    if (w->frames)
        fprintf(f, "    \"frames\": %u,\n", w->frames);
    else
        fprintf(f, "    \"seconds\": %.17g,\n", w->seconds);
    fprintf(f, "    \"list\": [");
    for (unsigned i = 0; i < w->n_done; i++) {
        const VqWindowResult *r = &w->done[i];
        fprintf(f, "%s\n      { \"index\": %u, \"first_frame\": %u, "
                "\"last_frame\": %u, \"frames\": %u, \"scored\": %u, "
                "\"start\": ", i ? "," : "", i, r->first_frame,
                r->last_frame, r->n_frames, r->n_scored);
        put17(f, r->start, 1);
        fprintf(f, ", \"end\": ");
        put17(f, r->end, 1);
        fprintf(f, ", \"partial\": %s,\n        \"metrics\": {",
                r->partial ? "true" : "false");
        for (unsigned o = 0; o < w->n_out; o++) {
            fprintf(f, "%s\n          \"%s\": {", o ? "," : "",
                    vq_windows_output(w, &ctx->sel.coll, o));
            for (unsigned k = 0; k < w->n_stats; k++) {
                fprintf(f, "%s \"%s\": ", k ? "," : "", w->stats[k].name);
                put17(f, w->done_values[r->values + o * w->n_stats + k], 1);
            }
            fprintf(f, " }");
        }
        fprintf(f, "\n        } }");
    }
    fprintf(f, "\n    ]\n  }");
}

void vq_log_windows_xml(VqContext *ctx, FILE *f)
{
    const VqWindows *w = &ctx->win;
    if (w->frames)
        fprintf(f, "  <windows frames=\"%u\">\n", w->frames);
    else
        fprintf(f, "  <windows seconds=\"%.17g\">\n", w->seconds);
    for (unsigned i = 0; i < w->n_done; i++) {
        const VqWindowResult *r = &w->done[i];
        fprintf(f, "    <window index=\"%u\" first_frame=\"%u\" "
                "last_frame=\"%u\" frames=\"%u\" scored=\"%u\" start=\"", i,
                r->first_frame, r->last_frame, r->n_frames, r->n_scored);
        put17(f, r->start, 0);
        fprintf(f, "\" end=\"");
        put17(f, r->end, 0);
        fprintf(f, "\" partial=\"%s\">\n", r->partial ? "true" : "false");
        for (unsigned o = 0; o < w->n_out; o++) {
            fprintf(f, "      <metric name=\"%s\"",
                    vq_windows_output(w, &ctx->sel.coll, o));
            for (unsigned k = 0; k < w->n_stats; k++) {
                fprintf(f, " %s=\"", w->stats[k].name);
                put17(f, w->done_values[r->values + o * w->n_stats + k], 0);
                fputc('"', f);
            }
            fprintf(f, " />\n");
        }
        fprintf(f, "    </window>\n");
    }
    fprintf(f, "  </windows>\n");
}
