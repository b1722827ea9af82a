#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fault.h"

static const char *const kind_names[] = {
    [VQ_FAULT_LAUNCH] = "launch", [VQ_FAULT_COPY] = "copy",
    [VQ_FAULT_HANG] = "hang",     [VQ_FAULT_LOST] = "lost",
    [VQ_FAULT_DROP] = "drop",
};

const char *vq_fault_name(VqFaultKind kind)
{
    return kind <= VQ_FAULT_DROP ? kind_names[kind] : "?";
}

int vq_faults_init(VqFaults *f, char *why, unsigned why_size)
{
    memset(f, 0, sizeof(*f));
    f->timeout = 60.0;
    const char *t = getenv("VQHIP_GPU_TIMEOUT");
    if (t && *t) {
        char *end;
        errno = 0;
        double v = strtod(t, &end);
        if (errno || *end || !(v > 0) || v > 1e6) {
            snprintf(why, why_size, "VQHIP_GPU_TIMEOUT=%s is not a number of "
                     "seconds", t);
            return -1;
        }
        f->timeout = v;
    }
    const char *env = getenv("VQHIP_FAULT");
    if (!env || !*env)
        return 0;
    char buf[256];
    snprintf(buf, sizeof(buf), "%s", env);
    char *save = NULL;
    for (char *tok = strtok_r(buf, ",", &save); tok;
         tok = strtok_r(NULL, ",", &save)) {
        char *at = strchr(tok, '@');
        unsigned k = 0;
        if (at) {
            *at = '\0';
            while (k <= VQ_FAULT_DROP && strcmp(tok, kind_names[k]))
                k++;
        }
        char *end = NULL;
        unsigned long frame = at ? strtoul(at + 1, &end, 10) : 0;
        if (!at || k > VQ_FAULT_DROP || !at[1] || *end || frame > 1u << 30 ||
            f->n == VQ_FAULT_MAX) {
            snprintf(why, why_size, "VQHIP_FAULT=%s not understood (KIND@FRAME, "
                     "comma separated, at most %d; kinds: launch, copy, hang, "
                     "lost, drop)", env, VQ_FAULT_MAX);
            return -1;
        }
        f->f[f->n].kind = (VqFaultKind)k;
        f->f[f->n].frame = (unsigned)frame;
        f->n++;
    }
    return 0;
}

bool vq_fault_fires(VqFaults *f, VqFaultKind kind)
{
    if (kind == VQ_FAULT_LOST && f->lost)
        return true;
    if (!f->armed)
        return false;
    for (unsigned i = 0; i < f->n; i++) {
        if (f->f[i].kind != kind || f->f[i].fired || f->frame < f->f[i].frame)
            continue;
        /* launch/copy/drop: exactly at their frame; lost/hang: from it on */
        if (kind != VQ_FAULT_LOST && kind != VQ_FAULT_HANG &&
            f->frame != f->f[i].frame)
            continue;
        f->f[i].fired = true;
        if (kind == VQ_FAULT_LOST)
            f->lost = true;
        return true;
    }
    return false;
}

int vq_fault_check(VqFaults *f, VqFaultKind kind, VqErrBuf *e,
                   const char *what)
{
    bool lost = vq_fault_fires(f, VQ_FAULT_LOST);
    if (!lost && !vq_fault_fires(f, kind))
        return 0;
    return vq_fail(e, VQ_EDEVICE, "GPU: %s failed at frame %u: %s "
                   "(injected by VQHIP_FAULT)", what, f->frame,
                   lost ? "the device was lost" : vq_fault_name(kind));
}

int vq_fault_watchdog(const VqFaults *f, VqErrBuf *e, double waited)
{
    return vq_fail(e, VQ_EDEVICE, "GPU: work did not complete within %.2f s "
                   "(watchdog; VQHIP_GPU_TIMEOUT=%g): the device is hung or "
                   "far too slow", waited, f->timeout);
}

double vq_wait_pause(double waited)
{
    if (waited < VQ_WAIT_SPIN)
        return 0.0;
    double nap = waited / 64.0;
    return nap < VQ_WAIT_MAX_NAP ? nap : VQ_WAIT_MAX_NAP;
}
