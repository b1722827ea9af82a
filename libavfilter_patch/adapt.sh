#!/bin/sh
# Adapts the filter's sources (vf_vqhip/: vf_vqhip.c, vf_vqhip_*.c and the
# private header vf_vqhip.h), which are written for the newest FFmpeg (9.0),
# to the libavfilter API of an older FFmpeg tree (5.1 onwards). The filter
# carries no version checks of its own: each rule below looks in the tree
# for one API change and, where the tree predates it, rewrites what the
# filter spells the new way into the old spelling.
#
# Usage: libavfilter_patch/adapt.sh FFMPEG_SOURCE_DIR OUT_DIR FILE...
#
# Every FILE is written, adapted, to OUT_DIR under its own name; the rules
# apply to each file, and what a rule must find is looked for in all of
# them (the filter as a whole). The names of the rules applied go to
# stderr, one line. For the newest FFmpeg no rule applies and each output
# is its input.
#
#   rule          the tree lacks                     FFmpeg before
#   internal.h    filters.h with the filter API      7.1: add internal.h
#   FilterLink    FilterLink, ff_filter_link()       7.1: AVFilterLink fields
#   query_func2   FILTER_QUERY_FUNC2                 7.1: a wrapper for
#                                                         FILTER_QUERY_FUNC
#   color         colour space/range negotiation     7.0: none is set
#   FFFilter      FFFilter wrapping AVFilter          8.0: AVFilter
#   file_open.h   libavutil/file_open.h              6.1: libavutil/internal.h
#   pix_fmts      some AV_PIX_FMT_* of the table     (dropped from the table)
set -eu

usage="usage: $0 FFMPEG_SOURCE_DIR OUT_DIR FILE..."
[ $# -ge 3 ] || { echo "$usage" >&2; exit 2; }
src=$1
outdir=$2
shift 2
lavfi=$src/libavfilter

die() {
    echo "adapt.sh: $*" >&2
    exit 1
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for f in "$@"; do
    [ -f "$f" ] || die "$f: no such file"
done
[ -d "$outdir" ] || die "$outdir: no such directory"
# all of the filter, for the rules that read it (pix_fmts' table)
cat "$@" > "$tmp/in.c"
: > "$tmp/rules.sed"
applied=

# has FILE PATTERN: FILE (in the tree) has a line matching the ERE.
has() { grep -Eqs -- "$2" "$src/$1"; }

rule() { applied="$applied $1"; }

# internal.h: before 7.1, ff_filter_frame(), FILTER_INPUTS() and the other
# declarations for filters are in libavfilter/internal.h.
if [ -f "$lavfi/internal.h" ]; then
    rule internal.h
    cat >> "$tmp/rules.sed" <<'EOF'
/^#include "framesync.h"$/a\
#include "internal.h"
EOF
fi

# FilterLink: before 7.1, the frame rate and the hardware frames context
# are fields of AVFilterLink itself.
#   FilterLink *il = ff_filter_link(mainlink);  ->  AVFilterLink *il = mainlink;
if ! has libavfilter/filters.h 'ff_filter_link\(AVFilterLink'; then
    rule FilterLink
    cat >> "$tmp/rules.sed" <<'EOF'
s/\([^A-Za-z_]\)FilterLink \*/\1AVFilterLink */g
s/^FilterLink \*/AVFilterLink */
s/ff_filter_link(\([A-Za-z_][A-Za-z_0-9]*\))/\1/g
EOF
fi

# query_func2: before 7.1, a format query gets only the filter context and
# reads the links' configurations itself. query_formats() is kept as it is
# and called through a wrapper that hands it those configurations.
if ! has libavfilter/filters.h 'define FILTER_QUERY_FUNC2' &&
   ! has libavfilter/internal.h 'define FILTER_QUERY_FUNC2'; then
    rule query_func2
    cat >> "$tmp/rules.sed" <<'EOF'
s/^    FILTER_QUERY_FUNC2(query_formats),$/    FILTER_QUERY_FUNC(query_formats_compat),/
/^static const AVFilterPad vqhip_outputs\[\] = {$/i\
static int query_formats_compat(AVFilterContext *ctx)\
{\
    AVFilterFormatsConfig *cfg_in[MAX_RENDITIONS + 1], *cfg_out[1];\
\
    for (unsigned i = 0; i < ctx->nb_inputs; i++)\
        cfg_in[i] = &ctx->inputs[i]->outcfg;\
    cfg_out[0] = &ctx->outputs[0]->incfg;\
    return query_formats(ctx, cfg_in, cfg_out);\
}\

EOF
fi

# color: before 7.0, colour spaces and ranges take no part in format
# negotiation: query_color_props() sets nothing.
if ! has libavfilter/formats.h 'ff_all_color_spaces'; then
    rule color
    cat >> "$tmp/rules.sed" <<'EOF'
/^static int query_color_props(/,/^}$/{
    /^{$/,/^}$/{
        /^{$/b
        /^}$/!d
        i\
    return 0;
    }
}
EOF
fi

# FFFilter: before 8.0, the filter is an AVFilter whose public fields are
# not under .p (and allfilters.c declares it so: apply.sh).
if ! has libavfilter/filters.h '^} FFFilter;'; then
    rule FFFilter
    cat >> "$tmp/rules.sed" <<'EOF'
s/^const FFFilter ff_vf_vqhip = {$/const AVFilter ff_vf_vqhip = {/
s/^\(    \)\.p\.\([a-z_]*\)\( *\)=/\1.\2\3  =/
EOF
fi

# file_open.h: before 6.1, avpriv_fopen_utf8() is declared in
# libavutil/internal.h.
if [ ! -f "$src/libavutil/file_open.h" ]; then
    rule file_open.h
    cat >> "$tmp/rules.sed" <<'EOF'
s|^#include "libavutil/file_open.h"$|#include "libavutil/internal.h"|
EOF
fi

# pix_fmts: formats the tree does not know yet (P012, P212 and P412 came
# in 6.0) leave the table.
missing=
for fmt in $(sed -n '/^static const enum AVPixelFormat pix_fmts\[\] = {$/,/^};$/p' "$tmp/in.c" |
             grep -o 'AV_PIX_FMT_[A-Z0-9_]*' | sort -u); do
    grep -qw -- "$fmt" "$src/libavutil/pixfmt.h" || missing="$missing $fmt"
done
if [ -n "$missing" ]; then
    rule "pix_fmts(-$(echo "$missing" | sed 's/^ //; s/AV_PIX_FMT_//g; s/ /,/g'))"
    for fmt in $missing; do
        echo "/^static const enum AVPixelFormat pix_fmts/,/^};\$/s/ *$fmt,//" >> "$tmp/rules.sed"
    done
    echo '/^static const enum AVPixelFormat pix_fmts/,/^};$/{/^ *$/d}' >> "$tmp/rules.sed"
fi

mkdir "$tmp/out"
for f in "$@"; do
    sed -f "$tmp/rules.sed" "$f" > "$tmp/out/$(basename "$f")"
done
# the adapted filter, for the checks that look at it as a whole
cat "$tmp"/out/* > "$tmp/out.c"

# Each rule must have found what it rewrites: a filter edited past a rule's
# pattern fails here, not in the compiler of an older FFmpeg.
check() { # check RULE GREP_ARGS...: fails when grep finds the pattern
    r=$1
    shift
    case " $applied " in *" $r "*) ;; *) return 0 ;; esac
    if grep -n "$@" "$tmp"/out/* >&2; then
        die "rule $r left the lines above unadapted"
    fi
}
check FilterLink -E '(^|[^A-Za-z_])FilterLink|ff_filter_link'
check query_func2 -F 'FILTER_QUERY_FUNC2'
check color -E 'color_(spaces|ranges)'
check FFFilter -E 'FFFilter|^ *\.p\.'
check file_open.h -F 'file_open.h'
case $applied in *internal.h*)
    grep -qx '#include "internal.h"' "$tmp/out.c" ||
        die "rule internal.h: no #include \"framesync.h\" line to add it after" ;;
esac
case $applied in *query_func2*)
    grep -q '^static int query_formats_compat' "$tmp/out.c" ||
        die "rule query_func2: no vqhip_outputs table to add the wrapper before" ;;
esac
case $applied in *color*)
    [ "$(sed -n '/^static int query_color_props(/,/^}$/p' "$tmp/out.c" | grep -c .)" -le 5 ] ||
        die "rule color: query_color_props() was not reduced to 'return 0;'" ;;
esac

cp "$tmp"/out/* "$outdir"/
echo "adapt.sh: rules applied:${applied:- none}" >&2
