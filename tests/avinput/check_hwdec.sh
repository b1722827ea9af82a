#!/bin/sh
# Hardware decoding on a GPU machine (scripts/device-run.sh decode): the
# CLI's logs with --hwdec cuda (NVDEC) must equal its logs with software
# decoding, byte for byte (fps aside), for
#   - an 8-bit H.264 pair (NV12 back from the hardware),
#   - a 10-bit HEVC pair (P010),
#   - a ladder of three H.264 renditions against one reference, scored in
#     one pass, each rendition's log also equal to its pair run's;
# and prints the wall time of each (software / NVDEC decoding, the GPU
# scoring both). Clips: scripts/pack-gpu-check.sh makes them (ref.mp4,
# r1.mp4 r2.mp4 r3.mp4, ref10.mkv dis10.mkv).
#
# usage: check_hwdec.sh VQHIP CLIPDIR WORKDIR
set -u
vq=$1 clips=$2 work=$3
mkdir -p "$work"
fail=0
now() { date +%s.%N; }
strip() { sed -E 's/"fps": [^,]*,/"fps": X,/' "$1"; }
same() { # same A B WHAT
    if [ -f "$1" ] && [ -f "$2" ] && [ "$(strip "$1")" = "$(strip "$2")" ]; then
        echo "ok      $3"
    else
        echo "FAILED  $3: $1 and $2 differ"
        fail=1
    fi
}
score() { # score MODE LOG ARGS...: runs, prints the seconds it took
    mode=$1 log=$2
    shift 2
    t0=$(now)
    if ! "$vq" --backend hip --strict --hwdec "$mode" --json -o "$log" -q \
         "$@" >"$log.out" 2>&1; then
        echo "FAILED  --hwdec $mode $*:" >&2
        tail -n 5 "$log.out" >&2
        fail=1
    fi
    grep -q 'decoding in software' "$log.out" &&
        { echo "FAILED  --hwdec $mode fell back to software" >&2; fail=1; }
    echo "$(now) $t0" | awk '{ printf "%.2f", $1 - $2 }'
}

printf '%-28s %10s %10s\n' "run" "software" "NVDEC"
for pair in "ref.mp4 r2.mp4 h264-8bit" "ref10.mkv dis10.mkv hevc-10bit"; do
    set -- $pair
    a=$(score none "$work/$3.none.json" -r "$clips/$1" -d "$clips/$2")
    b=$(score cuda "$work/$3.cuda.json" -r "$clips/$1" -d "$clips/$2")
    printf '%-28s %9ss %9ss\n' "pair $3" "$a" "$b"
    same "$work/$3.none.json" "$work/$3.cuda.json" "pair $3: NVDEC = software" >&2
done

lad="-r $clips/ref.mp4 -d $clips/r1.mp4 -d $clips/r2.mp4 -d $clips/r3.mp4"
# shellcheck disable=SC2086 # lad is a list of arguments
a=$(score none "$work/lad_none_%d.json" $lad)
# shellcheck disable=SC2086
b=$(score cuda "$work/lad_cuda_%d.json" $lad)
printf '%-28s %9ss %9ss\n' "ladder of 3 renditions" "$a" "$b"
pairs=0
for i in 1 2 3; do
    t=$(score none "$work/pair_r$i.json" -r "$clips/ref.mp4" -d "$clips/r$i.mp4")
    pairs=$(echo "$pairs $t" | awk '{ print $1 + $2 }')
    same "$work/lad_none_$i.json" "$work/lad_cuda_$i.json" \
        "ladder rendition $i: NVDEC = software" >&2
    same "$work/lad_cuda_$i.json" "$work/pair_r$i.json" \
        "ladder rendition $i (NVDEC) = its pair run" >&2
done
printf '%-28s %9ss %10s\n' "3 pair runs" "$pairs" "-"
for f in "$work"/lad_cuda_1.json "$work"/h264-8bit.cuda.json; do
    [ -f "$f" ] && grep -c '"frameNum"' "$f" | sed "s#^#frames in $(basename "$f"): #"
done
exit $fail
