/* vq_note_sync: the offset search's result (vq_sync_find), kept for the
 * JSON and XML logs and said in the stats stream. Doubles print with
 * %.17g (every value exactly), in the C locale. */
#include <math.h>
#include <stdio.h>

#include "base/c_locale.h"
#include "context.h"

int vq_note_sync(VqContext *ctx, const VqSyncResult *res, int applied)
{
    if (!ctx || !res || (applied && !res->found))
        return VQ_EINVAL;
    ctx->sync = *res;
    ctx->sync.why[sizeof(ctx->sync.why) - 1] = '\0';
    ctx->sync_applied = applied != 0;
    ctx->has_sync = true;
    if (ctx->sink.write)
        vq_ndjson_sync(ctx);
    return 0;
}

/* The differences exist once two offsets were compared (lo <= hi). */
static bool compared(const VqSyncResult *r)
{
    return r->lo < r->hi;
}

static void json_num(FILE *f, const char *key, double v)
{
    if (isfinite(v))
        fprintf(f, ", \"%s\": %.17g", key, v);
    else
        fprintf(f, ", \"%s\": null", key);
}

/* "sync": {...}, in the "vqhip" object, only after vq_note_sync. */
void vq_log_sync_json(const VqContext *ctx, FILE *f)
{
    if (!ctx->has_sync)
        return;
    const VqSyncResult *r = &ctx->sync;
    CLocale loc;
    c_locale_enter(&loc);
    fprintf(f, "    \"sync\": { \"found\": %s, \"applied\": %s, "
            "\"offset\": %d", r->found ? "true" : "false",
            ctx->sync_applied ? "true" : "false", r->found ? r->offset : 0);
    json_num(f, "confidence", r->confidence);
    if (compared(r)) {
        json_num(f, "mse_best", r->best_mse);
        json_num(f, "mse_next", r->second_mse);
        fprintf(f, ", \"lo\": %d, \"hi\": %d, \"frames\": %u", r->lo, r->hi,
                r->compared);
    }
    json_num(f, "motion", r->motion);
    if (!r->found) {
        fprintf(f, ", \"why\": ");
        vq_log_json_str(f, r->why);
    }
    fprintf(f, " },\n");
    c_locale_leave(&loc);
}

void vq_log_sync_xml(const VqContext *ctx, FILE *f)
{
    if (!ctx->has_sync)
        return;
    const VqSyncResult *r = &ctx->sync;
    CLocale loc;
    c_locale_enter(&loc);
    fprintf(f, "    <sync found=\"%s\" applied=\"%s\" offset=\"%d\" "
            "confidence=\"%.17g\"", r->found ? "true" : "false",
            ctx->sync_applied ? "true" : "false", r->found ? r->offset : 0,
            r->confidence);
    if (compared(r))
        fprintf(f, " mse_best=\"%.17g\" mse_next=\"%.17g\" lo=\"%d\" "
                "hi=\"%d\" frames=\"%u\"", r->best_mse, r->second_mse, r->lo,
                r->hi, r->compared);
    fprintf(f, " motion=\"%.17g\"", r->motion);
    if (!r->found)
        vq_log_xml_attr(f, "why", r->why);
    fprintf(f, " />\n");
    c_locale_leave(&loc);
}
