#!/bin/sh
# Runs the vqhip FATE tests in an FFmpeg tree built by scripts/build-ffmpeg.sh.
#
# Usage: scripts/run-fate.sh debian|newest [MAKE ARGS...]
#   e.g. scripts/run-fate.sh newest V=1
#        scripts/run-fate.sh newest fate-vqhip-hip   (also the GPU tests)
#
# The tests and references are re-installed from fate/ first (apply.sh is
# idempotent), so edits there need no rebuild. FFmpeg's own
# fate-filter-refcmp-psnr-yuv runs too: it shows that vf_psnr, which the
# vqhip references are derived from, matches FFmpeg's published reference
# in this tree.
set -eu

series=${1:-}
case $series in
debian|newest) ;;
*) echo "usage: $0 debian|newest [MAKE ARGS...]" >&2; exit 2 ;;
esac
shift

repo=$(cd "$(dirname "$0")/.." && pwd)
src=$repo/.ffmpeg/src/$series
build=$repo/.ffmpeg/build/$series${VQHIP_VARIANT:+-$VQHIP_VARIANT}
[ -x "$build/ffmpeg" ] ||
    { echo "no FFmpeg build for $series: run scripts/build-ffmpeg.sh $series" >&2; exit 1; }

"$repo/libavfilter_patch/apply.sh" "$src" >/dev/null
# -k: every test runs even when one fails. The last line says how make
# ended (test.sh reads it).
status=0
make -C "$build" -j "${JOBS:-2}" -k fate-vqhip fate-filter-refcmp-psnr-yuv "$@" ||
    status=$?
echo "run-fate: make exited with $status"
exit $status
