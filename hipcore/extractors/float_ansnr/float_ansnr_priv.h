/* float_ansnr: what its files share (the state, the stages). */
#ifndef VQHIP_EXTRACTORS_FLOAT_ANSNR_PRIV_H
#define VQHIP_EXTRACTORS_FLOAT_ANSNR_PRIV_H

#include <math.h>
#include <stddef.h>
#include <string.h>

#include "../../../kernels/float_ansnr/float_ansnr.h"
#include "../common/gpu_fn.h"
#include "float_ansnr_dsp.h"

typedef struct FloatAnsnrPriv {
    double peak, psnr_max;
    float inv_scale;
    size_t pw; /* padded row length, w + 4 */
    VqFloatAnsnrDsp dsp;
} FloatAnsnrPriv;

enum { RING = 8 }; /* converted rows kept per plane; > 5, a power of two */

/* float_ansnr_cpu.c */
int float_ansnr_cpu_run(VqFex *fex, const VqFrame *ref,
                        const VqFrame *dis, unsigned index, void *acc,
                        void *scratch);

/* float_ansnr_gpu.c: built with a GPU platform only (the descriptor names these
 * through VQ_GPU_FN) */
int float_ansnr_gpu_run(VqFex *fex, VqGpu *gpu, const VqDevFrame *ref,
                        const VqDevFrame *dis, unsigned index,
                        void *acc_dev);

#endif
