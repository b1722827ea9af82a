/* Runs the fuzz target over files (a corpus, hostile inputs) without
 * libFuzzer, so that every build replays them. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int replay_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    size_t cap = 1 << 16, n = 0;
    uint8_t *buf = malloc(cap);
    while (buf && (n += fread(buf + n, 1, cap - n, f)) == cap) {
        uint8_t *b = realloc(buf, 2 * cap);
        if (!b) {
            free(buf);
            buf = NULL;
        }
        buf = b;
        cap *= 2;
    }
    fclose(f);
    if (!buf)
        return -1;
    LLVMFuzzerTestOneInput(buf, n);
    free(buf);
    return 0;
}

int main(int argc, char **argv)
{
    unsigned n = 0;
    for (int a = 1; a < argc; a++) {
        struct stat st;
        if (stat(argv[a], &st))
            continue;
        if (!S_ISDIR(st.st_mode)) {
            n += !replay_file(argv[a]);
            continue;
        }
        DIR *d = opendir(argv[a]);
        for (struct dirent *de; d && (de = readdir(d));) {
            if (de->d_name[0] == '.')
                continue;
            char path[4096];
            snprintf(path, sizeof(path), "%s/%s", argv[a], de->d_name);
            n += !replay_file(path);
        }
        if (d)
            closedir(d);
    }
    printf("replayed %u inputs\n", n);
    return n ? 0 : 1;
}
