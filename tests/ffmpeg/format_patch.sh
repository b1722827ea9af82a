#!/bin/sh
# libavfilter_patch/format-patch.sh makes a series that a maintainer can
# apply: run on a pristine FFmpeg release tree, its patches go onto a fresh
# copy of that tree with "git am", and the result holds the filter as
# apply.sh installs it for a build.
#
#   tests/ffmpeg/format_patch.sh TARBALL APPLIED_TREE
#
# TARBALL is an FFmpeg release (.ffmpeg/dl/ffmpeg_X.orig.tar.xz, fetched by
# scripts/build-ffmpeg.sh newest); APPLIED_TREE is the tree apply.sh wired
# for that release's build (.ffmpeg/src/newest). Exit 0 when every check
# holds.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
repo=$(dirname "$(dirname "$here")")
tarball=${1:?usage: $0 TARBALL APPLIED_TREE}
applied=${2:?usage: $0 TARBALL APPLIED_TREE}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
check() { # check WHAT COMMAND...
    what=$1
    shift
    if "$@"; then
        echo "ok   $what"
    else
        echo "FAIL $what"
        fails=$((fails + 1))
    fi
}

# the release, twice: one for format-patch.sh, one to apply the series to
mkdir "$tmp/release" "$tmp/target"
tar --no-same-owner -xf "$tarball" -C "$tmp/release" --strip-components=1
tar --no-same-owner -xf "$tarball" -C "$tmp/target" --strip-components=1

export GIT_AUTHOR_NAME=test GIT_AUTHOR_EMAIL=test@invalid
export GIT_COMMITTER_NAME=test GIT_COMMITTER_EMAIL=test@invalid
"$repo/libavfilter_patch/format-patch.sh" "$tmp/release" "$tmp/out"

g() { git -C "$tmp/target" -c core.hooksPath=/dev/null -c commit.gpgsign=false \
          -c gc.auto=0 "$@"; }
g init --quiet
g add -A -f
g commit --quiet -m base
check "the series applies with git am" g am --quiet "$tmp"/out/*.patch
check "three patches, three commits" \
    test "$(g rev-list --count HEAD)" -eq 4
# the filter's sources (vf_vqhip.c, vf_vqhip_*.c, vf_vqhip.h), each as
# apply.sh installs it and as the repository has it (no adaptation for the
# newest release)
for src in "$repo"/vf_vqhip/vf_vqhip*.[ch]; do
    f=libavfilter/${src##*/}
    check "$f as apply.sh installs it" cmp -s "$tmp/target/$f" "$applied/$f"
    check "$f is the repository's" cmp -s "$tmp/target/$f" "$src"
done
for f in libavfilter/Makefile tests/fate/vqhip.mak; do
    check "$f as apply.sh installs it" cmp -s "$tmp/target/$f" "$applied/$f"
done
check "allfilters.c registers it" \
    grep -q 'ff_vf_vqhip;' "$tmp/target/libavfilter/allfilters.c"
check "configure knows --enable-libvqhip" \
    grep -q -- '--enable-libvqhip' "$tmp/target/configure"
check "filters.texi documents it, without apply.sh's markers" \
    sh -c "grep -q '^@section vqhip' '$tmp/target/doc/filters.texi' &&
           ! grep -q '@c vqhip: begin' '$tmp/target/doc/filters.texi'"
check "the Changelog names it" grep -q 'vqhip' "$tmp/target/Changelog"
# the FATE references as apply.sh installs them
for ref in "$repo"/fate/ref/*; do
    [ -f "$ref" ] || continue
    name=tests/ref/fate/$(basename "$ref")
    check "$name" cmp -s "$tmp/target/$name" "$applied/$name"
done
echo "format_patch: $fails failure(s)"
[ "$fails" -eq 0 ]
