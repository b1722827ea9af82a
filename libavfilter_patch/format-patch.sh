#!/bin/sh
# Writes the vqhip filter as a patch series for an FFmpeg tree, in the form
# FFmpeg reviews (git format-patch, one change a patch):
#
#   0001-avfilter-add-vqhip-filter.patch          configure, libavfilter/Makefile,
#        allfilters.c, the filter's sources (vf_vqhip.c, vf_vqhip_*.c,
#        vf_vqhip.h), Changelog, libavfilter's minor version
#   0002-doc-filters-document-the-vqhip-filter.patch   doc/filters.texi
#   0003-tests-fate-add-vqhip-filter-tests.patch       tests/fate/vqhip.mak,
#        tests/Makefile, tests/ref/fate/filter-vqhip-*, tests/fate-run.sh
#
# Usage: libavfilter_patch/format-patch.sh FFMPEG_SOURCE_DIR OUT_DIR
#
# FFMPEG_SOURCE_DIR is a tree without the filter: a git checkout of FFmpeg
# (the series is based on its HEAD; uncommitted changes are left out) or an
# unpacked release, e.g. tar -xf .ffmpeg/dl/ffmpeg_9.0.2.orig.tar.xz (first
# committed as the base). The patches are made by apply.sh --upstream on a
# temporary git copy: the tree itself is not changed, and for an older
# series the filter is adapted to that tree's API as a build would have it.
#
# The author is git's user.name/user.email (from the environment or this
# repository's configuration); the date is that of this repository's
# HEAD, so the same sources give the same patches.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
repo=$(dirname "$here")

die() {
    echo "format-patch.sh: $*" >&2
    exit 1
}

[ $# -eq 2 ] || die "usage: $0 FFMPEG_SOURCE_DIR OUT_DIR"
src=$1
out=$2
[ -f "$src/configure" ] && [ -f "$src/libavfilter/allfilters.c" ] ||
    die "$src is not an FFmpeg source tree"
src=$(cd "$src" && pwd)
if [ -e "$src/libavfilter/vf_vqhip.c" ] ||
   grep -q 'ff_vf_vqhip;' "$src/libavfilter/allfilters.c"; then
    die "$src has the vqhip filter already (apply.sh ran there): give a tree without it"
fi
mkdir -p "$out"
out=$(cd "$out" && pwd)

unset GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
work=$tmp/ffmpeg

name=${GIT_AUTHOR_NAME:-$(git -C "$repo" config user.name 2>/dev/null || echo "vqhip authors")}
email=${GIT_AUTHOR_EMAIL:-$(git -C "$repo" config user.email 2>/dev/null || echo "vqhip@invalid")}
date=$(git -C "$repo" log -1 --format=%cI 2>/dev/null || date -u +%Y-%m-%dT%H:%M:%SZ)
export GIT_AUTHOR_NAME="$name" GIT_AUTHOR_EMAIL="$email" GIT_AUTHOR_DATE="$date"
export GIT_COMMITTER_NAME="$name" GIT_COMMITTER_EMAIL="$email" GIT_COMMITTER_DATE="$date"

# No hooks, signing or line-ending changes of the user's configuration; no
# background gc (the copy is removed at the end); loose objects stored
# uncompressed (the base commit holds the whole tree).
g() { git -C "$work" -c core.hooksPath=/dev/null -c commit.gpgsign=false \
          -c core.autocrlf=false -c gc.auto=0 -c maintenance.auto=false \
          -c core.looseCompression=0 "$@"; }

# --- the base --------------------------------------------------------------
if [ "$(git -C "$src" rev-parse --show-toplevel 2>/dev/null)" = "$src" ]; then
    git clone --quiet --shared --no-checkout "$src" "$work"
    g checkout --quiet --detach HEAD
    base_opt=--base=$(g rev-parse HEAD)
else
    mkdir "$work"
    (cd "$src" && tar --exclude=./.vqhip-source --exclude=./.git -cf - .) |
        (cd "$work" && tar --no-same-owner -xf -)
    version=$(cat "$work/VERSION" 2>/dev/null || cat "$work/RELEASE" 2>/dev/null || echo "tree")
    g init --quiet
    g add -A -f
    g commit --quiet -m "FFmpeg $version (base)"
    base_opt=
fi
base=$(g rev-parse HEAD)

# commit PART SUBJECT BODY
commit() {
    "$here/apply.sh" --upstream --only "$1" "$work" >/dev/null
    g add -A -f
    g diff --cached --quiet && die "apply.sh --only $1 changed nothing"
    printf '%s\n\n%s\n' "$2" "$3" | g commit --quiet -F -
}

commit filter "avfilter: add vqhip filter" \
"vqhip computes video quality metrics of the VMAF family (VMAF models,
PSNR, SSIM, VIF, ADM, motion, CAMBI, CIEDE2000, SSIMULACRA 2, ...)
between a distorted video and its reference with libvqhip, on the GPU
through HIP (AMD, and NVIDIA through CUDA) or on the CPU.

Like libvmaf's filter it takes the distorted video first and the
reference second, with the framesync options, and writes libvmaf's log
formats. Unlike it, every frame leaves with its scores as lavfi.vqhip.*
frame metadata, frames are held only until their scores are known, and
CUDA, DRM PRIME and VAAPI frames are read in place on the GPU."

commit doc "doc/filters: document the vqhip filter" \
"The options, the metadata the frames carry, the pixel formats, how
framesync's eof_action and timeline editing end a run, and examples."

commit fate "tests/fate: add vqhip filter tests" \
"The scores of the CPU backend on testsrc2 and its blurred copy, compared
with references that do not come from vqhip: FFmpeg's psnr filter on the
same frames (renamed to vqhip's outputs) and libvmaf's vmaf tool, through
refcmp_metadata. fate-vqhip-hip runs the same tests on the GPU."

rm -f "$out"/[0-9][0-9][0-9][0-9]-*.patch
# shellcheck disable=SC2086 # base_opt is empty or one option
g format-patch --quiet -o "$out" $base_opt "$base..HEAD" >/dev/null
echo "format-patch.sh: $(g log --oneline "$base..HEAD" | wc -l) patches on $(g log -1 --format=%s "$base") in $out:"
(cd "$out" && ls [0-9][0-9][0-9][0-9]-*.patch)
