/* float_adm: state shared by the extractor (float_adm.c), its parameters
 * (float_adm_csf.c), its CPU path (float_adm_cpu.c) and its GPU path
 * (float_adm_gpu.c). */
#ifndef VQHIP_EXTRACTORS_FLOAT_ADM_PRIV_H
#define VQHIP_EXTRACTORS_FLOAT_ADM_PRIV_H

#include <stdbool.h>
#include <stddef.h>

#include "../../../kernels/float_adm/float_adm.h"
#include "../common/gpu_fn.h"
#include "float_adm_dsp.h"

extern const uint16_t vq_float_adm_rcp_tab[VQ_FADM_RCP_SIZE];

typedef struct FAdmPriv {
    bool debug;
    double gain_limit;
    double norm_view_dist;
    double noise_weight;
    double csf_scale;
    double csf_diag_scale;
    int ref_display_height;
    int csf_mode;
    int bypass_cm;
    bool adm3_apply_hm;
    double p_norm;
    double dlm_weight;
    double min_val;
    double f1[VQ_FADM_SCALES], f2[VQ_FADM_SCALES]; /* adm_f1s0.., adm_f2s0.. */
    int skip_aim_scale;
    bool skip_scale0;
    /* derived in init */
    VqFloatAdmDims dims;
    VqFloatAdmDsp dsp;
} FAdmPriv;

/* The csf weights of scale s's bands h, v, d from the options
 * (float_adm_csf.c). */
void vq_float_adm_rfactors(const FAdmPriv *s, int scale, float rf[3]);

size_t vq_float_adm_cpu_scratch_size(const FAdmPriv *s);
int vq_float_adm_cpu_run(VqFex *fex, const VqFrame *ref, const VqFrame *dis,
                    unsigned index, void *acc, void *scratch);

int vq_float_adm_gpu_init(VqFex *fex, VqGpu *gpu);
int vq_float_adm_gpu_run(VqFex *fex, VqGpu *gpu, const VqDevFrame *ref,
                    const VqDevFrame *dis, unsigned index, void *acc_dev);
void vq_float_adm_gpu_close(VqFex *fex, VqGpu *gpu);

#endif
