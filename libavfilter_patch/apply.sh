#!/bin/sh
# Wires the vqhip filter into an FFmpeg source tree of any supported series
# (5.1 .. 9.0): configure (--enable-libvqhip), libavfilter/Makefile,
# libavfilter/allfilters.c, the filter source, doc/filters.texi and the FATE
# tests.
#
# Usage: libavfilter_patch/apply.sh [--only PART]... [--upstream] FFMPEG_SOURCE_DIR
#
#   --only PART  one part of the wiring (repeatable; default: all three):
#                  filter  configure, libavfilter/Makefile, allfilters.c,
#                          the filter's sources: libavfilter/vf_vqhip.c,
#                          vf_vqhip_*.c and vf_vqhip.h (from vf_vqhip/)
#                  doc     doc/filters.texi
#                  fate    tests/fate/vqhip.mak, tests/Makefile, the
#                          references, a helper in tests/fate-run.sh
#   --upstream   the form of a patch for FFmpeg (format-patch.sh): the doc
#                section without the markers that let a re-run replace it,
#                a Changelog entry and libavfilter's minor version bumped.
#                For a tree that does not have the filter yet.
#
# The filter is written for the newest FFmpeg; adapt.sh rewrites it for the
# API of an older tree as it is installed (no version checks in the filter).
#
# Re-runnable: every edit first checks whether it is already there, and a
# file is rewritten only when its content changes, so a second run changes
# nothing (not even a timestamp). Run it before the first ./configure:
# re-configuring with a new --enable-lib... rebuilds almost everything.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
repo=$(dirname "$here")

die() {
    echo "apply.sh: $*" >&2
    exit 1
}

parts=''
upstream=0
while [ $# -gt 1 ]; do
    case $1 in
    --only)
        case ${2:-} in filter|doc|fate) parts="$parts $2" ;; *) die "--only filter|doc|fate" ;; esac
        shift 2 ;;
    --upstream) upstream=1; shift ;;
    *) break ;;
    esac
done
[ $# -eq 1 ] || die "usage: $0 [--only filter|doc|fate]... [--upstream] FFMPEG_SOURCE_DIR"
src=$1
parts=${parts:- filter doc fate}

[ -f "$src/configure" ] && [ -f "$src/libavfilter/allfilters.c" ] ||
    die "$src is not an FFmpeg source tree"
src=$(cd "$src" && pwd)

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# replace FILE NEW: moves NEW over FILE if their contents differ (keeping
# FILE's mode, e.g. configure's executable bit).
replace() {
    if [ -f "$1" ] && cmp -s "$2" "$1"; then
        rm -f "$2"
    else
        cat "$2" > "$1"
        rm -f "$2"
        echo "apply.sh: updated ${1#"$src"/}"
    fi
}

# install_file SOURCE DEST
install_file() {
    cp "$1" "$tmp/copy"
    replace "$2" "$tmp/copy"
}

# insert_line FILE before|after ANCHOR_ERE LINE: adds LINE next to the first
# line that matches ANCHOR_ERE, unless FILE already holds LINE.
insert_line() {
    file=$src/$1
    grep -qxF -- "$4" "$file" && return 0
    where=$2 anchor=$3 line=$4 awk '
        !done && $0 ~ ENVIRON["anchor"] {
            if (ENVIRON["where"] == "before") print ENVIRON["line"]
            print
            if (ENVIRON["where"] == "after") print ENVIRON["line"]
            done = 1
            next
        }
        { print }
        END { if (!done) exit 3 }' "$file" > "$tmp/edit" ||
        die "$1: no line matches /$3/ (unsupported FFmpeg version?)"
    replace "$file" "$tmp/edit"
}

# insert_file FILE ANCHOR_ERE TEXT_FILE: inserts TEXT_FILE before the first
# line that matches ANCHOR_ERE.
insert_file() {
    anchor=$2 text=$3 awk '
        !done && $0 ~ ENVIRON["anchor"] {
            while ((getline l < ENVIRON["text"]) > 0)
                print l
            done = 1
        }
        { print }
        END { if (!done) exit 3 }' "$src/$1" > "$tmp/edit" ||
        die "$1: no line matches /$2/ (unsupported FFmpeg version?)"
    replace "$src/$1" "$tmp/edit"
}

# --- filter: configure, build rule, registration, source -------------------
wire_filter() {
    insert_line configure after '^  --enable-libvmaf ' \
        '  --enable-libvqhip        enable vqhip filter via libvqhip [no]'
    insert_line configure after '^    libvmaf$' \
        '    libvqhip'
    insert_line configure before '^zmq_filter_deps=' \
        'vqhip_filter_deps="libvqhip avformat"'
    # stats_url= writes through libavformat's avio, as movie= reads
    insert_line configure after '^enabled movie_filter ' \
        'enabled vqhip_filter && prepend avfilter_deps "avformat"'
    insert_line configure before '^enabled libvo_amrwbenc ' \
        'enabled libvqhip          && require_pkg_config libvqhip libvqhip vqhip.h vq_open'

    wire_makefile

    # From 8.0 on, allfilters.c lists FFFilter (which wraps AVFilter).
    if grep -q '^extern const FFFilter ff_vf_psnr;' "$src/libavfilter/allfilters.c"; then
        filter_type=FFFilter
    else
        filter_type=AVFilter
    fi
    insert_line libavfilter/allfilters.c before '^extern const (AV|FF)Filter ff_vf_vstack;' \
        "extern const $filter_type ff_vf_vqhip;"

    # the sources, each adapted to the tree's API
    mkdir "$tmp/filter"
    if ! "$here/adapt.sh" "$src" "$tmp/filter" "$repo"/vf_vqhip/vf_vqhip*.[ch] \
            2> "$tmp/adapt.log"; then
        cat "$tmp/adapt.log" >&2
        die "the filter's sources: adapt.sh failed"
    fi
    sed 's/^adapt.sh: /apply.sh: the filter for this tree: /' "$tmp/adapt.log"
    for f in "$tmp"/filter/*; do
        replace "$src/libavfilter/${f##*/}" "$f"
    done

    if [ $upstream = 1 ]; then
        changelog
        bump_minor
    fi
}

# libavfilter/Makefile: the filter's objects (vf_vqhip.o, then one per
# vf_vqhip_*.c) and framesync's, in FFmpeg's layout (continuation lines at
# the column of the first object), before vstack's line. A line or block of
# an earlier run is replaced.
wire_makefile() {
    objs=vf_vqhip.o
    for f in "$repo"/vf_vqhip/vf_vqhip_*.c; do
        [ -f "$f" ] || continue
        f=${f##*/}
        objs="$objs ${f%.c}.o"
    done
    objs="$objs framesync.o"
    block=$(echo "$objs" | awk '{
        line = "OBJS-$(CONFIG_VQHIP_FILTER)                  +="
        indent = sprintf("%48s", "")
        for (i = 1; i <= NF; i++) {
            if (i > 1 && length(line " " $i " \\") > 80) {
                print line " \\"
                line = indent $i
            } else {
                line = line " " $i
            }
        }
        print line
    }')
    block=$block awk '
        /^OBJS-\$\(CONFIG_VQHIP_FILTER\)/ { skip = 1 }
        skip { if (!/\\$/) skip = 0; next }
        !done && /^OBJS-\$\(CONFIG_VSTACK_FILTER\)/ { print ENVIRON["block"]; done = 1 }
        { print }
        END { if (!done) exit 3 }' "$src/libavfilter/Makefile" > "$tmp/edit" ||
        die "libavfilter/Makefile: no vstack line (unsupported FFmpeg version?)"
    replace "$src/libavfilter/Makefile" "$tmp/edit"
}

# A new filter is a Changelog entry under "version <next>:" (added above
# the newest release when the tree is a release's).
changelog() {
    grep -qx -- '- vqhip filter' "$src/Changelog" && return 0
    if grep -qx 'version <next>:' "$src/Changelog"; then
        insert_line Changelog after '^version <next>:$' '- vqhip filter'
    else
        printf 'version <next>:\n- vqhip filter\n\n' > "$tmp/next"
        insert_file Changelog '^version [0-9]' "$tmp/next"
    fi
}

# ... and a minor version bump of libavfilter (micro back to 100).
bump_minor() {
    v=$src/libavfilter/version.h
    minor=$(sed -n 's/^#define LIBAVFILTER_VERSION_MINOR *\([0-9]*\)$/\1/p' "$v")
    [ -n "$minor" ] || die "libavfilter/version.h: no LIBAVFILTER_VERSION_MINOR"
    sed -e "s/^\(#define LIBAVFILTER_VERSION_MINOR *\)$minor\$/\1$((minor + 1))/" \
        -e 's/^\(#define LIBAVFILTER_VERSION_MICRO *\)[0-9]*$/\1100/' "$v" > "$tmp/version.h"
    replace "$v" "$tmp/version.h"
}

# --- doc/filters.texi --------------------------------------------------------
# For a build tree, between markers that a re-run replaces; for a patch
# (--upstream), the section alone. Alphabetically before vstack.
wire_doc() {
    texi=$src/doc/filters.texi
    begin='@c vqhip: begin (inserted by vqhip libavfilter_patch/apply.sh)'
    end='@c vqhip: end'
    begin=$begin end=$end awk '
        $0 == ENVIRON["begin"] { skip = 1 }
        !skip { print }
        $0 == ENVIRON["end"] { skip = 0 }' "$texi" > "$tmp/doc-stripped"
    if [ $upstream = 1 ]; then
        grep -qx '@section vqhip' "$tmp/doc-stripped" && return 0
        { cat "$here/vqhip.texi"; echo; } > "$tmp/doc-section"
    else
        { echo "$begin"; cat "$here/vqhip.texi"; echo "$end"; } > "$tmp/doc-section"
    fi
    if grep -q '^@anchor{vstack}$' "$tmp/doc-stripped"; then
        doc_anchor='^@anchor\{vstack\}$'
    else
        doc_anchor='^@section vstack$'
    fi
    anchor=$doc_anchor section=$tmp/doc-section awk '
        !done && $0 ~ ENVIRON["anchor"] {
            while ((getline l < ENVIRON["section"]) > 0)
                print l
            done = 1
        }
        { print }
        END { if (!done) exit 3 }' "$tmp/doc-stripped" > "$tmp/doc" ||
        die "doc/filters.texi: no vstack section to insert before"
    replace "$texi" "$tmp/doc"
}

# --- FATE ----------------------------------------------------------------------
wire_fate() {
    install_file "$repo/fate/vqhip.mak" "$src/tests/fate/vqhip.mak"
    for ref in "$repo"/fate/ref/*; do
        [ -f "$ref" ] || continue
        install_file "$ref" "$src/tests/ref/fate/$(basename "$ref")"
    done
    insert_line tests/Makefile before '^include \$\(SRC_PATH\)/tests/fate/vqf\.mak$' \
        'include $(SRC_PATH)/tests/fate/vqhip.mak'

    # vqhip_refcmp_after: tests/fate-run.sh's refcmp_metadata, with a filter
    # chain applied to both inputs after the blur (a conversion to a layout
    # the blur does not take, e.g. scale,format=nv12, or hwupload to one
    # CUDA device given by -filter_hw_device: hwupload_cuda ignores that
    # device and makes its own CUDA context per instance, and frames of two
    # contexts cannot be compared); arguments after the fuzz go to ffmpeg
    # (-init_hw_device ...).
    grep -q '^vqhip_refcmp_after()' "$src/tests/fate-run.sh" && return 0
    cat > "$tmp/fn" <<'FN'
vqhip_refcmp_after(){
    refcmp=$1
    pixfmt=$2
    convert=$3
    fuzz=${4:-0.001}
    shift 4
    ffmpeg -auto_conversion_filters $FLAGS $ENC_OPTS "$@" \
        -lavfi "testsrc2=size=300x200:rate=1:duration=5,format=${pixfmt},split[ref][tmp];[tmp]avgblur=4[enc];[enc]${convert}[encc];[ref]${convert}[refc];[encc][refc]${refcmp},metadata=print:file=-" \
        -f null /dev/null | awk -v ref=${ref} -v fuzz=${fuzz} -f ${base}/refcmp-metadata.awk -
}

FN
    insert_file tests/fate-run.sh '^refcmp_metadata\(\)\{$' "$tmp/fn"
}

for part in $parts; do
    "wire_$part"
done

echo "apply.sh: $src has the vqhip filter ($(echo "$parts" | sed 's/^ //; s/ /, /g'))"
