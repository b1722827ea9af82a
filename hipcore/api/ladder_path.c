/* The ladder's rule for a rendition's log file name (vq_ladder_log_path):
 * one rule for the filter's log_path and the CLI's -o. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "base/error.h"
#include "vqhip.h"

static int VQ_PRINTF(3, 4) why_not(char *why, size_t size, const char *fmt, ...)
{
    if (why && size) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(why, size, fmt, ap);
        va_end(ap);
    }
    return VQ_EINVAL;
}

int vq_ladder_log_path(char *out, size_t size, const char *pattern,
                       unsigned i, const char *label, char *why,
                       size_t why_size)
{
    if (!out || !size || !pattern)
        return why_not(why, why_size, "no log path");
    size_t k = 0;
    int named = 0;
    for (const char *p = pattern; *p; p++) {
        char piece[32];
        const char *add = piece;
        if (*p != '%') {
            piece[0] = *p;
            piece[1] = 0;
        } else if (p[1] == 'd') {
            snprintf(piece, sizeof(piece), "%u", i + 1);
            named = 1;
            p++;
        } else if (p[1] == 's') {
            add = label ? label : "";
            named = 1;
            p++;
        } else if (p[1] == '%') {
            strcpy(piece, "%");
            p++;
        } else {
            return why_not(why, why_size, "the log path '%s' holds '%%%c': "
                           "only %%d (the rendition's number), %%s (its "
                           "label) and %%%% are understood", pattern,
                           p[1] ? p[1] : ' ');
        }
        size_t len = strlen(add);
        if (k + len >= size)
            return why_not(why, why_size, "the log path '%s' is too long",
                           pattern);
        memcpy(out + k, add, len + 1);
        k += len;
    }
    if (!named)
        return why_not(why, why_size, "with several renditions the log path "
                       "must hold %%d (the rendition's number, from 1) or %%s "
                       "(its label), e.g. log_%%s.json; '%s' names one file",
                       pattern);
    out[k] = 0;
    return 0;
}
