# FATE tests of the vqhip filter, on the CPU backend (backend=cpu: FATE
# machines need not have a GPU).
#
# Inputs are made by lavfi, as in tests/fate-run.sh's refcmp_metadata:
# testsrc2 at 300x200, 5 frames, converted with format=PIXFMT; the
# distorted copy is avgblur=4 of it. The scores are read back with
# metadata=print and compared by tests/refcmp-metadata.awk with a relative
# tolerance (FUZZ).
#
# The references do not come from vqhip. fate/make-refs.sh makes them from
# libvmaf's vmaf tool (motion: C path, on the same frames written as raw
# video; its CSV values become the metadata lines) and from FFmpeg's own
# psnr filter on the same inputs, renaming its values:
#   lavfi.psnr.psnr.y/u/v -> lavfi.vqhip.psnr_y/psnr_cb/psnr_cr
#   lavfi.psnr.psnr.y     -> lavfi.vqhip.float_psnr (libvmaf's float_psnr is
#                            luma PSNR in float, with samples scaled by
#                            2^(8-bits) and the peak scaled alike)
# PSNR is 10*log10(peak^2/MSE) with peak = 2^bits - 1 in both filters, and
# 300x200 has no odd chroma sizes (vf_psnr rounds those up, libvmaf down).
# vf_psnr's values are floats ("%f" of a float), vqhip's doubles, both
# printed with 6 decimals: VQHIP_PSNR_FUZZ allows exactly that, a float's
# rounding (2^-24 = 6.0e-8 relative) and the two printings (5e-7 each,
# 2.5e-8 relative at the lowest PSNR here, 20 dB): 1.1e-7 (measured: at
# most 5.2e-8). The references from libvmaf are the same doubles printed
# the same way: VQHIP_FUZZ only keeps the awk from its default (0.1); the
# texts are equal (measured delta 0 in every test).
#
# The passthrough test checks that the frames leave the filter unchanged,
# complete and in order: its reference is the framecrc of the distorted
# input alone, without vqhip.

VQHIP_FUZZ = 0.000000000000001
VQHIP_PSNR_FUZZ = 0.00000011
VQHIP_CPU = vqhip=backend=cpu

FATE_VQHIP_REFCMP-yes += fate-filter-vqhip-psnr-yuv420p
fate-filter-vqhip-psnr-yuv420p: CMD = refcmp_metadata "$(VQHIP_CPU):feature=name=psnr|name=float_psnr" yuv420p $(VQHIP_PSNR_FUZZ)

FATE_VQHIP_REFCMP-yes += fate-filter-vqhip-psnr-yuv422p10
fate-filter-vqhip-psnr-yuv422p10: CMD = refcmp_metadata "$(VQHIP_CPU):feature=name=psnr|name=float_psnr" yuv422p10le $(VQHIP_PSNR_FUZZ)

FATE_VQHIP_REFCMP-yes += fate-filter-vqhip-psnr-yuv444p12
fate-filter-vqhip-psnr-yuv444p12: CMD = refcmp_metadata "$(VQHIP_CPU):feature=name=psnr" yuv444p12le $(VQHIP_PSNR_FUZZ)

# Gray inputs are the luma plane of a YUV input (refcmp_metadata puts its
# PIXFMT argument after "format="): FFmpeg's conversion of testsrc2 to gray
# changed between 5.1 and 9.0, the luma plane did not.
FATE_VQHIP_REFCMP-yes += fate-filter-vqhip-psnr-gray16
fate-filter-vqhip-psnr-gray16: CMD = refcmp_metadata "$(VQHIP_CPU):feature=name=psnr" yuv420p16le,extractplanes=y $(VQHIP_PSNR_FUZZ)

FATE_VQHIP_REFCMP-yes += fate-filter-vqhip-float-psnr-gray
fate-filter-vqhip-float-psnr-gray: CMD = refcmp_metadata "$(VQHIP_CPU):feature=name=float_psnr" yuv420p,extractplanes=y $(VQHIP_PSNR_FUZZ)

# Frames 1 and 3 carry no scores with n_subsample=2.
FATE_VQHIP_REFCMP-yes += fate-filter-vqhip-psnr-subsample
fate-filter-vqhip-psnr-subsample: CMD = refcmp_metadata "$(VQHIP_CPU):feature=name=psnr:n_subsample=2" yuv420p $(VQHIP_PSNR_FUZZ)

# A temporal feature: each frame's motion is final one frame later, the
# last frame's at EOF (vq_flush).
FATE_VQHIP_REFCMP-yes += fate-filter-vqhip-motion
fate-filter-vqhip-motion: CMD = refcmp_metadata "$(VQHIP_CPU):feature=name=motion" yuv420p $(VQHIP_FUZZ)

# The default model (vmaf_v0.6.1) and its inputs; libvmaf wrote the values.
FATE_VQHIP_REFCMP-yes += fate-filter-vqhip-vmaf
fate-filter-vqhip-vmaf: CMD = refcmp_metadata "$(VQHIP_CPU)" yuv420p $(VQHIP_FUZZ)

# libvmaf's float extractors (float_vif, float_adm, float_motion) and the
# float model; libvmaf wrote the values (its C path; its float features
# print the same with its SIMD).
VQHIP_FLOAT = feature=name=float_vif|name=float_adm|name=float_motion

FATE_VQHIP_REFCMP-yes += fate-filter-vqhip-float-yuv420p
fate-filter-vqhip-float-yuv420p: CMD = refcmp_metadata "$(VQHIP_CPU):$(VQHIP_FLOAT)" yuv420p $(VQHIP_FUZZ)

FATE_VQHIP_REFCMP-yes += fate-filter-vqhip-float-yuv422p10
fate-filter-vqhip-float-yuv422p10: CMD = refcmp_metadata "$(VQHIP_CPU):$(VQHIP_FLOAT)" yuv422p10le $(VQHIP_FUZZ)

FATE_VQHIP_REFCMP-yes += fate-filter-vqhip-vmaf-float
fate-filter-vqhip-vmaf-float: CMD = refcmp_metadata "$(VQHIP_CPU):model=version=vmaf_float_v0.6.1" yuv420p $(VQHIP_FUZZ)

# CAMBI (banding) of the distorted frames, and with full_ref of the
# reference too (cambi_source, cambi_full_reference); libvmaf wrote the
# values (make-refs.sh).
FATE_VQHIP_REFCMP-yes += fate-filter-vqhip-cambi
fate-filter-vqhip-cambi: CMD = refcmp_metadata "$(VQHIP_CPU):feature=name=cambi" yuv420p $(VQHIP_FUZZ)

FATE_VQHIP_REFCMP-yes += fate-filter-vqhip-cambi-full-ref-yuv420p10
fate-filter-vqhip-cambi-full-ref-yuv420p10: CMD = refcmp_metadata "$(VQHIP_CPU):feature=name=cambi\\\\:full_ref=true" yuv420p10le $(VQHIP_FUZZ)

# SpEED and motion_v2 (libvmaf's values; motion_v2's are libvmaf's integer
# motion values under motion_v2's names: its SAD must equal motion's). A
# ':' inside a feature's options reaches the filter as "\\:" (one level of
# escaping for the graph, one for the filter's option parser).
VQHIP_SPEED_V1016 = name=speed_chroma\\\\:speed_sigma_nn=0.19\\\\:speed_nn_floor=0.1\\\\:speed_weight_var_mode=5\\\\:speed_max_val=45

FATE_VQHIP_REFCMP-yes += fate-filter-vqhip-speed-chroma
fate-filter-vqhip-speed-chroma: CMD = refcmp_metadata "$(VQHIP_CPU):feature=name=speed_chroma" yuv444p $(VQHIP_FUZZ)

FATE_VQHIP_REFCMP-yes += fate-filter-vqhip-speed-chroma-v1016
fate-filter-vqhip-speed-chroma-v1016: CMD = refcmp_metadata "$(VQHIP_CPU):feature=$(VQHIP_SPEED_V1016)" yuv444p10le $(VQHIP_FUZZ)

FATE_VQHIP_REFCMP-yes += fate-filter-vqhip-speed-temporal
fate-filter-vqhip-speed-temporal: CMD = refcmp_metadata "$(VQHIP_CPU):feature=name=speed_temporal" yuv420p $(VQHIP_FUZZ)

FATE_VQHIP_REFCMP-yes += fate-filter-vqhip-motion-v2
fate-filter-vqhip-motion-v2: CMD = refcmp_metadata "$(VQHIP_CPU):feature=name=motion_v2" yuv420p $(VQHIP_FUZZ)

# Semi-planar frames (as hardware decoders and hwdownload give them) score
# exactly as the same samples in planar frames: the planar tests'
# references, both inputs converted losslessly after the blur
# (vqhip_refcmp_after, added to tests/fate-run.sh by apply.sh).
FATE_VQHIP_REFCMP-yes += fate-filter-vqhip-psnr-nv12
fate-filter-vqhip-psnr-nv12: CMD = vqhip_refcmp_after "$(VQHIP_CPU):feature=name=psnr|name=float_psnr" yuv420p scale,format=nv12 $(VQHIP_PSNR_FUZZ)
fate-filter-vqhip-psnr-nv12: REF = $(SRC_PATH)/tests/ref/fate/filter-vqhip-psnr-yuv420p

FATE_VQHIP_REFCMP-yes += fate-filter-vqhip-vmaf-nv12
fate-filter-vqhip-vmaf-nv12: CMD = vqhip_refcmp_after "$(VQHIP_CPU)" yuv420p scale,format=nv12 $(VQHIP_FUZZ)
fate-filter-vqhip-vmaf-nv12: REF = $(SRC_PATH)/tests/ref/fate/filter-vqhip-vmaf

FATE_VQHIP_REFCMP-yes += fate-filter-vqhip-psnr-p010
fate-filter-vqhip-psnr-p010: CMD = vqhip_refcmp_after "$(VQHIP_CPU):feature=name=psnr|name=float_psnr" yuv420p10le scale,format=p010le $(VQHIP_PSNR_FUZZ)
fate-filter-vqhip-psnr-p010: REF = $(SRC_PATH)/tests/ref/fate/filter-vqhip-psnr-yuv420p10

# SSIM family. float_ssim (8-bit) and float_ms_ssim (4:2:2 10-bit): libvmaf's
# values (make-refs.sh). ssim (4:4:4 12-bit): vqhip's own integer SSIM, which
# neither libvmaf nor FFmpeg's ssim filter computes; its reference comes from
# tests/ssim/ssim_direct.c, an independent direct evaluation of the
# definition.
FATE_VQHIP_REFCMP-yes += fate-filter-vqhip-float-ssim
fate-filter-vqhip-float-ssim: CMD = refcmp_metadata "$(VQHIP_CPU):feature=name=float_ssim" yuv420p $(VQHIP_FUZZ)

FATE_VQHIP_REFCMP-yes += fate-filter-vqhip-float-ms-ssim
fate-filter-vqhip-float-ms-ssim: CMD = refcmp_metadata "$(VQHIP_CPU):feature=name=float_ms_ssim" yuv422p10le $(VQHIP_FUZZ)

FATE_VQHIP_REFCMP-yes += fate-filter-vqhip-ssim
fate-filter-vqhip-ssim: CMD = refcmp_metadata "$(VQHIP_CPU):feature=name=ssim" yuv444p12le $(VQHIP_FUZZ)

# float_moment, float_ansnr, psnr_hvs and ciede; libvmaf wrote the values
# (its vmaf tool on the same frames as raw video, fate/make-refs.sh).
FATE_VQHIP_REFCMP-yes += fate-filter-vqhip-float-moment
fate-filter-vqhip-float-moment: CMD = refcmp_metadata "$(VQHIP_CPU):feature=name=float_moment" yuv422p10le $(VQHIP_FUZZ)

FATE_VQHIP_REFCMP-yes += fate-filter-vqhip-float-ansnr
fate-filter-vqhip-float-ansnr: CMD = refcmp_metadata "$(VQHIP_CPU):feature=name=float_ansnr" yuv420p $(VQHIP_FUZZ)

FATE_VQHIP_REFCMP-yes += fate-filter-vqhip-psnr-hvs
fate-filter-vqhip-psnr-hvs: CMD = refcmp_metadata "$(VQHIP_CPU):feature=name=psnr_hvs" yuv420p10le $(VQHIP_FUZZ)

FATE_VQHIP_REFCMP-yes += fate-filter-vqhip-ciede
fate-filter-vqhip-ciede: CMD = refcmp_metadata "$(VQHIP_CPU):feature=name=ciede" yuv420p10le $(VQHIP_FUZZ)

FATE_VQHIP-$(call ALLYES, VQHIP_FILTER TESTSRC2_FILTER SPLIT_FILTER      \
                          AVGBLUR_FILTER FORMAT_FILTER SCALE_FILTER      \
                          EXTRACTPLANES_FILTER METADATA_FILTER            \
                          WRAPPED_AVFRAME_ENCODER                         \
                          NULL_MUXER PIPE_PROTOCOL) += $(FATE_VQHIP_REFCMP-yes)

# ssimulacra2: the frames carry their colour description (setparams), which
# the filter hands to the library. References: libjxl's ssimulacra2 tool on
# zscale's float RGB of the same frames (fate/make-refs.sh). vqhip's scores
# are the same bits on every CPU and GPU, so the largest relative difference
# measured, 6.24e-5 (4:4:4 10-bit; 3.0e-5 at 4:2:0), rounded up, is the
# tolerance (0.003 absolute at these scores, -54 to -39: avgblur=4 is a
# strong blur; tests/ssimulacra2 holds the golden clips to 0.006).
VQHIP_S2_FUZZ = 0.000065
VQHIP_S2_420 = yuv420p,setparams=colorspace=bt709:range=tv
VQHIP_S2_444 = yuv444p10le,setparams=colorspace=bt2020nc:range=pc

FATE_VQHIP_S2-yes += fate-filter-vqhip-ssimulacra2-yuv420p
fate-filter-vqhip-ssimulacra2-yuv420p: CMD = refcmp_metadata "$(VQHIP_CPU):feature=name=ssimulacra2" $(VQHIP_S2_420) $(VQHIP_S2_FUZZ)

FATE_VQHIP_S2-yes += fate-filter-vqhip-ssimulacra2-yuv444p10
fate-filter-vqhip-ssimulacra2-yuv444p10: CMD = refcmp_metadata "$(VQHIP_CPU):feature=name=ssimulacra2" $(VQHIP_S2_444) $(VQHIP_S2_FUZZ)

# The same yuv420p frames repacked as NV12 (same samples, same tags).
FATE_VQHIP_S2-yes += fate-filter-vqhip-ssimulacra2-nv12
fate-filter-vqhip-ssimulacra2-nv12: CMD = vqhip_refcmp_after "$(VQHIP_CPU):feature=name=ssimulacra2" $(VQHIP_S2_420) scale,format=nv12 $(VQHIP_S2_FUZZ)
fate-filter-vqhip-ssimulacra2-nv12: REF = $(SRC_PATH)/tests/ref/fate/filter-vqhip-ssimulacra2-yuv420p

FATE_VQHIP-$(call ALLYES, VQHIP_FILTER TESTSRC2_FILTER SPLIT_FILTER      \
                          AVGBLUR_FILTER FORMAT_FILTER SCALE_FILTER      \
                          SETPARAMS_FILTER METADATA_FILTER                \
                          WRAPPED_AVFRAME_ENCODER                         \
                          NULL_MUXER PIPE_PROTOCOL) += $(FATE_VQHIP_S2-yes)

VQHIP_PASSTHROUGH = framecrc -lavfi "testsrc2=size=300x200:rate=1:duration=5,format=yuv420p,split[ref][tmp];[tmp]avgblur=4[dis];[dis][ref]$(1)"

FATE_VQHIP-$(call ALLYES, VQHIP_FILTER TESTSRC2_FILTER SPLIT_FILTER      \
                          AVGBLUR_FILTER FORMAT_FILTER RAWVIDEO_ENCODER   \
                          FRAMECRC_MUXER PIPE_PROTOCOL) += fate-filter-vqhip-passthrough
fate-filter-vqhip-passthrough: CMD = $(call VQHIP_PASSTHROUGH,$(VQHIP_CPU):feature=name=psnr)

# Error paths: ffmpeg must fail ("!") and say why (CMP = grep on stderr).
VQHIP_SRC = testsrc2=rate=1:duration=1

FATE_VQHIP_ERROR-yes += fate-filter-vqhip-mismatch-size
fate-filter-vqhip-mismatch-size: CMD = ! ffmpeg -lavfi "$(VQHIP_SRC):size=64x48,format=yuv420p[dis];$(VQHIP_SRC):size=64x64,format=yuv420p[ref];[dis][ref]$(VQHIP_CPU):feature=name=psnr" -f null -
fate-filter-vqhip-mismatch-size: REF = The main input is 64x48 yuv420p (8-bit) but the reference input is 64x64 yuv420p (8-bit)

FATE_VQHIP_ERROR-yes += fate-filter-vqhip-mismatch-depth
fate-filter-vqhip-mismatch-depth: CMD = ! ffmpeg -auto_conversion_filters -lavfi "$(VQHIP_SRC):size=64x48,format=yuv420p[dis];$(VQHIP_SRC):size=64x48,format=yuv420p10le[ref];[dis][ref]$(VQHIP_CPU):feature=name=psnr" -f null -
fate-filter-vqhip-mismatch-depth: REF = The main input is 64x48 yuv420p (8-bit) but the reference input is 64x48 yuv420p10le (10-bit)

FATE_VQHIP_ERROR-yes += fate-filter-vqhip-unknown-feature
fate-filter-vqhip-unknown-feature: CMD = ! ffmpeg -lavfi "$(VQHIP_SRC):size=64x48,format=yuv420p,split[dis][ref];[dis][ref]$(VQHIP_CPU):feature=name=nosuch" -f null -
fate-filter-vqhip-unknown-feature: REF = unknown feature .nosuch.; valid features: .*psnr

# A size an extractor refuses is found when the first frame arrives: FFmpeg
# 5.1 reports that filtering error ("Error while filtering") and still exits
# 0, newer series exit non-zero, so this test checks the message only.
FATE_VQHIP_ERROR-yes += fate-filter-vqhip-ms-ssim-too-small
fate-filter-vqhip-ms-ssim-too-small: CMD = ffmpeg -lavfi "$(VQHIP_SRC):size=64x48,format=yuv420p,split[dis][ref];[dis][ref]$(VQHIP_CPU):feature=name=float_ms_ssim" -f null - || true
fate-filter-vqhip-ms-ssim-too-small: REF = float_ms_ssim: a 64x48 frame is too small; MS-SSIM needs width and height of at least 176

$(FATE_VQHIP_ERROR-yes): CMP = grep
FATE_VQHIP-$(call ALLYES, VQHIP_FILTER TESTSRC2_FILTER SPLIT_FILTER      \
                          FORMAT_FILTER SCALE_FILTER                      \
                          WRAPPED_AVFRAME_ENCODER NULL_MUXER) += $(FATE_VQHIP_ERROR-yes)

# GPU: the same inputs and references on backend=hip:strict=1 (the
# references differ only in lavfi.vqhip.backend), at the default depth and
# at depth=1 (frames released as soon as scored) and depth=8. They need a
# GPU, so they are hardware tests: "make fate-vqhip-hip" or "make fate-hw",
# not part of "make fate".
VQHIP_HIP = vqhip=backend=hip:strict=1

FATE_VQHIP_HIP_REFCMP-yes += fate-filter-vqhip-hip-psnr-yuv420p
fate-filter-vqhip-hip-psnr-yuv420p: CMD = refcmp_metadata "$(VQHIP_HIP):feature=name=psnr|name=float_psnr" yuv420p $(VQHIP_PSNR_FUZZ)
fate-filter-vqhip-hip-psnr-yuv420p: REF = $(SRC_PATH)/tests/ref/fate/filter-vqhip-hip-psnr-yuv420p

FATE_VQHIP_HIP_REFCMP-yes += fate-filter-vqhip-hip-psnr-yuv420p-depth1
fate-filter-vqhip-hip-psnr-yuv420p-depth1: CMD = refcmp_metadata "$(VQHIP_HIP):depth=1:feature=name=psnr|name=float_psnr" yuv420p $(VQHIP_PSNR_FUZZ)
fate-filter-vqhip-hip-psnr-yuv420p-depth1: REF = $(SRC_PATH)/tests/ref/fate/filter-vqhip-hip-psnr-yuv420p

FATE_VQHIP_HIP_REFCMP-yes += fate-filter-vqhip-hip-psnr-yuv422p10
fate-filter-vqhip-hip-psnr-yuv422p10: CMD = refcmp_metadata "$(VQHIP_HIP):depth=8:feature=name=psnr|name=float_psnr" yuv422p10le $(VQHIP_PSNR_FUZZ)
fate-filter-vqhip-hip-psnr-yuv422p10: REF = $(SRC_PATH)/tests/ref/fate/filter-vqhip-hip-psnr-yuv422p10

FATE_VQHIP_HIP_REFCMP-yes += fate-filter-vqhip-hip-psnr-yuv444p12
fate-filter-vqhip-hip-psnr-yuv444p12: CMD = refcmp_metadata "$(VQHIP_HIP):feature=name=psnr" yuv444p12le $(VQHIP_PSNR_FUZZ)
fate-filter-vqhip-hip-psnr-yuv444p12: REF = $(SRC_PATH)/tests/ref/fate/filter-vqhip-hip-psnr-yuv444p12

FATE_VQHIP_HIP_REFCMP-yes += fate-filter-vqhip-hip-psnr-gray16
fate-filter-vqhip-hip-psnr-gray16: CMD = refcmp_metadata "$(VQHIP_HIP):feature=name=psnr" yuv420p16le,extractplanes=y $(VQHIP_PSNR_FUZZ)
fate-filter-vqhip-hip-psnr-gray16: REF = $(SRC_PATH)/tests/ref/fate/filter-vqhip-hip-psnr-gray16

FATE_VQHIP_HIP_REFCMP-yes += fate-filter-vqhip-hip-float-psnr-gray
fate-filter-vqhip-hip-float-psnr-gray: CMD = refcmp_metadata "$(VQHIP_HIP):feature=name=float_psnr" yuv420p,extractplanes=y $(VQHIP_PSNR_FUZZ)
fate-filter-vqhip-hip-float-psnr-gray: REF = $(SRC_PATH)/tests/ref/fate/filter-vqhip-hip-float-psnr-gray

FATE_VQHIP_HIP_REFCMP-yes += fate-filter-vqhip-hip-psnr-subsample
fate-filter-vqhip-hip-psnr-subsample: CMD = refcmp_metadata "$(VQHIP_HIP):feature=name=psnr:n_subsample=2" yuv420p $(VQHIP_PSNR_FUZZ)
fate-filter-vqhip-hip-psnr-subsample: REF = $(SRC_PATH)/tests/ref/fate/filter-vqhip-hip-psnr-subsample

FATE_VQHIP_HIP_REFCMP-yes += fate-filter-vqhip-hip-motion
fate-filter-vqhip-hip-motion: CMD = refcmp_metadata "$(VQHIP_HIP):feature=name=motion" yuv420p $(VQHIP_FUZZ)
fate-filter-vqhip-hip-motion: REF = $(SRC_PATH)/tests/ref/fate/filter-vqhip-hip-motion

FATE_VQHIP_HIP_REFCMP-yes += fate-filter-vqhip-hip-motion-depth1
fate-filter-vqhip-hip-motion-depth1: CMD = refcmp_metadata "$(VQHIP_HIP):depth=1:feature=name=motion" yuv420p $(VQHIP_FUZZ)
fate-filter-vqhip-hip-motion-depth1: REF = $(SRC_PATH)/tests/ref/fate/filter-vqhip-hip-motion

FATE_VQHIP_HIP_REFCMP-yes += fate-filter-vqhip-hip-vmaf
fate-filter-vqhip-hip-vmaf: CMD = refcmp_metadata "$(VQHIP_HIP)" yuv420p $(VQHIP_FUZZ)
fate-filter-vqhip-hip-vmaf: REF = $(SRC_PATH)/tests/ref/fate/filter-vqhip-hip-vmaf

FATE_VQHIP_HIP_REFCMP-yes += fate-filter-vqhip-hip-float-yuv420p
fate-filter-vqhip-hip-float-yuv420p: CMD = refcmp_metadata "$(VQHIP_HIP):$(VQHIP_FLOAT)" yuv420p $(VQHIP_FUZZ)
fate-filter-vqhip-hip-float-yuv420p: REF = $(SRC_PATH)/tests/ref/fate/filter-vqhip-hip-float-yuv420p

FATE_VQHIP_HIP_REFCMP-yes += fate-filter-vqhip-hip-float-yuv420p-depth1
fate-filter-vqhip-hip-float-yuv420p-depth1: CMD = refcmp_metadata "$(VQHIP_HIP):depth=1:$(VQHIP_FLOAT)" yuv420p $(VQHIP_FUZZ)
fate-filter-vqhip-hip-float-yuv420p-depth1: REF = $(SRC_PATH)/tests/ref/fate/filter-vqhip-hip-float-yuv420p

FATE_VQHIP_HIP_REFCMP-yes += fate-filter-vqhip-hip-float-yuv422p10
fate-filter-vqhip-hip-float-yuv422p10: CMD = refcmp_metadata "$(VQHIP_HIP):depth=8:$(VQHIP_FLOAT)" yuv422p10le $(VQHIP_FUZZ)
fate-filter-vqhip-hip-float-yuv422p10: REF = $(SRC_PATH)/tests/ref/fate/filter-vqhip-hip-float-yuv422p10

FATE_VQHIP_HIP_REFCMP-yes += fate-filter-vqhip-hip-vmaf-float
fate-filter-vqhip-hip-vmaf-float: CMD = refcmp_metadata "$(VQHIP_HIP):model=version=vmaf_float_v0.6.1" yuv420p $(VQHIP_FUZZ)
fate-filter-vqhip-hip-vmaf-float: REF = $(SRC_PATH)/tests/ref/fate/filter-vqhip-hip-vmaf-float

FATE_VQHIP_HIP_REFCMP-yes += fate-filter-vqhip-hip-cambi
fate-filter-vqhip-hip-cambi: CMD = refcmp_metadata "$(VQHIP_HIP):feature=name=cambi" yuv420p $(VQHIP_FUZZ)
fate-filter-vqhip-hip-cambi: REF = $(SRC_PATH)/tests/ref/fate/filter-vqhip-hip-cambi

FATE_VQHIP_HIP_REFCMP-yes += fate-filter-vqhip-hip-cambi-full-ref-yuv420p10
fate-filter-vqhip-hip-cambi-full-ref-yuv420p10: CMD = refcmp_metadata "$(VQHIP_HIP):depth=1:feature=name=cambi\\\\:full_ref=true" yuv420p10le $(VQHIP_FUZZ)
fate-filter-vqhip-hip-cambi-full-ref-yuv420p10: REF = $(SRC_PATH)/tests/ref/fate/filter-vqhip-hip-cambi-full-ref-yuv420p10

FATE_VQHIP_HIP_REFCMP-yes += fate-filter-vqhip-hip-speed-chroma
fate-filter-vqhip-hip-speed-chroma: CMD = refcmp_metadata "$(VQHIP_HIP):feature=name=speed_chroma" yuv444p $(VQHIP_FUZZ)
fate-filter-vqhip-hip-speed-chroma: REF = $(SRC_PATH)/tests/ref/fate/filter-vqhip-hip-speed-chroma

FATE_VQHIP_HIP_REFCMP-yes += fate-filter-vqhip-hip-speed-chroma-v1016
fate-filter-vqhip-hip-speed-chroma-v1016: CMD = refcmp_metadata "$(VQHIP_HIP):depth=1:feature=$(VQHIP_SPEED_V1016)" yuv444p10le $(VQHIP_FUZZ)
fate-filter-vqhip-hip-speed-chroma-v1016: REF = $(SRC_PATH)/tests/ref/fate/filter-vqhip-hip-speed-chroma-v1016

FATE_VQHIP_HIP_REFCMP-yes += fate-filter-vqhip-hip-speed-temporal
fate-filter-vqhip-hip-speed-temporal: CMD = refcmp_metadata "$(VQHIP_HIP):feature=name=speed_temporal" yuv420p $(VQHIP_FUZZ)
fate-filter-vqhip-hip-speed-temporal: REF = $(SRC_PATH)/tests/ref/fate/filter-vqhip-hip-speed-temporal

FATE_VQHIP_HIP_REFCMP-yes += fate-filter-vqhip-hip-motion-v2
fate-filter-vqhip-hip-motion-v2: CMD = refcmp_metadata "$(VQHIP_HIP):depth=8:feature=name=motion_v2" yuv420p $(VQHIP_FUZZ)
fate-filter-vqhip-hip-motion-v2: REF = $(SRC_PATH)/tests/ref/fate/filter-vqhip-hip-motion-v2

FATE_VQHIP_HIP_REFCMP-yes += fate-filter-vqhip-hip-vmaf-nv12
fate-filter-vqhip-hip-vmaf-nv12: CMD = vqhip_refcmp_after "$(VQHIP_HIP)" yuv420p scale,format=nv12 $(VQHIP_FUZZ)
fate-filter-vqhip-hip-vmaf-nv12: REF = $(SRC_PATH)/tests/ref/fate/filter-vqhip-hip-vmaf

FATE_VQHIP_HIP_REFCMP-yes += fate-filter-vqhip-hip-psnr-p010
fate-filter-vqhip-hip-psnr-p010: CMD = vqhip_refcmp_after "$(VQHIP_HIP):feature=name=psnr|name=float_psnr" yuv420p10le scale,format=p010le $(VQHIP_PSNR_FUZZ)
fate-filter-vqhip-hip-psnr-p010: REF = $(SRC_PATH)/tests/ref/fate/filter-vqhip-hip-psnr-yuv420p10

FATE_VQHIP_HIP_REFCMP-yes += fate-filter-vqhip-hip-float-ssim
fate-filter-vqhip-hip-float-ssim: CMD = refcmp_metadata "$(VQHIP_HIP):feature=name=float_ssim" yuv420p $(VQHIP_FUZZ)
fate-filter-vqhip-hip-float-ssim: REF = $(SRC_PATH)/tests/ref/fate/filter-vqhip-hip-float-ssim

FATE_VQHIP_HIP_REFCMP-yes += fate-filter-vqhip-hip-float-ms-ssim
fate-filter-vqhip-hip-float-ms-ssim: CMD = refcmp_metadata "$(VQHIP_HIP):feature=name=float_ms_ssim" yuv422p10le $(VQHIP_FUZZ)
fate-filter-vqhip-hip-float-ms-ssim: REF = $(SRC_PATH)/tests/ref/fate/filter-vqhip-hip-float-ms-ssim

FATE_VQHIP_HIP_REFCMP-yes += fate-filter-vqhip-hip-ssim
fate-filter-vqhip-hip-ssim: CMD = refcmp_metadata "$(VQHIP_HIP):feature=name=ssim" yuv444p12le $(VQHIP_FUZZ)
fate-filter-vqhip-hip-ssim: REF = $(SRC_PATH)/tests/ref/fate/filter-vqhip-hip-ssim

FATE_VQHIP_HIP_REFCMP-yes += fate-filter-vqhip-hip-float-moment
fate-filter-vqhip-hip-float-moment: CMD = refcmp_metadata "$(VQHIP_HIP):feature=name=float_moment" yuv422p10le $(VQHIP_FUZZ)
fate-filter-vqhip-hip-float-moment: REF = $(SRC_PATH)/tests/ref/fate/filter-vqhip-hip-float-moment

FATE_VQHIP_HIP_REFCMP-yes += fate-filter-vqhip-hip-float-ansnr
fate-filter-vqhip-hip-float-ansnr: CMD = refcmp_metadata "$(VQHIP_HIP):feature=name=float_ansnr" yuv420p $(VQHIP_FUZZ)
fate-filter-vqhip-hip-float-ansnr: REF = $(SRC_PATH)/tests/ref/fate/filter-vqhip-hip-float-ansnr

FATE_VQHIP_HIP_REFCMP-yes += fate-filter-vqhip-hip-psnr-hvs
fate-filter-vqhip-hip-psnr-hvs: CMD = refcmp_metadata "$(VQHIP_HIP):feature=name=psnr_hvs" yuv420p10le $(VQHIP_FUZZ)
fate-filter-vqhip-hip-psnr-hvs: REF = $(SRC_PATH)/tests/ref/fate/filter-vqhip-hip-psnr-hvs

FATE_VQHIP_HIP_REFCMP-yes += fate-filter-vqhip-hip-ciede
fate-filter-vqhip-hip-ciede: CMD = refcmp_metadata "$(VQHIP_HIP):feature=name=ciede" yuv420p10le $(VQHIP_FUZZ)
fate-filter-vqhip-hip-ciede: REF = $(SRC_PATH)/tests/ref/fate/filter-vqhip-hip-ciede

FATE_VQHIP_HIP-$(call ALLYES, VQHIP_FILTER TESTSRC2_FILTER SPLIT_FILTER  \
                              AVGBLUR_FILTER FORMAT_FILTER SCALE_FILTER  \
                              EXTRACTPLANES_FILTER METADATA_FILTER        \
                              WRAPPED_AVFRAME_ENCODER                     \
                              NULL_MUXER PIPE_PROTOCOL) += $(FATE_VQHIP_HIP_REFCMP-yes)

FATE_VQHIP_HIP_S2-yes += fate-filter-vqhip-hip-ssimulacra2-yuv420p
fate-filter-vqhip-hip-ssimulacra2-yuv420p: CMD = refcmp_metadata "$(VQHIP_HIP):feature=name=ssimulacra2" $(VQHIP_S2_420) $(VQHIP_S2_FUZZ)
fate-filter-vqhip-hip-ssimulacra2-yuv420p: REF = $(SRC_PATH)/tests/ref/fate/filter-vqhip-hip-ssimulacra2-yuv420p

FATE_VQHIP_HIP_S2-yes += fate-filter-vqhip-hip-ssimulacra2-yuv444p10
fate-filter-vqhip-hip-ssimulacra2-yuv444p10: CMD = refcmp_metadata "$(VQHIP_HIP):depth=1:feature=name=ssimulacra2" $(VQHIP_S2_444) $(VQHIP_S2_FUZZ)
fate-filter-vqhip-hip-ssimulacra2-yuv444p10: REF = $(SRC_PATH)/tests/ref/fate/filter-vqhip-hip-ssimulacra2-yuv444p10

FATE_VQHIP_HIP_S2-yes += fate-filter-vqhip-hip-ssimulacra2-nv12
fate-filter-vqhip-hip-ssimulacra2-nv12: CMD = vqhip_refcmp_after "$(VQHIP_HIP):feature=name=ssimulacra2" $(VQHIP_S2_420) scale,format=nv12 $(VQHIP_S2_FUZZ)
fate-filter-vqhip-hip-ssimulacra2-nv12: REF = $(SRC_PATH)/tests/ref/fate/filter-vqhip-hip-ssimulacra2-yuv420p

FATE_VQHIP_HIP-$(call ALLYES, VQHIP_FILTER TESTSRC2_FILTER SPLIT_FILTER  \
                              AVGBLUR_FILTER FORMAT_FILTER SCALE_FILTER  \
                              SETPARAMS_FILTER METADATA_FILTER            \
                              WRAPPED_AVFRAME_ENCODER                     \
                              NULL_MUXER PIPE_PROTOCOL) += $(FATE_VQHIP_HIP_S2-yes)

# CUDA frames (hwupload to the one -filter_hw_device; hwupload_cuda would make
# a CUDA context per input; the tests run where FFmpeg has CUDA, which
# hwupload_cuda marks): libvqhip reads them on the GPU
# without a copy through the host; same references.
VQHIP_CUDA_DEV = -init_hw_device cuda=vqhip -filter_hw_device vqhip
FATE_VQHIP_CUDA-yes += fate-filter-vqhip-cuda-vmaf
fate-filter-vqhip-cuda-vmaf: CMD = vqhip_refcmp_after "$(VQHIP_HIP)" yuv420p hwupload $(VQHIP_FUZZ) $(VQHIP_CUDA_DEV)
fate-filter-vqhip-cuda-vmaf: REF = $(SRC_PATH)/tests/ref/fate/filter-vqhip-hip-vmaf

FATE_VQHIP_CUDA-yes += fate-filter-vqhip-cuda-vmaf-depth1
fate-filter-vqhip-cuda-vmaf-depth1: CMD = vqhip_refcmp_after "$(VQHIP_HIP):depth=1" yuv420p hwupload $(VQHIP_FUZZ) $(VQHIP_CUDA_DEV)
fate-filter-vqhip-cuda-vmaf-depth1: REF = $(SRC_PATH)/tests/ref/fate/filter-vqhip-hip-vmaf

FATE_VQHIP_CUDA-yes += fate-filter-vqhip-cuda-psnr-p010
fate-filter-vqhip-cuda-psnr-p010: CMD = vqhip_refcmp_after "$(VQHIP_HIP):feature=name=psnr|name=float_psnr" yuv420p10le scale,format=p010le,hwupload $(VQHIP_PSNR_FUZZ) $(VQHIP_CUDA_DEV)
fate-filter-vqhip-cuda-psnr-p010: REF = $(SRC_PATH)/tests/ref/fate/filter-vqhip-hip-psnr-yuv420p10

FATE_VQHIP_CUDA-yes += fate-filter-vqhip-cuda-psnr-yuv420p
fate-filter-vqhip-cuda-psnr-yuv420p: CMD = vqhip_refcmp_after "$(VQHIP_HIP):feature=name=psnr|name=float_psnr" yuv420p hwupload $(VQHIP_PSNR_FUZZ) $(VQHIP_CUDA_DEV)
fate-filter-vqhip-cuda-psnr-yuv420p: REF = $(SRC_PATH)/tests/ref/fate/filter-vqhip-hip-psnr-yuv420p

FATE_VQHIP_CUDA-yes += fate-filter-vqhip-cuda-vmaf-nv12
fate-filter-vqhip-cuda-vmaf-nv12: CMD = vqhip_refcmp_after "$(VQHIP_HIP)" yuv420p scale,format=nv12,hwupload $(VQHIP_FUZZ) $(VQHIP_CUDA_DEV)
fate-filter-vqhip-cuda-vmaf-nv12: REF = $(SRC_PATH)/tests/ref/fate/filter-vqhip-hip-vmaf

FATE_VQHIP_HIP-$(call ALLYES, VQHIP_FILTER TESTSRC2_FILTER SPLIT_FILTER  \
                              AVGBLUR_FILTER FORMAT_FILTER SCALE_FILTER  \
                              HWUPLOAD_FILTER METADATA_FILTER             \
                              HWUPLOAD_CUDA_FILTER WRAPPED_AVFRAME_ENCODER\
                              NULL_MUXER PIPE_PROTOCOL) += $(FATE_VQHIP_CUDA-yes)

FATE_VQHIP_HIP_PASSTHROUGH-yes += fate-filter-vqhip-hip-passthrough-depth1
fate-filter-vqhip-hip-passthrough-depth1: CMD = $(call VQHIP_PASSTHROUGH,$(VQHIP_HIP):depth=1:feature=name=psnr)
FATE_VQHIP_HIP_PASSTHROUGH-yes += fate-filter-vqhip-hip-passthrough-depth8
fate-filter-vqhip-hip-passthrough-depth8: CMD = $(call VQHIP_PASSTHROUGH,$(VQHIP_HIP):depth=8:feature=name=psnr)
$(FATE_VQHIP_HIP_PASSTHROUGH-yes): REF = $(SRC_PATH)/tests/ref/fate/filter-vqhip-passthrough
FATE_VQHIP_HIP-$(call ALLYES, VQHIP_FILTER TESTSRC2_FILTER SPLIT_FILTER  \
                              AVGBLUR_FILTER FORMAT_FILTER RAWVIDEO_ENCODER \
                              FRAMECRC_MUXER PIPE_PROTOCOL) += $(FATE_VQHIP_HIP_PASSTHROUGH-yes)

FATE_FFMPEG += $(FATE_VQHIP-yes)
FATE_HW-$(CONFIG_FFMPEG) += $(FATE_VQHIP_HIP-yes)
fate-vqhip: $(FATE_VQHIP-yes)
fate-vqhip-hip: $(FATE_VQHIP_HIP-yes)
