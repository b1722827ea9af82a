/* Minimal test helpers: CHECK records a failure with its line and goes on. */
#ifndef VQHIP_TEST_H
#define VQHIP_TEST_H

#include <stdio.h>

static int test_failures;

#define CHECK(cond)                                                         \
    do {                                                                    \
        if (!(cond)) {                                                      \
            printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond);          \
            test_failures++;                                                \
        }                                                                   \
    } while (0)

#define CHECK_MSG(cond, ...)                                                \
    do {                                                                    \
        if (!(cond)) {                                                      \
            printf("FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond);          \
            printf(__VA_ARGS__);                                            \
            printf("\n");                                                   \
            test_failures++;                                                \
        }                                                                   \
    } while (0)

#define TEST_END()                                                          \
    do {                                                                    \
        printf("%s: %d failure(s)\n", __FILE__, test_failures);             \
        return test_failures ? 1 : 0;                                       \
    } while (0)

#endif
