#!/bin/sh
# The reliability stage of ./test.sh (no GPU needed):
#   1. Debian 12's FFmpeg and libvqhip on the emulated device
#      (-Dhip_platform=emu: the kernels compiled for the host) built with
#      address and undefined-behaviour sanitizers; the filter's FATE tests,
#      its GPU FATE tests (on the emulated device) and
#      tests/reliability/filter-check.sh (device faults there) under them
#   2. the libFuzzer targets (clang), each for FUZZ_SECONDS (default 60);
#      a crash fails the stage and leaves its input in build-fuzz/artifacts
# Prints "N passed, N failed" at the end; exit status 0 only when nothing
# failed.
set -u
cd "$(dirname "$0")/.."
pass=0 fail=0
res() { if [ "$1" -eq 0 ]; then pass=$((pass + 1)); echo "reliability: ok   $2";
        else fail=$((fail + 1)); echo "reliability: FAIL $2"; fi; }

# 1. sanitized FFmpeg + filter
# one word per option: build-ffmpeg.sh splits FFMPEG_EXTRA_ARGS on spaces
san_cfg="--extra-cflags=-fsanitize=address,undefined --extra-cflags=-fno-sanitize-recover=undefined --extra-cflags=-fno-omit-frame-pointer --extra-ldflags=-fsanitize=address,undefined --disable-asm"
export ASAN_OPTIONS=detect_leaks=0:abort_on_error=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
if VQHIP_VARIANT=san \
   VQHIP_MESON_ARGS="-Dhip_platform=emu -Db_sanitize=address,undefined -Db_lundef=false" \
   FFMPEG_EXTRA_ARGS="$san_cfg" \
   scripts/build-ffmpeg.sh debian; then
    fate_log=$(mktemp)
    VQHIP_VARIANT=san scripts/run-fate.sh debian fate-vqhip-hip 2>&1 |
        tee "$fate_log"
    st=$(sed -n 's/^run-fate: make exited with //p' "$fate_log")
    res "${st:-1}" "FATE (vqhip, and vqhip-hip on the emulated device) under ASan+UBSan"
    # every test fate/vqhip.mak defines for both backends ran (CUDA frames
    # aside), and FFmpeg's refcmp-psnr-yuv
    n=$(grep -c '^TEST' "$fate_log")
    want=$(( $(grep -c '^fate-filter-vqhip-[a-z0-9-]*: CMD' fate/vqhip.mak) -
             $(grep -c '^fate-filter-vqhip-cuda-[a-z0-9-]*: CMD' fate/vqhip.mak) + 1 ))
    [ "$n" -eq "$want" ]
    res $? "FATE under ASan+UBSan: $n tests ran, $want defined"
    rm -f "$fate_log"
    VQHIP_MODEL_DIR=${VQHIP_MODEL_DIR:-$PWD/../shared/models} \
        tests/reliability/filter-check.sh .ffmpeg/build/debian-san/ffmpeg
    res $? "filter-check under ASan+UBSan (device faults on the emulated device)"
else
    res 1 "sanitized FFmpeg build"
fi
unset ASAN_OPTIONS UBSAN_OPTIONS

# 2. fuzzing, bounded
if command -v clang >/dev/null; then
    if { [ -d build-fuzz ] || CC=clang meson setup build-fuzz -Dfuzzing=true \
            -Dhip_platform=none -Dbuildtype=debugoptimized; } &&
       ninja -C build-fuzz -j "${JOBS:-2}"; then
        scripts/fuzz.sh build-fuzz "${FUZZ_SECONDS:-60}"
        res $? "fuzzing (model, options, y4m, picture; ${FUZZ_SECONDS:-60} s each)"
    else
        res 1 "fuzzing build"
    fi
else
    res 1 "fuzzing: clang not found"
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
