#include <stdarg.h>
#include <stdio.h>

#include "log.h"

void vq_log(const VqLogger *log, VqLogLevel level, const char *fmt, ...)
{
    if (level > log->level)
        return;
    char msg[VQ_ERR_MSG_SIZE];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    if (log->fn)
        log->fn(log->opaque, level, msg);
    else
        fprintf(stderr, "vqhip: %s\n", msg);
}
