/* The tools' one clock: monotonic seconds, for rates, pacing and timeouts. */
#ifndef VQHIP_TOOLS_TOOL_CLOCK_H
#define VQHIP_TOOLS_TOOL_CLOCK_H

#include <time.h>

static inline double tool_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

#endif
