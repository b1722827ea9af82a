#!/bin/sh
# The CLI and the filter score the same Y4M files alike, also where the
# colour description matters (ssimulacra2 converts to linear light with
# the picture's range and chroma siting): full and limited range, chroma
# sited at the centre (C420jpeg), left (C420mpeg2) and top-left
# (C420paldv). The filter's description comes from FFmpeg's Y4M reader.
#   tests/reliability/cli_filter_colour.sh FFMPEG VQHIP_CLI
# Exit 0, 1 on a difference, 77 without the filter.
set -u
ff=${1:?usage: cli_filter_colour.sh FFMPEG VQHIP_CLI}
cli=${2:?usage: cli_filter_colour.sh FFMPEG VQHIP_CLI}
[ -x "$ff" ] && "$ff" -hide_banner -h filter=vqhip >/dev/null 2>&1 ||
    { echo "SKIP: no ffmpeg with the vqhip filter"; exit 77; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/vqhip-cfc.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fail=0
# the clips once, then their Y4M header rewritten for each case (FFmpeg
# 5.1's setparams has no chroma_location)
src="testsrc2=s=96x64:r=25:d=0.32,format=yuv420p"
"$ff" -nostdin -v error -f lavfi -i "$src" -f yuv4mpegpipe "$tmp/r.y4m" &&
"$ff" -nostdin -v error -f lavfi -i "$src,noise=alls=30:allf=t" \
    -f yuv4mpegpipe "$tmp/d.y4m" || { echo "FAIL: the clips"; exit 1; }
retag() { # retag IN OUT COLOURSPACE RANGE
    python3 - "$@" <<'PY'
import sys
src, dst, cs, rng = sys.argv[1:]
data = open(src, 'rb').read()
head, rest = data.split(b'\n', 1)
keep = [t for t in head.split(b' ') if not t.startswith((b'C', b'XYSCSS', b'XCOLORRANGE'))]
keep += [b'C' + cs.encode(), b'XCOLORRANGE=' + rng.encode()]
open(dst, 'wb').write(b' '.join(keep) + b'\n' + rest)
PY
}
for range in FULL LIMITED; do
    for cs in 420jpeg 420mpeg2 420paldv; do
        name=$range-$cs
        retag "$tmp/r.y4m" "$tmp/r-$name.y4m" $cs $range &&
        retag "$tmp/d.y4m" "$tmp/d-$name.y4m" $cs $range || { echo "FAIL $name: clips"; fail=1; continue; }
        head -c 80 "$tmp/r-$name.y4m" | head -1 > "$tmp/header"
        "$cli" -q -r "$tmp/r-$name.y4m" -d "$tmp/d-$name.y4m" --backend cpu \
            --feature ssimulacra2 --json --precision max -o "$tmp/cli.json" >/dev/null 2>"$tmp/err" &&
        "$ff" -nostdin -v error -i "$tmp/d-$name.y4m" -i "$tmp/r-$name.y4m" \
            -lavfi "vqhip=backend=cpu:feature=ssimulacra2:log_fmt=json:log_precision=17:log_path=$tmp/filter.json" \
            -f null - 2>>"$tmp/err" || { echo "FAIL $name: a run failed"; sed 's/^/  | /' "$tmp/err"; fail=1; continue; }
        if python3 - "$tmp/cli.json" "$tmp/filter.json" <<'PY'
import json, sys
a, b = ([f['metrics']['ssimulacra2'] for f in json.load(open(p))['frames']]
        for p in sys.argv[1:])
sys.exit(0 if a == b and len(a) == 8 else 1)
PY
        then
            echo "ok   $name ($(cat "$tmp/header" | cut -d' ' -f5-)): CLI = filter, 8 frames"
        else
            echo "FAIL $name ($(cat "$tmp/header" | cut -d' ' -f5-)): the CLI's ssimulacra2 differs from the filter's"
            fail=1
        fi
    done
done
exit $fail
