/*
 * Diagnostics (warnings such as a fallback to the CPU, the GPU opened):
 * through the caller's callback, or to stderr. Every stage that says
 * something takes the run's logger; nothing below the API sees VqConfig's
 * callback otherwise.
 */
#ifndef VQHIP_BASE_LOG_H
#define VQHIP_BASE_LOG_H

#include "error.h"
#include "vqhip.h"

typedef struct VqLogger {
    /* NULL: "vqhip: <message>" on stderr */
    void (*fn)(void *opaque, VqLogLevel level, const char *msg);
    void *opaque;
    VqLogLevel level; /* messages above this level are dropped */
} VqLogger;

/* Formats the message (at most VQ_ERR_MSG_SIZE - 1 bytes) and hands it on. */
void vq_log(const VqLogger *log, VqLogLevel level, const char *fmt, ...)
    VQ_PRINTF(3, 4);

#endif
