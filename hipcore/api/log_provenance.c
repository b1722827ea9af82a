/*
 * What a log says about where its numbers came from, inside vqhip's own
 * block (libvmaf's keys and structure stay as they are): vqhip's version
 * and source revision, the run's settings, the frames scored and not
 * scored, each model's spec, origin and SHA-256, and every extractor's
 * options. Written with the C locale active (log_writer.c).
 */
#include <stdio.h>
#include <string.h>

#include "context.h"

static const char *backend_choice(VqBackend b)
{
    return b == VQ_BACKEND_HIP ? "hip" : b == VQ_BACKEND_CPU ? "cpu" : "auto";
}

void vq_log_json_text(FILE *f, const char *text)
{
    fputc('"', f);
    for (const char *p = text ? text : ""; *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(f, "\\%c", *p);
        else if ((unsigned char)*p < 0x20)
            fprintf(f, "\\u%04x", (unsigned char)*p);
        else
            fputc(*p, f);
    }
    fputc('"', f);
}

void vq_log_xml_text(FILE *f, const char *text)
{
    fputc('"', f);
    for (const char *p = text ? text : ""; *p; p++) {
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

/* Whether frame i has a value in the log (the writers' rule). */
static bool logged(const VqContext *ctx, unsigned i)
{
    if (i >= ctx->run.n_delivered || !vq_collector_scored(&ctx->sel.coll, i))
        return false;
    double v;
    for (unsigned j = 0; j < ctx->sel.coll.n; j++)
        if (vq_collector_get(&ctx->sel.coll, (int)j, i, &v))
            return true;
    return false;
}

/* Frames submitted but not in the log, as ranges "a-b" or "a" joined by
 * commas (json: as a JSON string). Returns how many. */
static unsigned not_scored(const VqContext *ctx, FILE *f, unsigned n_sub)
{
    unsigned count = 0, first = 0;
    bool open = false, any = false;
    for (unsigned i = 0; i <= n_sub; i++) {
        bool gap = i < n_sub && !logged(ctx, i);
        count += gap;
        if (gap && !open) {
            first = i;
            open = true;
        } else if (!gap && open) {
            fprintf(f, "%s%u", any ? "," : "", first);
            if (i - 1 > first)
                fprintf(f, "-%u", i - 1);
            open = false;
            any = true;
        }
    }
    return count;
}

static unsigned scored(const VqContext *ctx, unsigned n_sub)
{
    unsigned n = 0;
    for (unsigned i = 0; i < n_sub; i++)
        n += logged(ctx, i);
    return n;
}

static unsigned submitted(const VqContext *ctx)
{
    VqRunInfo ri;
    vq_run_info(ctx, &ri);
    return ri.submitted;
}

/* An extractor's options as "key=value:key=value": those not at their
 * default (with the name in front, a spec that selects it again), or with
 * `all` every option (some defaults are "unset" values outside the range a
 * spec may give, such as cambi's enc_width=0: that list is for reading). */
static void fex_opts(const VqFex *fex, bool all, char *buf, size_t size)
{
    size_t len = 0;
    buf[0] = '\0';
    for (const VqOption *o = fex->desc->options; o && o->name && len < size; o++) {
        char val[VQ_OPT_STRING_SIZE];
        if (!all && vq_opt_is_default(o, fex->priv))
            continue;
        vq_opt_format(o, fex->priv, val, sizeof(val));
        len += (size_t)snprintf(buf + len, size - len, "%s%s=%s", len ? ":" : "",
                                o->name, val);
    }
}

static void fex_spec(const VqFex *fex, char *buf, size_t size)
{
    char opts[4096];
    fex_opts(fex, false, opts, sizeof(opts));
    snprintf(buf, size, "name=%s%s%s", fex->desc->name, *opts ? ":" : "", opts);
}

void vq_log_provenance_json(const VqContext *ctx, FILE *f)
{
    const VqConfig *cfg = &ctx->run.cfg;
    fprintf(f, "    \"vqhip_version\": \"%s\",\n    \"revision\": ", vq_version());
    vq_log_json_text(f, vq_revision());
    fprintf(f, ",\n    \"precision\": %d,\n", ctx->log_precision);
    fprintf(f, "    \"config\": { \"backend\": \"%s\", \"strict\": %s, "
            "\"subsample\": %u, \"verify\": %u },\n", backend_choice(cfg->backend),
            cfg->strict ? "true" : "false",
            cfg->n_subsample ? cfg->n_subsample : 1, cfg->verify);
    unsigned n_sub = submitted(ctx);
    fprintf(f, "    \"frames\": { \"submitted\": %u, \"received\": %u, "
            "\"scored\": %u, \"not_scored\": \"", n_sub, ctx->run.n_delivered,
            scored(ctx, n_sub));
    unsigned gaps = not_scored(ctx, f, n_sub);
    fprintf(f, "\", \"n_not_scored\": %u },\n    \"models\": [", gaps);
    for (unsigned i = 0; i < ctx->sel.n_model; i++) {
        VqModelOrigin o;
        vq_model_origin(ctx->sel.model[i], &o);
        fprintf(f, "%s\n      { \"name\": ", i ? "," : "");
        vq_log_json_text(f, vq_model_name(ctx->sel.model[i]));
        fprintf(f, ", \"version\": ");
        if (o.version)
            vq_log_json_text(f, o.version);
        else
            fputs("null", f);
        fprintf(f, ", \"origin\": \"%s\", \"sha256\": \"%s\", \"spec\": ",
                o.origin, o.sha256);
        vq_log_json_text(f, o.spec);
        fputs(" }", f);
    }
    fprintf(f, "%s],\n    \"extractors\": [", ctx->sel.n_model ? "\n    " : "");
    const VqFexList *fx = &ctx->sel.fexs;
    for (unsigned i = 0; i < fx->n; i++) {
        const VqFex *fex = fx->fex[i];
        char spec[4200];
        fex_spec(fex, spec, sizeof(spec));
        fprintf(f, "%s\n      { \"name\": \"%s\", \"spec\": ", i ? "," : "",
                fex->desc->name);
        vq_log_json_text(f, spec);
        fputs(", \"options\": {", f);
        unsigned k = 0;
        for (const VqOption *o = fex->desc->options; o && o->name; o++) {
            char val[VQ_OPT_STRING_SIZE];
            vq_opt_format(o, fex->priv, val, sizeof(val));
            fprintf(f, "%s\"%s\": ", k++ ? ", " : " ", o->name);
            vq_log_json_text(f, val);
        }
        fprintf(f, "%s} }", k ? " " : "");
    }
    fprintf(f, "%s],\n", fx->n ? "\n    " : "");
}

void vq_log_provenance_xml(const VqContext *ctx, FILE *f)
{
    const VqConfig *cfg = &ctx->run.cfg;
    fprintf(f, "    <provenance vqhip_version=\"%s\" revision=", vq_version());
    vq_log_xml_text(f, vq_revision());
    fprintf(f, " precision=\"%d\" />\n", ctx->log_precision);
    fprintf(f, "    <config backend=\"%s\" strict=\"%s\" subsample=\"%u\" "
            "verify=\"%u\" />\n", backend_choice(cfg->backend),
            cfg->strict ? "true" : "false",
            cfg->n_subsample ? cfg->n_subsample : 1, cfg->verify);
    unsigned n_sub = submitted(ctx);
    fprintf(f, "    <run submitted=\"%u\" received=\"%u\" scored=\"%u\" "
            "not_scored=\"", n_sub, ctx->run.n_delivered, scored(ctx, n_sub));
    unsigned gaps = not_scored(ctx, f, n_sub);
    fprintf(f, "\" n_not_scored=\"%u\" />\n", gaps);
    for (unsigned i = 0; i < ctx->sel.n_model; i++) {
        VqModelOrigin o;
        vq_model_origin(ctx->sel.model[i], &o);
        fputs("    <model name=", f);
        vq_log_xml_text(f, vq_model_name(ctx->sel.model[i]));
        if (o.version) {
            fputs(" version=", f);
            vq_log_xml_text(f, o.version);
        }
        fprintf(f, " origin=\"%s\" sha256=\"%s\" spec=", o.origin, o.sha256);
        vq_log_xml_text(f, o.spec);
        fputs(" />\n", f);
    }
    for (unsigned i = 0; i < ctx->sel.fexs.n; i++) {
        const VqFex *fex = ctx->sel.fexs.fex[i];
        char text[4200];
        fprintf(f, "    <extractor name=\"%s\" spec=", fex->desc->name);
        fex_spec(fex, text, sizeof(text));
        vq_log_xml_text(f, text);
        fputs(" options=", f);
        fex_opts(fex, true, text, sizeof(text));
        vq_log_xml_text(f, text);
        fputs(" />\n", f);
    }
}

int vq_set_log_precision(VqContext *ctx, int digits)
{
    if (!ctx)
        return VQ_EINVAL;
    if (digits < 0 || digits > 17)
        return vq_fail(&ctx->err, VQ_EINVAL, "log precision %d: not 0 "
                       "(libvmaf's format) or 1 to 17 digits", digits);
    ctx->log_precision = digits;
    return 0;
}
