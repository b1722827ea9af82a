/* Small check helpers shared by the model tests. */
#ifndef VQHIP_TESTS_MODEL_TEST_H
#define VQHIP_TESTS_MODEL_TEST_H

#include <stdio.h>
#include <stdlib.h>

#include "../common/unit_check.h"

#define VQ_TEST_SKIP 77

/* Reads a whole file; NULL when it cannot. */
static inline char *vq_test_read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap + 1);
    while (buf) {
        n += fread(buf + n, 1, cap - n, f);
        if (n < cap)
            break;
        char *b = realloc(buf, 2 * cap + 1);
        if (!b) {
            free(buf);
            buf = NULL;
            break;
        }
        buf = b;
        cap *= 2;
    }
    fclose(f);
    if (buf) {
        buf[n] = '\0';
        *len = n;
    }
    return buf;
}

#endif
