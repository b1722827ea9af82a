#!/bin/sh
# vqhip's logs next to libvmaf's: the same clip, models and features through
# tools/vqhip (CPU backend) in all four formats, diffed against the logs
# libvmaf's own tool wrote (libvmaf/, see README.md there). Only libvmaf's
# version, the fps and vqhip's own block (which backend computed what) may
# differ; every key, its place and its printed value must be the same.
# usage: log_diff.sh VQHIP PYTHON3 TESTS_LOGS_DIR WORK_DIR
set -eu
vqhip=$1 python=$2 here=$3 work=$4
mkdir -p "$work"
"$python" "$here/make_clip.py" "$work/ref.yuv" "$work/dis.yuv"

# The three lines or blocks allowed to differ, made equal in both logs.
neutral() {
    case $1 in
    xml) sed -e '1s/^<VMAF version="[^"]*">$/<VMAF version="V">/' \
             -e 's/^  <fyi fps="[^"]*" \/>$/  <fyi fps="F" \/>/' \
             -e '/^  <vqhip /,/^  <\/vqhip>$/d' "$2" ;;
    json) sed -e 's/^  "version": "[^"]*",$/  "version": "V",/' \
              -e 's/^  "fps": [^,]*,$/  "fps": F,/' \
              -e '/^  "vqhip": {$/,/^  },$/d' "$2" ;;
    *) cat "$2" ;;
    esac
}

fail=0
for fmt in xml json csv sub; do
    "$vqhip" -r "$work/ref.yuv" -d "$work/dis.yuv" -w 320 -h 180 -p 420 -b 8 \
        --model version=vmaf_v0.6.1neg:name=vmaf_neg \
        --model version=vmaf_v0.6.1 \
        --model version=vmaf_b_v0.6.3:name=vmaf_b \
        --feature psnr=enable_chroma=true:enable_mse=true:enable_apsnr=true \
        --feature float_psnr --feature motion \
        --backend cpu --"$fmt" -o "$work/vqhip.$fmt" -q >/dev/null
    neutral "$fmt" "$here/libvmaf/clip.$fmt" > "$work/libvmaf.n.$fmt"
    neutral "$fmt" "$work/vqhip.$fmt" > "$work/vqhip.n.$fmt"
    # the neutral lines must have been found in vqhip's log too
    if [ "$fmt" = xml ] || [ "$fmt" = json ]; then
        grep -q '"V"' "$work/vqhip.n.$fmt" && grep -q 'F' "$work/vqhip.n.$fmt" ||
            { echo "FAIL $fmt: no version or fps line in vqhip's log"; fail=1; }
    fi
    if diff -u "$work/libvmaf.n.$fmt" "$work/vqhip.n.$fmt" > "$work/diff.$fmt"; then
        echo "ok   $fmt: $(wc -l < "$work/vqhip.$fmt") lines, same as libvmaf's" \
             "apart from version, fps and the vqhip block"
    else
        echo "FAIL $fmt: vqhip's log differs from libvmaf's:"
        head -n 40 "$work/diff.$fmt"
        fail=1
    fi
done
# the JSON logs, vqhip's and libvmaf's, against the written schema
if "$python" "$here/../provenance/validate_logs.py" "$here/../../docs/log.schema.json" \
        "$work/vqhip.json" "$here/libvmaf/clip.json" > "$work/schema.txt"; then
    echo "ok   json: vqhip's and libvmaf's logs valid against docs/log.schema.json"
else
    echo "FAIL json: against docs/log.schema.json:"; cat "$work/schema.txt"; fail=1
fi
exit $fail
