# Sourced by scripts/build-ffmpeg.sh: fetches FFmpeg's source from Debian's
# archive into $FFDIR (the repository's ignored .ffmpeg/ folder).
#
#   debian  Debian 12's FFmpeg 5.1: the newest "+deb12u" source package,
#           unpacked with dpkg-source (Debian's patches applied).
#   newest  the newest FFmpeg release the archive carries (sid/experimental):
#           its upstream tarball (apt-get source --tar-only; the .dsc of
#           experimental uploads is not always downloadable).
#
# apt runs with a private configuration under $FFDIR/apt (its own deb-src
# entries and package lists), so nothing in /etc/apt is needed or changed.

ffsrc_apt_dir() { echo "$FFDIR/apt"; }

ffsrc_apt() {
    a=$(ffsrc_apt_dir)
    "$@" -o Dir::Etc::SourceList=/dev/null \
         -o Dir::Etc::SourceParts="$a/sources.list.d" \
         -o Dir::State::Lists="$a/lists" \
         -o Dir::Cache="$a/cache" \
         -o Dir::State::status=/dev/null \
         -o APT::Sandbox::User=root
}

ffsrc_apt_update() {
    a=$(ffsrc_apt_dir)
    mkdir -p "$a/sources.list.d" "$a/lists/partial" "$a/cache/archives/partial"
    cat > "$a/sources.list.d/ffmpeg-src.sources" <<'EOF'
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm sid experimental
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb-src
URIs: http://deb.debian.org/debian-security
Suites: bookworm-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
    # Package lists younger than a day are good enough.
    if [ -z "$(find "$a/lists" -maxdepth 1 -name '*Sources*' -mtime -1 2>/dev/null)" ]; then
        ffsrc_apt apt-get -q update >&2
    fi
}

# Highest of the versions read on stdin (Debian version order).
ffsrc_max_version() {
    best=
    while read -r v; do
        if [ -z "$best" ] || dpkg --compare-versions "$v" gt "$best"; then
            best=$v
        fi
    done
    echo "$best"
}

# ffsrc_version SERIES: the Debian version of ffmpeg to use.
ffsrc_version() {
    versions=$(ffsrc_apt apt-cache showsrc ffmpeg | sed -n 's/^Version: //p' | sort -u)
    case $1 in
    debian) echo "$versions" | grep '+deb12u' | ffsrc_max_version ;;
    newest) echo "$versions" | ffsrc_max_version ;;
    esac
}

# ffsrc_fetch SERIES: unpacks the source (once) into $FFDIR/src/SERIES and
# prints that directory.
ffsrc_fetch() {
    series=$1
    dest=$FFDIR/src/$series
    if [ -f "$dest/.vqhip-source" ]; then
        echo "$dest"
        return
    fi
    for tool in apt-get apt-cache dpkg xz; do
        command -v $tool >/dev/null || { echo "missing: $tool" >&2; return 1; }
    done
    ffsrc_apt_update
    version=$(ffsrc_version "$series")
    [ -n "$version" ] || { echo "no ffmpeg source for series $series" >&2; return 1; }
    upstream=${version#*:}
    upstream=${upstream%-*}
    dl=$FFDIR/dl
    mkdir -p "$dl" "$FFDIR/src"
    rm -rf "$dest" "$dest.tmp"
    echo "fetching ffmpeg $version ($series)" >&2
    if [ "$series" = debian ]; then
        command -v dpkg-source >/dev/null ||
            { echo "missing: dpkg-source (apt-get install dpkg-dev)" >&2; return 1; }
        (cd "$dl" && ffsrc_apt apt-get -q source --download-only "ffmpeg=$version") >&2
        dsc=$dl/ffmpeg_${version#*:}.dsc
        dpkg-source --no-copy -x "$dsc" "$dest.tmp" >&2
    else
        (cd "$dl" && ffsrc_apt apt-get -q source --download-only --tar-only "ffmpeg=$version") >&2
        tarball=$(ls "$dl"/ffmpeg_"$upstream".orig.tar.* | head -n 1)
        mkdir -p "$dest.tmp"
        tar -xf "$tarball" -C "$dest.tmp" --strip-components=1
    fi
    echo "$version" > "$dest.tmp/.vqhip-source"
    mv "$dest.tmp" "$dest"
    echo "$dest"
}

# ffsrc_nvcodec: FFmpeg's NVIDIA headers (Debian's nv-codec-headers, the
# source of libffmpeg-nvenc-dev, newest version in the archive: FFmpeg 9.0
# needs a newer one than Debian 12 has), installed once under
# $FFDIR/nvcodec; prints the pkg-config directory.
ffsrc_nvcodec() {
    dest=$FFDIR/nvcodec
    if [ ! -f "$dest/lib/pkgconfig/ffnvcodec.pc" ]; then
        ffsrc_apt_update
        version=$(ffsrc_apt apt-cache showsrc nv-codec-headers |
                  sed -n 's/^Version: //p' | sort -u | ffsrc_max_version)
        [ -n "$version" ] || { echo "no nv-codec-headers source" >&2; return 1; }
        dl=$FFDIR/dl
        mkdir -p "$dl"
        (cd "$dl" && ffsrc_apt apt-get -q source --download-only --tar-only \
            "nv-codec-headers=$version") >&2
        upstream=${version#*:}
        upstream=${upstream%-*}
        tarball=$(ls "$dl"/nv-codec-headers_"$upstream".orig.tar.* | head -n 1)
        rm -rf "$dest.src"
        mkdir -p "$dest.src"
        tar -xf "$tarball" -C "$dest.src" --strip-components=1
        make -C "$dest.src" PREFIX="$dest" install >&2
        rm -rf "$dest.src"
    fi
    echo "$dest/lib/pkgconfig"
}
