#!/bin/sh
# The vqhip filter against hostile use: each case checks ffmpeg's exit
# status, the message, and the log (complete, marked incomplete, or this
# run's). Device faults run on the fake device when libvqhip was built
# without a HIP platform (VQHIP_FAKE_GPU=1), on the emulated device in an
# emu build, and on the GPU with --gpu.
#
#   tests/reliability/filter-check.sh FFMPEG [--gpu]
# Prints one line per case and "N passed, N failed" at the end.
set -u
ff=${1:?usage: filter-check.sh FFMPEG [--gpu]}
case $ff in /*) ;; *) ff=$PWD/$ff ;; esac
gpu=${2:-}
here=$(cd "$(dirname "$0")" && pwd)
export VQHIP_MODEL_DIR=${VQHIP_MODEL_DIR:-$here/../../../shared/models}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/vqhip-fc.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0

ok() { pass=$((pass + 1)); echo "ok   $1"; }
bad() { fail=$((fail + 1)); echo "FAIL $1: $2"; sed 's/^/     | /' "$tmp/err" | tail -n 8; }

# run NAME EXPECT(0|fail) GREP_PATTERN ARGS... : ffmpeg's status and a
# message on stderr (pattern '' = none needed)
run() {
    name=$1 expect=$2 pattern=$3
    shift 3
    timeout 300 "$ff" -nostdin -hide_banner -v warning "$@" >"$tmp/out" 2>"$tmp/err"
    st=$?
    if [ "$expect" = 0 ] && [ $st -ne 0 ]; then bad "$name" "exit $st"; return 1; fi
    if [ "$expect" = fail ] && [ $st -eq 0 ]; then bad "$name" "exit 0"; return 1; fi
    if [ -n "$pattern" ] && ! grep -q -- "$pattern" "$tmp/err"; then
        bad "$name" "no message matching '$pattern'"; return 1
    fi
    ok "$name"
}

# json_is, same_frames
. "$(dirname "$0")/log_checks.sh"

src="testsrc2=s=96x64:r=25"
lav() { echo "$src:d=$1,format=${2:-yuv420p}"; }

# --- inputs that cannot be compared -----------------------------------------
run "size mismatch" fail "must be the same" -f lavfi -i "$(lav 1)" \
    -f lavfi -i "testsrc2=s=64x64:r=25:d=1,format=yuv420p" -lavfi vqhip -f null -
run "pixel format mismatch" fail "must be the same" -f lavfi -i "$(lav 1)" \
    -f lavfi -i "$(lav 1 yuv444p)" -lavfi vqhip -f null -
run "bit depth mismatch" fail "must be the same" -f lavfi -i "$(lav 1)" \
    -f lavfi -i "$(lav 1 yuv420p10le)" -lavfi vqhip -f null -
"$ff" -v error -f lavfi -i "$(lav 1)" -color_range pc -f yuv4mpegpipe "$tmp/full.y4m"
"$ff" -v error -f lavfi -i "$(lav 1)" -color_range tv -f yuv4mpegpipe "$tmp/lim.y4m"
run "colour range mismatch warned" 0 "different color ranges" -i "$tmp/full.y4m" \
    -i "$tmp/lim.y4m" -lavfi vqhip=feature=psnr -f null -
# tagged against untagged: not known to differ, no warning (as the CLI)
"$ff" -v error -f lavfi -i "$(lav 1)" -f rawvideo "$tmp/untagged.yuv"
run "tagged against untagged range: no warning" 0 "" -i "$tmp/full.y4m" \
    -f rawvideo -pix_fmt yuv420p -s 96x64 -i "$tmp/untagged.yuv" \
    -lavfi vqhip=feature=psnr -f null -
grep -q "different color ranges" "$tmp/err" &&
    bad "tagged against untagged" "a range warning" || ok "tagged against untagged: said nothing"
# Full-range yuvj formats (FFmpeg 5.1's MJPEG decoder) are scored as they
# are: the same bytes read as yuv420p give the same scores
"$ff" -v error -f lavfi -i "$(lav 1 yuvj420p)" -f rawvideo "$tmp/j_ref.yuv"
"$ff" -v error -f lavfi -i "$(lav 1 yuvj420p),noise=alls=24:allf=t" -f rawvideo "$tmp/j_dis.yuv"
for f in yuvj420p yuv420p; do
    run "$f frames scored" 0 "" -f rawvideo -pix_fmt $f -s 96x64 -i "$tmp/j_dis.yuv" \
        -f rawvideo -pix_fmt $f -s 96x64 -i "$tmp/j_ref.yuv" \
        -lavfi "vqhip=feature=psnr:log_fmt=json:log_path=$tmp/$f.json" -f null -
done
same_frames "$tmp/yuvj420p.json" "$tmp/yuv420p.json" &&
    ok "yuvj420p taken as it is: the scores of its samples" ||
    bad "yuvj420p" "scores differ from the same samples read as yuv420p"
# 9-bit input, which FFmpeg converts before the filter: said
run "9-bit input converted: warned" 0 "yuv420p9le, converted to" \
    -f lavfi -i "$(lav 1 yuv420p9le)" -f lavfi -i "$(lav 1 yuv420p9le)" \
    -lavfi vqhip=feature=psnr -f null -
run "below adm's minimum: at configure" fail "33" \
    -f lavfi -i "testsrc2=s=24x24:d=1,format=yuv420p" \
    -f lavfi -i "testsrc2=s=24x24:d=1,format=yuv420p" -lavfi vqhip -f null -
run "skip_unsupported goes on" 0 "left out" \
    -f lavfi -i "testsrc2=s=24x24:d=1,format=yuv420p" \
    -f lavfi -i "testsrc2=s=24x24:d=1,format=yuv420p" \
    -lavfi "vqhip=feature=psnr|adm:skip_unsupported=1" -f null -
run "size change mid-stream" fail "but the run is 96x64\\|size changed" \
    -f lavfi -i "$(lav 1)" -f lavfi -i "$(lav 1)" -filter_complex \
    "[0]scale=eval=frame:w='if(gt(n,5),64,96)':h=64[a];[1]scale=eval=frame:w='if(gt(n,5),64,96)':h=64[b];[a][b]vqhip=feature=psnr" \
    -f null -

# --- streams of different lengths (framesync) ------------------------------
run "reference shorter: repeats reported" 0 "repeated reference frame" \
    -f lavfi -i "$(lav 2)" -f lavfi -i "$(lav 1)" \
    -lavfi "vqhip=feature=psnr:log_fmt=json:log_path=$tmp/rshort.json" -f null -
# the 25 pairs against the reference's last frame are not pairs of the two
# videos: the log is marked, never complete
json_is "$tmp/rshort.json" "len(d['frames']) == 50 and not d['vqhip']['complete'] and '25 main frames after the reference' in d['vqhip']['incomplete']" &&
    ok "reference shorter: log marked incomplete" || bad "reference shorter log" "$(head -c 300 "$tmp/rshort.json")"
# Interrupted (SIGINT after 2 s) with identical inputs, the reference's chain
# slower: FFmpeg 9 can end the reference first, and framesync then pairs the
# main frames still queued with its last frame. Whether that happens in a
# run depends on timing; what must hold in every run: a log with a pair
# that is not identical is not marked complete.
for i in 1 2 3; do
    timeout -s INT 2 "$ff" -nostdin -hide_banner -v warning \
        -f lavfi -i "testsrc2=s=640x360:r=25" \
        -f lavfi -i "testsrc2=s=640x360:r=25,gblur=sigma=0,noise=alls=0" \
        -lavfi "[1]gblur=sigma=0[r];[0][r]vqhip=feature=psnr:log_fmt=json:log_path=$tmp/int$i.json" \
        -f null - >"$tmp/out" 2>"$tmp/err"
done
intr=$(python3 - "$tmp"/int1.json "$tmp"/int2.json "$tmp"/int3.json <<'EOF2'
import json, sys
bad, repeated, logs = [], 0, 0
for p in sys.argv[1:]:
    try:
        text = open(p).read()
    except OSError:
        continue  # interrupted before its first pair (a slow build): no log
    try:
        d = json.loads(text)
    except ValueError as e:
        bad.append('%s: %s' % (p, e))
        continue
    logs += 1
    low = [f['frameNum'] for f in d['frames'] if f['metrics']['psnr_y'] < 60]
    repeated += bool(low)
    if low and d['vqhip']['complete']:
        bad.append('%s: frames %s against a repeated reference, complete' % (p, low))
print('; '.join(bad) if bad else 'ok (%d logs, %d of them with a pair against a repeated '
      'reference)' % (logs, repeated))
EOF2
)
case $intr in
ok*) ok "interrupted: no complete log with a repeated reference: $intr" ;;
*) bad "interrupted runs" "$intr" ;;
esac
run "reference shorter, eof_action=pass: unscored reported" 0 "not scored" \
    -f lavfi -i "$(lav 2)" -f lavfi -i "$(lav 1)" \
    -lavfi vqhip=feature=psnr:eof_action=pass -f null -
# The main (distorted) input shorter: the run ends with it, every pair real
run "main shorter: the run ends with it" 0 "" \
    -f lavfi -i "$(lav 1)" -f lavfi -i "$(lav 2)" \
    -lavfi "vqhip=feature=psnr:log_fmt=json:log_path=$tmp/mshort.json" -f null -
json_is "$tmp/mshort.json" "len(d['frames']) == 25 and d['vqhip']['complete']" &&
    ok "main shorter: 25 frames logged" || bad "main shorter log" "$(head -c 300 "$tmp/mshort.json")"
# a reference looped forever (-stream_loop -1) ends with the main input
"$ff" -v error -f lavfi -i "$(lav 1)" -f yuv4mpegpipe "$tmp/loop.y4m"
run "looped reference: the run ends" 0 "" -f lavfi -i "$(lav 2)" \
    -stream_loop -1 -i "$tmp/loop.y4m" \
    -lavfi "vqhip=feature=psnr:log_fmt=json:log_path=$tmp/loop.json" -f null -
json_is "$tmp/loop.json" "len(d['frames']) == 50" &&
    ok "looped reference: 50 frames logged" || bad "looped reference log" "$(head -c 300 "$tmp/loop.json")"
run "looped reference with offset=-3: the run ends" 0 "" -f lavfi -i "$(lav 2)" \
    -stream_loop -1 -i "$tmp/loop.y4m" \
    -lavfi "vqhip=feature=psnr:offset=-3:log_fmt=json:log_path=$tmp/loopoff.json" -f null -
json_is "$tmp/loopoff.json" "len(d['frames']) == 50" &&
    ok "looped reference with offset=-3: 50 frames logged" || bad "looped reference, offset" "$(head -c 300 "$tmp/loopoff.json")"
# Messages that must say what happened
run "reference starting later: said so" 0 "5 main frames came before the reference's first frame" \
    -f lavfi -i "$(lav 1)" -f lavfi -i "$(lav 1)" \
    -lavfi "[1]setpts=PTS+5[r];[0][r]vqhip=feature=psnr:log_fmt=json:log_path=$tmp/late.json" -f null -
grep -q "ended first" "$tmp/err" && bad "reference starting later" "said it ended first" ||
    ok "reference starting later: not called an early end"
json_is "$tmp/late.json" "len(d['frames']) == 20" &&
    ok "reference starting later: 20 pairs scored" || bad "reference starting later" "not 20 pairs"
run "duplicate timestamps, aligned pairs" 0 "" -f lavfi -i "$(lav 1)" -f lavfi -i "$(lav 1)" \
    -lavfi "[0]setpts='N-mod(N,2)'[a];[1]setpts='N-mod(N,2)'[b];[a][b]vqhip=feature=psnr:log_fmt=json:log_path=$tmp/dup.json" \
    -f null -
grep -q "repeated reference" "$tmp/err" && bad "duplicate timestamps" "called repeats" ||
    ok "duplicate timestamps: no repeated-reference warning"
run "n_subsample: the summary counts the frames pooled" 0 "mean of 13 frames (1 in 2 of 25" \
    -f lavfi -i "$(lav 1)" -f lavfi -i "$(lav 1)" -lavfi vqhip=feature=psnr:n_subsample=2 \
    -v info -f null -
# A main input that goes on after the reference ended (eof_action=pass, a
# live source): the frames keep flowing. The last scored frame is final
# once the reference has ended (motion has no next frame to wait for), so
# neither it nor the unscored frames behind it wait for the main input's
# end; its scores are those of a run that ends with the reference.
timeout 60 "$ff" -nostdin -v error -f lavfi -i "$src" -f lavfi -i "$(lav 1)" \
    -lavfi "vqhip=model=version=vmaf_v0.6.1:eof_action=pass:log_fmt=json:log_path=$tmp/live.json" \
    -frames:v 60 -f null - 2>"$tmp/err"
st=$?
[ $st -eq 0 ] && json_is "$tmp/live.json" "len(d['frames']) == 25" &&
    ok "eof_action=pass, main goes on: frames flow past the reference's end" ||
    bad "eof_action=pass, main goes on" "exit $st (124: still waiting after 60 s)"
"$ff" -nostdin -v error -f lavfi -i "$(lav 1)" -f lavfi -i "$(lav 1)" \
    -lavfi "vqhip=model=version=vmaf_v0.6.1:log_fmt=json:log_path=$tmp/ends.json" \
    -f null - 2>"$tmp/err"
same_frames "$tmp/live.json" "$tmp/ends.json" &&
    ok "eof_action=pass: the scored frames as in a run ending with the reference" ||
    bad "eof_action=pass scores" "differ from the run that ends with the reference"
# enable=: with a temporal feature (motion in VMAF) a run covers one
# contiguous range. A range that ends while a live source goes on ends the
# run there, and nothing waits (before, every later frame was held until
# the input's end); a later range is not scored, with a warning. Without a
# temporal feature every range is scored.
timeout 60 "$ff" -nostdin -v error -f lavfi -i "$src" -f lavfi -i "$src" \
    -lavfi "vqhip=model=version=vmaf_v0.6.1:enable='lt(t,1)':log_fmt=json:log_path=$tmp/range.json" \
    -frames:v 60 -f null - 2>"$tmp/err"
st=$?
[ $st -eq 0 ] && json_is "$tmp/range.json" "len(d['frames']) == 25" &&
    ok "enable= range ends, source goes on: frames flow" ||
    bad "enable= range ends" "exit $st (124: still waiting after 60 s)"
same_frames "$tmp/range.json" "$tmp/ends.json" &&
    ok "enable= range: scores as in a run of that range" ||
    bad "enable= range scores" "differ from the 25-frame run"
run "enable=, a second range with motion: warned, not scored" 0 "inside enable= again" \
    -f lavfi -i "$(lav 4)" -f lavfi -i "$(lav 4)" \
    -lavfi "vqhip=model=version=vmaf_v0.6.1:enable='lt(t,1)+between(t,2,3)':log_fmt=json:log_path=$tmp/two.json" \
    -f null -
json_is "$tmp/two.json" "len(d['frames']) == 25" &&
    ok "enable=, second range with motion: 25 frames logged" || bad "second range log" ""
run "enable=, two ranges without a temporal feature" 0 "" -f lavfi -i "$(lav 4)" \
    -f lavfi -i "$(lav 4)" \
    -lavfi "vqhip=feature=psnr:enable='lt(t,1)+between(t,2,3)':log_fmt=json:log_path=$tmp/two_psnr.json" \
    -f null -
json_is "$tmp/two_psnr.json" "len(d['frames']) == 51" &&
    ok "enable=, two ranges, psnr: both scored (51 frames)" ||
    bad "two ranges psnr" "$(python3 -c "import json,sys; print(len(json.load(open(sys.argv[1]))['frames']))" "$tmp/two_psnr.json" 2>&1)"
# enable= scoring a range inside the video: the log numbers its frames as
# the video does (10..19 here, not 0..9), each with the values of a run on
# the same frames trimmed out of the video.
nz="noise=alls=8:allf=t"
run "enable=between(n,10,19)" 0 "" -f lavfi -i "$(lav 2),$nz" -f lavfi -i "$(lav 2)" \
    -lavfi "vqhip=model=version=vmaf_v0.6.1:enable='between(n,10,19)':log_fmt=json:log_path=$tmp/n10.json" \
    -f null -
run "the same frames trimmed" 0 "" -f lavfi -i "$(lav 2),$nz,trim=start_frame=10:end_frame=20" \
    -f lavfi -i "$(lav 2),trim=start_frame=10:end_frame=20" \
    -lavfi "vqhip=model=version=vmaf_v0.6.1:log_fmt=json:log_path=$tmp/trim10.json" -f null -
python3 - "$tmp/n10.json" "$tmp/trim10.json" >"$tmp/err" 2>&1 <<'PY'
import json, sys
a, b = (json.load(open(p))['frames'] for p in sys.argv[1:])
nums = [f['frameNum'] for f in a]
assert nums == list(range(10, 20)), nums
assert [f['frameNum'] for f in b] == list(range(10)), [f['frameNum'] for f in b]
assert [f['metrics'] for f in a] == [f['metrics'] for f in b], 'values differ'
PY
[ $? -eq 0 ] && ok "enable=between(n,10,19): frameNum 10..19, the trimmed run's values" ||
    bad "enable= frame numbers" "see below"
run "shortest=1 stops at the shorter" 0 "" -f lavfi -i "$(lav 2)" -f lavfi -i "$(lav 1)" \
    -lavfi "vqhip=feature=psnr:shortest=1:log_fmt=json:log_path=$tmp/short.json" -f null -
json_is "$tmp/short.json" "len(d['frames']) == 25 and d['vqhip']['complete']" &&
    ok "shortest=1: 25 frames in the log" || bad "shortest=1 log" "$(head -c 300 "$tmp/short.json")"

# --- options, features, models ---------------------------------------------
run "unknown feature" fail "valid features" -f lavfi -i "$(lav 1)" -f lavfi -i "$(lav 1)" \
    -lavfi vqhip=feature=nosuch -f null -
run "unknown feature option" fail "no_such_opt" -f lavfi -i "$(lav 1)" -f lavfi -i "$(lav 1)" \
    -lavfi "vqhip=feature=name=psnr\\\\:no_such_opt=1" -f null -
run "missing model" fail "nosuch.json" -f lavfi -i "$(lav 1)" -f lavfi -i "$(lav 1)" \
    -lavfi "vqhip=model=path=$tmp/nosuch.json" -f null -
printf '{"model_dict": {' > "$tmp/broken.json"
run "malformed model" fail "broken.json" -f lavfi -i "$(lav 1)" -f lavfi -i "$(lav 1)" \
    -lavfi "vqhip=model=path=$tmp/broken.json" -f null -
run "model named like a feature output" fail "integer_adm2" -f lavfi -i "$(lav 1)" \
    -f lavfi -i "$(lav 1)" -lavfi "vqhip=model=version=vmaf_v0.6.1\\\\:name=integer_adm2" -f null -
run "unknown filter option" fail "" -f lavfi -i "$(lav 1)" -f lavfi -i "$(lav 1)" \
    -lavfi vqhip=nosuchoption=1 -f null -

# --- logs --------------------------------------------------------------------
run "unwritable log fails at start" fail "Could not open log file" -f lavfi -i "$(lav 1)" \
    -f lavfi -i "$(lav 1)" -lavfi vqhip=feature=psnr:log_path=/nonexistent/x.xml -f null -
(cd "$tmp" && "$ff" -nostdin -v error -f lavfi -i "$(lav 1)" -f lavfi -i "$(lav 1)" \
    -lavfi vqhip=feature=psnr:log_path=- -f null - 2>"$tmp/err")
st=$?
[ $st -ne 0 ] && [ ! -e "$tmp/-" ] && grep -q "would mix the log" "$tmp/err" &&
    ok "log_path=- refused, no file named -" || bad "log_path=-" "exit $st"
run "full disk at the end: an error" fail "No space left" -f lavfi -i "$(lav 1)" \
    -f lavfi -i "$(lav 1)" -lavfi vqhip=feature=psnr:log_path=/dev/full -f null -
[ -c /dev/full ] && ok "/dev/full is still a device" || bad "/dev/full" "replaced"
echo '{"stale": true}' > "$tmp/zero.json"
printf 'YUV4MPEG2 W96 H64 F25:1 C420jpeg\n' > "$tmp/empty.y4m"
run "zero frames on one input: an error" fail "no frame pair was scored" -f lavfi -i "$(lav 1)" \
    -i "$tmp/empty.y4m" -lavfi "vqhip=feature=psnr:log_fmt=json:log_path=$tmp/zero.json" -f null -
json_is "$tmp/zero.json" "not d['vqhip']['complete'] and 'stale' not in d" &&
    ok "zero frames: the stale log is replaced, marked incomplete" ||
    bad "zero frames log" "$(head -c 300 "$tmp/zero.json")"
# a failed run that wrote no log removes an earlier one (docs/LOGS.md)
echo '{"stale": true}' > "$tmp/old.json"
run "unknown feature: the earlier log removed" fail "removed the earlier log" \
    -f lavfi -i "$(lav 1)" -f lavfi -i "$(lav 1)" \
    -lavfi "vqhip=feature=nosuch:log_fmt=json:log_path=$tmp/old.json" -f null -
[ ! -e "$tmp/old.json" ] || bad "unknown feature" "the earlier log is still there"
echo '{"stale": true}' > "$tmp/old.json"
run "size mismatch: no earlier log left" fail "must be the same" -f lavfi -i "$(lav 1)" \
    -f lavfi -i "testsrc2=s=64x64:r=25:d=1,format=yuv420p" \
    -lavfi "vqhip=feature=psnr:log_fmt=json:log_path=$tmp/old.json" -f null -
[ ! -e "$tmp/old.json" ] && ok "size mismatch: the earlier log removed" ||
    bad "size mismatch" "the earlier log is still there"
# a named pipe at log_path: not opened before the log (its reader would see
# an end of file and the write would wait forever)
mkfifo "$tmp/log.fifo"
timeout 60 cat "$tmp/log.fifo" > "$tmp/fifo.json" &
timeout 60 "$ff" -nostdin -v error -f lavfi -i "$(lav 1)" -f lavfi -i "$(lav 1)" \
    -lavfi "vqhip=feature=psnr:log_fmt=json:log_path=$tmp/log.fifo" -f null - 2>"$tmp/err"
st=$?
wait
[ $st -eq 0 ] && json_is "$tmp/fifo.json" "len(d['frames']) == 25" &&
    ok "log_path a named pipe: no hang, the reader gets the log" || bad "log_path fifo" "exit $st"
"$ff" -nostdin -v error -f lavfi -i "$src" -f lavfi -i "$src" \
    -lavfi "vqhip=feature=psnr:log_fmt=json:log_path=$tmp/int.json" -f null - 2>/dev/null &
pid=$!
sleep 3
kill -INT $pid
wait $pid
st=$?
# ffmpeg ends its inputs on SIGINT, so the filter sees a normal end: the log
# is whole for the frames that went through, ffmpeg's status says why
[ $st -eq 255 ] && json_is "$tmp/int.json" "len(d['frames']) > 0" &&
    ok "SIGINT: ffmpeg exits 255, the log is whole" || bad "SIGINT" "exit $st"

# --- frames=N: exactly N pairs scored, at every depth ------------------------
# The way to limit a run: the filter scores the first N pairs and ends its
# output, so the log, the summary and the frames that go out are those N
# whatever the depth and however fast the device is, and their scores are
# those of a run whose inputs end after N frames (trim).
"$ff" -nostdin -v error -f lavfi -i "$src,trim=end_frame=10" \
    -f lavfi -i "$src,trim=end_frame=10,noise=alls=8:allf=t" \
    -lavfi "vqhip=log_fmt=json:log_path=$tmp/ten.json" -f null - 2>/dev/null
for depth in 0 1 2 16; do
    "$ff" -nostdin -v info -f lavfi -i "$src" -f lavfi -i "$src,noise=alls=8:allf=t" \
        -lavfi "vqhip=depth=$depth:frames=10:log_fmt=json:log_path=$tmp/n$depth.json,metadata=print:file=$tmp/mn$depth.txt" \
        -f null - 2>"$tmp/err"
    st=$?
    went=$(grep -c '^frame:' "$tmp/mn$depth.txt" 2>/dev/null)
    pooled=$(sed -n 's/.*mean of \([0-9]*\) frames.*/\1/p' "$tmp/err")
    verdict=$(python3 - "$tmp/n$depth.json" "$tmp/ten.json" "$went" "$pooled" <<'PY'
import json, sys
log, ten = (json.load(open(f)) for f in sys.argv[1:3])
went, pooled = int(sys.argv[3] or -1), int(sys.argv[4] or -1)
if not (len(log['frames']) == went == pooled == 10):
    print("log %d, went out %d, pooled %d, not 10" % (len(log['frames']), went, pooled))
elif [f['metrics'] for f in log['frames']] != [f['metrics'] for f in ten['frames']]:
    print("scores differ from the run of the first 10 frames")
elif log['pooled_metrics'] != ten['pooled_metrics']:
    print("pooled scores differ from the run of the first 10 frames")
else:
    print("ok")
PY
)
    [ $st -eq 0 ] && [ "$verdict" = ok ] &&
        ok "frames=10, depth $depth: 10 frames out, logged and pooled, scored as the first 10" ||
        bad "frames=10, depth $depth" "exit $st: $verdict"
done

# --- -frames:v: the log and the summary hold the frames that went out -----
# ffmpeg's own limit stops the output, not the filter: how many frames go
# out then depends on ffmpeg's version and on timing (FFmpeg 5.1 ends its
# inputs when its output has enough and passes on what was read ahead;
# later versions stop within a frame of the limit). What went out is what
# is logged and pooled, each with the scores of the same frame in a run of
# exactly those frames (the last one's next frame was read or not).
"$ff" -nostdin -v error -f lavfi -i "$src:d=3" -f lavfi -i "$src:d=3,noise=alls=8:allf=t" \
    -lavfi "vqhip=log_fmt=json:log_path=$tmp/whole.json" -f null - 2>"$tmp/err"
for depth in 0 16; do
    "$ff" -nostdin -v info -f lavfi -i "$src" -f lavfi -i "$src,noise=alls=8:allf=t" \
        -lavfi "vqhip=depth=$depth:log_fmt=json:log_path=$tmp/d$depth.json,metadata=print:file=$tmp/m$depth.txt" \
        -frames:v 10 -f null - 2>"$tmp/err"
    went=$(grep -c '^frame:' "$tmp/m$depth.txt" 2>/dev/null)
    pooled=$(sed -n 's/.*mean of \([0-9]*\) frames.*/\1/p' "$tmp/err")
    "$ff" -nostdin -v error -f lavfi -i "$src,trim=end_frame=${went:-0}" \
        -f lavfi -i "$src,trim=end_frame=${went:-0},noise=alls=8:allf=t" \
        -lavfi "vqhip=log_fmt=json:log_path=$tmp/ends.json" -f null - 2>/dev/null
    verdict=$(python3 - "$tmp/d$depth.json" "$tmp/whole.json" "$tmp/ends.json" "$went" "$pooled" <<'PY'
import json, sys
cut, whole, ends = (json.load(open(f))['frames'] for f in sys.argv[1:4])
went, pooled = int(sys.argv[4] or -1), int(sys.argv[5] or -1)
same = lambda ref: len(ref) >= went and all(
    cut[i]['metrics'] == ref[i]['metrics'] for i in range(went))
if not (len(cut) == went == pooled and went >= 10):
    print("log %d, went out %d, pooled %d" % (len(cut), went, pooled))
elif not (same(whole) or same(ends)):
    print("scores differ from both the longer run and the run of %d frames" % went)
else:
    print("ok")
PY
)
    [ "$verdict" = ok ] && ok "-frames:v 10, depth $depth: $went frames went out, logged and pooled, scored as in whole runs" ||
        bad "-frames:v 10, depth $depth" "$verdict"
done

# --- several filters in one graph, several graphs in one process -----------
run "two vqhip in one graph" 0 "" -f lavfi -i "$(lav 1)" -f lavfi -i "$(lav 1),noise=alls=8" \
    -filter_complex "[0][1]vqhip=feature=psnr:log_fmt=json:log_path=$tmp/g1.json[a];[a]split[b][c];[b][c]vqhip=feature=name=psnr:log_fmt=json:log_path=$tmp/g2.json" \
    -f null -
json_is "$tmp/g1.json" "len(d['frames']) == 25" && json_is "$tmp/g2.json" "len(d['frames']) == 25" &&
    ok "two vqhip in one graph: two complete logs" || bad "two vqhip logs" ""
run "two graphs in one process" 0 "" -f lavfi -i "$(lav 1)" \
    -filter_complex "[0:v]split[a][b];[a][b]vqhip=feature=psnr:log_fmt=json:log_path=$tmp/p1.json[o1]" \
    -map "[o1]" -f null - \
    -filter_complex "[0:v]split[c][d];[c][d]vqhip=log_fmt=json:log_path=$tmp/p2.json[o2]" \
    -map "[o2]" -f null -
json_is "$tmp/p1.json" "len(d['frames']) == 25" && json_is "$tmp/p2.json" "len(d['frames']) == 25 and 'vmaf' in d['frames'][0]['metrics']" &&
    ok "two graphs: two complete logs" || bad "two graphs logs" ""

# --- device faults: scores equal a clean CPU run, frame by frame -----------
meta() { # meta OUT ENV... : per-frame metadata of psnr, vif, adm and the
         # temporal motion and float_motion
    out=$1
    shift
    env "$@" "$ff" -nostdin -v warning -f lavfi -i "$(lav 2)" -f lavfi -i "$(lav 2),noise=alls=10:allf=t" \
        -lavfi "vqhip=feature=psnr|vif|adm|motion|float_motion:log_fmt=json:log_path=$tmp/f.json:$backend,metadata=print:file=$out" \
        -f null - 2>"$tmp/err"
}
if [ "$gpu" = --gpu ]; then
    fake=
else
    fake=VQHIP_FAKE_GPU=1
fi
backend=backend=cpu
meta "$tmp/cpu.txt" X=1 || bad "fault: clean CPU run" "exit $?"
grep -v "backend\|pts" "$tmp/cpu.txt" > "$tmp/cpu.m"
for fault in launch@5 copy@9 hang@12 lost@3; do
    backend=backend=hip
    meta "$tmp/fault.txt" $fake VQHIP_FAULT=$fault VQHIP_GPU_TIMEOUT=1 ||
        { bad "fault $fault" "exit $?"; continue; }
    grep -v "backend\|pts" "$tmp/fault.txt" > "$tmp/fault.m"
    if cmp -s "$tmp/cpu.m" "$tmp/fault.m" && grep -q "GPU fault" "$tmp/err" &&
       grep -q "lavfi.vqhip.backend=cpu" "$tmp/fault.txt" &&
       json_is "$tmp/f.json" "d['vqhip']['complete'] and 'cpu_from_frame' in d['vqhip']"; then
        ok "fault $fault: frames equal the CPU run, fallback in the log"
    else
        bad "fault $fault" "$(diff "$tmp/cpu.m" "$tmp/fault.m" | head -4)"
    fi
    backend=backend=hip:strict=1
    meta "$tmp/fault.txt" $fake VQHIP_FAULT=$fault VQHIP_GPU_TIMEOUT=1 &&
        bad "fault $fault strict" "exit 0" || ok "fault $fault, strict=1: an error"
done
backend=backend=hip:verify=2
meta "$tmp/v.txt" $fake VQHIP_FAULT=drop@6 ||  bad "verify" "exit $?"
grep -v "backend\|pts" "$tmp/v.txt" > "$tmp/v.m"
cmp -s "$tmp/cpu.m" "$tmp/v.m" && grep -q "1 mismatched" "$tmp/err" &&
    ok "verify=2 catches lost GPU results (drop@6)" || bad "verify" "$(grep verify "$tmp/err" | head -3)"

# --- sync= on CUDA frames (GPU only) -----------------------------------------
# The search reads the frames where they are, on the GPU: the offset and
# the confidence it says equal the search's on the same frames in host
# memory (the main input has 3 extra frames at its start).
if [ "$gpu" = --gpu ]; then
    src="testsrc2=s=320x240:r=25:d=3"
    for how in host cuda; do
        if [ $how = cuda ]; then
            up=",hwupload" dev="-init_hw_device cuda=vq -filter_hw_device vq"
        else
            up= dev=
        fi
        # shellcheck disable=SC2086 # dev is a list of options
        "$ff" -nostdin -v info $dev -f lavfi -i "$src" -f lavfi -i "$src" -lavfi \
            "[0]noise=alls=8:allf=t,format=yuv420p$up[d];[1]trim=start_frame=3,setpts=PTS-STARTPTS,format=yuv420p$up[r];[d][r]vqhip=sync=only:backend=hip" \
            -f null - 2>"$tmp/sync_$how.err"
        grep -o "sync: offset=[-0-9]* confidence=[0-9.]* found=[01]" \
            "$tmp/sync_$how.err" > "$tmp/sync_$how.txt"
    done
    if grep -q "offset=3 .*found=1" "$tmp/sync_host.txt" &&
       cmp -s "$tmp/sync_host.txt" "$tmp/sync_cuda.txt"; then
        ok "sync=only on CUDA frames: $(cat "$tmp/sync_cuda.txt"), as in host memory"
    else
        bad "sync=only on CUDA frames" "host: $(cat "$tmp/sync_host.txt"); cuda: $(cat "$tmp/sync_cuda.txt"); $(grep -i "error\|sync" "$tmp/sync_cuda.err" | head -3)"
    fi
fi

# --- frame pairs that arrive while the GPU opens ---------------------------
# They wait (up to hold_mb) and are scored in order once it is open: the
# same frames and scores as a CPU run. The fake or emulated device's open is
# made slow (VQHIP_FAKE_GPU_OPEN_MS, VQHIP_EMU_OPEN_MS; a real GPU's runtime
# start takes a few tenths of a second by itself).
slow="$fake VQHIP_FAKE_GPU_OPEN_MS=400 VQHIP_EMU_OPEN_MS=400"
held() { # held NAME OPTIONS REF_SECONDS
    name=$1 opts=$2
    set -- -nostdin -f lavfi -i "$(lav 2)" -f lavfi -i "$(lav "$3"),noise=alls=10:allf=t"
    "$ff" "$@" -v error -lavfi "vqhip=$opts:backend=cpu:log_fmt=json:log_path=$tmp/hc.json" \
        -f null - 2>"$tmp/err" || { bad "$name" "CPU run: exit $?"; return; }
    env $slow "$ff" "$@" -v verbose -lavfi "vqhip=$opts:backend=hip:log_fmt=json:log_path=$tmp/hg.json" \
        -f null - 2>"$tmp/err" || { bad "$name" "GPU run: exit $?"; return; }
    if ! grep -q "frame pairs .* waited while the GPU opened" "$tmp/err"; then
        bad "$name" "no pair waited"
    elif same_frames "$tmp/hc.json" "$tmp/hg.json"; then
        ok "$name"
    else
        bad "$name" "frames differ from the CPU run"
    fi
}
held "pairs held while the GPU opens: vmaf as on the CPU" "model=version=vmaf_v0.6.1" 2
held "pairs held: an enable= range" "feature=psnr|motion:enable='between(n,10,30)'" 2
held "pairs held: reference shorter, eof_action=pass" "feature=psnr:eof_action=pass" 1
big="testsrc2=s=640x480:r=25:d=1,format=yuv420p"
env $slow "$ff" -nostdin -v verbose -f lavfi -i "$big" -f lavfi -i "$big" \
    -lavfi "vqhip=feature=psnr:backend=hip:hold_mb=1" -f null - 2>"$tmp/err"
n=$(sed -n 's/.* \([0-9]*\) frame pairs .* waited while the GPU opened.*/\1/p' "$tmp/err")
# a pair of 640x480 frames is about 0.9 MiB: the second reaches the 1 MiB
[ "${n:-0}" -ge 1 ] && [ "${n:-0}" -le 3 ] && ok "hold_mb=1: $n pairs held, then the frame waits" ||
    bad "hold_mb=1" "${n:-no} pairs held"
env $slow "$ff" -nostdin -v verbose -f lavfi -i "$(lav 1)" -f lavfi -i "$(lav 1)" \
    -lavfi "vqhip=feature=psnr:backend=hip:hold_mb=0" -f null - 2>"$tmp/err" &&
    ! grep -q "waited while the GPU opened" "$tmp/err" && ok "hold_mb=0: no pair held" ||
    bad "hold_mb=0" "exit status or a pair held"
# an open that fails (VQHIP_FAULT not understood) after pairs waited
for b in hip:strict=1 auto; do
    env $slow VQHIP_FAULT=bogus "$ff" -nostdin -v warning -f lavfi -i "$(lav 1)" \
        -f lavfi -i "$(lav 1)" -lavfi "vqhip=feature=psnr:backend=$b" -f null - 2>"$tmp/err"
    st=$?
    if ! grep -q "not understood" "$tmp/err"; then
        bad "failed open, backend=$b" "no message"
    elif [ $b = auto ] && [ $st -eq 0 ]; then
        ok "failed open while pairs wait, backend=auto: scored on the CPU"
    elif [ $b != auto ] && [ $st -ne 0 ]; then
        ok "failed open while pairs wait, strict=1: an error"
    else
        bad "failed open, backend=$b" "exit $st"
    fi
done
# log_precision and provenance (CPU backend): the log at 17 digits holds the
# doubles that the default log prints with libvmaf's %.6f, the model's
# SHA-256 is that of the file it was read from, and the "VMAF score: "
# line is what ab-av1 parses: the rest of that line of ffmpeg's output,
# trimmed, a number (nothing else on the line), equal to %f of the pooled
# mean. (FFmpeg 9.0 prints its final statistics after the filter's uninit,
# so the score line need not be the last one.)
pair="-f lavfi -i testsrc2=s=96x64:r=25:d=0.4,format=yuv420p,gblur=sigma=1
      -f lavfi -i testsrc2=s=96x64:r=25:d=0.4,format=yuv420p"
"$ff" -nostdin -hide_banner $pair -lavfi "vqhip=backend=cpu:log_fmt=json:log_path=$tmp/p17.json:log_precision=17" \
    -f null - >/dev/null 2>"$tmp/p17.err" &&
"$ff" -nostdin -hide_banner -v warning $pair -lavfi "vqhip=backend=cpu:log_fmt=json:log_path=$tmp/p0.json" \
    -f null - >/dev/null 2>"$tmp/err"
st=$?
cp "$tmp/p17.err" "$tmp/err" 2>/dev/null
[ $st -eq 0 ] && python3 - "$tmp" "$VQHIP_MODEL_DIR" "$here/../../models" <<'PY' >>"$tmp/err" 2>&1 &&
import hashlib, json, os, re, sys
tmp, model_dir, models = sys.argv[1:]
p17, p0 = (json.load(open(os.path.join(tmp, f))) for f in ('p17.json', 'p0.json'))
text0 = open(os.path.join(tmp, 'p0.json')).read()
def libvmaf(v):
    frac, z = abs(v) - int(abs(v)), 0
    while frac < 1.0 and frac != 0:
        frac, z = frac * 10, z + 1
    return ('%.6f' if z <= 6 else '%.16f') % v
vals = [(f['frameNum'], k, v) for f in p17['frames'] for k, v in f['metrics'].items()]
printed = dict(((int(n), k), x) for n, body in re.findall(
    r'"frameNum": (\d+),\n      "metrics": \{\n((?:        [^\n]+\n)+)', text0)
    for k, x in re.findall(r'"([^"]+)": ([^,\n]+)', body))
assert vals and all(printed[(n, k)] == libvmaf(v) for n, k, v in vals), 'per-frame values'
assert p17['vqhip']['precision'] == 17 and p0['vqhip']['precision'] == 0
m = p17['vqhip']['models'][0]
src = os.path.join(model_dir if m['origin'] == 'file' else models, 'vmaf_v0.6.1.json')
assert m['sha256'] == hashlib.sha256(open(src, 'rb').read()).hexdigest(), 'model SHA-256'
err = open(os.path.join(tmp, 'p17.err')).read()
idx = err.find('VMAF score: ')
assert idx >= 0, 'no VMAF score line'
score = float(err[idx + len('VMAF score: '):].split('\n', 1)[0].strip())
assert '%f' % score == '%f' % p17['pooled_metrics']['vmaf']['mean'], 'VMAF score'
PY
    ok "log_precision=17: exact values; the model's SHA-256; ab-av1's VMAF score line" ||
    bad "log_precision and provenance" "see above"
schema_ok "$tmp" && ok "every JSON log valid against docs/log.schema.json" ||
    bad "schema" "a JSON log breaks docs/log.schema.json"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
