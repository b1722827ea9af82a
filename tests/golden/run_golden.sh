#!/bin/sh
# Runs the golden test: regenerates the clip pairs (once, cached in CLIPS_DIR)
# with the golden set's own generator, checks they are byte-identical to the
# ones libvmaf scored, then compares vqhip's CPU path with libvmaf's logs.
# usage: run_golden.sh GOLDEN_DIR CLIPS_DIR golden_check [args...]
set -eu
golden=$1 clips=$2 check=$3
shift 3
if [ ! -f "$golden/manifest.tsv" ]; then
    echo "no golden set at $golden: skipped"
    exit 77
fi
if ! cmp -s "$golden/manifest.tsv" "$clips/manifest.tsv" 2>/dev/null; then
    if ! command -v ffmpeg >/dev/null; then
        echo "ffmpeg is needed to generate the golden clips (scripts/install-deps.sh installs it)"
        exit 1
    fi
    rm -rf "$clips"
    mkdir -p "$clips"
    if ! "$golden/make_clips.sh" "$clips"; then
        echo "the regenerated clips differ from the ones libvmaf scored:" \
             "this ffmpeg/x264 build makes other bytes, the goldens do not apply"
        rm -f "$clips/manifest.tsv"
        exit 1
    fi
fi
exec "$check" "$golden" "$clips" "$@"
