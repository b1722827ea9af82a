#!/bin/sh
# Runs every libFuzzer target of a -Dfuzzing=true build for SECONDS each on
# a copy of its corpus; prints executions and crashes. A crashing input is
# kept in BUILD/artifacts/TARGET/ (add it to tests/fuzz/regress_TARGET/
# once fixed: every build replays those).
#   scripts/fuzz.sh BUILD_DIR [SECONDS]
set -u
build=${1:?usage: fuzz.sh BUILD_DIR [SECONDS]}
secs=${2:-60}
repo=$(cd "$(dirname "$0")/.." && pwd)
export VQHIP_MODEL_DIR=${VQHIP_MODEL_DIR:-$repo/../shared/models}
export ASAN_OPTIONS=detect_leaks=1
status=0
for t in model options y4m picture; do
    bin=$build/tests/fuzz/fuzz_$t
    [ -x "$bin" ] || { echo "fuzz: $bin missing"; status=1; continue; }
    src=$repo/tests/fuzz/corpus_$t
    [ "$t" = model ] && src=$repo/tests/fuzz/corpus
    corpus=$build/fuzz-corpus/$t
    art=$build/artifacts/$t
    mkdir -p "$corpus" "$art"
    cp -n "$src"/* "$corpus"/ 2>/dev/null
    dict=
    [ "$t" = model ] && dict=-dict=$repo/tests/fuzz/model.dict
    "$bin" "$corpus" $dict -max_total_time="$secs" -max_len=8192 \
        -rss_limit_mb=4096 -malloc_limit_mb=4096 -print_final_stats=1 \
        -artifact_prefix="$art/" > "$build/fuzz-$t.log" 2>&1
    rc=$?
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$build/fuzz-$t.log")
    crashes=$(ls "$art" | wc -l)
    echo "fuzz $t: ${runs:-?} executions in $secs s, $crashes crash inputs (exit $rc)"
    if [ $rc -ne 0 ] || [ "$crashes" -ne 0 ]; then
        status=1
        grep -m5 -E "ERROR|SUMMARY|runtime error" "$build/fuzz-$t.log"
    fi
done
exit $status
