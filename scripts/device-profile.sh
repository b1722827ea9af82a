#!/bin/sh
# Where the GPU time of one extractor goes, on a machine with an NVIDIA GPU
# and Nsight Compute (ncu): per-kernel durations (kernels serialised by ncu),
# the host-side split (VQHIP_STATS=1), and fps with one stream against lanes.
# usage: scripts/device-profile.sh BUILD_DIR SIZE FEATURE_OR_MODEL...
#   an item starting with "model:" is passed as --model, else --feature
# BENCH_ARGS: more vqhip_bench arguments (e.g. "--input device").
# NCU_KERNEL: a regular expression; the first matching kernel launched after
#   20 others gets ncu's full set of sections (stall reasons, instruction
#   mix, occupancy, the source view in SASS) in prof-<item>-<size>-detail.txt.
# Writes each ncu summary to $OUT (or /tmp) as prof-<item>-<size>.txt.
set -u
build=$1 size=$2
shift 2
out=${OUT:-/tmp}
bench=$build/tools/vqhip_bench
for item in "$@"; do
    case $item in
        model:*) arg="--model ${item#model:}" ;;
        *) arg="--feature $item" ;;
    esac
    tag=$(echo "$item-$size" | tr -c 'A-Za-z0-9._\n-' '_')
    echo "== $item $size"
    # shellcheck disable=SC2086 # arg is two words
    VQHIP_STATS=1 "$bench" --backend hip --size "$size" --seconds 1 $arg ${BENCH_ARGS:-} 2>&1 |
        grep -v '^$' | tail -n 12
    # shellcheck disable=SC2086
    VQHIP_LANES=1 "$bench" --backend hip --size "$size" --seconds 1 $arg ${BENCH_ARGS:-} 2>&1 |
        grep -i 'fps' | sed 's/^/lanes=1: /' | tail -n 3
    if command -v ncu >/dev/null; then
        # shellcheck disable=SC2086
        ncu --clock-control none --metrics gpu__time_duration.sum \
            --launch-skip 400 --launch-count 400 --print-summary per-kernel \
            "$bench" --backend hip --size "$size" --max-frames 200 \
            --seconds 1 $arg ${BENCH_ARGS:-} > "$out/prof-$tag.txt" 2>&1
        # kernel name, invocations and mean duration
        awk '/^  [a-zA-Z_].*\(/ { name = $1 } /Invocations/ { inv = $2 }
             /gpu__time_duration.sum/ { printf "  %-44s n=%-5s %s %s (min %s max %s)\n",
                 substr(name, 1, 44), inv, $(NF), $2, $(NF-2), $(NF-1) }' \
            "$out/prof-$tag.txt"
        if [ -n "${NCU_KERNEL:-}" ]; then
            # shellcheck disable=SC2086
            ncu --clock-control none --set full --import-source no \
                -k "regex:$NCU_KERNEL" --launch-skip 20 --launch-count 1 \
                -f -o "$out/prof-$tag" "$bench" --backend hip --size "$size" \
                --max-frames 40 --seconds 1 $arg ${BENCH_ARGS:-} >/dev/null 2>&1
            { ncu -i "$out/prof-$tag.ncu-rep" --page details
              ncu -i "$out/prof-$tag.ncu-rep" --page source --csv \
                  --print-source sass; } > "$out/prof-$tag-detail.txt" 2>&1
            rm -f "$out/prof-$tag.ncu-rep"
            grep -E 'Duration|Registers Per|Achieved Occupancy|Issue Slots Busy|Warp Cycles Per Issued|Stall' \
                "$out/prof-$tag-detail.txt" | head -n 30
        fi
    fi
done
