#include <stdlib.h>
#include <unistd.h>

#include "cli_run.h"

volatile sig_atomic_t cli_interrupted;

static void on_signal(int sig)
{
    cli_interrupted = sig;
}

void cli_catch_interrupts(void)
{
    signal(SIGINT, on_signal);
    signal(SIGTERM, on_signal);
}

unsigned cli_cpu_count(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (unsigned)n : 1;
}

void *cli_plain_alloc(void *ctx, size_t size)
{
    (void)ctx;
    return calloc(1, size);
}

void cli_plain_free(void *ctx, void *p)
{
    (void)ctx;
    free(p);
}
