#!/bin/sh
# Wires the vqhip filter into an FFmpeg source tree of any supported series
# (5.1 .. 9.0): configure (--enable-libvqhip), libavfilter/Makefile,
# libavfilter/allfilters.c, doc/filters.texi, the filter source and the FATE
# tests.
#
# Usage: libavfilter_patch/apply.sh FFMPEG_SOURCE_DIR
#
# Re-runnable: every edit first checks whether it is already there, and a
# file is rewritten only when its content changes, so a second run changes
# nothing (not even a timestamp). Run it before the first ./configure:
# re-configuring with a new --enable-lib... rebuilds almost everything.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
repo=$(dirname "$here")
src=${1:?usage: $0 FFMPEG_SOURCE_DIR}

die() {
    echo "apply.sh: $*" >&2
    exit 1
}

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

# --- configure: the library, its option, the filter's dependency ----------
insert_line configure after '^  --enable-libvmaf ' \
    '  --enable-libvqhip        enable vqhip filter via libvqhip [no]'
insert_line configure after '^    libvmaf$' \
    '    libvqhip'
insert_line configure before '^zmq_filter_deps=' \
    'vqhip_filter_deps="libvqhip"'
insert_line configure before '^enabled libvo_amrwbenc ' \
    'enabled libvqhip          && require_pkg_config libvqhip libvqhip vqhip.h vq_open'

# --- libavfilter: build rule, registration, source ------------------------
insert_line libavfilter/Makefile before '^OBJS-\$\(CONFIG_VSTACK_FILTER\)' \
    'OBJS-$(CONFIG_VQHIP_FILTER)                  += vf_vqhip.o framesync.o'

# From 8.0 on, allfilters.c lists FFFilter (which wraps AVFilter).
if grep -q '^extern const FFFilter ff_vf_psnr;' "$src/libavfilter/allfilters.c"; then
    filter_type=FFFilter
else
    filter_type=AVFilter
fi
insert_line libavfilter/allfilters.c before '^extern const (AV|FF)Filter ff_vf_vstack;' \
    "extern const $filter_type ff_vf_vqhip;"

install_file "$repo/vf_vqhip/vf_vqhip.c" "$src/libavfilter/vf_vqhip.c"

# --- doc/filters.texi: the section between the markers is rewritten -------
texi=$src/doc/filters.texi
begin='@c vqhip: begin (inserted by vqhip libavfilter_patch/apply.sh)'
end='@c vqhip: end'
begin=$begin end=$end awk '
    $0 == ENVIRON["begin"] { skip = 1 }
    !skip { print }
    $0 == ENVIRON["end"] { skip = 0 }' "$texi" > "$tmp/doc-stripped"
{ echo "$begin"; cat "$here/vqhip.texi"; echo "$end"; } > "$tmp/doc-section"
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

# --- FATE ------------------------------------------------------------------
install_file "$repo/fate/vqhip.mak" "$src/tests/fate/vqhip.mak"
for ref in "$repo"/fate/ref/*; do
    [ -f "$ref" ] || continue
    install_file "$ref" "$src/tests/ref/fate/$(basename "$ref")"
done
insert_line tests/Makefile before '^include \$\(SRC_PATH\)/tests/fate/vqf\.mak$' \
    'include $(SRC_PATH)/tests/fate/vqhip.mak'

# vqhip_refcmp_after: tests/fate-run.sh's refcmp_metadata, with a filter
# chain applied to both inputs after the blur (a conversion to a layout the
# blur does not take, e.g. scale,format=nv12, or hwupload to one CUDA
# device given by -filter_hw_device: hwupload_cuda ignores that device and
# makes its own CUDA context per instance, and frames of two contexts cannot
# be compared);
# arguments after the fuzz go to ffmpeg (-init_hw_device ...).
fr=$src/tests/fate-run.sh
if ! grep -q '^vqhip_refcmp_after()' "$fr"; then
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
    fn=$tmp/fn awk '
        !done && /^refcmp_metadata\(\)\{$/ {
            while ((getline l < ENVIRON["fn"]) > 0)
                print l
            done = 1
        }
        { print }
        END { if (!done) exit 3 }' "$fr" > "$tmp/fate-run" ||
        die "tests/fate-run.sh: no refcmp_metadata function to insert before"
    replace "$fr" "$tmp/fate-run"
fi

echo "apply.sh: $src has the vqhip filter ($filter_type)"
