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

# The vqhip CLI (meson -Dlibav, tools/av_input.c) reads MP4, MKV ... through
# libavformat, libavcodec and libavutil (the -dev packages below).
# vqhip_report (tools/report): FFmpeg's libraries for --ref/--dis, zlib for
# its heatmap PNGs; its tests (tests/report) need numpy in Debian's
# /usr/bin/python3 and a headless Chromium, the fonts for a readable page.
# tests/provenance/validate_logs.py checks the JSON logs with jsonschema as
# well as its own validator where python3-jsonschema is installed.
# tests/prometheus: promtool (package prometheus) checks the textfile, and
# a real prometheus scrapes it through prometheus-node-exporter.
# tests/engines: a single-node Slurm (slurmctld, slurmd, slurm-client,
# munge; the test starts and stops its own daemons) and GNU parallel;
# Node.js for the Kubernetes manifest check (tests/engines/k8s: its npm
# packages, pinned by package-lock.json, go into its node_modules).
pkgs="meson ninja-build pkg-config gcc g++ libjson-c-dev
      hipcc libamdhip64-dev
      ffmpeg dpkg-dev xz-utils nasm make libdrm-dev libva-dev
      clang libclang-rt-14-dev
      libavformat-dev libavcodec-dev libswscale-dev libavutil-dev zlib1g-dev
      python3-numpy python3-jsonschema chromium fonts-dejavu-core
      prometheus prometheus-node-exporter
      slurmctld slurmd slurm-client munge parallel nodejs"
missing=
for p in $pkgs; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" ||
        missing="$missing $p"
done
# FFmpeg's source is fetched by scripts/build-ffmpeg.sh with its own apt
# configuration; nothing here touches /etc/apt.
if [ -n "$missing" ]; then
    echo "installing:$missing"
    $SUDO apt-get update -qq
    $SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi
# npm: Debian's package, unless a Node.js that bundles it is installed.
if ! command -v npm >/dev/null; then
    $SUDO apt-get update -qq
    $SUDO apt-get install -y -qq --no-install-recommends npm >/dev/null
fi
root=$(cd "$(dirname "$0")/.." && pwd)
if [ ! -d "$root/tests/engines/k8s/node_modules/kubernetes-models" ]; then
    echo "installing the npm packages of tests/engines/k8s"
    npm ci --prefix "$root/tests/engines/k8s" --no-audit --no-fund >/dev/null
fi
