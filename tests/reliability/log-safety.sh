#!/bin/sh
# The CLI's logs harm no other file, never hang and never look current when
# they are not:
#   tests/reliability/log-safety.sh VQHIP_CLI
# links planted at temporary names, a log that is an input, a failed run
# with an earlier log at its path, incomplete CSV and subtitle logs, model
# names in the four layouts, named pipes, standard input and output.
# Prints one line per case and "N passed, N failed" at the end.
set -u
cli=${1:?usage: log-safety.sh VQHIP_CLI}
case $cli in /*) ;; *) cli=$PWD/$cli ;; esac
[ -x "$cli" ] || { echo "log-safety.sh: $cli is not an executable"; exit 1; }
command -v timeout >/dev/null || { echo "log-safety.sh: no timeout(1)"; exit 77; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/vqhip-ls.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); printf "ok   %s\n" "$1"; }
bad() { fail=$((fail + 1)); printf "FAIL %s: %s\n" "$1" "$2"; sed 's/^/     | /' "$tmp/err" | tail -n 6; }
check() { # check NAME CONDITION...: ok when the command succeeds
    name=$1
    shift
    if "$@"; then ok "$name"; else bad "$name" "$*"; fi
}
. "$(dirname "$0")/log_checks.sh"

# 8 frames of 64x48 4:2:0 (a gradient and a noisy copy), raw and Y4M; a
# raw pair whose first sample is 'Y' (0x59); a 32x24 Y4M.
python3 - "$tmp" <<'EOF'
import random, sys
d = sys.argv[1]
random.seed(7)
def frame(w, h, i, noise):
    y = bytes(min(255, (x * 3 + r * 2 + i * 5) % 200 + 20 + (random.randrange(9) if noise else 0))
              for r in range(h) for x in range(w))
    return y + bytes([128]) * (w * h // 2)
ref = [frame(64, 48, i, 0) for i in range(8)]
dis = [frame(64, 48, i, 1) for i in range(8)]
open(d + '/ref.yuv', 'wb').write(b''.join(ref))
open(d + '/dis.yuv', 'wb').write(b''.join(dis))
open(d + '/yref.yuv', 'wb').write(b'Y' + b''.join(ref)[1:])
open(d + '/ydis.yuv', 'wb').write(b'Y' + b''.join(dis)[1:])
def y4m(name, w, h, frames):
    with open(d + '/' + name, 'wb') as f:
        f.write(b'YUV4MPEG2 W%d H%d F25:1 C420jpeg\n' % (w, h))
        for x in frames:
            f.write(b'FRAME\n' + x)
y4m('ref.y4m', 64, 48, ref)
y4m('small.y4m', 32, 24, [frame(32, 24, i, 1) for i in range(8)])
EOF
raw="-r $tmp/ref.yuv -d $tmp/dis.yuv -w 64 -h 48"
fp() { cksum < "$1"; }

# 1. Links at every temporary name a log had or could be guessed to have
# (the old "<log>.tmp-<pid>": the shell's pid is the CLI's after exec).
echo "precious" > "$tmp/victim"
v=$(fp "$tmp/victim")
for f in json xml csv sub; do
    log=$tmp/l.$f
    sh -c 'for s in .tmp .tmp-$$ .vqtmp .vqtmp-$$ .part .new; do
               ln -s "$1" "$2$s"; done; shift 2; exec "$@"' \
        sh "$tmp/victim" "$log" "$cli" $raw --$f -o "$log" -q \
        >/dev/null 2>"$tmp/err"
    st=$?
    check "links at temporary names: $f written, the victim intact" \
        [ $st -eq 0 -a "$(fp "$tmp/victim")" = "$v" -a -s "$log" -a ! -L "$log" ]
done
ls "$tmp" | grep -q '\.vqtmp-[0-9a-f]\{16\}$' && bad "temporary files" "left behind" ||
    ok "no temporary log left"

# 2. A log that is an input: refused, the input untouched.
ln "$tmp/ref.yuv" "$tmp/hard.yuv"
ln -s "$tmp/dis.yuv" "$tmp/soft.yuv"
r0=$(fp "$tmp/ref.yuv") d0=$(fp "$tmp/dis.yuv") y0=$(fp "$tmp/ref.y4m")
for o in "$tmp/ref.yuv" "$tmp/dis.yuv" "$tmp/hard.yuv" "$tmp/soft.yuv"; do
    "$cli" $raw -o "$o" -q >/dev/null 2>"$tmp/err"
    st=$?
    check "-o ${o##*/} (an input): refused" [ $st -ne 0 ]
    grep -q "is the input" "$tmp/err" || bad "-o ${o##*/}" "no message"
done
"$cli" -r "$tmp/ref.y4m" -d "$tmp/ref.y4m" -o "$tmp/ref.y4m" -q >/dev/null 2>"$tmp/err"
check "-o ref.y4m (an input): refused" [ $? -ne 0 ]
check "the inputs untouched" [ "$(fp "$tmp/ref.yuv")" = "$r0" -a \
    "$(fp "$tmp/dis.yuv")" = "$d0" -a "$(fp "$tmp/ref.y4m")" = "$y0" -a -L "$tmp/soft.yuv" ]

# 3. A failed run leaves no earlier log looking current: the log is gone,
# or it is this run's and says it is incomplete.
stale() { echo '{"stale": 1}' > "$tmp/s.json"; }
not_stale() { # not_stale NAME STATUS
    if [ "$2" -eq 0 ]; then bad "$1" "exit 0"; return; fi
    if [ ! -e "$tmp/s.json" ]; then
        grep -q "removed the earlier log" "$tmp/err" && ok "$1: log removed" ||
            bad "$1" "removed without a word"
    elif json_is "$tmp/s.json" "'stale' not in d and not d['vqhip']['complete']"; then
        ok "$1: this run's log, incomplete"
    else
        bad "$1" "the earlier log is still there"
    fi
}
stale; "$cli" $raw --feature nosuch --json -o "$tmp/s.json" >/dev/null 2>"$tmp/err"
not_stale "unknown feature" $?
stale; "$cli" -r "$tmp/ref.yuv" -d "$tmp/missing.yuv" -w 64 -h 48 --json \
    -o "$tmp/s.json" >/dev/null 2>"$tmp/err"
not_stale "missing input" $?
stale; "$cli" -r "$tmp/ref.y4m" -d "$tmp/small.y4m" --json -o "$tmp/s.json" \
    >/dev/null 2>"$tmp/err"
not_stale "size mismatch" $?
stale; "$cli" -r "$tmp/ref.yuv" -d "$tmp/dis.yuv" -w 4 -h 4 --json \
    -o "$tmp/s.json" >/dev/null 2>"$tmp/err"
not_stale "too small for VMAF" $?
stale; "$cli" $raw --model path="$tmp/none.json" --json -o "$tmp/s.json" \
    >/dev/null 2>"$tmp/err"
not_stale "missing model" $?
stale; "$cli" $raw --backend hip --strict --json -o "$tmp/s.json" -q \
    >/dev/null 2>"$tmp/err"
st=$?
if [ $st -eq 0 ]; then
    echo "skip strict without a GPU: this machine has one"
else
    not_stale "strict without a GPU" $st
fi
# a full disk, as a file size limit (EFBIG): the log cannot be written
stale
( ulimit -f 1 && trap '' XFSZ && exec "$cli" $raw --json -o "$tmp/s.json" -q ) \
    2>&1 >/dev/null | cat > "$tmp/err"
grep -q "no log was written" "$tmp/err" || bad "full disk" "no 'no log was written'"
[ ! -e "$tmp/s.json" ] && ok "full disk: no log, as it says" ||
    bad "full disk" "a log is still there"
# a successful run replaces it
stale; "$cli" $raw --json -o "$tmp/s.json" -q >/dev/null 2>"$tmp/err"
check "a complete run replaces it" json_is "$tmp/s.json" "'stale' not in d and d['vqhip']['complete']"

# 4. Incomplete CSV and subtitle logs say so in their last row.
head -c 10000 "$tmp/dis.yuv" > "$tmp/trunc.yuv"
for f in csv sub; do
    "$cli" -r "$tmp/ref.yuv" -d "$tmp/trunc.yuv" -w 64 -h 48 --$f \
        -o "$tmp/t.$f" -q >/dev/null 2>"$tmp/err"
done
check "incomplete csv: a last row 'incomplete', as many columns" python3 - "$tmp/t.csv" <<'EOF'
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
n = len(rows[0])
sys.exit(0 if all(len(r) == n for r in rows) and rows[-1][0] == 'incomplete'
         and 'truncated' in rows[-1][1] and len(rows) == 4 else 1)
EOF
check "incomplete sub: a last subtitle 'incomplete'" \
    grep -q '^{2}{3}incomplete: .*truncated' "$tmp/t.sub"
"$cli" $raw --csv -o "$tmp/c.csv" -q >/dev/null 2>"$tmp/err"
check "complete csv: no such row" sh -c "! grep -q incomplete '$tmp/c.csv'"

# 5. Model names: one that would break a layout is refused; the allowed
# punctuation parses in every layout.
for n in 'a,b' 'a"b' 'a b' 'a<b' 'a\b'; do
    "$cli" $raw --model "version=vmaf_v0.6.1:name=$n" -o "$tmp/n.xml" -q \
        >/dev/null 2>"$tmp/err"
    st=$?
    check "model name '$n': refused" [ $st -ne 0 ]
    grep -q "model name" "$tmp/err" || bad "model name '$n'" "no message"
done
m=my-model.v2_x
for f in json xml csv sub; do
    "$cli" $raw --model "version=vmaf_v0.6.1:name=$m" --$f -o "$tmp/m.$f" -q \
        >/dev/null 2>"$tmp/err" || bad "model name $m ($f)" "exit status"
done
check "model name $m: JSON parses, keyed by it" \
    json_is "$tmp/m.json" "'$m' in d['frames'][0]['metrics'] and '$m' in d['pooled_metrics']"
check "model name $m: XML parses, an attribute" python3 -c "
import sys, xml.etree.ElementTree as E
r = E.parse(sys.argv[1]).getroot()
sys.exit(0 if len(r.find('frames')) == 8 and all('$m' in f.attrib for f in r.find('frames')) else 1)" "$tmp/m.xml"
check "model name $m: CSV columns stable" python3 -c "
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
sys.exit(0 if len(rows) == 9 and '$m' in rows[0] and len({len(r) for r in rows}) == 1 else 1)" "$tmp/m.csv"
check "model name $m: subtitle fields" sh -c "[ \$(grep -c '|$m: [0-9.]*|' '$tmp/m.sub') -eq 8 ]"

# 6. Named pipes: a log read by another process arrives whole; a model
# path that is a pipe is refused at once.
mkfifo "$tmp/log.fifo" "$tmp/model.fifo"
timeout 60 cat "$tmp/log.fifo" > "$tmp/fifo.json" &
timeout 60 "$cli" $raw --json -o "$tmp/log.fifo" -q >/dev/null 2>"$tmp/err"
st=$?
wait
check "log to a named pipe: no hang, the reader gets the log" [ $st -eq 0 ]
check "log to a named pipe: whole" json_is "$tmp/fifo.json" "len(d['frames']) == 8"
timeout 20 "$cli" $raw --model path="$tmp/model.fifo" -q >/dev/null 2>"$tmp/err"
st=$?
check "model path a named pipe: refused, no hang" [ $st -eq 1 ]
grep -q "not a regular file" "$tmp/err" || bad "model fifo" "no message"

# 7. Standard input and output.
"$cli" -r - -d - -w 64 -h 48 < "$tmp/ref.yuv" >/dev/null 2>"$tmp/err"
st=$?
check "-r - -d -: refused" [ $st -eq 2 ]
grep -q "standard input" "$tmp/err" || bad "-r - -d -" "no message"
"$cli" -r "$tmp/yref.yuv" -d "$tmp/ydis.yuv" -w 64 -h 48 --feature psnr \
    --no_prediction --json -o "$tmp/y.json" -q >/dev/null 2>"$tmp/err"
check "raw input starting with 'Y': read as raw" json_is "$tmp/y.json" "len(d['frames']) == 8"
check "... its PSNR as numpy computes it" python3 - "$tmp" <<'EOF'
import json, math, sys
d = sys.argv[1]
r, s = open(d + '/yref.yuv', 'rb').read(), open(d + '/ydis.yuv', 'rb').read()
log = json.load(open(d + '/y.json'))
n = 64 * 48
for i in range(8):
    o = i * n * 3 // 2
    mse = sum((a - b) ** 2 for a, b in zip(r[o:o + n], s[o:o + n])) / n
    want = min(60.0, 10 * math.log10(255 ** 2 / mse))
    got = log['frames'][i]['metrics']['psnr_y']
    if abs(got - want) > 1e-4:
        print('frame', i, got, want)
        sys.exit(1)
EOF
cat "$tmp/yref.yuv" | "$cli" -r - -d "$tmp/ydis.yuv" -w 64 -h 48 --feature psnr \
    --no_prediction --json -o "$tmp/yp.json" -q >/dev/null 2>"$tmp/err"
check "... and from a pipe" same_frames "$tmp/y.json" "$tmp/yp.json"
printf 'YUV4MPEGX W64 H48\n' > "$tmp/notreally.y4m"
"$cli" -r "$tmp/notreally.y4m" -d "$tmp/ref.y4m" >/dev/null 2>"$tmp/err"
check "a .y4m without the magic: refused" [ $? -eq 3 ]
"$cli" $raw --json -o - > "$tmp/stdout.json" 2>"$tmp/err"
check "-o -: standard output is the log alone" json_is "$tmp/stdout.json" "len(d['frames']) == 8"
check "-o -: the summary and frames on stderr" grep -q "^backend: .*\|^frame 0:" "$tmp/err"
"$cli" $raw --json -o /dev/stdout > "$tmp/stdout2.json" 2>"$tmp/err"
check "-o /dev/stdout: the log alone" json_is "$tmp/stdout2.json" "len(d['frames']) == 8"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
