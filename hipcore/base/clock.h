/* The monotonic clock the run's timings (VQHIP_STATS, fps) are read from. */
#ifndef VQHIP_BASE_CLOCK_H
#define VQHIP_BASE_CLOCK_H

/* Seconds since an arbitrary point (CLOCK_MONOTONIC). */
double vq_now(void);

#endif
