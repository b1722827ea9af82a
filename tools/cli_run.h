/* What every scoring run of the vqhip CLI shares (the pair run in vqhip.c,
 * the ladder in cli_ladder.c): interrupts, the default worker count, plain
 * frame buffers. */
#ifndef VQHIP_TOOLS_CLI_RUN_H
#define VQHIP_TOOLS_CLI_RUN_H

#include <signal.h>
#include <stddef.h>

/* The number of the signal that stopped the run (SIGINT, SIGTERM), 0 while
 * none came; set once cli_catch_interrupts() ran. */
extern volatile sig_atomic_t cli_interrupted;
void cli_catch_interrupts(void);

/* The CPU's online cores, at least 1. */
unsigned cli_cpu_count(void);

/* Frame buffers from the heap, for FrameReader (ctx unused). */
void *cli_plain_alloc(void *ctx, size_t size);
void cli_plain_free(void *ctx, void *p);

#endif
