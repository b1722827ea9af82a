#!/bin/sh
# Builds everything and runs the main job on a built-in default input
# (README, first command):
#   1. installs what is missing (tools/install-deps.sh)
#   2. builds libvqhip (AMD kernels; the GPU is used when one is present,
#      otherwise the CPU path, with a warning that says so)
#   3. scores a generated 720p clip against a degraded copy of itself and
#      prints per-frame scores and the pooled summary
set -eu
cd "$(dirname "$0")"
tools/install-deps.sh
[ -d build ] || meson setup build
ninja -C build

demo=build/demo
mkdir -p "$demo"
if [ ! -f "$demo/dis.yuv" ]; then
    echo "generating the demo clip: 720p, 48 frames, and a blurred, noisy copy"
    ffmpeg -hide_banner -loglevel error -y -f lavfi \
        -i "testsrc2=size=1280x720:rate=24:duration=2" \
        -pix_fmt yuv420p -f rawvideo "$demo/ref.yuv"
    ffmpeg -hide_banner -loglevel error -y -f rawvideo -pix_fmt yuv420p \
        -s 1280x720 -r 24 -i "$demo/ref.yuv" \
        -vf "gblur=sigma=1.2,noise=alls=8:allf=t:all_seed=7" \
        -pix_fmt yuv420p -f rawvideo "$demo/dis.yuv"
fi
build/tools/vqhip -r "$demo/ref.yuv" -d "$demo/dis.yuv" -w 1280 -h 720 \
    -p 420 -b 8 --feature name=psnr:enable_chroma=true --feature float_psnr \
    --json -o "$demo/log.json"
echo "log: $demo/log.json"
