/* Integer VIF: what its files share (the state, the stages). */
#ifndef VQHIP_EXTRACTORS_VIF_PRIV_H
#define VQHIP_EXTRACTORS_VIF_PRIV_H

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "../../../kernels/vif/vif.h"
#include "../common/gpu_fn.h"
#include "vif_dsp.h"

typedef struct VifPriv {
    bool debug;
    double gain_limit;
    bool skip_scale0;
    /* derived in init */
    VqVifDims dims;
    uint16_t log2_tab[VQ_VIF_LOG2_SIZE];
    VqVifDsp dsp; /* the CPU path's functions, chosen once */
} VifPriv;

/* Frames have no vif state in common: with two sets of scale images, two
 * frames' kernels run at once on two lanes (fex->gpu_sets), so one frame's
 * small scales overlap the next frame's scale 0 (up to
 * VQ_GPU_SETS_MAX_PIXELS). */
#define VIF_GPU_SETS 2

/* vif_cpu.c */
int vif_cpu_run(VqFex *fex, const VqFrame *ref, const VqFrame *dis,
                unsigned index, void *acc, void *scratch);

VqVifParams vif_cpu_params(const VifPriv *s, unsigned bpc);

/* vif_ladder.c: a ladder's pass (VqFexDesc.ladder_work_size, ladder_run):
 * every rendition's record of a frame, the reference's part of each row
 * computed once. */
size_t vif_ladder_work_size(const VqFex *fex, unsigned n, unsigned parts);
int vif_ladder_run(const VqFex *fex, const VqLadderPass *pass);

/* vif_gpu.c: built with a GPU platform only (the descriptor names these
 * through VQ_GPU_FN) */
void vif_gpu_close(VqFex *fex, VqGpu *gpu);
int vif_gpu_init(VqFex *fex, VqGpu *gpu);
int vif_gpu_run(VqFex *fex, VqGpu *gpu, const VqDevFrame *ref,
                const VqDevFrame *dis, unsigned index, void *acc_dev);
/* a ladder's split (VqFexDesc.gpu_ref_size) */
size_t vif_gpu_ref_size(const VqFex *fex);
int vif_gpu_ref_run(VqFex *fex, VqGpu *gpu, const VqDevFrame *ref,
                    unsigned index, void *prod);
int vif_gpu_run_split(VqFex *fex, VqGpu *gpu, const VqDevFrame *ref,
                      const VqDevFrame *dis, unsigned index, const void *prod,
                      void *acc_dev);

#endif
