/* float_vif: state shared by the extractor (float_vif.c), its CPU path
 * (float_vif_cpu.c) and its GPU path (float_vif_gpu.c). */
#ifndef VQHIP_EXTRACTORS_FLOAT_VIF_PRIV_H
#define VQHIP_EXTRACTORS_FLOAT_VIF_PRIV_H

#include <stdbool.h>
#include <stddef.h>

#include "../../../kernels/float_resize.h"
#include "../../../kernels/float_vif/float_vif.h"
#include "../common/gpu_fn.h"
#include "float_vif_dsp.h"

typedef struct FVifPriv {
    bool debug;
    double gain_limit;
    double kernelscale;
    double prescale;
    double min_val[VQ_FVIF_SCALES]; /* [1..3]: vif_scale<s>_min_val */
    int prescale_method;            /* VqFResizeMethod */
    double sigma_nsq;
    bool skip_scale0;
    /* derived in init */
    VqFloatVifDims dims;
    VqFloatVifConst c;
    float nsq_up;             /* smallest float >= sigma_nsq */
    VqFloatVifDsp dsp;
    bool resized;             /* scale 0 is the luma resized (vif_prescale) */
    unsigned src_w, src_h;    /* the luma before resizing */
    VqFResizeTap *tab_x, *tab_y; /* resize tables (dims.w[0], dims.h[0]) */
} FVifPriv;

size_t vq_float_vif_cpu_scratch_size(const FVifPriv *s);
int vq_float_vif_cpu_run(VqFex *fex, const VqFrame *ref, const VqFrame *dis,
                    unsigned index, void *acc, void *scratch);

int vq_float_vif_gpu_init(VqFex *fex, VqGpu *gpu);
int vq_float_vif_gpu_run(VqFex *fex, VqGpu *gpu, const VqDevFrame *ref,
                    const VqDevFrame *dis, unsigned index, void *acc_dev);
void vq_float_vif_gpu_close(VqFex *fex, VqGpu *gpu);

#endif
