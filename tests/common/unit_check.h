/*
 * The one check helper of the C tests. CHECK(cond) and CHECK_MSG(cond,
 * format, ...) count every check and every failure (n_checks, n_fail) and
 * print the first failures with their file, line and condition; a test
 * ends with TEST_END() (or its own summary from the counters).
 * vq_test_xorshift steps a test's own xorshift64 state, so that every run
 * of a test draws the same values.
 */
#ifndef VQHIP_TESTS_UNIT_CHECK_H
#define VQHIP_TESTS_UNIT_CHECK_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>

static unsigned n_fail, n_checks;

enum { VQ_TEST_FAILS_SHOWN = 50 };

static inline int vq_test_failed(const char *file, int line, const char *cond)
{
    if (n_fail++ >= VQ_TEST_FAILS_SHOWN) {
        if (n_fail == VQ_TEST_FAILS_SHOWN + 1)
            printf("(later failures are counted, not shown)\n");
        return 0;
    }
    printf("FAIL %s:%d: %s", file, line, cond);
    return 1;
}

#ifdef __GNUC__
__attribute__((format(printf, 4, 5)))
#endif
static inline void vq_test_failed_msg(const char *file, int line,
                                      const char *cond, const char *fmt, ...)
{
    if (!vq_test_failed(file, line, cond))
        return;
    va_list ap;
    va_start(ap, fmt);
    printf(": ");
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
}

#define CHECK(cond)                                                           \
    do {                                                                      \
        n_checks++;                                                           \
        if (!(cond) && vq_test_failed(__FILE__, __LINE__, #cond))             \
            printf("\n");                                                     \
    } while (0)

#define CHECK_MSG(cond, ...)                                                  \
    do {                                                                      \
        n_checks++;                                                           \
        if (!(cond))                                                          \
            vq_test_failed_msg(__FILE__, __LINE__, #cond, __VA_ARGS__);       \
    } while (0)

/* "FILE: N failure(s)"; exit status 1 on a failure. */
#define TEST_END()                                                            \
    do {                                                                      \
        printf("%s: %u failure(s)\n", __FILE__, n_fail);                      \
        return n_fail ? 1 : 0;                                                \
    } while (0)

static inline uint64_t vq_test_xorshift(uint64_t *state)
{
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    return *state;
}

#endif
