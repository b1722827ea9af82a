/* speed_chroma: what its files share (the state, the stages). */
#ifndef VQHIP_EXTRACTORS_SPEED_CHROMA_PRIV_H
#define VQHIP_EXTRACTORS_SPEED_CHROMA_PRIV_H

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#include "../../../kernels/speed_chroma/speed_chroma.h"
#include "../common/speed_engine.h"

typedef struct ChromaPriv {
    VqSpeedOpts o;
    double max_val;
    VqSpeed sp;
    size_t img_scratch;
} ChromaPriv;

static inline size_t pair_bytes(const ChromaPriv *s)
{
    return vq_speed_pair_size(s->sp.g.nb);
}

/* speed_chroma_cpu.c; in a ladder, the reference's results of a frame
 * are a product (VqFexDesc.ref_product_size) */
size_t speed_chroma_ref_product_size(const VqFex *fex);
int speed_chroma_cpu_run(VqFex *fex, const VqFrame *ref, const VqFrame *dis,
                   unsigned index, void *acc, void *scratch);

/* speed_chroma_gpu.c: built with a GPU platform only (the descriptor names these
 * through VQ_GPU_FN) */
void speed_chroma_gpu_close(VqFex *fex, VqGpu *gpu);
int speed_chroma_gpu_init(VqFex *fex, VqGpu *gpu);
int speed_chroma_gpu_run(VqFex *fex, VqGpu *gpu, const VqDevFrame *ref,
                   const VqDevFrame *dis, unsigned index, void *acc_dev);

#endif
