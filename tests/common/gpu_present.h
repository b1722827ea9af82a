/*
 * The one rule for GPU tests: skip (exit 77) only when no GPU is present.
 * Once this said a GPU is there, any failure to open it or to run on it is
 * a failure of the test, never a skip.
 */
#ifndef VQHIP_TESTS_GPU_PRESENT_H
#define VQHIP_TESTS_GPU_PRESENT_H

#include <stdio.h>
#include <string.h>

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

/* Tests with a CPU half and a GPU half: "--backend hip" (the meson test
 * in suite gpu) runs the GPU half too, "--backend cpu" (the default) the
 * CPU half alone; the argument is taken out of argv. *hip says which.
 * Returns 0, or 2 for a bad value. */
static inline int vq_test_take_backend(int *argc, char **argv, int *hip)
{
    *hip = 0;
    for (int i = 1; i < *argc; i++) {
        if (strcmp(argv[i], "--backend"))
            continue;
        if (i + 1 >= *argc ||
            (strcmp(argv[i + 1], "hip") && strcmp(argv[i + 1], "cpu"))) {
            fprintf(stderr, "--backend takes cpu or hip\n");
            return 2;
        }
        *hip = !strcmp(argv[i + 1], "hip");
        for (int j = i; j + 2 <= *argc; j++)
            argv[j] = argv[j + 2];
        *argc -= 2;
        break;
    }
    return 0;
}

/* Both steps: 0 to go on (*hip set), else the exit status (2 bad
 * argument, 77 no GPU, 1 the runtime failed). */
static inline int vq_test_backend(int *argc, char **argv, const char *test,
                                  int *hip)
{
    if (vq_test_take_backend(argc, argv, hip))
        return 2;
    return *hip ? vq_test_gpu_present(test) : 0;
}

#endif
