#!/bin/bash
# The CPU path against libvmaf's `vmaf` tool: both tools on the same raw
# 4:2:0 8-bit files, alternately, several rounds; prints each run's CPU
# seconds (user + sys) and wall seconds, the medians, frames per second and
# the ratios libvmaf / vqhip (above 1: vqhip is faster).
#
# usage: scripts/cpu-vs-libvmaf.sh VMAF_TOOL REF.yuv DIS.yuv WIDTH HEIGHT \
#            THREADS ROUNDS [arguments for both tools...]
#   e.g. scripts/cpu-vs-libvmaf.sh /opt/vmaf/build/tools/vmaf ref.yuv dis.yuv \
#            1920 1080 16 5 --model version=vmaf_v0.6.1
#        ... 1920 1080 1 5 --no_prediction --feature psnr
# Environment: VQHIP (default build/tools/vqhip), VQHIP_MODEL_DIR (models
# for --model version=..., default ../shared/models when it exists),
# VQHIP_ARGS (arguments for vqhip instead of the shared ones, e.g.
# "--no_prediction --feature motion_v2" against libvmaf's motion),
# SAME_AS (vqhip=libvmaf output names that must match, comma-separated,
# e.g. motion_v2_sad_score=VMAF_integer_feature_motion_sad_score);
# VQHIP_CPU_MASK reaches vqhip alone. vqhip runs with --backend cpu.
# After the rounds every per-frame value of the outputs both logs have
# (and of SAME_AS) is compared: the script fails on any difference.
# Make a pair with FFmpeg, e.g.:
#   ffmpeg -f lavfi -i testsrc2=s=1920x1080:r=24:d=2 -pix_fmt yuv420p -f rawvideo ref.yuv
#   ffmpeg -f lavfi -i "testsrc2=s=1920x1080:r=24:d=2,gblur=sigma=1.2,noise=alls=12:allf=t" \
#          -pix_fmt yuv420p -f rawvideo dis.yuv
set -u
if [ $# -lt 7 ]; then
    sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
fi
VMAF=$1 REF=$2 DIS=$3 W=$4 H=$5 TH=$6 ROUNDS=$7
shift 7
VQ=${VQHIP:-build/tools/vqhip}
if [ -n "${VQHIP_ARGS:-}" ]; then
    read -r -a vq_args <<< "$VQHIP_ARGS"
else
    vq_args=("$@")
fi
if [ -z "${VQHIP_MODEL_DIR:-}" ] && [ -d ../shared/models ]; then
    export VQHIP_MODEL_DIR=$(cd ../shared/models && pwd)
fi
frames=$(( $(stat -c %s "$REF") / (W * H * 3 / 2) ))
out=$(mktemp -d)
TIMEFORMAT='%U %S %R'
for i in $(seq "$ROUNDS"); do
    for tool in libvmaf vqhip; do
        if [ $tool = vqhip ]; then
            cmd=("$VQ" --backend cpu "${vq_args[@]}")
        else
            cmd=(env -u VQHIP_CPU_MASK "$VMAF" "$@")
        fi
        t=$( { time "${cmd[@]}" -r "$REF" -d "$DIS" -w "$W" -h "$H" -p 420 \
                 -b 8 --threads "$TH" -q --json -o "$out/$tool.json" \
                 > /dev/null 2> "$out/$tool.err"; } 2>&1 )
        rc=$?
        if [ $rc -ne 0 ]; then
            echo "$tool failed (exit $rc):"
            cat "$out/$tool.err"
            rm -rf "$out"
            exit 1
        fi
        echo "$tool $t" | tee -a "$out/times"
    done
done
awk -v n="$frames" -v th="$TH" '
function median(a, k,    i, j, t) {
    for (i = 1; i <= k; i++)
        for (j = i + 1; j <= k; j++)
            if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
    return k % 2 ? a[(k + 1) / 2] : (a[k / 2] + a[k / 2 + 1]) / 2
}
{ k = ++cnt[$1]; cpu[$1, k] = $2 + $3; wall[$1, k] = $4 }
END {
    for (t in cnt) {
        for (i = 1; i <= cnt[t]; i++) { c[i] = cpu[t, i]; w[i] = wall[t, i] }
        mc[t] = median(c, cnt[t]); mw[t] = median(w, cnt[t])
        printf "%-8s %d threads: CPU %.3f s (%.1f frames per CPU second), " \
               "wall %.3f s (%.1f fps), medians of %d\n", t, th, mc[t],
               n / mc[t], mw[t], n / mw[t], cnt[t]
    }
    printf "ratio libvmaf / vqhip: CPU time %.2f, wall time %.2f (%d frames)\n",
           mc["libvmaf"] / mc["vqhip"], mw["libvmaf"] / mw["vqhip"], n
}' "$out/times"
rc=0
if command -v python3 > /dev/null; then
    python3 - "$out/libvmaf.json" "$out/vqhip.json" "${SAME_AS:-}" <<'EOF' || rc=1
import json, sys
lv, vq = (json.load(open(f))["frames"] for f in sys.argv[1:3])
pairs = dict(p.split("=") for p in sys.argv[3].split(",") if p)
names = sorted((set(vq[0]["metrics"]) & set(lv[0]["metrics"])) - set(pairs))
pairs.update((n, n) for n in names)
bad = [(f["frameNum"], a) for f, g in zip(vq, lv) for a, b in pairs.items()
       if f["metrics"][a] != g["metrics"][b]]
print("scores: %d outputs x %d frames compared, %d differences%s" %
      (len(pairs), len(vq), len(bad) + abs(len(vq) - len(lv)),
       "" if not bad else " (first: frame %d, %s)" % bad[0]))
sys.exit(1 if bad or len(vq) != len(lv) or not pairs else 0)
EOF
else
    echo "scores: not compared (no python3)"
fi
rm -rf "$out"
exit $rc
