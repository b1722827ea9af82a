/*
 * Launchers of emu_bugs.hip (emu_selftest): a correct block reduction and
 * kernels with bugs written on purpose.
 */
#ifndef VQHIP_TESTS_EMU_BUGS_H
#define VQHIP_TESTS_EMU_BUGS_H

#include "../../kernels/vq_kernel_api.h"

#ifdef __cplusplus
extern "C" {
#endif

enum {
    EB_SUM_OK,         /* shared-memory tree, a barrier each step */
    EB_SUM_NO_BARRIER, /* the same without the barrier in the loop */
    EB_SUM_WARP_SYNC,  /* the last 32 lanes without barriers */
    EB_SUM_SHFL,       /* wave reduction, offsets from warpSize */
    EB_SUM_SHFL32,     /* wave reduction that takes waves to be 32 wide */
    EB_SUM_BORDER,     /* one sample past the row (x <= w) */
};

/* Adds the sum of the w x h bytes at data (rows pitch apart) to *out. */
int eb_sum_launch(VqStream stream, int kind, const void *data, size_t pitch,
                  unsigned w, unsigned h, uint64_t *out);
/* *out = data[n - 1 + past]. */
int eb_past_end_launch(VqStream stream, const void *data, size_t n,
                       size_t past, uint64_t *out);
/* 16 threads of the block return before a barrier. */
int eb_early_exit_launch(VqStream stream, uint64_t *out);
/* The early-exit kernel with any block size and grid (launch checks). */
int eb_block_launch(VqStream stream, unsigned threads, unsigned blocks,
                    uint64_t *out);

#ifdef __cplusplus
}
#endif

#endif
