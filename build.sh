#!/bin/sh
# Builds everything and runs the main job on a built-in default input
# (README, first command):
#   1. installs what is missing (scripts/install-deps.sh)
#   2. builds libvqhip (AMD kernels; the GPU is used when one is present,
#      otherwise the CPU path, with a warning that says so)
#   3. builds Debian 12's FFmpeg 5.1 with the vqhip filter (.ffmpeg/)
#   4. scores a generated 720p clip against a degraded copy of itself with
#      the filter (VMAF, PSNR): per-frame scores as metadata, then the pooled
#      summary
set -eu
cd "$(dirname "$0")"
scripts/install-deps.sh
[ -d build ] || meson setup build
ninja -C build
scripts/build-ffmpeg.sh debian

ff=.ffmpeg/build/debian/ffmpeg
demo=build/demo
mkdir -p "$demo"
echo
echo "== main job: a 720p test clip (48 frames) scored against a blurred, noisy copy"
"$ff" -hide_banner -nostats -loglevel info \
    -f lavfi -i "testsrc2=size=1280x720:rate=24:duration=2,format=yuv420p" \
    -f lavfi -i "testsrc2=size=1280x720:rate=24:duration=2,format=yuv420p" \
    -lavfi "[0]gblur=sigma=1.2,noise=alls=8:allf=t:all_seed=7[dis];[dis][1]vqhip=model=version=vmaf_v0.6.1:feature=name=psnr|name=float_psnr:log_fmt=json:log_path=$demo/log.json,metadata=print:file=-" \
    -f null - 2>&1 | grep -E "lavfi.vqhip|frame:|vqhip|VMAF" || true
echo "log: $demo/log.json"
