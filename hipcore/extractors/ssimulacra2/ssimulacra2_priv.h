/* ssimulacra2's host side: state shared by its files. */
#ifndef VQHIP_SSIMULACRA2_PRIV_H
#define VQHIP_SSIMULACRA2_PRIV_H

#include "../../../kernels/ssimulacra2/ssimulacra2.h"
#include "core/extractor.h"

/* An AVX2+FMA variant of the CPU path (x86-64 with gcc or clang). */
#if defined(__x86_64__) && defined(__GNUC__)
#define VQ_S2_HAVE_AVX2 1
#else
#define VQ_S2_HAVE_AVX2 0
#endif

/* Option values: 0 = take it from the picture. */
enum { S2_MATRIX_AUTO = 0 };
enum { S2_RANGE_AUTO = 0 };

typedef void (*VqSsimulacra2CpuFrame)(const VqSsimulacra2Params *par, const VqSsimulacra2Dims *d,
                             const VqFormat *fmt, const VqFrame *ref,
                             const VqFrame *dis, void *scratch, double *rec);

typedef struct S2Priv {
    int matrix; /* index of the option's name (ssimulacra2.c's tables) */
    int range;  /* index of the option's name */
    /* derived in init */
    VqSsimulacra2Params par;
    VqSsimulacra2Dims dims;
    VqSsimulacra2CpuFrame cpu_frame;
} S2Priv;

/* libjxl's CreateRecursiveGaussian(sigma) coefficients. */
void vq_ssimulacra2_blur_coeffs(VqSsimulacra2Blur *bl, double sigma);
/* Scale sizes and record layout of a w x h frame. */
void vq_ssimulacra2_dims(VqSsimulacra2Dims *d, unsigned w, unsigned h);
/* Conversion of input k (0 reference, 1 distorted) from the format's
 * colour description and the options; VQ_EUNSUPPORTED for a matrix it
 * cannot convert. */
int vq_ssimulacra2_color(VqSsimulacra2Color *c, const VqFormat *fmt, unsigned k, int matrix,
                int range, VqErrBuf *e);
/* -cbrt(opsin bias) as libjxl's ComputePremulAbsorb. */
float vq_ssimulacra2_neg_bias_cbrt(void);

/* CPU path (ssimulacra2_cpu.c), compiled once for the baseline
 * instruction set and once per variant below; every variant gives the C
 * path's record bit for bit (tests/ssimulacra2/s2_unit checks it). */
size_t vq_ssimulacra2_cpu_scratch_size(const VqSsimulacra2Dims *d);
void vq_ssimulacra2_cpu_frame_c(const VqSsimulacra2Params *par, const VqSsimulacra2Dims *d,
                       const VqFormat *fmt, const VqFrame *ref,
                       const VqFrame *dis, void *scratch, double *rec);
#if VQ_S2_HAVE_AVX2
void vq_ssimulacra2_cpu_frame_avx2(const VqSsimulacra2Params *par, const VqSsimulacra2Dims *d,
                          const VqFormat *fmt, const VqFrame *ref,
                          const VqFrame *dis, void *scratch, double *rec);
#endif
typedef struct VqSsimulacra2CpuVariant {
    const char *name;
    VqSsimulacra2CpuFrame frame;
    int (*supported)(void);
} VqSsimulacra2CpuVariant;
/* The variants this build has, the C path first; NULL-name terminated. */
extern const VqSsimulacra2CpuVariant vq_ssimulacra2_cpu_variants[];
/* The fastest variant this CPU runs (chosen once, at extractor init). */
VqSsimulacra2CpuFrame vq_ssimulacra2_cpu_choose(const char **name);

/* GPU path (ssimulacra2_gpu.c, built with a HIP platform). Frames have no
 * state in common: up to VQ_S2_GPU_SETS of them run at once. */
#define VQ_S2_GPU_SETS 4
struct VqGpu;
int vq_ssimulacra2_gpu_init(VqFex *fex, struct VqGpu *gpu);
int vq_ssimulacra2_gpu_run(VqFex *fex, struct VqGpu *gpu, const VqDevFrame *ref,
                  const VqDevFrame *dis, unsigned index, void *acc_dev);
void vq_ssimulacra2_gpu_close(VqFex *fex, struct VqGpu *gpu);

/* ssimulacra2_cpu.c */
int ssimulacra2_cpu_run(VqFex *fex, const VqFrame *ref, const VqFrame *dis,
               unsigned index, void *acc, void *scratch);

#endif
