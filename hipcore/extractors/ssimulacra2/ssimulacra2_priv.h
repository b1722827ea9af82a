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

/* A ladder's split of a frame (ssimulacra2_share.c): the reference's
 * part, per scale its XYB planes and, per channel, its blurred value and
 * blurred square (libjxl's mu1 and sigma11 before the terms) at every
 * pixel, computed once for every rendition; each rendition's part reads
 * them instead of computing them. Planes of scale s: pitch[s] floats a
 * row, h[s] rows, channels one after the other. */
typedef struct VqS2Product {
    float *xyb[VQ_S2_SCALES], *mu1[VQ_S2_SCALES], *s11[VQ_S2_SCALES];
    size_t pitch[VQ_S2_SCALES];
} VqS2Product;
enum { VQ_S2_REF_PART = 1, VQ_S2_DIS_PART = 2 };
/* part VQ_S2_REF_PART: the reference's part into prod (dis and rec are not
 * read); VQ_S2_DIS_PART: the record from prod and the distorted picture
 * (the reference's planes are not read). */
typedef void (*VqSsimulacra2CpuPart)(const VqSsimulacra2Params *par,
                                     const VqSsimulacra2Dims *d,
                                     const VqFormat *fmt, const VqFrame *ref,
                                     const VqFrame *dis, void *scratch,
                                     double *rec, int part,
                                     const VqS2Product *prod);
/* Rows of a plane of w floats: the CPU path's pitch (16-float multiples). */
static inline size_t vq_s2_pitch(unsigned w)
{
    return ((size_t)w + 15) / 16 * 16;
}

typedef struct S2Priv {
    int matrix; /* index of the option's name (ssimulacra2.c's tables) */
    int range;  /* index of the option's name */
    /* derived in init */
    VqSsimulacra2Params par;
    VqSsimulacra2Dims dims;
    VqSsimulacra2CpuFrame cpu_frame;
    VqSsimulacra2CpuPart cpu_part; /* the same variant's split */
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
void vq_ssimulacra2_cpu_part_c(const VqSsimulacra2Params *par,
                               const VqSsimulacra2Dims *d, const VqFormat *fmt,
                               const VqFrame *ref, const VqFrame *dis,
                               void *scratch, double *rec, int part,
                               const VqS2Product *prod);
#if VQ_S2_HAVE_AVX2
void vq_ssimulacra2_cpu_frame_avx2(const VqSsimulacra2Params *par, const VqSsimulacra2Dims *d,
                          const VqFormat *fmt, const VqFrame *ref,
                          const VqFrame *dis, void *scratch, double *rec);
void vq_ssimulacra2_cpu_part_avx2(const VqSsimulacra2Params *par,
                                  const VqSsimulacra2Dims *d,
                                  const VqFormat *fmt, const VqFrame *ref,
                                  const VqFrame *dis, void *scratch,
                                  double *rec, int part,
                                  const VqS2Product *prod);
#endif
typedef struct VqSsimulacra2CpuVariant {
    const char *name;
    VqSsimulacra2CpuFrame frame;
    int (*supported)(void);
    VqSsimulacra2CpuPart part;
} VqSsimulacra2CpuVariant;
/* The variants this build has, the C path first; NULL-name terminated. */
extern const VqSsimulacra2CpuVariant vq_ssimulacra2_cpu_variants[];
/* The fastest variant this CPU runs (chosen once, at extractor init), and
 * its split (part may be NULL). */
VqSsimulacra2CpuFrame vq_ssimulacra2_cpu_choose(const char **name);
VqSsimulacra2CpuPart vq_ssimulacra2_cpu_choose_part(void);

/* GPU path (ssimulacra2_gpu.c, built with a HIP platform). Frames have no
 * state in common: up to VQ_S2_GPU_SETS of them run at once. */
#define VQ_S2_GPU_SETS 4
struct VqGpu;
int vq_ssimulacra2_gpu_init(VqFex *fex, struct VqGpu *gpu);
int vq_ssimulacra2_gpu_run(VqFex *fex, struct VqGpu *gpu, const VqDevFrame *ref,
                  const VqDevFrame *dis, unsigned index, void *acc_dev);
void vq_ssimulacra2_gpu_close(VqFex *fex, struct VqGpu *gpu);
/* a ladder's split (VqFexDesc.gpu_ref_size) */
size_t vq_ssimulacra2_gpu_ref_size(const VqFex *fex);
int vq_ssimulacra2_gpu_ref_run(VqFex *fex, struct VqGpu *gpu,
                               const VqDevFrame *ref, unsigned index,
                               void *prod);
int vq_ssimulacra2_gpu_run_split(VqFex *fex, struct VqGpu *gpu,
                                 const VqDevFrame *ref, const VqDevFrame *dis,
                                 unsigned index, const void *prod,
                                 void *acc_dev);

/* ssimulacra2_share.c: the product's planes in base (NULL: just the
 * size), the product's size for an instance (0: not shared), and the frame
 * from the ladder's product: 0, or 1 when none could be had (the caller
 * computes the frame). */
size_t vq_s2_product_layout(const VqSsimulacra2Dims *d, void *base,
                            VqS2Product *p);
size_t ssimulacra2_ref_product_size(const VqFex *fex);
int ssimulacra2_cpu_run_shared(VqFex *fex, const VqFrame *ref,
                               const VqFrame *dis, unsigned index, void *acc,
                               void *scratch);

/* ssimulacra2_cpu.c */
int ssimulacra2_cpu_run(VqFex *fex, const VqFrame *ref, const VqFrame *dis,
               unsigned index, void *acc, void *scratch);

#endif
