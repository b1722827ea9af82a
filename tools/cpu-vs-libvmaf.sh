#!/bin/bash
# The CPU path against libvmaf's `vmaf` tool: both tools on the same raw
# 4:2:0 8-bit files, alternately, several rounds; prints each run's CPU
# seconds (user + sys) and wall seconds, the medians, frames per second and
# the ratios libvmaf / vqhip (above 1: vqhip is faster).
#
# usage: tools/cpu-vs-libvmaf.sh VMAF_TOOL REF.yuv DIS.yuv WIDTH HEIGHT \
#            THREADS ROUNDS [arguments for both tools...]
#   e.g. tools/cpu-vs-libvmaf.sh /opt/vmaf/build/tools/vmaf ref.yuv dis.yuv \
#            1920 1080 16 5 --model version=vmaf_v0.6.1
#        ... 1920 1080 1 5 --no_prediction --feature psnr
# Environment: VQHIP (default build/tools/vqhip), VQHIP_MODEL_DIR (models
# for --model version=..., default ../shared/models when it exists).
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
if [ -z "${VQHIP_MODEL_DIR:-}" ] && [ -d ../shared/models ]; then
    export VQHIP_MODEL_DIR=$(cd ../shared/models && pwd)
fi
frames=$(( $(stat -c %s "$REF") / (W * H * 3 / 2) ))
out=$(mktemp -d)
TIMEFORMAT='%U %S %R'
for i in $(seq "$ROUNDS"); do
    for tool in libvmaf vqhip; do
        bin=$VMAF
        [ $tool = vqhip ] && bin=$VQ
        t=$( { time "$bin" -r "$REF" -d "$DIS" -w "$W" -h "$H" -p 420 -b 8 \
                 --threads "$TH" -q --json -o "$out/$tool.json" "$@" \
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
        printf "%-8s %d threads: CPU %.2f s (%.1f frames per CPU second), " \
               "wall %.2f s (%.1f fps), medians of %d\n", t, th, mc[t],
               n / mc[t], mw[t], n / mw[t], cnt[t]
    }
    printf "ratio libvmaf / vqhip: CPU time %.2f, wall time %.2f (%d frames)\n",
           mc["libvmaf"] / mc["vqhip"], mw["libvmaf"] / mw["vqhip"], n
}' "$out/times"
rm -rf "$out"
