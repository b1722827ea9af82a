# Checks on vqhip's JSON logs, for the reliability scripts (sourced).
# json_is FILE PYTHON_EXPR: the log, as d, satisfies the expression
json_is() {
    python3 -c "import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if ($2) else 1)" "$1" 2>/dev/null
}
# same_frames LOG LOG: two logs hold the same frames with the same scores
same_frames() {
    python3 - "$1" "$2" <<'PY'
import json, sys
a, b = (json.load(open(p))['frames'] for p in sys.argv[1:])
sys.exit(0 if [f['metrics'] for f in a] == [f['metrics'] for f in b] else 1)
PY
}
# schema_ok DIR: every JSON log in DIR validates against docs/log.schema.json
# (tests/provenance/validate_logs.py); the script's report goes to $tmp/err
schema_ok() {
    here=$(dirname "$0")
    python3 "$here/../provenance/validate_logs.py" "$here/../../docs/log.schema.json" \
        "$1" >"$1/schema.txt" 2>&1
    st=$?
    cp "$1/schema.txt" "$1/err" 2>/dev/null
    rm -f "$1/schema.txt"
    [ $st -eq 0 ] || grep -A3 "^FAIL" "$1/err" >&2
    return $st
}
