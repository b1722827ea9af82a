#!/bin/sh
# GPU verification in one call: the parity harness, then the benchmark.
# Run on a machine with a GPU from the repository root, with a build made
# for its platform (e.g. meson setup build-nv -Dhip_platform=nvidia).
# usage: scripts/gpu-check.sh [BUILD_DIR] [checkgpu args...]
set -u
build=${1:-build-nv}
[ $# -gt 0 ] && shift
command -v nvidia-smi >/dev/null && nvidia-smi -L
echo "== parity (checkgpu $*)"
"$build/tests/checkgpu" "$@"
parity=$?
# Again with the device planes' pitch padding full of junk: a kernel that
# reads past a row's samples then differs from the CPU.
echo "== parity, junk in device pitch padding (VQHIP_PITCH_JUNK=1)"
VQHIP_PITCH_JUNK=1 "$build/tests/checkgpu" "$@" || parity=1
echo "== benchmark"
"$build/tools/vqhip_bench" --seconds "${BENCH_SECONDS:-2}"
echo "== parity exit code: $parity"
exit $parity
