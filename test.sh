#!/bin/sh
# The whole test suite (README, second command; CI runs exactly this):
#   1. installs what is missing (tools/install-deps.sh)
#   2. builds libvqhip with the AMD kernels (hipcc, gfx1036 and others) and
#      runs unit, golden and GPU-parity tests (GPU cases skip without a GPU)
#   3. builds with the NVIDIA kernels (nvcc, sm_90): compile only here
#   4. builds with address and undefined-behaviour sanitizers and runs the
#      unit tests and part of the golden set under them
set -eu
cd "$(dirname "$0")"
tools/install-deps.sh

step() { printf '\n== %s\n' "$*"; }

step "libvqhip, AMD platform: build and tests"
[ -d build ] || meson setup build -Dhip_platform=amd
ninja -C build
meson test -C build --print-errorlogs --num-processes 2

step "libvqhip, NVIDIA platform: build (compile only)"
if command -v nvcc >/dev/null || [ -x /usr/local/cuda/bin/nvcc ]; then
    [ -d build-nv ] || meson setup build-nv -Dhip_platform=nvidia -Dtests=true
    ninja -C build-nv
else
    echo "nvcc not found: NVIDIA build skipped"
fi

step "sanitizers (address, undefined), CPU path"
[ -d build-san ] || meson setup build-san -Dhip_platform=none \
    -Db_sanitize=address,undefined -Db_lundef=false -Dbuildtype=debugoptimized
ninja -C build-san
VQHIP_MODEL_DIR=../shared/models ASAN_OPTIONS=detect_leaks=1 \
    UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
    meson test -C build-san --print-errorlogs --suite unit --suite golden
VQHIP_MODEL_DIR=../shared/models ASAN_OPTIONS=detect_leaks=1 \
    UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
    build-san/tests/golden_check "${VQHIP_GOLDEN_DIR:-../shared/golden}" \
    build/tests/golden-clips --clip g07
VQHIP_MODEL_DIR=../shared/models ASAN_OPTIONS=detect_leaks=1 \
    UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
    build-san/tests/golden_check "${VQHIP_GOLDEN_DIR:-../shared/golden}" \
    build/tests/golden-clips --clip g08

step "reliability: FATE and hostile use of the filter under sanitizers, fuzzing"
tools/reliability-ci.sh

step "FFmpeg filter: Debian 12's FFmpeg 5.1 and the newest release, FATE"
for series in debian newest; do
    tools/build-ffmpeg.sh "$series"
    tools/run-fate.sh "$series"
done

step "all tests passed"
