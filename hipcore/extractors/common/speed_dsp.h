/*
 * SpEED's CPU path, its DSP functions and their variants (see
 * hipcore/cpu.h): filled once per run by vq_speed_dsp_init; every variant
 * gives the C function's bits (tests/checkasm). Each output element keeps
 * the sequence of operations of kernels/speed/speed*.h; the variants only
 * run several elements side by side.
 */
#ifndef VQHIP_EXTRACTORS_SPEED_DSP_H
#define VQHIP_EXTRACTORS_SPEED_DSP_H

#include <stddef.h>
#include <stdint.h>

#include "base/cpu.h"

/* Row stride (doubles) of the covariance accumulator: 25 entries of row a
 * plus room for the vector blocks of 8 entries that start at or below a. */
#define VQ_SPEED_COV_STRIDE 32

/* row[x] += f * s(x) for x < w, with s the sample of the current row c
 * shifted by -128, or with a previous row p (not NULL) the shifted previous
 * sample minus the shifted current one. 16-bit samples are divided by sc
 * first (libvmaf's scaler). */
#define decl_speed_vsum_u8_fn(name)                                           \
    void(name)(float *row, const uint8_t *c, const uint8_t *p, float f,       \
               size_t w)
typedef decl_speed_vsum_u8_fn(*vq_speed_vsum_u8_fn);

#define decl_speed_vsum_u16_fn(name)                                          \
    void(name)(float *row, const uint16_t *c, const uint16_t *p, float f,     \
               float sc, size_t w)
typedef decl_speed_vsum_u16_fn(*vq_speed_vsum_u16_fn);

/* The covariance sums of one row of n window positions: for the 5x5
 * window at x + j (j < n; its rows stride floats apart, row-major entries
 * k = 5 r + c) the centred samples d[k] = (double)x[..] - (double)means[k],
 * then acc[a * VQ_SPEED_COV_STRIDE + b] += d[a] * d[b] for every b <= a,
 * positions in order. Entries above the diagonal (b > a) are scratch: they
 * take some products too and are never meant to be read. */
#define decl_speed_cov_row_fn(name)                                           \
    void(name)(double *acc, const float *x, ptrdiff_t stride,                 \
               const float *means, size_t n)
typedef decl_speed_cov_row_fn(*vq_speed_cov_row_fn);

typedef struct VqSpeedDsp {
    vq_speed_vsum_u8_fn vsum_u8;
    vq_speed_vsum_u16_fn vsum_u16;
    vq_speed_cov_row_fn cov_row;
} VqSpeedDsp;

void vq_speed_dsp_init(VqSpeedDsp *c, unsigned flags);

decl_speed_vsum_u8_fn(vq_speed_vsum_u8_c);
decl_speed_vsum_u16_fn(vq_speed_vsum_u16_c);
decl_speed_cov_row_fn(vq_speed_cov_row_c);
#if VQ_ARCH_X86_64
decl_speed_vsum_u8_fn(vq_speed_vsum_u8_avx2);
decl_speed_vsum_u16_fn(vq_speed_vsum_u16_avx2);
decl_speed_cov_row_fn(vq_speed_cov_row_avx2);
decl_speed_vsum_u8_fn(vq_speed_vsum_u8_avx512);
decl_speed_vsum_u16_fn(vq_speed_vsum_u16_avx512);
decl_speed_cov_row_fn(vq_speed_cov_row_avx512);
#endif

#endif
