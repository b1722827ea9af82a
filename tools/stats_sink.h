/* Where the CLI's stats stream goes (--stats-url): a file, standard
 * output ("-", "pipe:1"), or a UDP or TCP peer (udp://HOST:PORT,
 * tcp://HOST:PORT) through a plain POSIX socket. The CLI does not link
 * FFmpeg; the filter opens the same URLs with libavformat. */
#ifndef VQHIP_TOOLS_STATS_SINK_H
#define VQHIP_TOOLS_STATS_SINK_H

#include <stddef.h>

typedef struct StatsSink {
    int fd;        /* -1: closed */
    int own;       /* close fd at the end (not standard output) */
    int socket;    /* send() without SIGPIPE */
    int is_stdout;
} StatsSink;

/* 0, or a CLI exit status (2: malformed URL, 1: cannot open or connect)
 * with the reason in err. */
int stats_sink_open(StatsSink *s, const char *url, char *err, size_t err_size);
/* VqWriteFn: writes the whole line; 0 or -1. */
int stats_sink_write(void *opaque, const char *line, size_t len);
void stats_sink_close(StatsSink *s);

#endif
