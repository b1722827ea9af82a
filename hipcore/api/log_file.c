/*
 * Where a log goes: its temporary file, the start-up check of its path, and
 * what is left at the path when a run fails.
 *
 * Invariant: nothing here opens an existing file at a name it made up. A
 * temporary file is created with O_CREAT|O_EXCL|O_NOFOLLOW under a random
 * name, so a file or a symbolic link planted at that name (or at any name
 * an earlier version used) makes the open fail and another name is tried;
 * nothing is ever written through it.
 */
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "log_file.h"

#define TMP_TRIES 64

/* Not for secrecy (O_EXCL is what makes the name safe): only so that
 * concurrent writers rarely collide. */
static uint64_t tmp_salt(void)
{
    static _Atomic uint64_t counter;
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    uint64_t x = (uint64_t)ts.tv_nsec ^ ((uint64_t)ts.tv_sec << 30) ^
                 ((uint64_t)getpid() << 17) ^ (uint64_t)(uintptr_t)&ts ^
                 (++counter * 0x9E3779B97F4A7C15ull);
    /* splitmix64's finaliser */
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

#define TMP_SUFFIX_LEN 23 /* ".vqtmp-" and 16 hex digits */

int vq_log_tmp_create(const char *path, char **tmp, int *err_no)
{
    size_t n = strlen(path) + TMP_SUFFIX_LEN + 1;
    /* The temporary name is the log's name with the suffix; a log name
     * within NAME_MAX of the limit is cut so that the temporary one fits
     * (a log name the folder takes is never refused for its suffix). */
    const char *slash = strrchr(path, '/');
    size_t base = strlen(slash ? slash + 1 : path);
    size_t keep = strlen(path);
    if (base > NAME_MAX - TMP_SUFFIX_LEN)
        keep -= base - (NAME_MAX - TMP_SUFFIX_LEN);
    *tmp = malloc(n);
    if (!*tmp) {
        *err_no = ENOMEM;
        return -1;
    }
    for (int i = 0; i < TMP_TRIES; i++) {
        snprintf(*tmp, n, "%.*s.vqtmp-%016llx", (int)keep, path,
                 (unsigned long long)tmp_salt());
        int fd = open(*tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
                      O_CLOEXEC, 0666);
        if (fd >= 0)
            return fd;
        if (errno != EEXIST && errno != ELOOP) {
            *err_no = errno;
            break;
        }
        *err_no = errno;
    }
    free(*tmp);
    *tmp = NULL;
    return -1;
}

/* Paths written in place rather than replaced: anything that exists and is
 * not a regular file (a pipe, a device, a symbolic link). */
static int in_place(const char *path, struct stat *lst)
{
    return !lstat(path, lst) && !S_ISREG(lst->st_mode);
}

int vq_check_log_path(const char *path, const char *const *inputs,
                      unsigned n_inputs, char *msg, size_t msg_size)
{
    char dummy[1];
    if (!msg || !msg_size) {
        msg = dummy;
        msg_size = sizeof(dummy);
    }
    msg[0] = '\0';
    if (!path || !*path) {
        snprintf(msg, msg_size, "no log path given");
        return VQ_EINVAL;
    }
    if (!strcmp(path, "-"))
        return 0;
    /* The log must not be an input (the same file by device and inode,
     * through any link): it would be overwritten. */
    struct stat lst, st, in;
    bool exists = !stat(path, &st);
    if (exists && S_ISDIR(st.st_mode)) {
        snprintf(msg, msg_size, "cannot write the log '%s': it is a folder",
                 path);
        return VQ_EINVAL;
    }
    if (exists)
        for (unsigned i = 0; inputs && i < n_inputs; i++)
            if (inputs[i] && strcmp(inputs[i], "-") && !stat(inputs[i], &in) &&
                in.st_dev == st.st_dev && in.st_ino == st.st_ino) {
                snprintf(msg, msg_size, "the log '%s' is the input '%s': "
                         "refusing to overwrite it", path, inputs[i]);
                return VQ_EINVAL;
            }
    if (in_place(path, &lst)) {
        /* No probe open: opening and closing a named pipe would give its
         * reader an end of file, and the real write would then wait for a
         * reader forever. */
        if (access(path, W_OK)) {
            snprintf(msg, msg_size, "cannot write the log '%s': %s", path,
                     strerror(errno));
            return VQ_EIO;
        }
        return 0;
    }
    char *tmp;
    int e = 0;
    int fd = vq_log_tmp_create(path, &tmp, &e);
    if (fd < 0) {
        snprintf(msg, msg_size, "cannot write the log '%s': %s", path,
                 strerror(e));
        return e == ENOMEM ? VQ_ENOMEM : VQ_EIO;
    }
    close(fd);
    unlink(tmp);
    free(tmp);
    return 0;
}

int vq_discard_log(const char *path)
{
    struct stat lst;
    if (!path || !strcmp(path, "-") || lstat(path, &lst))
        return 0;
    if (!S_ISREG(lst.st_mode))
        return 0;
    return unlink(path) ? VQ_EIO : 1;
}
