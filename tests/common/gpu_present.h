/*
 * The one rule for GPU tests: skip (exit 77) only when no GPU is present.
 * Once this said a GPU is there, any failure to open it or to run on it is
 * a failure of the test, never a skip.
 */
#ifndef VQHIP_TESTS_GPU_PRESENT_H
#define VQHIP_TESTS_GPU_PRESENT_H

#include <stdio.h>

#include "vqhip.h"

#define VQ_TEST_EXIT_SKIP 77

/* 0: a GPU is present, go on; 77: none (skip); 1: the runtime failed. */
static inline int vq_test_gpu_present(const char *test)
{
    char why[256];
    int n = vq_gpu_count(why, sizeof(why));
    if (n > 0)
        return 0;
    printf("%s: %s: %s\n", test, n == 0 ? "skipped" : "FAIL", why);
    return n == 0 ? VQ_TEST_EXIT_SKIP : 1;
}

#endif
