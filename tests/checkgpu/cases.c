/* Parity cases: one entry per extractor with a GPU path. */
#include <stddef.h>

#include "checkgpu.h"

static const char *const psnr_specs[] = {
    "name=psnr:enable_chroma=true:enable_mse=true:enable_apsnr=true",
    "name=psnr:enable_chroma=false:reduced_hbd_peak=true:min_sse=0.5",
    NULL
};
static const char *const float_psnr_specs[] = { "float_psnr", NULL };
static const char *const motion_specs[] = {
    "name=motion:debug=true",
    "name=motion:motion_five_frame_window=true:motion_moving_average=true",
    "name=motion:motion_blend_factor=0.5:motion_blend_offset=3:"
    "motion_fps_weight=1.5:motion_max_val=30",
    NULL
};
static const char *const adm_specs[] = {
    "name=adm:debug=true",
    "name=adm:adm_enhn_gain_limit=1",
    "name=adm:adm_csf_mode=2:adm_dlm_weight=0.7:adm_enhn_gain_limit=1:"
    "adm_noise_weight=0.02:adm_min_val=0.5",
    "name=adm:adm_csf_mode=1:adm_enhn_gain_limit=1.5:adm_skip_scale0=true:"
    "adm_skip_aim=true:debug=true",
    NULL
};
static const char *const vif_specs[] = {
    "name=vif:debug=true",
    "name=vif:vif_enhn_gain_limit=1.0:debug=true",
    "name=vif:vif_skip_scale0=true:vif_enhn_gain_limit=1.5",
    NULL
};

static const char *const ssimulacra2_specs[] = {
    "ssimulacra2",
    "name=ssimulacra2:matrix=bt2020nc:range=full",
    "name=ssimulacra2:matrix=ycgco",
    NULL
};

const ParityCase parity_cases[] = {
    /* name          option sets        min w, h   frames */
    { "psnr",        psnr_specs,        2, 2,      3 },
    { "float_psnr",  float_psnr_specs,  1, 1,      3 },
    { "adm",         adm_specs,         33, 33,    2 },
    { "motion",      motion_specs,      3, 3,      5 },
    { "vif",         vif_specs,         8, 8,      2 },
    { "ssimulacra2", ssimulacra2_specs, 8, 8,      2 },
    { NULL, NULL, 0, 0, 0 },
};
