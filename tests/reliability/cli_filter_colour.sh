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
src="testsrc2=s=96x64:r=25:d=0.32"
for range in pc tv; do
    for loc in center left topleft; do
        name=$range-$loc
        "$ff" -nostdin -v error -f lavfi -i "$src,format=yuv420p,setparams=range=$range:chroma_location=$loc" \
            -f yuv4mpegpipe "$tmp/r-$name.y4m" &&
        "$ff" -nostdin -v error -f lavfi -i "$src,format=yuv420p,noise=alls=30:allf=t,setparams=range=$range:chroma_location=$loc" \
            -f yuv4mpegpipe "$tmp/d-$name.y4m" || { echo "FAIL $name: clips"; fail=1; continue; }
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
