#!/bin/sh
# Long runs: memory must stay flat, scores must not drift, nothing may be
# lost. Prints peak RSS (and device memory) at frame 1,000 and at the end.
#
#   scripts/long-run.sh gpu BUILD_DIR [FRAMES]     20,000 1080p frames through
#       libvqhip on the GPU (vqhip_soak, strict, verify every 100th frame);
#       device memory from nvidia-smi or rocm-smi when present
#   scripts/long-run.sh filter FFMPEG [FRAMES]     100,000 small frames through
#       the vqhip filter on the CPU (peak RSS by /usr/bin/time or getrusage)
#   scripts/long-run.sh cpu BUILD_DIR [FRAMES]     vqhip_soak on the CPU
set -eu
mode=${1:-}
case $mode in
gpu|cpu)
    build=${2:?build directory}
    frames=${3:-20000}
    size=1920x1080
    backend="--backend hip --strict --verify 100"
    if [ "$mode" = cpu ]; then
        size=${VQHIP_SOAK_SIZE:-176x144}
        backend="--backend cpu"
    fi
    if [ -z "${VQHIP_SOAK_PROBE:-}" ]; then
        if command -v nvidia-smi >/dev/null; then
            export VQHIP_SOAK_PROBE="nvidia-smi --query-gpu=memory.used --format=csv,noheader"
        elif command -v rocm-smi >/dev/null; then
            export VQHIP_SOAK_PROBE="rocm-smi --showmeminfo vram | grep -i used"
        fi
    fi
    # shellcheck disable=SC2086 # backend is a list of options
    exec "$build/tools/vqhip_soak" --frames "$frames" --size "$size" \
        --every "${VQHIP_SOAK_EVERY:-5000}" $backend
    ;;
filter)
    ffmpeg=${2:?ffmpeg binary}
    frames=${3:-100000}
    log=$(mktemp "${TMPDIR:-/tmp}/vqhip-long.XXXXXX.json")
    trap 'rm -f "$log"' EXIT
    for n in 1000 "$frames"; do
        graph="testsrc2=s=64x48:r=25,format=yuv420p,split[a][b];[a]noise=alls=12:allf=t[d];[d][b]vqhip=backend=cpu:log_fmt=json:log_path=$log"
        start=$(date +%s)
        out=$( { /usr/bin/time -v "$ffmpeg" -nostdin -hide_banner -v error \
            -f lavfi -i "$graph" -frames:v "$n" -f null - ; } 2>&1 ) ||
            { echo "$out" | tail -5; exit 1; }
        peak=$(echo "$out" | sed -n 's/.*Maximum resident set size (kbytes): //p')
        got=$(python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(len(d['frames']), d['vqhip'].get('complete'))" "$log")
        echo "long-run filter: $n frames asked, log has $got (frames, complete); peak RSS ${peak:-?} KiB; $(( $(date +%s) - start )) s"
    done
    ;;
*)
    sed -n '2,12p' "$0"
    exit 2
    ;;
esac
