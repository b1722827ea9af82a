/* Error messages that travel with negative VQ_E* codes. */
#ifndef VQHIP_BASE_ERROR_H
#define VQHIP_BASE_ERROR_H

#include <stddef.h>

#include "vqhip.h"

#define VQ_ERR_MSG_SIZE 1024

typedef struct VqErrBuf {
    char msg[VQ_ERR_MSG_SIZE];
} VqErrBuf;

#if defined(__GNUC__)
#define VQ_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define VQ_PRINTF(a, b)
#endif

/* Records the message (printf-style) and returns code, so that callers can
 * write `return vq_fail(e, VQ_EINVAL, "...", ...);`. e may be NULL. */
int vq_fail(VqErrBuf *e, int code, const char *fmt, ...) VQ_PRINTF(3, 4);
void vq_err_clear(VqErrBuf *e);

#endif
