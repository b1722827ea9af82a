/*
 * Device-fault injection for tests: VQHIP_FAULT=KIND@FRAME[,KIND@FRAME...]
 * makes the platform layer fail as a real device would, at the given frame
 * (the pipeline tells the layer which frame its work belongs to). Always
 * compiled, inert unless the variable is set (read once per vq_gpu_open).
 *
 *   launch@N  the first kernel launch of frame N fails
 *   copy@N    the first plane upload or result download of frame N fails
 *   hang@N    the work of frame N never completes (the watchdog fires)
 *   lost@N    from frame N on, every GPU call fails (device lost)
 *   drop@N    frame N's results read back as zeros with no error (lost GPU
 *             commands: what verify= must catch)
 *
 * The watchdog: waiting for GPU work gives up after VQHIP_GPU_TIMEOUT
 * seconds (default 60) with a device error.
 */
#ifndef VQHIP_GPU_FAULT_H
#define VQHIP_GPU_FAULT_H

#include <stdbool.h>

#include "base/error.h"

#define VQ_FAULT_MAX 8

typedef enum VqFaultKind {
    VQ_FAULT_LAUNCH,
    VQ_FAULT_COPY,
    VQ_FAULT_HANG,
    VQ_FAULT_LOST,
    VQ_FAULT_DROP,
} VqFaultKind;

typedef struct VqFaults {
    struct {
        VqFaultKind kind;
        unsigned frame;
        bool fired;
    } f[VQ_FAULT_MAX];
    unsigned n;
    unsigned frame;     /* frame whose work is being enqueued */
    bool armed;         /* a frame was set: the probe at open is exempt */
    bool lost;          /* a lost@ fault fired: every call fails */
    unsigned hang_from; /* events recorded from this frame on never finish */
    bool hang;
    double timeout;     /* watchdog, seconds */
} VqFaults;

/* Reads VQHIP_FAULT and VQHIP_GPU_TIMEOUT; 0, or -1 with a message in
 * why (an unreadable VQHIP_FAULT is refused, never ignored). */
int vq_faults_init(VqFaults *f, char *why, unsigned why_size);
/* Whether a fault of `kind` fires now (for the current frame); it fires
 * once. LOST: whether the device is lost by now. */
bool vq_fault_fires(VqFaults *f, VqFaultKind kind);
/* VQ_EDEVICE with a message when the device is lost or a fault of `kind`
 * fires now; else 0. `what` names the call. */
int vq_fault_check(VqFaults *f, VqFaultKind kind, VqErrBuf *e,
                   const char *what);
/* The watchdog's message (VQ_EDEVICE) after `waited` seconds. */
int vq_fault_watchdog(const VqFaults *f, VqErrBuf *e, double waited);
/*
 * How long a watchdog wait pauses before its next query, `waited` seconds
 * into the wait: 0 (a yield only) for the first VQ_WAIT_SPIN seconds, so
 * that work finishing within a frame's time (0.33 ms at 3000 fps) costs no
 * added latency; after that 1/64 of the time waited so far, at most
 * VQ_WAIT_MAX_NAP, so a long wait (a slow GPU, a big frame) is prolonged by
 * under 2% and is queried a few hundred times, not thousands.
 */
#define VQ_WAIT_SPIN 0.002
#define VQ_WAIT_MAX_NAP 0.001
double vq_wait_pause(double waited);
/* Text of a fault for messages ("launch@12"). */
const char *vq_fault_name(VqFaultKind kind);

#endif
