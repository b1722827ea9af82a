#!/bin/sh
# Makes tests/golden/ref17/: libvmaf's values at full precision (%.17g) for
# every golden log and every log of tests/golden/ref (libvmaf_ref.c says
# how). Needs a libvmaf built and installed outside this repository.
#
#   tests/golden/make_ref17.sh LIBVMAF_PREFIX [CLIPS_DIR]
#
# LIBVMAF_PREFIX: where that libvmaf is installed (include/libvmaf/,
# lib*/libvmaf.*), e.g. upstream Netflix/vmaf at the golden commit
# f85a853692a8c730d0270cd733c8bb30b5b93b7c, built with meson
# -Denable_float=true --buildtype=release, installed with --prefix.
# CLIPS_DIR: the golden clips (default: build/tests/golden-clips, which the
# golden test makes).
set -eu
prefix=${1:?usage: make_ref17.sh LIBVMAF_PREFIX [CLIPS_DIR]}
repo=$(cd "$(dirname "$0")/../.." && pwd)
golden=${VQHIP_GOLDEN_DIR:-$repo/../shared/golden}
clips=${2:-$repo/build/tests/golden-clips}
cmp -s "$golden/manifest.tsv" "$clips/manifest.tsv" ||
    { echo "make_ref17: no golden clips in $clips (run the golden test)" >&2; exit 1; }
libdir=$(dirname "$(find "$prefix" -name 'libvmaf.so' -o -name 'libvmaf.a' | head -1)")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cc -O2 -std=c11 -D_DEFAULT_SOURCE -o "$tmp/libvmaf_ref" \
    "$repo/tests/golden/libvmaf_ref.c" -I"$prefix/include" \
    $(pkg-config --cflags json-c) -L"$libdir" -Wl,-rpath,"$libdir" -lvmaf \
    $(pkg-config --libs json-c) -lm -lpthread
mkdir -p "$repo/tests/golden/ref17"
"$tmp/libvmaf_ref" "$golden" "$clips" "$repo/tests/golden/ref" \
    "$repo/tests/golden/ref17"
