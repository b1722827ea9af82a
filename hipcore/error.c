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

const char *vq_strerror(int err)
{
    switch (err) {
    case 0: return "success";
    case VQ_EINVAL: return "invalid argument";
    case VQ_ENOMEM: return "out of memory";
    case VQ_EAGAIN: return "no frame ready yet";
    case VQ_EOF: return "end of stream";
    case VQ_EDEVICE: return "GPU device error";
    case VQ_EUNSUPPORTED: return "not supported";
    case VQ_EIO: return "I/O error";
    case VQ_ENOTFOUND: return "not found";
    case VQ_EMODEL: return "invalid model";
    case VQ_ESTATE: return "call not valid in this state";
    default: return "unknown error";
    }
}
