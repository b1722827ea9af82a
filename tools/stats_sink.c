#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <unistd.h>

#include "cli_args.h"
#include "stats_sink.h"

#ifndef MSG_NOSIGNAL
#define MSG_NOSIGNAL 0
#endif

/* HOST:PORT (HOST may be [v6]) into host and port; 0 or -1. */
static int split_host(const char *hp, char *host, size_t hsize, char *port,
                      size_t psize)
{
    const char *colon = strrchr(hp, ':'), *h = hp, *he;
    if (!colon || !colon[1] || colon == hp)
        return -1;
    he = colon;
    if (*h == '[') {
        if (he[-1] != ']')
            return -1;
        h++;
        he--;
    }
    if ((size_t)(he - h) >= hsize || strlen(colon + 1) >= psize ||
        strspn(colon + 1, "0123456789") != strlen(colon + 1))
        return -1;
    memcpy(host, h, (size_t)(he - h));
    host[he - h] = 0;
    strcpy(port, colon + 1);
    return atoi(port) > 0 && atoi(port) < 65536 ? 0 : -1;
}

static int open_socket(StatsSink *s, const char *url, int tcp, char *err,
                       size_t n)
{
    char host[256], port[8];
    if (split_host(url + 6, host, sizeof(host), port, sizeof(port))) {
        snprintf(err, n, "--stats-url %s: expected %s://HOST:PORT", url,
                 tcp ? "tcp" : "udp");
        return CLI_EXIT_USAGE;
    }
    struct addrinfo hints = { .ai_socktype = tcp ? SOCK_STREAM : SOCK_DGRAM };
    struct addrinfo *res, *ai;
    int g = getaddrinfo(host, port, &hints, &res);
    if (g) {
        snprintf(err, n, "--stats-url %s: %s", url, gai_strerror(g));
        return CLI_EXIT_ERROR;
    }
    int fd = -1, e = 0;
    for (ai = res; ai && fd < 0; ai = ai->ai_next) {
        fd = socket(ai->ai_family, ai->ai_socktype, ai->ai_protocol);
        if (fd >= 0 && connect(fd, ai->ai_addr, ai->ai_addrlen)) {
            e = errno;
            close(fd);
            fd = -1;
        }
    }
    freeaddrinfo(res);
    if (fd < 0) {
        snprintf(err, n, "--stats-url %s: cannot connect: %s", url,
                 strerror(e ? e : errno));
        return CLI_EXIT_ERROR;
    }
    *s = (StatsSink){ fd, 1, 1, 0 };
    return 0;
}

int stats_sink_open(StatsSink *s, const char *url, char *err, size_t n)
{
    *s = (StatsSink){ -1, 0, 0, 0 };
    /* a reader that went away is a failed line (reported), not the end of
     * the run */
    signal(SIGPIPE, SIG_IGN);
    if (!strcmp(url, "-") || !strcmp(url, "pipe:1") || !strcmp(url, "pipe:")) {
        *s = (StatsSink){ STDOUT_FILENO, 0, 0, 1 };
        return 0;
    }
    if (!strncmp(url, "udp://", 6) || !strncmp(url, "tcp://", 6))
        return open_socket(s, url, url[0] == 't', err, n);
    const char *path = !strncmp(url, "file:", 5) ? url + 5 : url;
    if (!*path || strstr(url, "://")) {
        snprintf(err, n, "--stats-url %s: not a file, '-', pipe:1, "
                 "udp://HOST:PORT or tcp://HOST:PORT", url);
        return CLI_EXIT_USAGE;
    }
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) {
        snprintf(err, n, "--stats-url %s: %s", url, strerror(errno));
        return CLI_EXIT_ERROR;
    }
    *s = (StatsSink){ fd, 1, 0, 0 };
    return 0;
}

int stats_sink_write(void *opaque, const char *line, size_t len)
{
    StatsSink *s = opaque;
    while (len && s->fd >= 0) {
        ssize_t w = s->socket ? send(s->fd, line, len, MSG_NOSIGNAL)
                              : write(s->fd, line, len);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        line += w;
        len -= (size_t)w;
    }
    return s->fd >= 0 ? 0 : -1;
}

void stats_sink_close(StatsSink *s)
{
    if (s->own && s->fd >= 0)
        close(s->fd);
    s->fd = -1;
}
