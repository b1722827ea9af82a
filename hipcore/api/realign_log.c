/* vq_note_realign: drops and repeats found by the caller (vq_realign_*),
 * kept for the JSON and XML logs and said in the stats stream. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "base/c_locale.h"
#include "base/grow.h"
#include "context.h"

int vq_note_realign(VqContext *ctx, unsigned frame, double t,
                    const VqRealignEvent *ev)
{
    if (!ctx || !ev || (ev->delta != -1 && ev->delta != 1))
        return VQ_EINVAL;
    VqRealignNote *notes = vq_grow(ctx->realign, ctx->n_realign,
                                   &ctx->realign_cap, sizeof(*notes), 8);
    if (!notes)
        return VQ_ENOMEM;
    ctx->realign = notes;
    VqRealignNote *n = &ctx->realign[ctx->n_realign++];
    n->frame = frame;
    n->t = t;
    n->ev = *ev;
    if (ctx->sink.write)
        vq_ndjson_realign(ctx, n);
    return 0;
}

static const char *input_name(const VqRealignEvent *ev)
{
    return ev->input ? "distorted" : "reference";
}

static const char *kind_name(const VqRealignEvent *ev)
{
    return ev->repeat ? "repeat" : "drop";
}

/* "realign": [...], in the "vqhip" object, only when there are events
 * (a log without them is the log of a run without --realign). */
void vq_log_realign_json(const VqContext *ctx, FILE *f)
{
    if (!ctx->n_realign)
        return;
    CLocale loc;
    c_locale_enter(&loc);
    fprintf(f, "    \"realign\": [");
    for (unsigned i = 0; i < ctx->n_realign; i++) {
        const VqRealignNote *n = &ctx->realign[i];
        fprintf(f, "%s\n      { \"frame\": %u, \"time\": ", i ? "," : "",
                n->frame);
        if (isfinite(n->t))
            fprintf(f, "%.17g", n->t);
        else
            fprintf(f, "null");
        fprintf(f, ", \"input\": \"%s\", \"kind\": \"%s\", \"delta\": %d, "
                "\"offset\": %d, \"ref_frame\": %llu, \"dis_frame\": %llu }",
                input_name(&n->ev), kind_name(&n->ev), n->ev.delta,
                n->ev.offset, n->ev.ref_frame, n->ev.dis_frame);
    }
    fprintf(f, "\n    ],\n");
    c_locale_leave(&loc);
}

void vq_log_realign_xml(const VqContext *ctx, FILE *f)
{
    CLocale loc;
    c_locale_enter(&loc);
    for (unsigned i = 0; i < ctx->n_realign; i++) {
        const VqRealignNote *n = &ctx->realign[i];
        fprintf(f, "    <realign frame=\"%u\"", n->frame);
        if (isfinite(n->t))
            fprintf(f, " time=\"%.17g\"", n->t);
        fprintf(f, " input=\"%s\" kind=\"%s\" delta=\"%d\" offset=\"%d\" "
                "ref_frame=\"%llu\" dis_frame=\"%llu\" />\n",
                input_name(&n->ev), kind_name(&n->ev), n->ev.delta,
                n->ev.offset, n->ev.ref_frame, n->ev.dis_frame);
    }
    c_locale_leave(&loc);
}

void vq_realign_notes_free(VqContext *ctx)
{
    free(ctx->realign);
    ctx->realign = NULL;
    ctx->n_realign = ctx->realign_cap = 0;
}
