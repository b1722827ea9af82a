/* ciede, CPU path: one row of samples at a time, in variants chosen once. */
#ifndef VQHIP_CIEDE_CPU_H
#define VQHIP_CIEDE_CPU_H

#include <stddef.h>
#include <stdint.h>

#include "../../../kernels/ciede/ciede.h"

/* One row: w luma samples of each frame (y0/u0/v0: reference rows, y1/u1/v1:
 * distorted rows, 8-bit when bps is 1, else 16-bit), chroma columns
 * min(x >> ss_x, cw - 1); adds the differences to acc. scratch: at least
 * vq_ciede_row_scratch(w) bytes, 8-byte aligned. */
typedef void (*VqCiedeRowFn)(const uint8_t *const row[6], unsigned bps,
                             unsigned w, unsigned ss_x, unsigned cw,
                             unsigned bpc, void *scratch, VqCiedeAcc *acc);

size_t vq_ciede_row_scratch(unsigned w);

/* The variants this machine runs (the baseline first): returns how many,
 * fills fns/names (at most 2). */
unsigned vq_ciede_row_variants(VqCiedeRowFn *fns, const char **names);

/* The variant ciede uses: the last one this machine runs. */
VqCiedeRowFn vq_ciede_row_best(void);

#endif
