/*
 * Alert rules (vq_add_alert's syntax, docs/LIVE.md): parsed strictly, fed
 * one value at a time (a window's statistic or a frame's value), with
 * hysteresis: raised after K bad values in a row, cleared by one value
 * past the clear level. Events wait in a queue until handed out.
 */
#ifndef VQHIP_RUN_ALERTS_H
#define VQHIP_RUN_ALERTS_H

#include <stdbool.h>

#include "base/error.h"
#include "core/stat.h"

#define VQ_ALERT_NAME_SIZE 64
#define VQ_ALERT_TEXT_SIZE 160

typedef struct VqAlertRule {
    char name[VQ_ALERT_NAME_SIZE];
    char text[VQ_ALERT_TEXT_SIZE]; /* normalised, without the name */
    char output[VQ_ALERT_NAME_SIZE];
    bool window;          /* a window statistic (stat), or a frame value */
    VqStat stat;
    bool below;           /* '<': bad below level, clear above clear */
    double level, clear;
    unsigned k;
    int src;              /* resolved: collector id (frame) or output
                             index * n_stats + stat index (window); -1 */
    unsigned run;         /* bad values in a row while not active */
    bool active;
    unsigned n_raised;
} VqAlertRule;

typedef struct VqAlertEv {
    unsigned rule;
    bool raised;
    unsigned frame;
    int window;
    double pts, value;
} VqAlertEv;

typedef struct VqAlerts {
    VqAlertRule *rules;
    unsigned n, cap;
    VqAlertEv *ev;        /* queue: ev[head .. n_ev) wait */
    unsigned n_ev, head, cap_ev;
} VqAlerts;

/* Adds the rules of `text` (';' or '|' separated). On a syntax error
 * nothing is added and err names the bad token. */
int vq_alerts_parse(VqAlerts *a, const char *text, VqErrBuf *err);
/* Feeds rule r one value; queues an event when its state changes.
 * 1: an event was queued, 0: none, VQ_ENOMEM. */
int vq_alerts_feed(VqAlerts *a, unsigned r, double v, unsigned frame,
                   int window, double pts);
/* The next event waiting (NULL: none); it stays valid until the next
 * call that feeds or frees. */
const VqAlertEv *vq_alerts_next(VqAlerts *a);
void vq_alerts_free(VqAlerts *a);

#endif
