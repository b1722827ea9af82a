#!/bin/sh
# Installs what vqhip's build, tests and FFmpeg builds need on Debian 12.
# Safe to run again: apt-get skips what is already there.
set -eu
SUDO=
if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || { echo "run as root (or install sudo)" >&2; exit 1; }
    SUDO=sudo
fi
export DEBIAN_FRONTEND=noninteractive

# FFmpeg's source comes from Debian's archive: the Debian 12 series from
# bookworm, the newest release from sid/experimental (source entries only).
src=/etc/apt/sources.list.d/vqhip-ffmpeg-src.sources
if [ ! -f "$src" ]; then
    $SUDO tee "$src" >/dev/null <<'SRC'
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm bookworm-updates sid experimental
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb-src
URIs: http://deb.debian.org/debian-security
Suites: bookworm-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
fi

pkgs="meson ninja-build pkg-config gcc g++ libjson-c-dev
      hipcc libamdhip64-dev
      ffmpeg dpkg-dev xz-utils nasm make
      clang libclang-rt-14-dev"
missing=
for p in $pkgs; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" ||
        missing="$missing $p"
done
# The source index is needed by the FFmpeg download even when all packages
# are present.
$SUDO apt-get update -qq
if [ -n "$missing" ]; then
    echo "installing:$missing"
    $SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi
