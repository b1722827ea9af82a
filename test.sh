#!/bin/sh
# The whole test suite (README, second command; CI runs exactly this):
#   1. installs what is missing (scripts/install-deps.sh)
#   2. builds libvqhip with the AMD kernels (hipcc, gfx1036 and others) and
#      runs unit, golden and GPU-parity tests (GPU tests skip only when no
#      GPU is present)
#   3. builds with the NVIDIA kernels (nvcc, sm_90): compile only here
#   4. builds for the emulated device (the same kernels compiled for the
#      host, run by hipcore/gpu/emu/) and runs every GPU test on it
#   5. builds with address and undefined-behaviour sanitizers and runs the
#      unit and golden tests under them
#   6. reliability (scripts/reliability-ci.sh): a sanitized FFmpeg with the
#      filter on the emulated device, its FATE tests (GPU ones included) and
#      tests/reliability/filter-check.sh (device faults), then bounded
#      fuzzing
#   7. builds Debian 12's FFmpeg and the newest release with the filter and
#      runs its FATE tests on both
#   8. makes the filter's format-patch series for the newest release and
#      applies it with git am (tests/ffmpeg/format_patch.sh)
#   9. runs every shell command README.md shows and checks the links of
#      README.md and docs/ (tests/docs/readme_commands.sh)
#
# Every stage runs even when an earlier one had failing tests, so that the
# end shows all results: each test's result is collected (meson's
# testlog.json after each meson test run; FATE's per-test .rep files for the
# tests make announced with "TEST"; each check scripts/reliability-ci.sh
# reports), and the last line is
#   N passed, N failed, N skipped
# preceded by the names of every skipped and failed test. A stage whose
# build fails counts as one failure and its tests do not run; only a
# failure to install the dependencies stops at once. The exit status is 0
# only when nothing failed; skipped tests are listed, never counted as
# passed. Each stage must also report the number of tests it is known to
# have (N_* below, FATE's from fate/vqhip.mak): a test that vanishes from a
# build or a configure is a failure. An existing build directory
# configured with other options than its stage's is refused.
set -u
cd "$(dirname "$0")"
scripts/install-deps.sh || { echo "test.sh: installing dependencies failed"; exit 1; }

results=$(mktemp "${TMPDIR:-/tmp}/vqhip-results.XXXXXX")
trap 'rm -f "$results"' EXIT

step() { printf '\n== %s\n' "$*"; }
# record pass|fail|skip NAME [WHY]
record() { printf '%s\t%s\t%s\n' "$1" "$2" "${3:-}" >> "$results"; }

# script_step NAME WHY_SKIPPED SCRIPT ARG...: one result from a test
# script: exit 0 passed, 77 skipped (WHY_SKIPPED), anything else failed.
script_step() {
    name=$1 why=$2 script=$3
    shift 2
    "$@"
    case $? in
    0) record pass "$name: $script" ;;
    77) record skip "$name" "$why" ;;
    *) record fail "$name" "$script" ;;
    esac
}

# meson_results LABEL BUILD_DIR: every test of the last "meson test" run.
meson_results() {
    log="$2/meson-logs/testlog.json"
    [ -f "$log" ] || { record fail "$1: meson test" "no testlog.json"; return; }
    python3 - "$log" "$1" >> "$results" <<'EOF'
import json, sys
status = {'OK': 'pass', 'EXPECTEDFAIL': 'pass', 'SKIP': 'skip'}
for line in open(sys.argv[1]):
    t = json.loads(line)
    name = t['name'].split(' / ')[-1]
    suite = t['name'].split(' / ')[0].split(':')[-1]
    lines = [l for l in (t.get('stdout') or '').splitlines() if l.strip()]
    why = t['result'] if t['result'] not in status else ''
    if t['result'] == 'SKIP' and lines:
        why = lines[-1].strip()[:120]
    print('%s\t%s: %s/%s\t%s' % (status.get(t['result'], 'fail'), sys.argv[2],
                                 suite, name, why))
EOF
}

# expect LABEL N WHY: the stage LABEL recorded exactly N results (a test
# that vanished from a build or a configure fails here).
expect() {
    got=$(grep -c "	$1: " "$results")
    [ "$got" -eq "$2" ] ||
        record fail "$1: test count" "$got results, $2 expected ($3)"
}

# Tests each stage runs. Adding or removing a test changes these numbers
# on purpose; FATE's come from fate/vqhip.mak (fate_count).
N_AMD=125      # meson test, build/
N_EMU=31       # meson test --suite gpu, build-emu/
N_SAN=103      # meson test --suite unit --suite golden, build-san/

# fate_count cpu|hip: the tests fate/vqhip.mak defines for the CPU backend
# (fate-vqhip) or for the GPU one without CUDA frames (fate-vqhip-hip on a
# build without CUDA).
fate_count() {
    if [ "$1" = cpu ]; then
        grep '^fate-filter-vqhip-[a-z0-9-]*: CMD' fate/vqhip.mak |
            grep -vc 'vqhip-hip-\|vqhip-cuda-'
    else
        grep -c '^fate-filter-vqhip-hip-[a-z0-9-]*: CMD' fate/vqhip.mak
    fi
}

# setup DIR OPTION...: meson setup, or an existing DIR configured with the
# same options (a build directory left from another configuration would
# test something else).
setup() {
    dir=$1
    shift
    [ -d "$dir" ] || { meson setup "$dir" "$@"; return; }
    python3 - "$dir" "$@" <<'EOF'
import json, subprocess, sys
d = sys.argv[1]
have = {o['name']: o['value'] for o in json.loads(subprocess.check_output(
    ['meson', 'introspect', '--buildoptions', d]))}
bad = []
for a in sys.argv[2:]:
    k, v = a[2:].split('=', 1)
    cur = have.get(k)
    cur = ','.join(cur) if isinstance(cur, list) else \
        ('true' if cur else 'false') if isinstance(cur, bool) else str(cur)
    if cur != v:
        bad.append('%s=%s (wanted %s)' % (k, cur, v))
if bad:
    print('test.sh: %s was configured with other options: %s; remove it'
          % (d, ', '.join(bad)))
    sys.exit(1)
EOF
}

# fate_results LABEL FFMPEG_BUILD_DIR MAKE_OUTPUT MAKE_STATUS
fate_results() {
    n=0
    for t in $(sed -n 's/^TEST  *//p' "$3"); do
        n=$((n + 1))
        rep="$2/tests/data/fate/$t.rep"
        if [ -f "$rep" ] && [ "$(cut -d: -f2 "$rep")" = 0 ]; then
            record pass "$1: $t"
        else
            record fail "$1: $t" "see $rep"
        fi
    done
    if [ "$4" -ne 0 ] && ! grep -q "^fail	$1: " "$results"; then
        record fail "$1: make" "make failed outside the tests (see $3)"
    elif [ "$n" -eq 0 ]; then
        record fail "$1: make" "no FATE test ran (see $3)"
    fi
}

step "libvqhip, AMD platform: build and tests"
if setup build -Dhip_platform=amd && ninja -C build; then
    rm -f build/meson-logs/testlog.json
    meson test -C build --print-errorlogs --num-processes 2
    meson_results amd build
else
    record fail "amd: build"
fi
expect amd $N_AMD "N_AMD in test.sh"

step "libvqhip, NVIDIA platform: build (compile only)"
if command -v nvcc >/dev/null || [ -x /usr/local/cuda/bin/nvcc ]; then
    if setup build-nv -Dhip_platform=nvidia -Dtests=true && ninja -C build-nv
    then
        record pass "nvidia: build (compile only)"
    else
        record fail "nvidia: build"
    fi
else
    echo "nvcc not found: NVIDIA build skipped"
    record skip "nvidia: build" "nvcc not found"
fi

step "emulated device: the kernels on the CPU, every GPU test"
# The GPU tests of the build above skip without a GPU; here the same kernels
# run on the emulated device (docs/TESTING.md says what it checks).
if setup build-emu -Dhip_platform=emu && ninja -C build-emu; then
    rm -f build-emu/meson-logs/testlog.json
    meson test -C build-emu --print-errorlogs --num-processes 2 --suite gpu
    meson_results emu build-emu
else
    record fail "emu: build"
fi
expect emu $N_EMU "N_EMU in test.sh"

step "sanitizers (address, undefined), CPU path"
if setup build-san -Dhip_platform=none -Db_sanitize=address,undefined \
        -Db_lundef=false -Dbuildtype=debugoptimized && ninja -C build-san; then
    export ASAN_OPTIONS=detect_leaks=1
    export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
    export VQHIP_MODEL_DIR="${VQHIP_MODEL_DIR:-$PWD/../shared/models}"
    rm -f build-san/meson-logs/testlog.json
    # the unit tests and every golden test (all clips) under the sanitizers
    meson test -C build-san --print-errorlogs --suite unit --suite golden
    meson_results san build-san
    unset ASAN_OPTIONS UBSAN_OPTIONS
else
    record fail "san: build"
fi
expect san $N_SAN "N_SAN in test.sh"

step "reliability: FATE and hostile use of the filter under sanitizers, fuzzing"
# scripts/reliability-ci.sh prints one "reliability: ok|FAIL NAME" line per
# check; each is one result here.
rel=$(mktemp "${TMPDIR:-/tmp}/vqhip-reliability.XXXXXX")
{ scripts/reliability-ci.sh 2>&1; echo "reliability-ci exited $?"; } | tee "$rel"
rel_status=$(sed -n 's/^reliability-ci exited //p' "$rel")
sed -n 's/^reliability: ok  *//p' "$rel" | while IFS= read -r name; do
    record pass "reliability: $name"
done
sed -n 's/^reliability: FAIL  *//p' "$rel" | while IFS= read -r name; do
    record fail "reliability: $name"
done
if [ "${rel_status:-1}" -ne 0 ] && ! grep -q '^reliability: FAIL ' "$rel"; then
    record fail "reliability: scripts/reliability-ci.sh" "exited ${rel_status:-?}"
fi
# FATE, its test count, filter-check, fuzzing
expect reliability 4 "scripts/reliability-ci.sh"
rm -f "$rel"

step "FFmpeg filter: Debian 12's FFmpeg 5.1 and the newest release, FATE"
for series in debian newest; do
    if scripts/build-ffmpeg.sh "$series"; then
        out=.ffmpeg/fate-$series.log
        rm -f ".ffmpeg/build/$series/tests/data/fate/"*.rep
        scripts/run-fate.sh "$series" 2>&1 | tee "$out"
        status=$(sed -n 's/^run-fate: make exited with //p' "$out")
        fate_results "fate $series" ".ffmpeg/build/$series" "$out" "${status:-1}"
    else
        record fail "fate $series: FFmpeg build"
    fi
    # fate-vqhip's tests and FFmpeg's fate-filter-refcmp-psnr-yuv
    expect "fate $series" $(( $(fate_count cpu) + 1 )) "fate/vqhip.mak"
done

step "FFmpeg filter: the format-patch series on the newest release"
tarball=$(ls .ffmpeg/dl/ffmpeg_*.orig.tar.xz 2>/dev/null | sort -V | tail -n 1)
if [ -n "$tarball" ] && [ -d .ffmpeg/src/newest ] &&
   tests/ffmpeg/format_patch.sh "$tarball" .ffmpeg/src/newest; then
    record pass "ffmpeg: format-patch series applies (git am)"
else
    record fail "ffmpeg: format-patch series applies (git am)" "tests/ffmpeg/format_patch.sh"
fi

step "FFmpeg filter: windows"
# window metadata, its placement and pool= against a recomputation from the
# same run's per-frame values (numpy); exit 77: no vqhip filter
script_step "filter windows" "no FFmpeg with the filter" \
    tests/windows/filter_windows.py .ffmpeg/build/debian/ffmpeg .ffmpeg/filter-windows

step "FFmpeg filter: alignment"
# offset=, sync= against FFmpeg's own trim on clips whose offset is known,
# sync=auto's log record, realign=1 against the correctly paired files and
# the CLI's --realign, and the messages about inputs that differ; exit 77:
# no vqhip filter
script_step "filter alignment" "no FFmpeg with the filter" \
    tests/align/filter_align.py .ffmpeg/build/debian/ffmpeg .ffmpeg/filter-align build/tools/vqhip

step "FFmpeg filter: a ladder in one filter (inputs=N)"
# N = 1, 2, 5 renditions against one reference: each rendition's log and
# metadata equal its pair run's, one ending early, mismatched size and a
# log_path without %d/%s refused; exit 77: no vqhip filter
script_step "filter ladder" "no FFmpeg with the filter" \
    tests/ladder/filter_ladder.py .ffmpeg/build/debian/ffmpeg .ffmpeg/filter-ladder

step "CLI and filter: the same Y4M files scored alike"
# ssimulacra2 (which reads the range and the chroma siting) of the CLI and
# of the filter on Y4M files in both ranges and three sitings; 77: no filter
script_step "CLI = filter on Y4M colour" "no FFmpeg with the filter" \
    tests/reliability/cli_filter_colour.sh .ffmpeg/build/debian/ffmpeg build/tools/vqhip

step "FFmpeg filter: Prometheus textfile and drawgraph"
# prom_file=: promtool accepts it, its values equal the recomputation from
# the run's log and the CLI's file for the same run; exit 77: no vqhip
# filter or no promtool (install-deps.sh installs it)
script_step "filter prometheus" "no FFmpeg with the filter, or no promtool" \
    tests/prometheus/filter_prom.py .ffmpeg/build/debian/ffmpeg .ffmpeg/filter-prom build/tools/vqhip
# FFmpeg's drawgraph plots lavfi.vqhip.psnr_y: its dots where the log puts
# them; exit 77: no vqhip or drawgraph filter
script_step "drawgraph" "no FFmpeg with the vqhip and drawgraph filters" \
    tests/drawgraph/check_drawgraph.py .ffmpeg/build/debian/ffmpeg .ffmpeg/drawgraph

step "FFmpeg filter: alerts and the stats stream"
# alerts= events and stats_url= lines (file, TCP, UDP on loopback) against a
# recomputation from the same run's per-frame log; exit 77: no vqhip filter
script_step "filter live" "no FFmpeg with the filter" \
    tests/live/filter_live.py .ffmpeg/build/debian/ffmpeg .ffmpeg/filter-live
# live=1 with paced input (-re, 25 fps) on the CPU: at 96x64 every frame
# scored and the log equals the offline log; at 1080p60 (vmaf_v0.6.1) the
# frames pass at the input's rate, coverage < 100% is reported and every
# scored frame equals the offline run's; exit 77: no vqhip filter
script_step "filter live=1" "no FFmpeg with the filter" \
    tests/live/filter_livemode.py .ffmpeg/build/debian/ffmpeg .ffmpeg/filter-livemode

step "docs: README's commands and the docs' links"
# every shell block of README.md runs, every relative link leads somewhere
if tests/docs/readme_commands.sh .ffmpeg/build/debian/ffmpeg build; then
    record pass "docs: README commands and links"
else
    record fail "docs: README commands and links" "tests/docs/readme_commands.sh"
fi

step "summary"
list() { # list STATUS HEADING
    grep "^$1	" "$results" | while IFS='	' read -r _ name why; do
        echo "  $2: $name${why:+ ($why)}"
    done
}
list skip skipped
list fail FAILED
n_pass=$(grep -c '^pass	' "$results")
n_fail=$(grep -c '^fail	' "$results")
n_skip=$(grep -c '^skip	' "$results")
if [ "$n_fail" -eq 0 ]; then
    echo "all $n_pass tests that ran passed; $n_skip skipped (named above), not run"
else
    echo "$n_fail FAILED (named above)"
fi
echo "$n_pass passed, $n_fail failed, $n_skip skipped"
[ "$n_fail" -eq 0 ]
