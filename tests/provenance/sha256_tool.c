/* Prints the SHA-256 of each file named, as vq_sha256_hex computes it, and
 * checks that feeding the same bytes in chunks of 1, 3, 63, 64 and 65 bytes
 * gives the same digest (exit 1 if not). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/sha256.h"

static int chunked(const unsigned char *data, size_t len, size_t step,
                   const char *want)
{
    VqSha256 s;
    unsigned char d[32];
    char hex[65];
    vq_sha256_init(&s);
    for (size_t off = 0; off < len; off += step)
        vq_sha256_update(&s, data + off, len - off < step ? len - off : step);
    vq_sha256_final(&s, d);
    for (unsigned i = 0; i < 32; i++)
        snprintf(hex + 2 * i, 3, "%02x", d[i]);
    return strcmp(hex, want) != 0;
}

int main(int argc, char **argv)
{
    int bad = 0;
    for (int a = 1; a < argc; a++) {
        FILE *f = fopen(argv[a], "rb");
        if (!f) {
            perror(argv[a]);
            return 2;
        }
        size_t cap = 1 << 16, len = 0, n;
        unsigned char *data = malloc(cap);
        while (data && (n = fread(data + len, 1, cap - len, f)) > 0) {
            len += n;
            if (len == cap)
                data = realloc(data, cap *= 2);
        }
        fclose(f);
        if (!data)
            return 2;
        char hex[65];
        vq_sha256_hex(data, len, hex);
        static const size_t steps[] = { 1, 3, 63, 64, 65 };
        for (unsigned i = 0; i < 5; i++)
            if (chunked(data, len, steps[i], hex)) {
                fprintf(stderr, "%s: chunks of %zu give another digest\n",
                        argv[a], steps[i]);
                bad = 1;
            }
        printf("%s %s\n", hex, argv[a]);
        free(data);
    }
    return bad;
}
