/*
 * Helpers of the unit tests that compare many values: CHECK counts every
 * check and every failure, and prints the first 20 failures with their file
 * and line; vq_test_xorshift steps a test's own xorshift64 state, so that
 * every run of a test draws the same values.
 */
#ifndef VQHIP_TESTS_UNIT_CHECK_H
#define VQHIP_TESTS_UNIT_CHECK_H

#include <stdint.h>
#include <stdio.h>

static unsigned n_fail, n_checks;

#define CHECK(cond, ...)                                                      \
    do {                                                                      \
        n_checks++;                                                           \
        if (!(cond) && n_fail++ < 20) {                                       \
            printf("FAIL %s:%d: ", __FILE__, __LINE__);                       \
            printf(__VA_ARGS__);                                              \
            printf("\n");                                                     \
        }                                                                     \
    } while (0)

static inline uint64_t vq_test_xorshift(uint64_t *state)
{
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    return *state;
}

#endif
