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
static const char *const ssim_specs[] = { "ssim", NULL };
static const char *const float_ssim_specs[] = {
    "name=float_ssim:enable_lcs=true",
    "name=float_ssim:scale=3:enable_db=true:clip_db=true",
    NULL
};
static const char *const float_ms_ssim_specs[] = {
    "name=float_ms_ssim:enable_lcs=true",
    "name=float_ms_ssim:enable_db=true",
    NULL
};
static const char *const motion_v2_specs[] = {
    "motion_v2",
    "name=motion_v2:motion_five_frame_window=true:motion_moving_average=true",
    "name=motion_v2:motion_blend_factor=0.5:motion_blend_offset=3:"
    "motion_fps_weight=1.5:motion_max_val=30",
    NULL
};
static const char *const speed_chroma_specs[] = {
    "speed_chroma",
    "name=speed_chroma:speed_sigma_nn=0.19:speed_nn_floor=0.1:"
    "speed_weight_var_mode=5:speed_max_val=45",
    "name=speed_chroma:speed_prescale=0.5:speed_prescale_method=bilinear:"
    "speed_weight_var_mode=3:speed_kernelscale=1.5",
    "name=speed_chroma:speed_prescale=1.25:speed_prescale_method=lanczos4:"
    "speed_weight_var_mode=6",
    NULL
};
static const char *const speed_temporal_specs[] = {
    "speed_temporal",
    "name=speed_temporal:speed_use_ref_diff=true:speed_kernelscale=0.5",
    "name=speed_temporal:speed_prescale=1.5:speed_nn_floor=0.2",
    NULL
};
/* SpEED needs 80x80 samples per plane (4:2:0 chroma: 160x160 frames):
 * odd sizes above that (4K is one of the common sizes). */
static const unsigned speed_sizes[][2] = {
    { 161, 163 }, { 333, 251 }, { 0, 0 }
};

static const char *const cambi_specs[] = {
    "cambi",
    "name=cambi:full_ref=true:max_log_contrast=5:cambi_vis_lum_threshold=0.06",
    "name=cambi:enc_width=300:enc_height=240:src_width=400:src_height=300:"
    "full_ref=true:enc_bitdepth=8:topk=0.2:eotf=pq",
    "name=cambi:cambi_high_res_speedup=1080:window_size=15:max_log_contrast=0:"
    "cambi_max_val=17:tvi_threshold=0.05",
    NULL
};
/* CAMBI refuses pictures below 216x216: odd sizes above that. */
static const unsigned cambi_sizes[][2] = {
    { 217, 301 }, { 301, 217 }, { 960, 541 }, { 0, 0 }
};
static const char *const float_moment_specs[] = { "float_moment", NULL };
static const char *const float_ansnr_specs[] = { "float_ansnr", NULL };
static const char *const psnr_hvs_specs[] = { "psnr_hvs", NULL };
static const char *const ciede_specs[] = { "ciede", NULL };

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
    { "ssim",        ssim_specs,        1, 1,      2 },
    { "float_ssim",  float_ssim_specs,  11, 11,    2 },
    { "float_ms_ssim", float_ms_ssim_specs, 176, 176, 2 },
    { "motion_v2",   motion_v2_specs,   3, 3,      5 },
    { "speed_chroma", speed_chroma_specs, 160, 160, 2 },
    { "speed_temporal", speed_temporal_specs, 160, 160, 3 },
    { "cambi",       cambi_specs,       216, 216,  2 },
    { "float_moment", float_moment_specs, 1, 1,    2 },
    { "float_ansnr", float_ansnr_specs, 3, 3,      2 },
    /* 8x8 per plane: 4:4:4 at the minimum, 4:2:x from 16 wide */
    { "psnr_hvs",    psnr_hvs_specs,    8, 8,      2 },
    { "ciede",       ciede_specs,       1, 1,      2 },
    { "ssimulacra2", ssimulacra2_specs, 8, 8,      2 },
    { NULL, NULL, 0, 0, 0 },
};

/* odd sizes just above a minimum */
static const unsigned ssim_sizes[][2] = { { 203, 117 }, { 0, 0 } };
/* auto scale 2, odd decimation */
static const unsigned float_ssim_sizes[][2] = { { 385, 387 }, { 0, 0 } };
static const unsigned float_ms_ssim_sizes[][2] = { { 177, 181 }, { 0, 0 } };

/* odd sizes: the last chroma column/row, the row groups of four and their
 * ends, six scales */
static const unsigned ssimulacra2_sizes[][2] = { { 203, 117 }, { 15, 9 },
                                                 { 0, 0 } };

/* 8-bit scale 0 reads tiles inside the picture as whole words: a tile
 * exactly at the right and bottom limits (232 x 40), and one sample short
 * of them (231 x 39), where the mirrored load takes over */
static const unsigned vif_sizes[][2] = { { 232, 40 }, { 231, 39 }, { 0, 0 } };

/* motion's tiles are 248 x 16 outputs: two tiles exactly, one column and
 * 5 rows past them, and three tiles across with a last one of 4 columns
 * (and 2 rows in the last tile row) */
static const unsigned motion_sizes[][2] = { { 248, 32 }, { 249, 37 },
                                            { 500, 66 }, { 0, 0 } };

const ParitySizes parity_extra_sizes[] = {
    { "vif", vif_sizes },
    { "motion", motion_sizes },
    { "ssim", ssim_sizes },
    { "float_ssim", float_ssim_sizes },
    { "float_ms_ssim", float_ms_ssim_sizes },
    { "speed_chroma", speed_sizes },
    { "speed_temporal", speed_sizes },
    { "cambi", cambi_sizes },
    { "ssimulacra2", ssimulacra2_sizes },
    { NULL, NULL },
};
