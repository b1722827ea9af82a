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

static const char *const float_motion_specs[] = {
    "float_motion",
    "name=float_motion:motion_add_scale1=true:motion_add_uv=true",
    "name=float_motion:motion_filter_size=3:motion_fps_weight=1.5:"
    "motion_blend_factor=0.7:motion_max_val=20",
    "name=float_motion:motion_filter_size=1:motion_force_zero=false",
    NULL
};
static const char *const float_vif_specs[] = {
    "name=float_vif:debug=true",
    "name=float_vif:vif_kernelscale=0.5:vif_enhn_gain_limit=1.2:"
    "vif_sigma_nsq=1.5:vif_scale2_min_val=0.3",
    "name=float_vif:vif_kernelscale=2:vif_skip_scale0=true:debug=true",
    "name=float_vif:vif_prescale=0.5:vif_prescale_method=bicubic",
    "name=float_vif:vif_prescale=1.3:vif_prescale_method=lanczos4",
    "name=float_vif:vif_prescale=0.7:vif_prescale_method=bilinear",
    NULL
};
static const char *const float_adm_specs[] = {
    "name=float_adm:debug=true",
    "name=float_adm:adm_p_norm=2.5:adm_csf_mode=1:adm_enhn_gain_limit=1.2",
    "name=float_adm:adm_csf_mode=2:adm_bypass_cm=1:adm_skip_scale0=true:"
    "adm_skip_aim_scale=2:adm_adm3_apply_hm=true",
    "name=float_adm:adm_noise_weight=0:adm_f1s0=0.5:adm_f2s3=0.1:debug=true",
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
    { "float_motion", float_motion_specs, 3, 3,   4 },
    { "float_vif",   float_vif_specs,   16, 16,    2 },
    { "float_adm",   float_adm_specs,   17, 17,    2 },
    { "ssimulacra2", ssimulacra2_specs, 8, 8,      2 },
    { NULL, NULL, 0, 0, 0 },
};

/* Cases that also run at 3840x2160 (see parity_uhd in checkgpu.h). */
const char *const parity_uhd[] = { "float_motion", "float_vif", "float_adm",
                                   "ssimulacra2", NULL };
