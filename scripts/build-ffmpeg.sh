#!/bin/sh
# Builds a minimal static FFmpeg with the vqhip filter, against a static
# libvqhip built from this repository.
#
# Usage: scripts/build-ffmpeg.sh debian|newest
#
#   debian  Debian 12's FFmpeg 5.1 (Debian's source package)
#   newest  the newest FFmpeg release in Debian's archive
#
# Everything goes into the repository's ignored .ffmpeg/ folder:
#   .ffmpeg/prefix/          libvqhip installed by meson (shared by both series)
#   .ffmpeg/src/SERIES/      FFmpeg's source, with the filter wired in
#   .ffmpeg/build/SERIES/    the out-of-tree FFmpeg build (ffmpeg, ffprobe, FATE)
#   .ffmpeg/build-times.txt  how long each step took
#
# Re-running rebuilds only what changed. Environment:
#   JOBS               make/ninja jobs (default 2)
#   VQHIP_MESON_ARGS   extra meson options for libvqhip, used when its build
#                      directory is first set up
#   FFMPEG_EXTRA_ARGS  extra FFmpeg configure options, split on spaces
#                      (after the others; scripts/pack-gpu-check.sh:
#                      --disable-zlib; scripts/reliability-ci.sh: sanitizer
#                      flags)
#   VQHIP_VARIANT      a name for another libvqhip configuration: its
#                      libvqhip and FFmpeg builds go to prefix-NAME/ and
#                      build/SERIES-NAME/, e.g. VQHIP_VARIANT=nvidia
#                      VQHIP_MESON_ARGS="-Dhip_platform=nvidia -Dprefer_static=true"
#   VQHIP_FFMPEG_CUDA  1: FFmpeg with CUDA hardware frames (ffnvcodec headers
#                      from Debian's nv-codec-headers, hwupload_cuda,
#                      hwdownload), for a libvqhip built for NVIDIA; and
#                      NVDEC (h264_nvdec, hevc_nvdec: the CLI's --hwdec cuda)
#   VQHIP_FFMPEG_LIBS  a folder: FFmpeg's static libraries, headers and
#                      pkg-config files are installed there (configure's
#                      --prefix), for a CLI linked with them
set -eu

newer() { [ -n "$(find "$1" -prune -newer "$2" 2>/dev/null)" ]; }

series=${1:-}
case $series in
debian|newest) ;;
*) echo "usage: $0 debian|newest" >&2; exit 2 ;;
esac

repo=$(cd "$(dirname "$0")/.." && pwd)
FFDIR=$repo/.ffmpeg
JOBS=${JOBS:-2}
variant=${VQHIP_VARIANT:+-$VQHIP_VARIANT}
prefix=$FFDIR/prefix$variant
vqbuild=$FFDIR/vqhip-build$variant
build=$FFDIR/build/$series$variant
times=$FFDIR/build-times.txt
. "$repo/scripts/ffmpeg-source.sh"

mkdir -p "$FFDIR"
now() { date +%s; }
record() { # record STEP START
    line="$(date -u +%Y-%m-%dT%H:%M:%SZ) $series$variant $1: $(( $(now) - $2 )) s"
    echo "$line" >> "$times"
    echo "build-ffmpeg: $line"
}

# --- libvqhip, static, installed into .ffmpeg/prefix -----------------------
t=$(now)
if [ ! -f "$vqbuild/build.ninja" ]; then
    # shellcheck disable=SC2086 # VQHIP_MESON_ARGS is a list of options
    meson setup "$vqbuild" "$repo" --prefix="$prefix" --libdir=lib \
        --buildtype=release -Ddefault_library=static -Dtests=false \
        ${VQHIP_MESON_ARGS:-}
fi
ninja -C "$vqbuild" -j "$JOBS"
meson install -C "$vqbuild" --quiet
record libvqhip "$t"

# --- FFmpeg source with the filter wired in ---------------------------------
t=$(now)
src=$(ffsrc_fetch "$series")
record "source $(cat "$src/.vqhip-source")" "$t"
"$repo/libavfilter_patch/apply.sh" "$src"

# --- configure (only when the options or the configure script changed) -----
x86asm=
command -v nasm >/dev/null || x86asm=--disable-x86asm
# h264 + mov (+ the h264 parser): the filter reads x264 MP4 ladders itself
# (docs/LADDER.md); about 50 more objects, a minute more of make on 2 cores.
# shellcheck disable=SC2086 # FFMPEG_EXTRA_ARGS is a list of options
set -- \
    --prefix="$build/install" \
    --disable-everything --disable-autodetect --disable-doc \
    --enable-ffmpeg --enable-ffprobe \
    --enable-pthreads --enable-zlib \
    --enable-libvqhip --pkg-config-flags=--static \
    --enable-indev=lavfi \
    --enable-filter=vqhip,psnr,format,scale,metadata,split,null,setpts,settb,extractplanes \
    --enable-filter=testsrc,testsrc2,gblur,avgblur,noise,setparams \
    --enable-filter=drawgraph \
    --enable-decoder=rawvideo,wrapped_avframe,png,h264 \
    --enable-encoder=rawvideo,wrapped_avframe,png \
    --enable-demuxer=rawvideo,yuv4mpegpipe,image2,mov \
    --enable-parser=h264 \
    --enable-muxer=null,rawvideo,framecrc,yuv4mpegpipe,image2 \
    --enable-protocol=file,pipe,udp,tcp \
    $x86asm ${FFMPEG_EXTRA_ARGS:-}
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
# DRM PRIME and VAAPI frames (the filter imports them into HIP on AMD).
if [ "${VQHIP_FFMPEG_CUDA:-0}" != 1 ] && pkg-config --exists libdrm libva libva-drm; then
    set -- "$@" --enable-libdrm --enable-vaapi
fi
if [ "${VQHIP_FFMPEG_CUDA:-0}" = 1 ]; then
    nvpc=$(ffsrc_nvcodec)
    export PKG_CONFIG_PATH="$nvpc:$PKG_CONFIG_PATH"
    set -- "$@" --enable-ffnvcodec --enable-filter=hwupload_cuda,hwupload,hwdownload \
        --enable-nvdec --enable-hwaccel=h264_nvdec,hevc_nvdec \
        --enable-decoder=hevc --enable-parser=hevc --enable-demuxer=matroska,hevc
fi
if [ -n "${VQHIP_FFMPEG_LIBS:-}" ]; then
    set -- "$@" --prefix="$VQHIP_FFMPEG_LIBS"
fi
mkdir -p "$build"
want="$*"
if [ ! -f "$build/ffbuild/config.mak" ] ||
   [ "$(cat "$build/.vqhip-configure" 2>/dev/null)" != "$want" ] ||
   newer "$src/configure" "$build/ffbuild/config.mak"; then
    t=$(now)
    (cd "$build" && "$src/configure" "$@") > "$build/configure.out" ||
        { tail -n 20 "$build/configure.out"; tail -n 40 "$build/ffbuild/config.log"; exit 1; }
    echo "$want" > "$build/.vqhip-configure"
    record configure "$t"
fi

# FFmpeg's Makefile does not track external libraries: relink when
# libvqhip changed.
if [ -f "$build/ffmpeg_g" ] && newer "$prefix/lib/libvqhip.a" "$build/ffmpeg_g"; then
    rm -f "$build/ffmpeg_g" "$build/ffmpeg" "$build/ffprobe_g" "$build/ffprobe"
fi

t=$(now)
make -C "$build" -j "$JOBS" >"$build/make.out" 2>&1 ||
    { tail -n 40 "$build/make.out"; exit 1; }
grep -E 'warning:' "$build/make.out" | grep vf_vqhip || true
record make "$t"
if [ -n "${VQHIP_FFMPEG_LIBS:-}" ]; then
    make -C "$build" install-libs install-headers >/dev/null
fi

"$build/ffmpeg" -hide_banner -h filter=vqhip >/dev/null
echo "build-ffmpeg: $build/ffmpeg ($(cat "$src/.vqhip-source"))"
