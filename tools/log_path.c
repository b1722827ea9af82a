/* The CLI's check of its log path, before the run. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "log_path.h"

/* The log can be written: its folder takes a new file (checked before
 * the run, not after it). */
int check_log_path(const char *path)
{
    struct stat st;
    if (!strcmp(path, "-"))
        return 0;
    if (!lstat(path, &st) && !S_ISREG(st.st_mode)) {
        /* a device or pipe is written in place, not replaced */
        FILE *f = fopen(path, "a");
        if (!f)
            fprintf(stderr, "vqhip: cannot write the log '%s': %s\n", path,
                    strerror(errno));
        else
            fclose(f);
        return f ? 0 : -1;
    }
    size_t n = strlen(path) + 32;
    char *tmp = malloc(n);
    if (!tmp)
        return -1;
    snprintf(tmp, n, "%s.tmp-%ld", path, (long)getpid());
    FILE *f = fopen(tmp, "w");
    int e = errno;
    if (f) {
        fclose(f);
        remove(tmp);
    }
    free(tmp);
    if (!f)
        fprintf(stderr, "vqhip: cannot write the log '%s': %s\n", path,
                strerror(e));
    return f ? 0 : -1;
}
