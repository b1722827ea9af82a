#include <stdarg.h>
#include <stdio.h>

#include "error.h"

int vq_fail(VqErrBuf *e, int code, const char *fmt, ...)
{
    if (e) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
        va_end(ap);
    }
    return code;
}

void vq_err_clear(VqErrBuf *e)
{
    if (e)
        e->msg[0] = '\0';
}
