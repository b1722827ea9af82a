#!/bin/sh
# The CLI against hostile use: exit status, one clear message, and the log
# (whole and this run's, marked incomplete when it is).
#   tests/reliability/cli-check.sh VQHIP_CLI [--device]
# --device: only the cases that need a device (faults, verify, what the
# reading for a GPU run skips): on the fake device of a build without a HIP
# platform, else the GPU (or the emulated device); exit 77 when there is
# none. Without it, every other case.
# Prints one line per case and "N passed, N failed" at the end.
set -u
cli=${1:?usage: cli-check.sh VQHIP_CLI [--device]}
device=${2:-}
case $cli in /*) ;; *) cli=$PWD/$cli ;; esac
# (a missing CLI would leave the SIGINT case waiting on its fifo forever)
[ -x "$cli" ] || { echo "cli-check.sh: $cli is not an executable"; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/vqhip-cc.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); echo "ok   $1"; }
bad() { fail=$((fail + 1)); echo "FAIL $1: $2"; sed 's/^/     | /' "$tmp/err" | tail -n 6; }

# run NAME EXPECTED_STATUS PATTERN ARGS...: status, a message on stderr,
# and no empty or doubled error line
run() {
    name=$1 want=$2 pattern=$3
    shift 3
    "$cli" "$@" >"$tmp/out" 2>"$tmp/err"
    st=$?
    if [ $st -ne "$want" ]; then bad "$name" "exit $st, not $want"; return 1; fi
    if [ -n "$pattern" ] && ! grep -q -- "$pattern" "$tmp/err"; then
        bad "$name" "no message matching '$pattern'"; return 1
    fi
    if grep -q '^vqhip: *$\|^vqhip:  (' "$tmp/err"; then
        bad "$name" "an empty error line"; return 1
    fi
    ok "$name"
}
# json_is, same_frames
. "$(dirname "$0")/log_checks.sh"

# 8 frames of 64x48 4:2:0 (a gradient and a noisy copy), raw and Y4M
python3 - "$tmp" <<'EOF'
import random, sys
d = sys.argv[1]
random.seed(7)
w, h, n = 64, 48, 8
def frame(i, noise):
    y = bytes(min(255, (x * 3 + r * 2 + i * 5) % 200 + 20 + (random.randrange(9) if noise else 0))
              for r in range(h) for x in range(w))
    return y + bytes([128]) * (w * h // 2)
ref = [frame(i, 0) for i in range(n)]
dis = [frame(i, 1) for i in range(n)]
open(d + '/ref.yuv', 'wb').write(b''.join(ref))
open(d + '/dis.yuv', 'wb').write(b''.join(dis))
for name, fr, rng in (('full', ref, 'FULL'), ('lim', dis, 'LIMITED')):
    with open('%s/%s.y4m' % (d, name), 'wb') as f:
        f.write(b'YUV4MPEG2 W64 H48 F25:1 C420jpeg XCOLORRANGE=%s\n' % rng.encode())
        for x in fr:
            f.write(b'FRAME\n' + x)
EOF
raw="-r $tmp/ref.yuv -d $tmp/dis.yuv -w 64 -h 48"

# faults, verify and the GPU run's reading, on the fake device (a build
# without a HIP platform) or the build's GPU
if [ "$device" = --device ]; then
    if ! VQHIP_FAKE_GPU=1 "$cli" $raw --backend hip --strict --feature psnr \
            --no_prediction >/dev/null 2>"$tmp/err"; then
        if grep -q "ErrorNoDevice\|without a HIP platform" "$tmp/err"; then
            echo "cli-check: skipped: no device: $(head -1 "$tmp/err")"
            exit 77
        fi
        bad "device run" "exit status"
        echo "$pass passed, $fail failed"
        exit 1
    fi
    "$cli" $raw --backend cpu --json -o "$tmp/cpu.json" -q >/dev/null 2>&1
    for f in launch@3 copy@4 hang@5 lost@2; do
        VQHIP_FAKE_GPU=1 VQHIP_FAULT=$f VQHIP_GPU_TIMEOUT=0.2 "$cli" $raw --json \
            -o "$tmp/f.json" -q >"$tmp/out" 2>"$tmp/err"
        same_frames "$tmp/cpu.json" "$tmp/f.json" &&
            json_is "$tmp/f.json" "'cpu_from_frame' in d['vqhip']" &&
            grep -q "GPU fault" "$tmp/out" &&
            ok "fault $f: scores equal the CPU run" || bad "fault $f" ""
    done
    VQHIP_FAKE_GPU=1 VQHIP_FAULT=drop@4 "$cli" $raw --verify 2 -q >"$tmp/out" 2>"$tmp/err"
    grep -q "1 mismatched" "$tmp/out" && ok "verify 2 catches drop@4" || bad "verify" "$(cat "$tmp/out" | head -3)"
    # Reading for a GPU run skips the planes no extractor reads (VMAF: the
    # chroma planes); the CPU run above maps the files whole. Same scores
    # from a file (planes skipped), a pipe (read whole) and with every
    # plane read (psnr's chroma).
    same_as() { # same_as NAME CPU_LOG GPU_LOG
        json_is "$2" "len(d['frames']) == 8" && same_frames "$2" "$3" &&
            ok "$1" || bad "$1" ""
    }
    VQHIP_FAKE_GPU=1 "$cli" $raw --json -o "$tmp/s.json" -q >/dev/null 2>"$tmp/err"
    same_as "chroma skipped: the CPU's scores" "$tmp/cpu.json" "$tmp/s.json"
    VQHIP_FAKE_GPU=1 "$cli" -r "$tmp/ref.yuv" -d - -w 64 -h 48 --json \
        -o "$tmp/p.json" -q < "$tmp/dis.yuv" >/dev/null 2>"$tmp/err"
    same_as "pipe read whole: the CPU's scores" "$tmp/cpu.json" "$tmp/p.json"
    "$cli" $raw --backend cpu --feature psnr --json -o "$tmp/cpu2.json" -q >/dev/null 2>&1
    VQHIP_FAKE_GPU=1 "$cli" $raw --feature psnr --json -o "$tmp/a.json" -q >/dev/null 2>"$tmp/err"
    same_as "every plane read (psnr): the CPU's scores" "$tmp/cpu2.json" "$tmp/a.json"
    # a file that ends inside a skipped plane is still a truncated frame
    head -c $((4608 * 2 + 3100)) "$tmp/dis.yuv" > "$tmp/chroma_cut.yuv"
    VQHIP_FAKE_GPU=1 "$cli" -r "$tmp/ref.yuv" -d "$tmp/chroma_cut.yuv" -w 64 -h 48 \
        --json -o "$tmp/k.json" -q >/dev/null 2>"$tmp/err"
    grep -q "truncated frame (3100 of 4608 bytes)" "$tmp/err" &&
        json_is "$tmp/k.json" "not d['vqhip']['complete'] and len(d['frames']) == 2" &&
        ok "cut inside a skipped plane: truncated, 2 frames logged" || bad "cut in chroma" ""
    schema_ok "$tmp" && ok "every JSON log valid against docs/log.schema.json" ||
        bad "schema" "a JSON log breaks docs/log.schema.json"
    echo "$pass passed, $fail failed"
    [ "$fail" -eq 0 ]
    exit
fi

run "malformed width" 2 "not a number" $raw -w 64x
run "malformed frame count" 2 "not a number" $raw --frame_cnt abc
run "negative frame count" 2 "not a number" $raw --frame_cnt -3
run "bit depth out of range" 2 "not a number" $raw -b 7
printf 'YUV4MPEG2 W4294967360 H48 C420\nFRAME\n' > "$tmp/wrap.y4m"
run "wrapped Y4M width" 3 "not a number from 1" -r "$tmp/wrap.y4m" -d "$tmp/wrap.y4m"
printf 'YUV4MPEG2 W64 H48 C420p9\n' > "$tmp/p9.y4m"
run "unsupported Y4M depth" 3 "unsupported Y4M colourspace" -r "$tmp/p9.y4m" -d "$tmp/p9.y4m"
run "impossible size: no 'out of memory'" 3 "truncated\|cannot allocate" \
    -r "$tmp/ref.yuv" -d "$tmp/dis.yuv" -w 16384 -h 16384
grep -q "out of memory" "$tmp/err" && bad "impossible size" "says out of memory"
run "unknown feature" 4 "valid features" $raw --feature nosuch
run "unwritable -o: before the run" 1 "cannot write the log" $raw -o /nonexistent/x.xml
[ ! -s "$tmp/out" ] && ok "unwritable -o: nothing scored first" || bad "unwritable -o" "scored first"
head -c 10000 "$tmp/dis.yuv" > "$tmp/trunc.yuv"
run "truncated raw input" 3 "truncated frame" -r "$tmp/ref.yuv" -d "$tmp/trunc.yuv" \
    -w 64 -h 48 --json -o "$tmp/t.json" --feature psnr --no_prediction
json_is "$tmp/t.json" "not d['vqhip']['complete'] and len(d['frames']) == 2 and 'truncated' in d['vqhip']['incomplete']" &&
    ok "truncated: the frames before it, marked incomplete" || bad "truncated log" "$(head -c 300 "$tmp/t.json")"
: > "$tmp/empty.yuv"
echo '{"stale": 1}' > "$tmp/z.json"
run "empty input" 3 "no frames read" -r "$tmp/ref.yuv" -d "$tmp/empty.yuv" -w 64 -h 48 --json -o "$tmp/z.json"
json_is "$tmp/z.json" "not d['vqhip']['complete'] and 'stale' not in d" &&
    ok "empty input: the stale log replaced, marked incomplete" || bad "empty log" ""
head -c $((4608 * 5)) "$tmp/dis.yuv" > "$tmp/short.yuv"
run "different lengths warned" 0 "only the first 5" -r "$tmp/ref.yuv" -d "$tmp/short.yuv" -w 64 -h 48
run "different colour ranges warned" 0 "full range and the distorted video limited" \
    -r "$tmp/full.y4m" -d "$tmp/lim.y4m" --feature psnr --no_prediction
# a 10-bit sample above 1023 (0xFFFF): refused, as cambi and libvmaf's
# cambi refuse it, whatever the features
python3 -c "
import sys
f = bytearray(b'\x00\x02' * (64 * 48 * 3 // 2))
open(sys.argv[1] + '/r10.yuv', 'wb').write(bytes(f))
f[2 * (7 * 64 + 5):2 * (7 * 64 + 5) + 2] = b'\xff\xff'
open(sys.argv[1] + '/d10.yuv', 'wb').write(bytes(f))" "$tmp"
run "10-bit sample above 1023: refused" 1 "sample of 65535 at (5, 7), above 1023" \
    -r "$tmp/r10.yuv" -d "$tmp/d10.yuv" -w 64 -h 48 -b 10
run "full disk: an error" 1 "No space left" $raw -o /dev/full
[ -c /dev/full ] && ok "/dev/full is still a device" || bad "/dev/full" "replaced"
run "complete run" 0 "" $raw --json -o "$tmp/c.json"
json_is "$tmp/c.json" "d['vqhip']['complete'] and len(d['frames']) == 8" &&
    ok "complete run: complete log" || bad "complete log" ""
ls "$tmp" | grep -q '\.tmp-\|\.vqtmp-' && bad "temporary files" "left behind" || ok "no temporary log left"

# SIGINT while the distorted input is a pipe that stalls (its writer keeps
# it open and sends nothing more): honoured at once, not at the pipe's end;
# the frames scored so far logged, marked incomplete, exit 130
mkfifo "$tmp/fifo"
( "$cli" -r "$tmp/ref.yuv" -d "$tmp/fifo" -w 64 -h 48 --json -o "$tmp/i.json" \
    >/dev/null 2>"$tmp/err"; echo $? > "$tmp/st" ) &
exec 3<>"$tmp/fifo" # read-write: the open never blocks, a reader or not
head -c $((4608 * 3)) "$tmp/dis.yuv" >&3
sleep 1
kill -INT $(pgrep -n -f "$tmp/fifo" | head -1) 2>/dev/null
# the writer still holds the pipe open: the CLI must end on its own
i=0
while [ ! -s "$tmp/st" ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
stalled_done=$([ -s "$tmp/st" ] && echo yes || echo no)
exec 3>&-
wait
if [ "$stalled_done" != yes ]; then
    bad "SIGINT, stalled pipe" "not ended 5 s after SIGINT while its input stalled"
elif [ "$(cat "$tmp/st")" = 130 ] && json_is "$tmp/i.json" "not d['vqhip']['complete'] and 'interrupted' in d['vqhip']['incomplete'] and len(d['frames']) == 3"; then
    ok "SIGINT, stalled pipe: ended at once, exit 130, 3 frames logged, marked interrupted"
else
    bad "SIGINT, stalled pipe" "exit $(cat "$tmp/st")"
fi
schema_ok "$tmp" && ok "every JSON log valid against docs/log.schema.json" ||
    bad "schema" "a JSON log breaks docs/log.schema.json"


echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
