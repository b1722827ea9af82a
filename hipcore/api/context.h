/*
 * The context behind the public VqContext handle: what the caller chose
 * (features, models), the run that scores them, and what the API hands
 * out. Only the API's files see this struct; every stage below takes the
 * narrower state it works on (run/pipeline.h).
 */
#ifndef VQHIP_API_CONTEXT_H
#define VQHIP_API_CONTEXT_H

#include "base/error.h"
#include "run/host_bufs.h"
#include "run/pipeline.h"
#include "run/selection.h"
#include "vqhip.h"

struct VqContext {
    VqErrBuf err;          /* vq_last_error */
    VqSelection sel;       /* features and models chosen; their outputs */
    VqPipeline run;        /* the frames' way through the backends */
    VqHostBufs host;       /* vq_host_alloc's buffers */
    VqScore *frame_scores; /* vq_receive's scores of one frame */
    unsigned frame_scores_cap;
    char incomplete[256];  /* vq_set_incomplete's reason */
};

/* stats.c: VQHIP_STATS=1 prints where the time went at vq_close. */
bool vq_stats_wanted(const VqContext *ctx);
void vq_stats_print(const VqContext *ctx);
void vq_stats_print_close(double seconds);

#endif
